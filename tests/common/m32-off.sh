#!/bin/sh
# m32-off.sh: with 32-bit programs forced off (as on a kernel without ia32 emulation), every 32-bit test skips with 77 and the reason instead of failing.
. "$top_srcdir/tests/lib/harness.sh"
list=$top_builddir/tests/lib/tests.list
[ -s "$list" ] || exit 99
progs=0 scripts=0
# The programs among the test programs that are 32-bit, and the scripts
# with 32-bit parts (they ask m32_runs).
{
	while read -r t; do
		case $t in tests/lib/*) continue ;; esac
		[ -f "$top_builddir/$t" ] && m32_elf "$top_builddir/$t" &&
			echo "$top_builddir/$t"
	done <"$list"
	# and the scripts named for 32-bit (NAME32.sh), which must ask too.
	{ grep -l '^[^#]*m32_runs' "$top_srcdir"/tests/*/*.sh
	  ls "$top_srcdir"/tests/*/*32.sh; } | sort -u |
		grep -v '/tests/lib/\|/m32-off\.sh$\|/no-m32\.sh$'
} >"$tmpdir/tests"
while read -r path; do
	case $path in
	*.sh)	scripts=$((scripts + 1)) ;;
	*)	progs=$((progs + 1)) ;;
	esac
	st=0
	SYSLET_M32=no sh "$top_srcdir/tests/lib/run-prog.sh" "$path" \
		>"$tmpdir/out" 2>&1 </dev/null || st=$?
	[ $st = 77 ] || { cat "$tmpdir/out" >&2; fail "$path: exit $st with 32-bit programs off, not 77 (skip)"; }
	grep -q 'SKIP: .*32-bit programs forced off' "$tmpdir/out" ||
		{ cat "$tmpdir/out" >&2; fail "$path: skipped without the reason"; }
done <"$tmpdir/tests"
echo "$progs 32-bit programs and $scripts scripts with 32-bit parts skip when 32-bit programs cannot run"
# 15 runtime tests and 3 of the i386 assembly, when -m32 builds here.
if [ "$HAVE_M32" = yes ]; then
	[ $progs -ge 18 ] || fail "only $progs 32-bit test programs found"
fi
[ $scripts -ge 2 ] || fail "only $scripts scripts with 32-bit parts found"
# The probe's own failure path: a truncated 32-bit program fails to exec
# with ENOEXEC, as every 32-bit program does on a kernel without ia32
# emulation; the answer it gives makes a 32-bit test skip with the reason.
if [ "$HAVE_M32" = yes ]; then
	head -c 256 "$top_builddir/tests/lib/m32-probe" >"$tmpdir/probe"
	chmod +x "$tmpdir/probe"
	mkdir -p "$tmpdir/b/tests/lib"
	sh "$top_srcdir/tests/lib/m32-probe.sh" "$tmpdir/probe" \
		>"$tmpdir/b/tests/lib/m32.status"
	grep -q '^no: .*Exec format error.*ia32_emulation=0' "$tmpdir/b/tests/lib/m32.status" ||
		fail "probe of a program that cannot exec: $(cat "$tmpdir/b/tests/lib/m32.status")"
	st=0
	top_builddir=$tmpdir/b sh "$top_srcdir/tests/lib/run-prog.sh" \
		"$top_builddir/tests/runtime/args32" >"$tmpdir/out" 2>&1 || st=$?
	[ $st = 77 ] && grep -q 'SKIP: .*Exec format error' "$tmpdir/out" ||
		fail "with the probe failing, args32 gave $st: $(cat "$tmpdir/out")"
	cat "$tmpdir/out"
fi
m32_runs || echo "here, 32-bit tests skip: $m32_why"
exit 0
