#!/bin/sh
# trace-bufend.sh: --trace shows every byte a call read into a buffer that ends where its mapping ends (the image's last buffer), as strace does: an 8-byte read into 'buffer b[8]' showed 7 bytes and '...'.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
cd "$tmpdir" || exit 99
cat >last.syslet <<'SRC'
buffer b[8];
syslet last() {
	read(0, b, 8);
	write(1, b, 8);
}
SRC
for b in $backends; do
	printf 'abcdefgh' | $SYSLET_RUN --backend="$b" --trace last.syslet \
		>out.txt 2>err.txt || fail "$b: syslet-run failed: $(cat err.txt)"
	grep -q '\] read(0, "abcdefgh", 8) = 8 ' err.txt ||
		fail "$b: the read is shown as '$(grep 'read(' err.txt)'"
	grep -q '\] write(1, "abcdefgh", 8) = 8 ' err.txt ||
		fail "$b: the write is shown as '$(grep 'write(' err.txt)'"
done
exit 0
