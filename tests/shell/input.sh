#!/bin/sh
# input.sh: the shell session in input.in gives the transcript in input.out.
. "$top_srcdir/tests/shell/lib.sh"
session input
