#!/bin/sh
# trace-widened.sh: every umem_add() the trace prints names its word as the sysletc -S listing does, atom by atom: the test of a narrow element (if (c[0] == '\n')) reads the scratch word its copies widened it into, umem_add(&c[0], 0) in the listing, which the trace showed as a raw address; so does the shell's step.
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99

cat >wl.syslet <<'SRC'
u8 c[1];
u32 fds[2];
syslet wl(str path) {
	var fd, n, lines;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		stop;
	while ((n = read(fd, c, 1)) > 0) {
		if (c[0] == '\n')
			lines++;
	}
	close(fd);
	pipe(fds);
	if (fds[1] > 2)
		lines++;
}
SRC
printf 'a\nb\n' >in.txt
"$SYSLETC" -S wl.syslet >wl.lst || fail "sysletc -S failed"
# "[5] umem_add(&c[0], 0)" for each umem_add atom of the listing.
sed -n 's/^ *\([0-9][0-9]*\)  \(.* = \)\{0,1\}\(umem_add([^)]*)\) .*/[\1] \3/p' \
	wl.lst | sort -u >want
grep -q '&c\[0\]' want || skip "no atom reads c[0] through a copy on this profile"
# check WHAT FILE: each umem_add line of FILE is the listing's.
check() {
	sed -n 's/.* \(\[[0-9][0-9]*\] umem_add(.*)\) = .*/\1/p' "$2" |
		sort -u >got
	[ -s got ] || fail "$1: no umem_add in the trace: $(cat "$2")"
	comm -13 want got >extra
	[ -s extra ] && fail "$1: the trace's umem_add not as the listing names them: $(cat extra) (listing: $(tr '\n' ' ' <want))"
	grep -qF '[5] umem_add(&c[0], 0)' got ||
		fail "$1: no '[5] umem_add(&c[0], 0)': $(cat got)"
	return 0
}
for be in emul uring; do
	rc=0
	"$SYSLET_RUN" --backend=$be --trace wl.syslet in.txt >/dev/null \
		2>trace || rc=$?
	if [ $rc -eq 2 ] && [ $be = uring ]; then
		echo "uring skipped: $(cat trace)"
		continue
	fi
	expect_eq "$be: status" 0 "$rc"
	check "$be" trace
done
# The shell's step prints its atoms with the same names.
printf 'break 10\nrun\nstep 8\n' |
	"$SYSLET_RUN" -i --backend=emul wl.syslet in.txt >shell.out 2>&1
check shell shell.out
exit 0
