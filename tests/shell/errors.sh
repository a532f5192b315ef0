#!/bin/sh
# errors.sh: the shell session in errors.in gives the transcript in errors.out.
. "$top_srcdir/tests/shell/lib.sh"
session errors
