#!/bin/sh
# each-claim.sh: syslet-run --each --jobs=2 whose one submitting thread is held (a syslet that opens a FIFO in place, 'sync', waits there for a writer) runs the other instances on the other thread, not only its half: the threads take the next instances as they are ready for them; every file is still copied once, and the run ends once the FIFO has its writer.
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99
cat >synccat.syslet <<'SRC'
buffer buf[256];
syslet cat(str path) {
	var fd, n;
	sync fd = open(path, O_RDONLY);
	if (fd < 0) stop;
	n = read(fd, buf, 256);
	write(1, buf, n);
	close(fd);
}
SRC
$SYSLETC -o synccat.slo synccat.syslet || fail "sysletc synccat.syslet"
mkfifo fifo || skip "no mkfifo"
mkdir f
i=1
while [ $i -lt 200 ]; do
	echo "f/$i" >"f/$i"
	i=$((i + 1))
done
# The FIFO first: the thread that takes it waits in its open.
set -- fifo
i=1
while [ $i -lt 200 ]; do set -- "$@" "f/$i"; i=$((i + 1)); done
: >out.txt
$SYSLET_RUN --backend=emul --each --jobs=2 synccat.slo "$@" \
	>>out.txt 2>err.txt &
pid=$!
# Fixed halves copied the 100 files of the other thread's half and no
# more until the FIFO opened; now the other thread takes all but the
# first few the held one took with the FIFO (50 of 200).
n=0 k=0
while [ $k -lt 100 ]; do
	n=$(wc -l <out.txt)
	[ "$n" -ge 140 ] && break
	k=$((k + 1))
	sleep 0.1
done
# Read and write: no wait for a reader that never came.
exec 3<>fifo
echo fifo >&3
exec 3>&-
wait $pid
st=$?
[ "$n" -ge 140 ] || { cat err.txt >&2
	fail "with one thread held, the other copied $n files of 199, not the rest"; }
expect_eq "exit status" 0 "$st"
sort out.txt >got.txt
{ echo fifo; i=1; while [ $i -lt 200 ]; do echo "f/$i"; i=$((i + 1)); done; } |
	sort >want.txt
cmp -s want.txt got.txt || fail "not every file copied once"
exit 0
