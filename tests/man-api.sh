#!/bin/sh
# man-api.sh: libsyslet's interface is the same in its four places: the functions libsyslet.h declares, the names libsyslet.map exports, the symbols the built library exports, and the section 3 pages; its structs start with sz and the pages show their fields as the header has them.
. "$top_srcdir/tests/lib/harness.sh"
: "${CC:=cc}"
: "${NM:=nm}"

hdr=$top_srcdir/src/include/libsyslet.h
compat=$top_srcdir/src/include/syslet-compat.h
map=$top_srcdir/src/lib/libsyslet.map
so=$top_builddir/src/lib/.libs/libsyslet.so
[ -f "$hdr" ] && [ -f "$compat" ] && [ -f "$map" ] ||
	fail "missing $hdr, $compat or $map"
: "${MAN_LINKS=}"
status=0
bad() { echo "$*" >&2; status=1; }
# list_diff WHAT A B: the names in file A missing from file B.
list_diff() {
	for n in $(comm -23 "$2" "$3"); do bad "$n: $1"; done
}

# ---- What the header declares: the compiler's own list of prototypes
# (-aux-info), so that no layout of a declaration escapes the check.
printf '#include <libsyslet.h>\n#include <syslet-compat.h>\n' >"$tmpdir/api.c"
$CC -std=gnu11 -I"$top_srcdir/src/include" -I"$top_builddir/src/include" \
	-fsyntax-only -aux-info "$tmpdir/aux" "$tmpdir/api.c" \
	>"$tmpdir/cc.out" 2>&1 ||
	skip "$CC cannot list the header's prototypes (-aux-info): $(head -1 "$tmpdir/cc.out")"
protos() {
	sed -n "s|^/\\* [^ ]*/$1:[0-9]*:[A-Z]* \\*/ $2 .*[ *]\\([A-Za-z_][A-Za-z_0-9]*\\) (.*|\\1|p" \
		"$tmpdir/aux" | LC_ALL=C sort -u
}
protos libsyslet.h extern >"$tmpdir/declared"
# syslet-compat.h's own helpers (syslet_compat__*) are not interface.
protos syslet-compat.h static | grep -v '^syslet_compat__' >"$tmpdir/inline"
[ -s "$tmpdir/declared" ] || fail "no prototypes found in $hdr"

# ---- What the version script exports: names only, no pattern, so that
# a function becomes part of the ABI by a line someone wrote.
sed -e 's|/\*.*\*/||g' "$map" | sed -n '/^[[:space:]]*global:/,/^[[:space:]]*local:/p' |
	sed -e '/global:/d' -e '/local:/d' -e 's/[[:space:]]//g' -e '/^$/d' \
	>"$tmpdir/map.raw"
if grep -n '[*?[]' "$tmpdir/map.raw" >&2; then
	bad "libsyslet.map: the global list holds a pattern; list each name"
fi
grep -v '^[A-Za-z_][A-Za-z_0-9]*;$' "$tmpdir/map.raw" |
	while read -r l; do echo "libsyslet.map: not a name: $l" >&2; done
sed -n 's/^\([A-Za-z_][A-Za-z_0-9]*\);$/\1/p' "$tmpdir/map.raw" |
	LC_ALL=C sort >"$tmpdir/mapped.all"
LC_ALL=C sort -u "$tmpdir/mapped.all" >"$tmpdir/mapped"
for n in $(LC_ALL=C uniq -d "$tmpdir/mapped.all"); do
	bad "$n: listed twice in libsyslet.map"
done

list_diff "declared in libsyslet.h but not in libsyslet.map (it is not exported)" \
	"$tmpdir/declared" "$tmpdir/mapped"
list_diff "in libsyslet.map but not declared in libsyslet.h" \
	"$tmpdir/mapped" "$tmpdir/declared"

