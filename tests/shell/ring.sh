#!/bin/sh
# ring.sh: the shell session in ring.in gives the transcript in ring.out.
. "$top_srcdir/tests/shell/lib.sh"
session ring
