#!/bin/sh
# analyze.sh KNOWN FILE...: make analyze: gcc -fanalyzer on each file ($ANALYZE_CC); fails on a finding KNOWN does not list.
# KNOWN has one line per accepted finding: FILE FUNCTION -Wanalyzer-KIND
# and why it is accepted (a false positive, or reported to the part's
# owner); a finding is matched by file, function and kind, not by line,
# so that edits elsewhere in the file do not break the check.
known=$1
shift
: "${ANALYZE_CC:?}"
out=$(mktemp -d "${TMPDIR:-/tmp}/syslet-analyze.XXXXXX") || exit 99
trap 'rm -rf "$out"' EXIT
status=0
for f in "$@"; do
	rel=${f#"${srcdir:-.}/"}
	# Plain ASCII messages, no paths drawn.
	LC_ALL=C $ANALYZE_CC -fanalyzer -fdiagnostics-plain-output -c -o /dev/null \
		"$f" >"$out/log" 2>&1 || { cat "$out/log"; status=1; }
	cat "$out/log" >>"$out/all"
	# "FILE: In function 'F':" precedes the findings in F.
	awk -v rel="$rel" '
		/: In function / {
			fn = $0; sub(/.*In function ./, "", fn); sub(/.:$/, "", fn)
			# a part split off by the optimizer is its function
			sub(/\.(part|isra|constprop|cold)\..*/, "", fn)
		}
		/: warning: .*\[-Wanalyzer-/ {
			k = $0; sub(/.*\[/, "", k); sub(/\].*/, "", k)
			print rel, fn, k
		}' "$out/log" >>"$out/found"
done
touch "$out/found"
sort -u "$out/found" >"$out/keys"
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$known" | awk '{ print $1, $2, $3 }' |
	sort -u >"$out/known"
n=$(wc -l <"$out/keys")
new=$(comm -23 "$out/keys" "$out/known")
if [ -n "$new" ]; then
	cat "$out/all"
	echo "make analyze: findings not in $known:"
	echo "$new" | sed 's/^/  /'
	status=1
fi
gone=$(comm -13 "$out/keys" "$out/known")
[ -z "$gone" ] || { echo "make analyze: no longer found (remove from $known):"; echo "$gone" | sed 's/^/  /'; }
echo "make analyze: $# files, $n findings (file, function, kind), $(echo "$new" | grep -c .) not accepted"
exit $status
