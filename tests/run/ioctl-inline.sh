#!/bin/sh
# ioctl-inline.sh: an ioctl that only reads or sets a descriptor's state (FIONREAD, FIOCLEX, TCGETS ...) runs in place on the user-space backends, as fcntl does, where every ioctl went to a worker (--stats: 'went async 1' for a syslet that asked a pipe how much it held); a request the engine does not know may wait and still goes to one.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
cd "$tmpdir" || exit 99
cat >fion.syslet <<'SRC'
u32 f[2];
u32 n[1];
syslet fion() {
	pipe2(f, 0);
	write(f[1], "hi", 2);
	ioctl(f[0], FIONREAD, n);
	ioctl(f[0], FIOCLEX);
	ioctl(f[0], FIONBIO, n);
	ioctl(f[0], TIOCGWINSZ, n);
	getppid();
}
SRC
sed 's/getppid();/ioctl(f[0], 0x54ff, n);\n\tgetppid();/' fion.syslet >other.syslet
for b in $backends; do
	"$SYSLET_RUN" --backend="$b" --trace --stats fion.syslet 2>err ||
		{ cat err >&2; fail "$b: fion.syslet failed"; }
	grep -q 'ioctl(3, FIONREAD, \[2\]) = 0 <inline> ' err ||
		fail "$b: $(grep FIONREAD err)"
	grep -q '^ *went async  *0$' err ||
		fail "$b: $(grep 'went async' err), where no call waits"
	"$SYSLET_RUN" --backend="$b" --trace --stats other.syslet 2>err ||
		{ cat err >&2; fail "$b: other.syslet failed"; }
	grep -q 'ioctl(3, _IOC(_IOC_NONE, 0x54, 0xff, 0), .* <cachemiss, went async> ' err ||
		fail "$b: $(grep '0x54, 0xff' err)"
done
exit 0
