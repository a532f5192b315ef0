# lib-backends.sh: the user-space backends that run here, for the tests of syslet-run's strace habits (source it after harness.sh).
# backends: emul, and uring where io_uring can be set up.
printf 'syslet s() { getppid(); }\n' >"$tmpdir/probe.syslet"
backends=
for b in emul uring; do
	"$SYSLET_RUN" --backend="$b" "$tmpdir/probe.syslet" 2>/dev/null &&
		backends="$backends $b"
done
[ -n "$backends" ] || skip "no user-space backend runs here"
# readfile_files N: $tmpdir/readfile.slo (tests/bench/readfile.syslet)
# and N small files $tmpdir/f/0..N-1, their names in $files, cached.
readfile_files() {
	$SYSLETC -o "$tmpdir/readfile.slo" \
		"$top_srcdir/tests/bench/readfile.syslet" ||
		fail "sysletc readfile.syslet"
	mkdir "$tmpdir/f" || exit 99
	rf_i=0
	while [ $rf_i -lt "$1" ]; do
		echo "file number $rf_i" >"$tmpdir/f/$rf_i"
		rf_i=$((rf_i + 1))
	done
	files=$(cd "$tmpdir/f" && ls)
	cat "$tmpdir"/f/* >/dev/null
}
