#!/bin/sh
# uring-tables.sh: choosing the uring backend makes its tables (what runs in place, what a driver hands on) from emul's policy by a copy and the four descriptor calls set apart, not by comparing each of the ~1,000 call numbers with those four: at most 12,000 instructions of its own set-up at every start of syslet-run (19,404 before; callgrind; issue 13).
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
command -v valgrind >/dev/null 2>&1 || skip "no valgrind"
[ -z "${SYSLET_SANITIZE:-}" ] || skip "a sanitizer build"
case " $backends " in
*" uring "*) ;;
*) skip "no io_uring here" ;;
esac

st=0
valgrind -q --tool=callgrind --callgrind-out-file="$tmpdir/cg" \
	"$SYSLET_RUN" --backend=uring "$tmpdir/probe.syslet" \
	>/dev/null 2>"$tmpdir/err" || st=$?
if [ "$st" != 0 ]; then
	grep -q "io_uring\|unhandled syscall" "$tmpdir/err" &&
		skip "valgrind cannot run the uring backend: $(head -n 1 "$tmpdir/err")"
	cat "$tmpdir/err" >&2
	fail "--backend=uring under callgrind: status $st"
fi
# The function's own cost: the cost lines of its fn= block, less the
# line after each calls= (what a call it makes costs).
n=$(awk '
	# fn=(ID) NAME or cfn=(ID) NAME names a function once, then
	# fn=(ID) or cfn=(ID) alone.
	match($0, /^c?fn=\([0-9]+\)/) {
		id = substr($0, RSTART, RLENGTH); sub(/^c?fn=/, "", id)
		if (length($0) > RLENGTH) name[id] = substr($0, RLENGTH + 2)
		if ($0 ~ /^fn=/) { fn = name[id]; skip = 0 }
		next
	}
	/^calls=/ { skip = 1; next }
	/^[0-9+*-]/ {
		if (!skip && fn == "ur_init_once") self += $2
		skip = 0
	}
	END { print self + 0 }' "$tmpdir/cg")
echo "--backend=uring: $n instructions of ur_init_once's own"
[ "$n" -gt 0 ] || fail "callgrind counted no instruction of ur_init_once"
[ "$n" -le 12000 ] ||
	fail "--backend=uring: $n instructions of ur_init_once's own (at most 12000)"
