#!/bin/sh
# help-man.sh: the shell's help and syslet-run(1)'s Commands list the same commands, with the same one-letter forms and the same literal words (ring clear, trace on|off, inject off).
. "$top_srcdir/tests/shell/lib.sh"
shell_require
page=$top_srcdir/man/syslet-run.1
export XDG_DATA_HOME="$tmpdir/data" HOME="$tmpdir"

# The page's items: ".It Ic ring Op Cm clear", ".It Ic list ... Pq Ic l".
sed -n '/^\.Ss Commands/,/^\.Ss /p' "$page" | sed -n 's/^\.It Ic //p' \
	>"$tmpdir/items"
[ "$(wc -l <"$tmpdir/items")" -gt 10 ] || fail "no commands read from $page"
printf 'help\n' | "$SYSLET_RUN" -i >"$tmpdir/help" 2>&1 ||
	fail "help: $(cat "$tmpdir/help")"
sed -n 's/^  \([a-z][a-z]*\) .*/\1/p' "$tmpdir/help" | sort >"$tmpdir/hcmds"
awk '{ print $1 }' "$tmpdir/items" | sort >"$tmpdir/mcmds"
diff "$tmpdir/mcmds" "$tmpdir/hcmds" >&2 ||
	fail "the page's commands (<) and help's (>) differ"

st=0
while read -r cmd rest; do
	printf 'help %s\n' "$cmd" | "$SYSLET_RUN" -i >"$tmpdir/one" 2>&1
	usage=$(head -n 1 "$tmpdir/one")
	# The one-letter form: "Pq Ic l" in the page, "(or l)" in help.
	short=$(printf '%s\n' "$rest" | sed -n 's/.*Pq Ic \([a-z]\).*/\1/p')
	hshort=$(printf '%s\n' "$usage" | sed -n 's/.*(or \([a-z]\))$/\1/p')
	if [ "$short" != "$hshort" ]; then
		echo "FAIL: $cmd: one-letter form '$short' in the page, '$hshort' in help" >&2
		st=1
	fi
	# Literal words (Cm) appear in help's usage as typed.
	for w in $(printf '%s\n' "$rest" | grep -o 'Cm [a-z][a-z]*' | sed 's/Cm //'); do
		case " $(printf '%s' "$usage" | tr '[]|' '   ') " in
		*" $w "*) ;;
		*) echo "FAIL: $cmd: the page's '$w' is not in help's usage '$usage'" >&2
		   st=1 ;;
		esac
	done
done <"$tmpdir/items"
exit $st
