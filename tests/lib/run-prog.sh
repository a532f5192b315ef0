#!/bin/sh
# run-prog.sh TEST [ARGS]: how make check runs each test: a 32-bit program is skipped (77, with the reason) where 32-bit programs cannot run.
. "$top_srcdir/tests/lib/m32.sh"
if m32_elf "$1" && ! m32_runs; then
	echo "SKIP: $1 is a 32-bit program: $m32_why"
	exit 77
fi
exec "$@"
