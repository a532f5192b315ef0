#!/bin/sh
# gone-cwd.sh: sysletc -o and -H into a working directory that was removed (a shell left in a directory another program deleted) say 'No such file or directory', as touch and cp do, and create nothing; O_TMPFILE there answers EPERM on ext4, which sysletc reported as 'x.slo: Operation not permitted', sending the user after permissions.
. "$top_srcdir/tests/lib/harness.sh"
src=$top_srcdir/examples/hello.syslet
mkdir "$tmpdir/gone" || exit 99
cd "$tmpdir/gone" || exit 99
rmdir "$tmpdir/gone" || skip "cannot remove the working directory here"
for args in "-o x.slo" "-H x.h -o $tmpdir/x.slo"; do
	st=0
	# shellcheck disable=SC2086 # the options are words
	$SYSLETC $args "$src" 2>"$tmpdir/err" || st=$?
	expect_eq "sysletc $args in a removed directory: status" 1 "$st"
	first=${args#* }
	first=${first%% *}
	expect_eq "sysletc $args in a removed directory: message" \
		"sysletc: $first: No such file or directory" "$(cat "$tmpdir/err")"
done
[ -e "$tmpdir/x.slo" ] && fail "-H into a removed directory: the image was written"
exit 0
