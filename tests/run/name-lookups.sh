#!/bin/sh
# name-lookups.sh: choosing a backend looks up about 300 system call names (the engine's policy tables, io_uring's opcodes), at every start of syslet-run: each lookup hashes the name once, its length with it, and compares a found entry a word at a time, not a byte at a time twice over (210 instructions a lookup before, 140 now on emul, 135 on uring; 15% of the user instructions of a one-file syslet-run --each, callgrind; issue 13).
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
command -v valgrind >/dev/null 2>&1 || skip "no valgrind"
[ -z "${SYSLET_SANITIZE:-}" ] || skip "a sanitizer build"

for b in $backends; do
	st=0
	valgrind -q --tool=callgrind --toggle-collect=systab_lookup \
		--callgrind-out-file="$tmpdir/cg" \
		"$SYSLET_RUN" --backend=$b "$tmpdir/probe.syslet" \
		>/dev/null 2>"$tmpdir/err" || st=$?
	# A valgrind that lacks io_uring's calls cannot run that backend.
	if [ "$st" != 0 ]; then
		[ $b = uring ] && grep -q "io_uring\|unhandled syscall" \
			"$tmpdir/err" && continue
		cat "$tmpdir/err" >&2
		fail "--backend=$b under callgrind: status $st"
	fi
	# calls=N follows each call of the function from outside it (the
	# cfn= line naming it); summary: the instructions collected, in it.
	set -- $(awk '
		match($0, /^c?fn=\([0-9]+\)/) {
			id = substr($0, RSTART, RLENGTH); sub(/^c?fn=/, "", id)
			if (length($0) > RLENGTH) name[id] = substr($0, RLENGTH + 2)
			if ($0 ~ /^cfn=/) callee = name[id]
			next
		}
		/^calls=/ && callee == "systab_lookup" { n += substr($1, 7) + 0 }
		/^summary:/ { ir = $2 }
		END { printf "%d %d\n", n, n ? ir / n : 0 }' "$tmpdir/cg")
	echo "--backend=$b: $1 name lookups, $2 instructions each"
	[ "$1" -ge 100 ] || fail "--backend=$b: $1 name lookups (callgrind saw too few to count)"
	[ "$2" -le 150 ] ||
		fail "--backend=$b: $2 instructions a name lookup (at most 150)"
done
