#!/bin/sh
# step-cat.sh: the shell session in step-cat.in gives the transcript in step-cat.out.
. "$top_srcdir/tests/shell/lib.sh"
session step-cat
