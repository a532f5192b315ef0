#!/bin/sh
# man-session.sh: syslet-run(1)'s worked session runs as printed: its commands, fed to syslet-run -i on a file that holds "myhost", print the page's lines (the listing aside, which the page shortens).
. "$top_srcdir/tests/shell/lib.sh"
shell_require
page=$top_srcdir/man/syslet-run.1
export XDG_DATA_HOME="$tmpdir/data" HOME="$tmpdir"

# The display after .Ss A worked session, roff's \e as \.
sed -n '/^\.Ss A worked session/,/^\.S[sh] /p' "$page" |
	sed -n '/^\.Bd -literal/,/^\.Ed/{/^\.Bd/d;/^\.Ed/q;p}' |
	sed 's/\\e/\\/g' >"$tmpdir/page"
cmdline=$(sed -n '1s/^\$ syslet-run -i //p' "$tmpdir/page")
[ -n "$cmdline" ] || fail "no command line in the worked session of $page"
printf 'myhost\n' >"$tmpdir/hostname"

# The commands, and what each printed; the listing's lines are skipped.
sed -n 's/^syslet> //p' "$tmpdir/page" |
	sed "s|/etc/hostname|$tmpdir/hostname|g" >"$tmpdir/cmds"
# The greeting is the terminal's: a script gets no prompt and no greeting.
sed -n '2,$p' "$tmpdir/page" | awk '
	/^syslet> / { skip = ($2 == "list"); next }
	/^syslet shell; type help/ { next }
	!skip' >"$tmpdir/want"
[ "$(wc -l <"$tmpdir/want")" -gt 10 ] || fail "no output read from the session"

# shellcheck disable=SC2086
(cd "$top_srcdir" && SYSLET_BACKEND=emul \
	"$SYSLET_RUN" -i $(printf '%s\n' "$cmdline" |
		sed "s|/etc/hostname|$tmpdir/hostname|g") \
		<"$tmpdir/cmds" >"$tmpdir/raw" 2>&1 \
		3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-) ||
	{ cat "$tmpdir/raw" >&2; fail "the session failed"; }
# The first line, then what follows the listing.
sed "s|$tmpdir/hostname|/etc/hostname|g" "$tmpdir/raw" | awk '
	NR == 1 { print; next }
	/^breakpoint 1 at/ { on = 1 }
	on' >"$tmpdir/got"
diff "$tmpdir/want" "$tmpdir/got" >&2 ||
	fail "the page's session (<) and the shell's (>) differ"