# ---- What the built library exports (a build without the shared
# library has no export list to compare).
if [ -f "$so" ]; then
	"$NM" -D --defined-only "$so" >"$tmpdir/nm" ||
		fail "$NM cannot read $so"
	awk '$2 ~ /^[TDBRVWiu]$/ { sub(/@.*/, "", $3); print $3 }' "$tmpdir/nm" |
		LC_ALL=C sort -u >"$tmpdir/exported"
	list_diff "exported by libsyslet.so but not in libsyslet.map" \
		"$tmpdir/exported" "$tmpdir/mapped"
	list_diff "in libsyslet.map but not defined in libsyslet.so" \
		"$tmpdir/mapped" "$tmpdir/exported"
else
	echo "note: no $so (a static-only build): exports not compared"
fi

# ---- The pages.  The names a page's NAME section lists (.Nm lines
# before .Nd), and the links man/local.mk installs for the extra ones.
page_names() {
	sed -n '/^\.Sh NAME/,/^\.Nd/s/^\.Nm \([A-Za-z_0-9]*\).*/\1/p' "$1"
}
: >"$tmpdir/documented"
for f in "$top_srcdir"/man/*.3; do
	page=${f##*/}
	first=
	for name in $(page_names "$f"); do
		[ -n "$first" ] || first=$name
		[ "$name" = libsyslet ] && continue
		echo "$name" >>"$tmpdir/documented"
		grep -qx "$name" "$tmpdir/declared" "$tmpdir/inline" ||
			bad "$page: $name is not declared in libsyslet.h or syslet-compat.h"
		if [ "$name.3" != "$page" ]; then
			case " $(echo $MAN_LINKS) " in
			*" $name.3:$page "*) ;;
			*) bad "$page: no link $name.3:$page in man/local.mk" ;;
			esac
		fi
	done
	[ "$first.3" = "$page" ] || bad "$page: first name is $first"
done
LC_ALL=C sort -u -o "$tmpdir/documented" "$tmpdir/documented"
cat "$tmpdir/declared" "$tmpdir/inline" | LC_ALL=C sort -u >"$tmpdir/public"
list_diff "declared but on no section 3 page (add it to a page's NAME)" \
	"$tmpdir/public" "$tmpdir/documented"

# ---- The callbacks.  A function the library calls back is declared by
# a typedef that a caller must match: each is shown in a page's SYNOPSIS,
# as .Ft typedef RET and .Fn (*NAME) "ARG" ..., with the header's types,
# so that a program written from the pages compiles (with `int fn(...)`
# for a void one, gcc 14 stops at an incompatible pointer type).
# cb_types: "RET(ARG,ARG)" with the parameter names and blanks dropped.
tr '\n' ' ' <"$hdr" | grep -o 'typedef[^;]*;' |
	sed -n 's/^typedef[[:space:]]\(.*\)(\*\([A-Za-z_0-9]*\))[[:space:]]*(\(.*\));$/\2|\1|\3/p' \
	>"$tmpdir/typedefs"
