#!/bin/sh
# aslimit.sh: instances that do not fit under an address space limit (ulimit -v) are refused with a message that names that limit, not vm.max_map_count.
. "$top_srcdir/tests/lib/harness.sh"
[ -z "${SYSLET_SANITIZE:-}" ] ||
	skip "a sanitizer runtime ($SYSLET_SANITIZE) needs more address space than the limit"
cd "$tmpdir" || exit 99
# 64 MiB of buffer each, all in flight (each waits for its read), under
# 1 GiB: the instances past the limit cannot be mapped.
printf 'buffer big[64 << 20];\nsyslet s(str p) { read(0, big, 1); }\n' >big.syslet
set -- $(seq 64)
st=0
sleep 1 | (ulimit -v 1048576 && exec $SYSLET_RUN --each --jobs=1 big.syslet "$@") \
	>out.txt 2>err.txt || st=$?
[ "$st" = 1 ] || { cat err.txt >&2; fail "exit status $st, expected 1"; }
grep -q '^syslet-run: cannot map an instance of [0-9]* bytes: Cannot allocate memory (.*ulimit -v' err.txt ||
	fail "the message does not name the limit: $(head -n 2 err.txt)"
grep -q 'max_map_count' err.txt && fail "the message blames vm.max_map_count"
exit 0
