#!/bin/sh
# examples.sh: every example compiles for each target that has its calls; -S equals -d, readelf and dot accept the image, and C programs link it with its -H header (-m64, -m32).
. "$top_srcdir/tests/lib/harness.sh"
: "${READELF:=readelf}"
: "${CC:=cc}"
have_dot=no
command -v dot >/dev/null 2>&1 && have_dot=yes
cd "$tmpdir" || exit 99

# A main that references every declared symbol and checks that each
# entry's next pointers stay inside the entry after relocation.
gen_main() {
	{
		echo "#include \"$1\""
		echo 'static int inside(const struct syslet_uatom *p, const struct syslet_uatom *a, unsigned long n)'
		echo '{ return !p || (p >= a && p < a + n); }'
		echo 'int main(void) {'
		echo '	int bad = 0;'
		sed -n 's/^extern struct syslet_uatom \([A-Za-z0-9_]*\)\[.*/\1/p' "$1" |
		while read -r e; do
			echo "	for (unsigned long i = 0; i < ${e}__nr_atoms; i++)"
			echo "		bad |= !inside($e[i].next, $e, ${e}__nr_atoms);"
		done
		echo '	const volatile void *refs[] = { 0'
		sed -n 's/^extern .* \**\([A-Za-z0-9_]*\)\(\[[0-9]*\]\)\{0,1\} __asm__.*/\1/p' "$1" |
		while read -r s; do echo "		, &$s"; done
		echo '	};'
		echo '	(void)refs;'
		echo '	return bad;'
		echo '}'
	} >main.c
}

n=0 notrun=0
for src in "$top_srcdir"/examples/*.syslet; do
	name=$(basename "$src" .syslet)
	built=0
	for t in x86_64 i386 i386-2007; do
		if ! $SYSLETC --target=$t -o $name-$t.slo -H $name-$t.h "$src" 2>err.txt; then
			# The 2007 kernel lacks the socket calls; nothing else may fail.
			[ $t = i386-2007 ] && grep -q 'unknown system call' err.txt && continue
			cat err.txt >&2
			fail "$name does not compile for $t"
		fi
		built=$((built + 1))
		$SYSLETC --target=$t -S "$src" >s.txt || fail "$name -S ($t)"
		$SYSLETC -d $name-$t.slo >d.txt || fail "$name -d ($t)"
		cmp -s s.txt d.txt || { diff -u s.txt d.txt; fail "$name ($t): -S and -d differ"; }
		"$READELF" -a -W $name-$t.slo >/dev/null 2>err.txt || fail "readelf $name-$t"
		[ -s err.txt ] && fail "readelf on $name-$t.slo: $(cat err.txt)"
		if [ $have_dot = yes ]; then
			$SYSLETC -d $name-$t.slo --dot >g.dot || fail "--dot $name"
			dot -Tsvg g.dot >/dev/null 2>err.txt || fail "dot rejects $name ($t): $(cat err.txt)"
		fi
		case $t in x86_64) m=-m64 ;; *) m=-m32 ;; esac
		if [ $m = -m32 ] && [ "$HAVE_M32" != yes ]; then
			notrun=$((notrun + 1))
			continue
		fi
		# An ELF symbol named main would clash with the C program's.
		"$READELF" -sW $name-$t.slo | grep -q ' GLOBAL .* main$' && continue
		gen_main $name-$t.h
		$CC $m -std=gnu11 -Wall -Werror -I"$top_srcdir/src/include" -o prog main.c \
			$name-$t.slo || fail "$name ($t) does not link with its header"
		if [ $m = -m32 ] && ! m32_runs; then
			notrun=$((notrun + 1))
			continue
		fi
		./prog || fail "$name ($t): a next pointer leaves its entry"
	done
	[ $built -ge 2 ] || fail "$name built for only $built targets"
	n=$((n + 1))
done
[ "$n" -ge 5 ] || fail "expected at least 5 examples, found $n"
[ $have_dot = yes ] || echo "dot not found: graphs not checked"
echo "$n examples round-trip"
# All else passed; a part not run makes the whole a skip, not a pass.
[ $notrun = 0 ] || { m32_runs; skip "$notrun i386 programs not run: $m32_why"; }
