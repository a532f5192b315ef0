#!/bin/sh
# commands.sh: the shell session in commands.in gives the transcript in commands.out.
. "$top_srcdir/tests/shell/lib.sh"
session commands
