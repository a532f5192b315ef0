#!/bin/sh
# exit-status.sh: every exit status that the EXIT STATUS sections of sysletc(1) and syslet-run(1) document, caused and checked, with the message's 'prog: ' prefix; and the same error (a missing file, a directory, an unknown system call, an unknown backend, a bad number) worded alike by sysletc, syslet-run and the shell.
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99

# st WANT WHAT CMD...: CMD exits WANT; its standard error in err.
st() {
	st_want=$1 st_what=$2
	shift 2
	st_got=0
	"$@" >out 2>err </dev/null || st_got=$?
	[ "$st_got" = "$st_want" ] || { cat err >&2
		fail "$st_what: exit status $st_got, expected $st_want"; }
}
# said REGEX WHAT: err has a line matching REGEX (grep -E).
said() {
	grep -Eq -- "$1" err || { cat err >&2; fail "$2: no line '$1'"; }
}

printf 'syslet ok() { getppid(); }\n' >ok.syslet
printf 'var fd;\nsyslet f() {\n\tfd = open("/nonexistent/x", 0);\n\tif (fd < 0) stop;\n}\n' >fail.syslet
printf 'var x;\nsyslet n() {\n\tx = 5;\n\tx += -9;\n}\n' >arith.syslet
printf 'syslet b() { opn("x", 0); }\n' >bad.syslet
printf 'syslet p(int n) { close(n); }\n' >param.syslet
printf 'var p;\nsyslet k() {\n\tp = getpid();\n\tkill(p, 10);\n\tgetppid();\n}\n' >usr1.syslet
mkdir dir.syslet
"$SYSLETC" -o ok.slo ok.syslet || fail "sysletc ok.syslet"
head -c 100 ok.slo >short.slo

# sysletc(1): 0; 1 for errors in the source, an image that fails its
# checks, a file it cannot read or write, a standard output it cannot
# write; 2 for a usage error.
st 0 "sysletc: a good source" "$SYSLETC" -o ok2.slo ok.syslet
st 1 "sysletc: errors in the source" "$SYSLETC" -o b.slo bad.syslet
said '^bad\.syslet:1:14: error: ' "sysletc: errors in the source"
st 1 "sysletc -d: an image that fails its checks" "$SYSLETC" -d short.slo
said '^sysletc: short\.slo: ' "sysletc -d: a bad image"
st 1 "sysletc: a missing file" "$SYSLETC" -o m.slo missing.syslet
said '^sysletc: missing\.syslet: No such file or directory$' "sysletc: missing"
st 1 "sysletc: an output it cannot write" "$SYSLETC" -o nodir/x.slo ok.syslet
said '^sysletc: nodir/x\.slo: ' "sysletc: output"
if [ -w /dev/full ]; then
	st 1 "sysletc -d >/dev/full" sh -c '"$0" -d ok.slo >/dev/full' \
		"$SYSLETC"
	said '^sysletc: ' "sysletc -d >/dev/full"
fi
st 2 "sysletc: a usage error" "$SYSLETC" --frobnicate ok.syslet
said "^sysletc: unrecognized option '--frobnicate'$" "sysletc: usage"
st 2 "sysletc: no input" "$SYSLETC"

# syslet-run(1): 1 when a call failed, with the report; 0 otherwise, an
# arithmetic atom's negative value too.
st 0 "syslet-run: a good run" "$SYSLET_RUN" ok.syslet
st 1 "syslet-run: a failed call" "$SYSLET_RUN" fail.syslet
said '^syslet-run: f stopped at atom 0 \(fail\.syslet:3: .*= -2 ENOENT$' \
	"syslet-run: the stop report"
st 0 "syslet-run: arithmetic ends negative" "$SYSLET_RUN" arith.syslet
[ -s err ] && fail "syslet-run: arithmetic: a report: $(cat err)"
# --each: 0 only when every instance did; a line per one that did not.
st 1 "syslet-run --each: one instance failed" "$SYSLET_RUN" --each \
	param.syslet 0 99
said '^syslet-run: 99: p stopped at atom 0 .*-9 EBADF$' "--each report"
[ "$(grep -c stopped err)" = 1 ] || fail "--each: $(cat err)"
# 1 when what it printed on standard error could not all be written.
if [ -w /dev/full ]; then
	st 1 "syslet-run --trace 2>/dev/full" sh -c \
		'"$0" --trace ok.syslet 2>/dev/full' "$SYSLET_RUN"
fi
# -i from a script: 1 when its last line failed (a command that printed
# an error) or it ends inside a statement; a run that a failed call
# ended is a result, 0.
st 1 "syslet-run -i: the script's last line failed" sh -c \
	'printf "run\nprint nosuch\n" | "$0" -i ok.syslet' "$SYSLET_RUN"
said '^syslet-run: print: ' "syslet-run -i: print nosuch"
st 1 "syslet-run -i: the script ends inside a statement" sh -c \
	'printf "getppid(\n" | "$0" -i' "$SYSLET_RUN"
st 0 "syslet-run -i: a run that a failed call ended" sh -c \
	'printf "run\n" | "$0" -i fail.syslet' "$SYSLET_RUN"
