#!/bin/sh
# relro-tables.sh: the syscall and errno name tables are read-only data in syslet-run, sysletc and libsyslet, not pointers that the dynamic loader relocates at every start of the program (each page it writes is a page fault: 4.5 of the 11 pages syslet-run relocated were these tables).
. "$top_srcdir/tests/lib/harness.sh"
command -v objdump >/dev/null 2>&1 || skip "no objdump to read the symbol table"

lib=$top_builddir/src/lib/.libs/libsyslet.so
for f in "$top_builddir/syslet-run" "$top_builddir/sysletc" "$lib"; do
	[ -f "$f" ] || { [ "$f" = "$lib" ] && continue; fail "$f: missing"; }
	# A libtool wrapper script has no symbols: the tree was built
	# before syslet-run and sysletc were linked whole.
	objdump -t "$f" >"$tmpdir/syms" 2>"$tmpdir/err" ||
		{ cat "$tmpdir/err" >&2; fail "objdump -t $f"; }
	for t in systab_x86_64 systab_i386 systab_i386_2007 errno_table; do
		sec=$(awk -v t="$t" '$NF == t { print $(NF - 2) }' \
			"$tmpdir/syms" | head -n 1)
		[ -n "$sec" ] || fail "$f: no symbol $t"
		echo "$f: $t in $sec"
		case $sec in
		.rodata*) ;;
		*) fail "$f: $t is in $sec, not .rodata: the loader" \
			"writes its pages at every start" ;;
		esac
	done
done
