#!/bin/sh
# trace-outputs.sh: --trace shows what a call wrote as strace shows it once it returned: statx's struct (and its flags and mask by name), timerfd_settime's and timerfd_gettime's itimerspecs, getsockname's and getpeername's addresses, wait4's rusage, and the time left of a nanosleep or clock_nanosleep cut short (EINTR), the pointer where the sleep ran out, as strace; they were pointers.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
cd "$tmpdir" || exit 99
echo 'twelve bytes' >f
cat >outs.syslet <<'SRC'
data ts = u64(0), u64(1000);
data its = u64(0), u64(0), u64(5), u64(0);
buffer rem[16];
buffer stx[256];
buffer old[32];
buffer addr[16];
var alen = 16;
syslet outs(str path, sockaddr_in at) {
	var fd, s, c;
	nanosleep(ts, rem);
	clock_nanosleep(CLOCK_MONOTONIC, 0, ts, rem);
	statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, 0x7ff, stx);
	fd = timerfd_create(CLOCK_MONOTONIC, 0);
	timerfd_settime(fd, 0, its, old);
	timerfd_settime(fd, 0, its, old);
	timerfd_gettime(fd, old);
	s = socket(AF_INET, SOCK_STREAM, 0);
	if (bind(s, at, 16) < 0)
		stop;
	listen(s, 1);
	c = socket(AF_INET, SOCK_STREAM, 0);
	connect(c, at, 16);
	getsockname(s, addr, &alen);
	alen = 16;
	getpeername(c, addr, &alen);
}
syslet cut() {
	nanosleep(ts, rem);
	clock_nanosleep(CLOCK_REALTIME, 0, ts, rem);
}
buffer ws[4];
buffer ru[144];
syslet reap() {
	wait4(-1, ws, 0, ru);
}
SRC
zero='{tv_sec=0, tv_nsec=0}'
for b in $backends; do
	trace_on_port "$b" --entry=outs outs.syslet f
	grep -Eq '\] nanosleep\(\{tv_sec=0, tv_nsec=1000\}, 0x[0-9a-f]+\) = 0 ' err ||
		fail "$b: $(grep ' nanosleep(' err)"
	grep -Eq 'clock_nanosleep\(CLOCK_MONOTONIC, 0, \{tv_sec=0, tv_nsec=1000\}, 0x[0-9a-f]+\) = 0 ' err ||
		fail "$b: $(grep 'clock_nanosleep(' err)"
	grep -Eq 'statx\(AT_FDCWD, "f", AT_STATX_SYNC_AS_STAT\|AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, \{stx_mask=STATX_BASIC_STATS[|A-Z_]*, stx_attributes=0, stx_mode=S_IFREG\|0[0-7]+, stx_size=13, \.\.\.\}\) = 0 ' err ||
		fail "$b: $(grep 'statx(' err)"
	its='{it_interval={tv_sec=0, tv_nsec=0}, it_value={tv_sec=5, tv_nsec=0}}'
	grep -qF "timerfd_settime(3, 0, $its, {it_interval=$zero, it_value=$zero}) = 0 " err ||
		fail "$b: $(grep 'timerfd_settime(' err | head -1)"
	grep -Eq 'timerfd_settime\(3, 0, \{.*\}, \{it_interval=\{tv_sec=0, tv_nsec=0\}, it_value=\{tv_sec=[45], tv_nsec=[0-9]+\}\}\) = 0 ' err ||
		fail "$b: $(grep 'timerfd_settime(' err | tail -1)"
	grep -Eq 'timerfd_gettime\(3, \{it_interval=\{tv_sec=0, tv_nsec=0\}, it_value=\{tv_sec=[45], tv_nsec=[0-9]+\}\}\) = 0 ' err ||
		fail "$b: $(grep 'timerfd_gettime(' err)"
	grep -qF "getsockname(4, $want, [16]) = 0 " err ||
		fail "$b: $(grep 'getsockname(' err)"
	grep -qF "getpeername(5, $want, [16]) = 0 " err ||
		fail "$b: $(grep 'getpeername(' err)"
	# Cut short: the time left, as strace shows it (the injected
	# error leaves the buffer as it was, zero).
	$SYSLET_RUN --backend="$b" --trace --entry=cut \
		--inject=nanosleep,clock_nanosleep:error=EINTR outs.syslet \
		2>err && fail "$b: the injected EINTR did not stop cut"
	grep -qF "] nanosleep({tv_sec=0, tv_nsec=1000}, $zero) = -4 EINTR (INJECTED) " err ||
		fail "$b: $(grep ' nanosleep(' err)"
	# wait4 reaps a child syslet-run inherited from the shell it
	# replaced.
	sh -c "sleep 0 & exec \"$SYSLET_RUN\" --backend=$b --trace --entry=reap outs.syslet" 2>err ||
		fail "$b: reap: $(cat err)"
	grep -Eq 'wait4\(-1, \[\{WIFEXITED\(s\) && WEXITSTATUS\(s\) == 0\}\], 0, \{ru_utime=\{tv_sec=0, tv_usec=[0-9]+\}, ru_stime=\{tv_sec=0, tv_usec=[0-9]+\}, \.\.\.\}\) = [0-9]+ ' err ||
		fail "$b: reap: $(grep 'wait4(' err)"
done
exit 0