# 2: usage, a file that cannot be read, compiled or loaded (with -i
# too), parameters that cannot be bound, a backend that cannot be set
# up, a standard output it cannot write.
st 2 "syslet-run: a usage error" "$SYSLET_RUN" --frobnicate ok.syslet
said "^syslet-run: unrecognized option '--frobnicate'$" "syslet-run: usage"
st 2 "syslet-run: nothing to run" "$SYSLET_RUN"
st 2 "syslet-run: a missing file" "$SYSLET_RUN" missing.syslet
said '^syslet-run: missing\.syslet: No such file or directory$' \
	"syslet-run: missing"
st 2 "syslet-run: errors in the source" "$SYSLET_RUN" bad.syslet
said '^bad\.syslet:1:14: error: ' "syslet-run: errors in the source"
st 2 "syslet-run: an image that does not load" "$SYSLET_RUN" short.slo
said '^syslet-run: short\.slo: ' "syslet-run: a bad image"
st 2 "syslet-run -i: a missing file" "$SYSLET_RUN" -i missing.syslet
said '^syslet-run: missing\.syslet: No such file or directory$' \
	"syslet-run -i: missing"
st 2 "syslet-run: a parameter that cannot be bound" "$SYSLET_RUN" \
	param.syslet abc
said '^syslet-run: ' "syslet-run: a parameter"
st 2 "syslet-run: an unknown backend" "$SYSLET_RUN" --backend=nope ok.syslet
said "^syslet-run: unknown syslet backend 'nope' \(expected " \
	"syslet-run: an unknown backend"
if [ -w /dev/full ]; then
	st 2 "syslet-run --help >/dev/full" sh -c \
		'"$0" --help >/dev/full' "$SYSLET_RUN"
	st 2 "syslet-run --version >/dev/full" sh -c \
		'"$0" --version >/dev/full' "$SYSLET_RUN"
fi
# With --trace, a syslet that sends itself SIGUSR1 dies of it (the
# shell's 128 + 10), after the trace.
st 138 "syslet-run --trace: SIGUSR1" "$SYSLET_RUN" --trace usr1.syslet
said '\[1\] kill\([0-9]+, SIGUSR1\)' "syslet-run --trace: SIGUSR1's trace"

# The same error from each: the same words after the program's prefix.
# A missing file, a directory, an unknown system call, an unknown
# backend.
sh_say() {
	printf '%s\n' "$1" | "$SYSLET_RUN" -i >out 2>err
	grep -v '^syslet shell' err | head -n 1
}
for f in missing.syslet dir.syslet; do
	c=$("$SYSLETC" -o x.slo $f 2>&1 | sed 's/^sysletc: //')
	r=$("$SYSLET_RUN" $f 2>&1 | sed 's/^syslet-run: //')
	s=$(sh_say "load $f" | sed 's/^syslet-run: //')
	expect_eq "syslet-run $f against sysletc" "$c" "$r"
	expect_eq "the shell's load $f against sysletc" "$c" "$s"
done
c=$("$SYSLETC" -o x.slo bad.syslet 2>&1 | sed -n 's/.* error: //p')
r=$("$SYSLET_RUN" bad.syslet 2>&1 | sed -n 's/.* error: //p')
s=$(sh_say 'opn("x", 0);' | sed -n 's/.* error: //p')
expect_eq "syslet-run's unknown call against sysletc's" "$c" "$r"
expect_eq "the shell's unknown call against sysletc's" "$c" "$s"
# The compiler's diagnostics, as sysletc prints them, and nothing else
# (syslet-run(1)).
"$SYSLETC" -o x.slo bad.syslet 2>c.err
"$SYSLET_RUN" bad.syslet 2>r.err
printf 'load bad.syslet\n' | "$SYSLET_RUN" -i 2>s.err >/dev/null
grep -v '^syslet shell' s.err >s2.err
diff -u c.err r.err >d.txt ||
	fail "syslet-run's diagnostics against sysletc's: $(cat d.txt)"
diff -u c.err s2.err >d.txt ||
	fail "the shell's load's diagnostics against sysletc's: $(cat d.txt)"
# The suggestion for a name that is no call, as the compiler words it.
hint=$(printf '%s\n' "$c" | sed -n "s/.*\(; did you mean 'open'?\)\$/\1/p")
[ -n "$hint" ] || fail "sysletc's unknown call: '$c'"
for opt in --trace=opn --inject=opn:error=ENOENT; do
	st 2 "syslet-run $opt" "$SYSLET_RUN" $opt ok.syslet
	grep -Fqx "syslet-run: $opt: unknown system call 'opn'$hint" err ||
		{ cat err >&2; fail "syslet-run $opt: not sysletc's words"; }
done
printf 'break opn\n' | "$SYSLET_RUN" -i ok.syslet >out 2>err
grep -Fq "'opn' (expected [N], LINE, ENTRY, LABEL or SYSCALL)$hint" err ||
	{ cat err >&2; fail "the shell's break opn: not sysletc's suggestion"; }
r=$("$SYSLET_RUN" --backend=nope ok.syslet 2>&1 | head -n 1 |
	sed 's/^syslet-run: //')
s=$(sh_say 'backend nope' | sed 's/^syslet-run: backend: //')
expect_eq "the shell's unknown backend against syslet-run's" "$r" "$s"
exit 0
