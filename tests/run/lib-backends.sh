# lib-backends.sh: the user-space backends that run here, for the tests of syslet-run's strace habits (source it after harness.sh).
# backends: emul, and uring where io_uring can be set up.
printf 'syslet s() { getppid(); }\n' >"$tmpdir/probe.syslet"
backends=
for b in emul uring; do
	"$SYSLET_RUN" --backend="$b" "$tmpdir/probe.syslet" 2>/dev/null &&
		backends="$backends $b"
done
[ -n "$backends" ] || skip "no user-space backend runs here"
