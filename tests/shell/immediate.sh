#!/bin/sh
# immediate.sh: the shell session in immediate.in gives the transcript in immediate.out.
. "$top_srcdir/tests/shell/lib.sh"
session immediate
