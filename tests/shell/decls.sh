#!/bin/sh
# decls.sh: the shell session in decls.in gives the transcript in decls.out.
. "$top_srcdir/tests/shell/lib.sh"
session decls
