#!/bin/sh
# trace-sockaddr.sh: --trace shows the addresses of sendto(), recvfrom() and accept() as strace does, the one the call was given and the ones it filled in with their length, not their pointers: recvfrom(3, "hi", 16, 0, {sa_family=AF_INET, ...}, [16]).
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
cd "$tmpdir" || exit 99
cat >addr.syslet <<'SRC'
buffer buf[16];
buffer peer[16];
var plen = 16;
syslet addr(sockaddr_in at) {
	var u, l, c;
	u = socket(AF_INET, SOCK_DGRAM, 0);
	if (bind(u, at, 16) < 0)
		stop;
	sendto(u, "hi", 2, 0, at, 16);
	recvfrom(u, buf, 16, 0, peer, &plen);
	l = socket(AF_INET, SOCK_STREAM, 0);
	if (bind(l, at, 16) < 0)
		stop;
	listen(l, 1);
	c = socket(AF_INET, SOCK_STREAM, 0);
	connect(c, at, 16);
	plen = 16;
	accept(l, peer, &plen);
}
SRC
any='\{sa_family=AF_INET, sin_port=htons\([0-9]+\), sin_addr=inet_addr\("127\.0\.0\.1"\)\}'
for b in $backends; do
	trace_on_port "$b" addr.syslet
	grep -qF "sendto(3, \"hi\", 2, 0, $want, 16) = 2 " err ||
		fail "$b: $(grep 'sendto(' err)"
	grep -qF "recvfrom(3, \"hi\", 16, 0, $want, [16]) = 2 " err ||
		fail "$b: $(grep 'recvfrom(' err)"
	grep -Eq "accept\(4, $any, \[16\]\) = 6 " err ||
		fail "$b: $(grep 'accept(' err)"
done
exit 0
