#!/bin/sh
# trace-epoll.sh: --trace shows the struct epoll_event that epoll_ctl() is given and the records epoll_wait() filled, as strace does: epoll_ctl(3, EPOLL_CTL_ADD, 0, {events=EPOLLIN|EPOLLET, data={u32=7, u64=7}}), epoll_wait(3, [{events=EPOLLIN, data={u32=7, u64=7}}], 2, 1000) = 1, and [] when it timed out; they were pointers.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
cd "$tmpdir" || exit 99
cat >ep.syslet <<'SRC'
data ev = u32(EPOLLIN | EPOLLET), u64(7);
buffer out[24];
buffer b[16];
syslet ep() {
	var e;
	e = epoll_create1(EPOLL_CLOEXEC);
	epoll_ctl(e, EPOLL_CTL_ADD, 0, ev);
	epoll_wait(e, out, 2, 1000);
	read(0, b, sizeof(b));
	epoll_wait(e, out, 2, 0);
}
SRC
for b in $backends; do
	{ echo x; sleep 0.3; } | $SYSLET_RUN --backend="$b" --trace ep.syslet \
		2>err || fail "$b: $(cat err)"
	want_lines err "$b" \
		'epoll_ctl(3, EPOLL_CTL_ADD, 0, {events=EPOLLIN|EPOLLET, data={u32=7, u64=7}}) = 0 ' \
		'epoll_wait(3, [{events=EPOLLIN, data={u32=7, u64=7}}], 2, 1000) = 1 ' \
		'epoll_wait(3, [], 2, 0) = 0 '
done
exit 0
