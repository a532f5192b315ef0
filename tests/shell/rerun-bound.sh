#!/bin/sh
# rerun-bound.sh: a server run again in syslet-run -i after a run that ended without closing its listening socket fails at bind() with EADDRINUSE, and the shell says why: the earlier run's descriptors stay open in its process (syslet-run(1), run).
. "$top_srcdir/tests/shell/lib.sh"
shell_require
cat >"$tmpdir/srv.syslet" <<'EOP'
syslet srv(sockaddr_in addr) {
	var s;

	s = socket(AF_INET, SOCK_STREAM, 0);
	if (s < 0)
		stop;
	if (bind(s, addr, sizeof(addr)) < 0)
		stop;
	listen(s, 1);
}
EOP
for try in 1 2 3 4 5 6 7 8; do
	port=$((20000 + ($$ * 7 + try * 1009) % 40000))
	printf 'run\nrun\n' | SYSLET_BACKEND=emul XDG_DATA_HOME=$tmpdir/data \
		HOME=$tmpdir "$SYSLET_RUN" -i "$tmpdir/srv.syslet" \
		"127.0.0.1:$port" >"$tmpdir/out" 2>&1
	grep -q '^srv finished at' "$tmpdir/out" && break
done
cat "$tmpdir/out"
grep -q '^srv finished at' "$tmpdir/out" ||
	skip "no free port on 127.0.0.1 for a first run"
grep -q 'bind(.*= -98 EADDRINUSE$' "$tmpdir/out" ||
	fail "the second run did not fail at bind with EADDRINUSE"
grep -q '^note: the descriptors that earlier runs opened stay open in this process, whether they ended or stopped: a socket one of them left bound holds the address (ls -l /proc/[0-9]*/fd lists them; a statement closes one: close(N);)$' \
	"$tmpdir/out" ||
	fail "the EADDRINUSE of a second run came with no word why"
exit 0
