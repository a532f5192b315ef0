#!/bin/sh
# select-probe.sh: select() with a zero timeout only probes and runs in place on the user-space backends, as poll() with a zero timeout does (emul.h: "poll/select/epoll_wait: inline if timeout 0"), where it went to a worker ('select(...) = 0 (Timeout) <cachemiss, went async>'); a select that may wait, or whose timeout cannot be read, still goes to one, and the second gets its EFAULT there.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
cd "$tmpdir" || exit 99
cat >probe.syslet <<'SRC'
word tv[2];
u32 f[2];
word rs[16];
syslet probe() {
	pipe2(f, 0);
	write(f[1], "x", 1);
	rs[0] = 8;
	select(8, rs, NULL, NULL, tv);
	select(0, NULL, NULL, NULL, tv);
	getppid();
}
SRC
cat >wait.syslet <<'SRC'
word tv[2];
syslet wait() {
	tv[1] = 1000;
	select(0, NULL, NULL, NULL, tv);
	getppid();
}
SRC
cat >fault.syslet <<'SRC'
syslet fault() {
	select(0, NULL, NULL, NULL, 8);
	getppid();
}
SRC
for b in $backends; do
	"$SYSLET_RUN" --backend="$b" --trace --stats probe.syslet 2>err ||
		{ cat err >&2; fail "$b: probe.syslet failed"; }
	grep -q 'select(8, 0x[0-9a-f]*, NULL, NULL, 0x[0-9a-f]*) = 1 (in \[3\], left {tv_sec=0, tv_usec=0}) <inline> ' err ||
		fail "$b: $(grep 'select(8' err)"
	grep -q 'select(0, NULL, NULL, NULL, 0x[0-9a-f]*) = 0 (Timeout) <inline> ' err ||
		fail "$b: $(grep 'select(0' err)"
	grep -q '^ *went async  *0$' err ||
		fail "$b: $(grep 'went async' err), where no call waits"
	"$SYSLET_RUN" --backend="$b" --trace wait.syslet 2>err ||
		{ cat err >&2; fail "$b: wait.syslet failed"; }
	grep -q 'select(0, NULL, NULL, NULL, 0x[0-9a-f]*) = 0 (Timeout) <cachemiss, went async> ' err ||
		fail "$b: $(grep 'select(0' err)"
	"$SYSLET_RUN" --backend="$b" --trace fault.syslet 2>err ||
		{ cat err >&2; fail "$b: fault.syslet failed"; }
	grep -q 'select(0, NULL, NULL, NULL, 0x8) = -14 EFAULT ' err ||
		fail "$b: $(grep 'select(0' err)"
done
exit 0
