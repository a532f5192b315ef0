#!/bin/sh
# breakpoints.sh: the shell session in breakpoints.in gives the transcript in breakpoints.out.
. "$top_srcdir/tests/shell/lib.sh"
session breakpoints
