#!/bin/sh
# results-same.sh: one value, one spelling: a call's result (an address, an errno), a string's escapes and a call by a number without a name read the same in --trace, --stats, the stop report, sysletc -d and the shell's list, run and typed statements.
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99

# same WHAT EXPECTED ACTUAL: as expect_eq, the printers named, the
# values as they are (echo would read their backslashes).
same() {
	[ -n "$2" ] || fail "$1: nothing to compare (the trace showed no result)"
	[ "$2" = "$3" ] || { printf "FAIL: %s: expected '%s', got '%s'\n" \
		"$1" "$2" "$3" >&2; exit 1; }
}

# mmap at a fixed address (MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED_NOREPLACE):
# the same result in every process, an address (or an errno where the
# address is taken).
call='mmap(0x10000000, 4096, 3, 0x100022, -1, 0)'
printf 'var p;\nsyslet main() {\n\tp = %s;\n}\n' "$call" >m.syslet
"$SYSLET_RUN" --trace m.syslet 2>trace.err ||
	{ cat trace.err >&2; fail "--trace of mmap failed"; }
want=$(sed -n 's/^m\.syslet:3 \[0\] mmap(.*) = \(.*\) <inline.*/\1/p' \
	trace.err)
printf 'run\n' | "$SYSLET_RUN" -i m.syslet >sh.out 2>&1
same "the shell's run of mmap against --trace" "$want" \
	"$(sed -n 's/^main finished at \[0\]: //p' sh.out)"
printf 'var q;\nq = %s;\n' "$call" | "$SYSLET_RUN" -i >imm.out 2>&1
same "the shell's q = mmap(...) against --trace" "$want" \
	"$(sed -n 's/^q = //p' imm.out)"
printf '%s;\n' "$call" | "$SYSLET_RUN" -i >imm.out 2>&1
same "the shell's mmap(...) against --trace" "$want" \
	"$(sed -n 's/^mmap(.*) = //p' imm.out)"

# fcntl(F_GETFL)'s flags (standard output a file in both).
printf 'var f;\nsyslet main() {\n\tf = fcntl(1, F_GETFL);\n}\n' >f.syslet
"$SYSLET_RUN" --trace f.syslet >f.out 2>trace.err ||
	{ cat trace.err >&2; fail "--trace of fcntl failed"; }
want=$(sed -n 's/^f\.syslet:3 \[0\] fcntl(.*) = \(.*\) <inline.*/\1/p' \
	trace.err)
printf 'var q;\nq = fcntl(1, F_GETFL);\n' | "$SYSLET_RUN" -i >imm.out 2>&1
same "the shell's q = fcntl(1, F_GETFL) against --trace" "$want" \
	"$(sed -n 's/^q = //p' imm.out)"

# An errno: the trace line, the stop report, the shell's report of its
# run and the shell's variable.
cat >e.syslet <<'SRC'
var fd;
syslet main() {
	fd = open("/nonexistent/x", 0);
	if (fd < 0) stop;
}
SRC
st=0
"$SYSLET_RUN" --trace e.syslet 2>trace.err || st=$?
expect_eq "exit status of a failed open" 1 "$st"
want=$(sed -n 's/^e\.syslet:3 \[0\] open(.*) = \(.*\) <.*/\1/p' trace.err)
same "the stop report against --trace" "$want" \
	"$(sed -n 's/^syslet-run: main stopped at .*) = //p' trace.err)"
printf 'run\n' | "$SYSLET_RUN" -i e.syslet >sh.out 2>&1
same "the shell's stop report against --trace" "$want" \
	"$(sed -n 's/^syslet-run: main stopped at .*) = //p' sh.out)"
printf 'var q;\nq = open("/nonexistent/x", 0);\n' | "$SYSLET_RUN" -i \
	>imm.out 2>&1
same "the shell's q = open(...) against --trace" "$want" \
	"$(sed -n 's/^q = //p' imm.out)"

# A string: the trace's quoting of a path (an escape sequence, a newline,
# control bytes before a digit and before a letter, quotes, a backslash,
# DEL) and the message's quoting of the same name, which syslet-run(1)
# says is the trace's.
name=$(printf 'a\033[2Jb\nc\001%s\t"\\\177x\002y' 7)
printf 'syslet o(str path) { open(path, 0); }\n' >o.syslet
"$SYSLET_RUN" --trace o.syslet "$name" 2>trace.err
want=$(sed -n 's/^o\.syslet:1 \[0\] open(\(".*"\), O_RDONLY) = .*/\1/p' trace.err)
"$SYSLET_RUN" "$name" 2>err
same "syslet-run's message against --trace" "$want" \
	"$(sed -n 's/^syslet-run: \(".*"\): No such file or directory$/\1/p' err)"
"$SYSLETC" -o x.slo "$name" 2>err
same "sysletc's message against --trace" "$want" \
	"$(sed -n 's/^sysletc: \(".*"\): No such file or directory$/\1/p' err)"
same "the quoted name" '"a\33[2Jb\nc\0017\t\"\\\177x\2y"' "$want"

# The same name, longer than the trace shows (32 bytes), as a str
# parameter: the trace's open("...")... and the shell's print of it.
long="${name}zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"
"$SYSLET_RUN" --trace o.syslet "$long" 2>trace.err
want=$(sed -n 's/^o\.syslet:1 \[0\] open(\(".*"\(\.\.\.\)*\), O_RDONLY) = .*/\1/p' \
	trace.err)
printf 'run\nprint path\n' | "$SYSLET_RUN" -i o.syslet "$long" >sh.out 2>&1
same "the shell's print of a str parameter against --trace" "$want" \
	"$(sed -n 's/^path = 0x[0-9a-f]* //p' sh.out)"

# A number the table has no name for: the call as the trace writes it
# in the listing, the stop report, the shell's list; its --stats row.
printf 'var r;\nsyslet main() {\n\tr = syscall(335, 1, 2);\n}\n' >u.syslet
"$SYSLETC" -o u.slo u.syslet || fail "sysletc u.syslet failed"
"$SYSLETC" -d u.slo >u.lst || fail "sysletc -d failed"
grep -q ' = syscall[_(]335\b' u.lst ||
	skip "335 has a name here: $(grep -m1 '^ *0 ' u.lst)"
st=0
"$SYSLET_RUN" --trace --stats u.slo 2>trace.err || st=$?
expect_eq "exit status of an unknown call" 1 "$st"
want=$(sed -n 's/^u\.syslet:3 \[0\] \(.*\) = -38 ENOSYS <.*/\1/p' trace.err)
expect_eq "--trace of syscall(335, 1, 2)" "syscall(335, 1, 2)" "$want"
same "sysletc -d against --trace" "$want" \
	"$(sed -n 's/^ *0  r = \(syscall[^)]*)\).*/\1/p' u.lst)"
report=$(grep '^syslet-run: main stopped' trace.err)
expect_eq "the stop report" "syslet-run: main stopped at atom 0 (u.syslet:3: r = syscall(335, 1, 2)): $want = -38 ENOSYS" "$report"
printf 'list\nrun\n' | "$SYSLET_RUN" -i u.slo >sh.out 2>&1
same "the shell's list against --trace" "$want" \
	"$(sed -n 's/^ *0  r = \(syscall[^)]*)\).*/\1/p' sh.out)"
expect_eq "the shell's stop report" "$report" \
	"$(grep '^syslet-run: main stopped' sh.out)"
grep -q ' 1  *1 syscall_335$' trace.err ||
	{ cat trace.err >&2; fail "--stats: no row syscall_335"; }
exit 0
