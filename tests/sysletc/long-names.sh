#!/bin/sh
# long-names.sh: a diagnostic about a name or number thousands of bytes long keeps what it says (the message's end, "is not declared"), elided in the middle to a line of a few hundred bytes, as the quoted source line is; no message is cut at a fixed buffer, none repeats a megabyte.
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99

long() { awk -v c="$1" -v n="$2" 'BEGIN { while (n-- > 0) printf "%s", c }'; }
Y=$(long y 3000)
N=$(long 9 3000)

# check FILE WHAT PATTERN: sysletc FILE fails, and the line of `WHAT:`
# (error or note) matches PATTERN and is short.
check() {
	"$SYSLETC" -o x.slo "$1" >out 2>err && fail "$1 compiled"
	line=$(grep -m1 ": $2: " err)
	[ -n "$line" ] || fail "$1: no $2: $(cut -c1-200 err)"
	printf '%s\n' "$line" | grep -Eq "$3" ||
		fail "$1: the $2 lost its end: $(printf '%s' "$line" | cut -c1-60)...$(printf '%s' "$line" | tail -c 60)"
	n=$(printf '%s' "$line" | wc -c)
	[ "$n" -le 600 ] || fail "$1: a $2 line of $n bytes"
}

printf 'syslet m() { var x; x = %s; }\n' "$Y" >undeclared.syslet
check undeclared.syslet error "^undeclared.syslet:1:25: error: 'y+\.\.\.y+' is not declared$"
printf 'syslet m() { %s(1); }\n' "$Y" >call.syslet
check call.syslet error "error: unknown system call 'y+\.\.\.y+' for target"
printf 'const A = %s;\nsyslet m() { }\n' "$N" >number.syslet
check number.syslet error "error: integer constant '9+\.\.\.9+' is too large$"
printf 'syslet m() { var %s; var %s; }\n' "$Y" "$Y" >twice.syslet
check twice.syslet error "error: redefinition of 'y+\.\.\.y+'$"
check twice.syslet note "note: previous definition of 'y+\.\.\.y+' was here$"
exit 0
