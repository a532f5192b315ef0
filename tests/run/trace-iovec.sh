#!/bin/sh
# trace-iovec.sh: --trace shows writev()'s and sendmsg()'s iovecs with their bytes, readv()'s and recvmsg()'s with what the call wrote into them ("" past it; the buffers' addresses when the call failed, recvmsg() the length it was given) and msg_flags by name, as strace 6.1 shows the same calls made from C, on every user-space backend.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
cd "$tmpdir" || exit 99
cat >iovec.syslet <<'SRC'
word iov[4];
word rv[4];
word one[2];
buffer b1[4];
buffer b2[200];
u32 f[2];
u32 sp[2];
word mh[7];
word rmh[7];
buffer rb[3];
word rio[2];
data discard = sockaddr_in("127.0.0.1", 9);

syslet iovec() {
	var s;

	pipe2(f, 0);
	iov[0] = "ab\n";
	iov[1] = 3;
	iov[2] = "cd\n";
	iov[3] = 3;
	writev(f[1], iov, 2);
	rv[0] = b1;
	rv[1] = 4;
	rv[2] = b2;
	rv[3] = 200;
	readv(f[0], rv, 2);
	write(f[1], "ab", 2);
	readv(f[0], rv, 2);
	writev(f[1], NULL, 0);
	writev(f[1], iov, 0);
	readv(-1, rv, 2);
	s = socket(AF_INET, SOCK_DGRAM, 0);
	one[0] = "dgram";
	one[1] = 5;
	mh[0] = discard;
	mh[1] = 16;
	mh[2] = one;
	mh[3] = 1;
	sendmsg(s, mh, MSG_DONTWAIT);
	socketpair(AF_UNIX, SOCK_DGRAM, 0, sp);
	mh[0] = 0;
	mh[1] = 0;
	sendmsg(sp[0], mh, 0);
	rio[0] = rb;
	rio[1] = 3;
	rmh[2] = rio;
	rmh[3] = 1;
	recvmsg(sp[1], rmh, 0);
	recvmsg(sp[1], rmh, MSG_DONTWAIT);
	sched_yield();
}
SRC
# strace 6.1's lines for the same calls from C, descriptors as here.
cat >want <<'EOF2'
writev(4, [{iov_base="ab\n", iov_len=3}, {iov_base="cd\n", iov_len=3}], 2) = 6
readv(3, [{iov_base="ab\nc", iov_len=4}, {iov_base="d\n", iov_len=200}], 2) = 6
readv(3, [{iov_base="ab", iov_len=4}, {iov_base="", iov_len=200}], 2) = 2
writev(4, NULL, 0) = 0
writev(4, [], 0) = 0
readv(-1, [{iov_base=ADDR, iov_len=4}, {iov_base=ADDR, iov_len=200}], 2) = -9 EBADF
sendmsg(5, {msg_name={sa_family=AF_INET, sin_port=htons(9), sin_addr=inet_addr("127.0.0.1")}, msg_namelen=16, msg_iov=[{iov_base="dgram", iov_len=5}], msg_iovlen=1, msg_controllen=0, msg_flags=0}, MSG_DONTWAIT) = 5
sendmsg(6, {msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base="dgram", iov_len=5}], msg_iovlen=1, msg_controllen=0, msg_flags=0}, 0) = 5
recvmsg(7, {msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base="dgr", iov_len=3}], msg_iovlen=1, msg_controllen=0, msg_flags=MSG_TRUNC}, 0) = 3
recvmsg(7, {msg_namelen=0}, MSG_DONTWAIT) = -11 EAGAIN
EOF2
st=0
for b in $backends; do
	# Descriptors from 3, whatever the harness left open.
	(exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-
	 "$SYSLET_RUN" --backend="$b" --trace iovec.syslet) 2>err ||
		{ cat err >&2; fail "$b: --trace run failed"; }
	sed -n 's/^iovec\.syslet:[0-9]* \[[0-9]*\] \(\(writev\|readv\|sendmsg\|recvmsg\)(.*\) <[^>]*> -> .*/\1/p' err |
		sed 's/0x[0-9a-f]\{5,\}/ADDR/g' >got
	diff -u want got >&2 || { echo "$b: differs from strace's lines" >&2; st=1; }
done
exit $st
