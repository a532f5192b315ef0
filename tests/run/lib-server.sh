# lib-server.sh: the tests' TCP servers (syslet-run of examples/ and tests/apps/ programs): a free port, and a server's end (source it after harness.sh).
# free_port N: $port, a TCP port nobody listens on, from 20000 + ($$ + N)
# % 20000 on (other test runs on this machine may hold the ones before).
free_port() {
	port=$((20000 + ($$ + $1) % 20000))
	fp_tries=0
	while grep -q "^ *[0-9]*: [0-9A-F]*:$(printf %04X $port) [0-9A-F:]* 0A " \
		/proc/net/tcp /proc/net/tcp6 2>/dev/null; do
		port=$((port + 1))
		fp_tries=$((fp_tries + 1))
		[ $fp_tries -lt 50 ] || skip "no free port near $port"
	done
}
# server_done PID WHAT: the server PID ended by itself (10 s at most)
# with status 0; a network the machine refuses (no loopback, the port
# taken: its message in $tmpdir/serr) skips, as not our failure.
server_done() {
	sd_i=0
	while kill -0 "$1" 2>/dev/null && [ $sd_i -lt 100 ]; do
		sleep 0.1
		sd_i=$((sd_i + 1))
	done
	if kill -0 "$1" 2>/dev/null; then
		kill "$1"
		wait "$1"
		fail "$2: still running after its connections"
	fi
	sd_st=0
	wait "$1" || sd_st=$?
	if [ "$sd_st" != 0 ]; then
		grep -Eq 'E(ADDRINUSE|ACCES|PERM|AFNOSUPPORT|ADDRNOTAVAIL)' \
			"$tmpdir/serr" && skip "$2: $(tail -n 1 "$tmpdir/serr")"
		cat "$tmpdir/serr" >&2
		fail "$2: exit status $sd_st"
	fi
}
