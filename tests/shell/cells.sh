#!/bin/sh
# cells.sh: the shell session in cells.in gives the transcript in cells.out.
. "$top_srcdir/tests/shell/lib.sh"
session cells