[ -s "$tmpdir/typedefs" ] || bad "libsyslet.h: no callback typedef found"
norm_args() {
	echo "$1" | tr ',' '\n' | sed -e 's/[[:space:]]*$//' \
		-e 's/\([ *]\)[A-Za-z_][A-Za-z_0-9]*$/\1/' | squeeze |
		paste -sd, -
}
# squeeze: one blank between words, none around '*'.
squeeze() {
	sed -e 's/[[:space:]][[:space:]]*/ /g' -e 's/^ //' -e 's/ $//' \
		-e 's/ \*/*/g' -e 's/\* /*/g'
}
while IFS='|' read -r name ret args; do
	want="$(echo "$ret" | squeeze)($(norm_args "$args"))"
	found=
	for f in "$top_srcdir"/man/*.3; do
		got=$(awk -v n="(*$name)" '
			/^\.Ft / { ft = substr($0, 5) }
			/^\.Fn / && $2 == n {
				sub(/^typedef[[:space:]]*/, "", ft)
				line = $0; sub(/^\.Fn [^ ]* */, "", line)
				gsub(/" "/, ",", line); gsub(/"/, "", line)
				print ft "|" line; exit
			}' "$f")
		[ -n "$got" ] || continue
		found=$f
		gret=${got%%|*}
		have="$(echo "$gret" | squeeze)($(norm_args "${got#*|}"))"
		[ "$have" = "$want" ] ||
			bad "${f##*/}: typedef $name is shown as $have; libsyslet.h has $want"
	done
	[ -n "$found" ] ||
		bad "libsyslet.h: typedef $name (a callback's type: $want) is on no section 3 page's SYNOPSIS"
done <"$tmpdir/typedefs"

# ---- The structs.  Each struct libsyslet.h defines starts with
# `size_t sz` (libsyslet(3), SIZED STRUCTS), and a page that shows one
# shows its fields, in the header's order.
# fields FILE NAME: the field names of struct NAME in FILE, one a line.
fields() {
	awk -v want="struct $2 {" '
		$0 == want { on = 1; next }
		on && /^};/ { exit }
		on {
			sub(/\/\*.*/, "")
			if ($0 !~ /;/) next
			sub(/;.*/, ""); gsub(/\[[^]]*\]/, "")
			n = split($0, part, ",")
			for (i = 1; i <= n; i++) {
				k = split(part[i], w, /[ \t*]+/)
				while (k > 0 && w[k] == "") k--
				if (k > 0) print w[k]
			}
		}' "$1"
}
structs=$(sed -n 's/^struct \(syslet_[a-z_]*\) {.*/\1/p' "$hdr")
[ -n "$structs" ] || bad "libsyslet.h: no struct found"
for st in $structs; do
	fields "$hdr" "$st" >"$tmpdir/h.$st"
	[ "$(head -1 "$tmpdir/h.$st")" = sz ] ||
		bad "struct $st: its first field is not sz (libsyslet(3), SIZED STRUCTS)"
	grep -q "^struct $st {" "$hdr" &&
		sed -n "/^struct $st {/,/^};/p" "$hdr" | sed -n 2p |
		grep -q '^[[:space:]]*size_t[[:space:]]*sz;' ||
		bad "struct $st: sz is not a size_t"
	for f in $(grep -l "^struct $st {" "$top_srcdir"/man/*.3); do
		fields "$f" "$st" >"$tmpdir/m.$st"
		cmp -s "$tmpdir/h.$st" "$tmpdir/m.$st" ||
			bad "${f##*/}: struct $st shows fields $(echo $(cat "$tmpdir/m.$st")); libsyslet.h has $(echo $(cat "$tmpdir/h.$st"))"
	done
done
# syslet_get_stats(3) lists the counters (after sz) as a tag list.
sed -n 's/^\.It Fa \([a-z_]*\)$/\1/p' "$top_srcdir/man/syslet_get_stats.3" \
	>"$tmpdir/m.stats"
tail -n +2 "$tmpdir/h.syslet_stats" | cmp -s - "$tmpdir/m.stats" ||
	bad "syslet_get_stats.3: counters $(echo $(cat "$tmpdir/m.stats")); libsyslet.h has $(echo $(tail -n +2 "$tmpdir/h.syslet_stats"))"

# libsyslet(3)'s THREAD SAFETY says, for every function the header
# declares, whether it may be called from several threads at once.
sed -n '/^\.Sh THREAD SAFETY/,/^\.Sh [^T]/p' "$top_srcdir/man/libsyslet.3" |
	sed -n 's/^\.Fn \([A-Za-z_0-9]*\).*/\1/p' | LC_ALL=C sort -u \
	>"$tmpdir/tsafe"
[ -s "$tmpdir/tsafe" ] ||
	bad "libsyslet.3: no THREAD SAFETY section naming the functions"
list_diff "declared in libsyslet.h but not in libsyslet(3)'s THREAD SAFETY" \
	"$tmpdir/declared" "$tmpdir/tsafe"

[ "$status" = 0 ] ||
	fail "libsyslet.h, libsyslet.map, libsyslet.so and the section 3 pages disagree"
exit 0
