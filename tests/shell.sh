#!/bin/sh
# shell.sh CASE: the scripted session CASE (tests/shell/NAME.session, fed to syslet-run -i through a pipe) gives the transcript NAME.out.
. "$top_srcdir/tests/shell/lib.sh"
case=${1:?usage: shell.sh tests/shell/NAME.session}
name=${case##*/}
name=${name%.session}
[ -f "$top_srcdir/tests/shell/$name.session" ] ||
	fail "$case: sessions live in tests/shell/"
session "$name"
