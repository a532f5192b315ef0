#!/bin/sh
# stats-table.sh: --stats (and -c, strace's letter for it) opens with strace -c's table of the atoms' calls, one row a call, sorted by time, with its share of the time, seconds, usecs/call, calls and errors, then a total row; failed calls are counted as errors, umem_add's values never are; --each counts every instance's calls. Before, --stats printed the engine's counters alone and strace's -c was refused.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
cd "$tmpdir" || exit 99
cat >t.syslet <<'SRC'
syslet t(str path) {
	var fd, n = 3;
	while (n > 0) {
		getppid();
		n -= 1;
	}
	fd = open(path, O_RDONLY);
	if (fd < 0)
		stop;
	close(fd);
}
SRC
head='% time     seconds  usecs/call     calls    errors syscall'
dash='------ ----------- ----------- --------- --------- ----------------'
# row FILE CALL: "CALLS ERRORS" of CALL's row (errors 0 when blank).
row() {
	awk -v c="$2" '$NF == c && NF >= 5 {
		print $4, (NF == 6 ? $5 : 0); exit }' "$1"
}
for b in $backends; do
	for opt in --stats -c; do
		st=0
		$SYSLET_RUN --backend="$b" $opt t.syslet /nonexistent 2>err ||
			st=$?
		expect_eq "$b $opt: status (open stopped it)" 1 "$st"
		expect_eq "$b $opt: header" "$head" "$(sed -n 1p err)"
		expect_eq "$b $opt: rule" "$dash" "$(sed -n 2p err)"
		expect_eq "$b $opt: getppid" "3 0" "$(row err getppid)"
		expect_eq "$b $opt: open" "1 1" "$(row err open)"
		expect_eq "$b $opt: rule before total" "$dash" \
			"$(grep -B1 ' total$' err | head -1)"
		# umem_add's rows are values, never errors.
		total=$(awk '$1 != "%" && $NF != "total" && NF >= 5 &&
			$1 ~ /^[0-9.]+$/ { n += $4 } END { print n }' err)
		expect_eq "$b $opt: total" "$total 1" "$(row err total)"
		grep -q '^syslet-run: stats (backend '"$b"'):$' err ||
			fail "$b $opt: the counters are gone: $(cat err)"
		pct=$(awk '$1 ~ /^[0-9.]+$/ && $NF != "total" && NF >= 5 {
			s += $1 } END { printf "%.0f", s }' err)
		[ "$pct" -ge 99 ] && [ "$pct" -le 101 ] ||
			fail "$b $opt: the shares add up to $pct"
	done
	$SYSLET_RUN --backend="$b" --stats --each t.syslet /nonexistent \
		t.syslet /nonexistent 2>err
	expect_eq "$b --each: getppid" "9 0" "$(row err getppid)"
	expect_eq "$b --each: open" "3 2" "$(row err open)"
	expect_eq "$b --each: close" "1 0" "$(row err close)"
done
exit 0
