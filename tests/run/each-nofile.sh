#!/bin/sh
# each-nofile.sh: syslet-run --each under a tight ulimit -n: a submitting thread that cannot set up its head (EMFILE) leaves no instance unrun; the run goes on with the threads that could, and says so.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"

case " $backends " in
*" uring "*) ;;
*) skip "the uring backend does not run here" ;;
esac
command -v prlimit >/dev/null 2>&1 || skip "no prlimit(1)"
$SYSLETC -o "$tmpdir/cat.slo" "$top_srcdir/tests/run/cat.syslet" ||
	fail "sysletc cat.syslet"
mkdir "$tmpdir/f"
i=0
while [ $i -lt 20 ]; do
	echo "file $i" >"$tmpdir/f/$i"
	i=$((i + 1))
done
cd "$tmpdir/f" || fail "cd"

# Each uring head holds descriptors of its own: from a limit where no
# head fits to one where all four do, every file is either printed or
# reported (EMFILE at its open, status 1); status 2 only when no head
# at all could be set up, and then nothing ran.
# Eight runs at each limit: the old failure depended on which thread
# opened a file first.
fewer=0
n=4
while [ $n -le 16 ]; do
    for rep in 1 2 3 4 5 6 7 8; do
	status=0
	prlimit --nofile=$n:$n $SYSLET_RUN --backend=uring --each --jobs=4 \
		"$tmpdir/cat.slo" * >"$tmpdir/out" 2>"$tmpdir/err" || status=$?
	out=$(grep -c '^file ' "$tmpdir/out")
	rep=$(grep -c ' stopped at atom ' "$tmpdir/err")
	if [ "$status" = 2 ]; then
		[ "$out" = 0 ] && [ "$rep" = 0 ] || { cat "$tmpdir/err" >&2
			fail "nofile $n: exit 2 after $out files printed and $rep reported"; }
		grep -q 'async_register: Too many open files' "$tmpdir/err" ||
			{ cat "$tmpdir/err" >&2; fail "nofile $n: exit 2 without the reason"; }
	else
		[ $((out + rep)) = 20 ] || { cat "$tmpdir/err" >&2
			fail "nofile $n: status $status, $out files printed and $rep reported of 20"; }
		[ "$rep" = 0 ] || [ "$status" = 1 ] ||
			fail "nofile $n: $rep reported with status $status"
	fi
	if grep -q 'could not set up a head (Too many open files): running on [1-3]$' \
		"$tmpdir/err"; then
		fewer=$((fewer + 1))
	fi
    done
	n=$((n + 1))
done
# The limits above must have left some threads without a head.
[ "$fewer" -gt 0 ] || skip "no limit from 4 to 16 left a thread without its head"
exit 0
