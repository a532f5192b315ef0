#!/bin/sh
# trace-copy.sh: the trace names the word a narrow element's copy atom reads as the listing does (umem_add(fds, 0), umem_add(bb+2, 0)), not by its address; so does the shell's trace.
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99

cat >el.syslet <<'SRC'
u32 fds[2];
u8 bb[16];
buffer buf[8];
syslet t() {
	pipe(fds);
	write(fds[1], "x", 1);
	read(fds[0], buf, 1);
	close(bb[9]);
}
SRC
"$SYSLETC" -S el.syslet >el.lst || fail "sysletc -S failed"
# The copies' words as the listing names them (x86_64 reads u32 and u8
# elements through copies; i386 reads u32 elements directly).
grep '\[copy\]' el.lst | grep -o 'umem_add([a-z][a-z]*[+0-9]*, 0)' |
	sort -u >want
[ -s want ] || skip "no copy atom reads an element on this profile"
for be in emul uring; do
	"$SYSLET_RUN" --backend=$be --trace el.syslet >/dev/null 2>trace
	rc=$?
	if [ $rc -eq 2 ] && [ $be = uring ]; then
		echo "uring skipped: $(cat trace)"
		continue
	fi
	while read -r w; do
		grep -qF "] $w = " trace ||
			fail "$be: the trace has no '$w' (the listing's): $(grep umem_add trace)"
	done <want
done
# The shell's trace prints the same lines.
printf 'run\n' | "$SYSLET_RUN" -i --backend=emul --trace el.syslet >shell.out 2>&1
while read -r w; do
	grep -qF "] $w = " shell.out ||
		fail "shell: no '$w': $(grep umem_add shell.out)"
done <want
exit 0
