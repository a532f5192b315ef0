#!/bin/sh
# ringshow.sh: the shell's ring command counts the slots it lists, while a worker may be filling one: it read each slot twice and said "0 full" over a slot it then listed (a run that went async completing between the two reads).
. "$top_srcdir/tests/shell/lib.sh"
shell_require
to=
command -v timeout >/dev/null && to="timeout 120"
cd "$tmpdir" || exit 99
export XDG_DATA_HOME="$tmpdir/data" HOME="$tmpdir" SYSLET_BACKEND=emul

# open() of a name longer than the kernel takes is no lookup in the
# cache: the engine hands it to a worker (the run goes async) and it
# fails at once, while the shell goes on to the ring command.
long=$(printf '%03000d' 0 | tr 0 a)
printf 'load %s\n' "$top_srcdir/examples/cat.syslet" >in
i=0
while [ $i -lt 300 ]; do
	printf 'run cat %s\nring\nring clear\n' "$long" >>in
	i=$((i + 1))
done
st=0
$to "$SYSLET_RUN" -i <in >out 2>err || st=$?
[ "$st" -lt 124 ] || { tail err >&2; fail "exit status $st (a crash or a hang)"; }
grep -q 'went async' out err ||
	skip "no run went async here: the ring stays empty"
# Each "ring: S slots, N full" is followed by exactly N slot lines.
awk '
function check() {
	if (hdr != "" && listed != want) {
		printf "said %d full, listed %d: %s\n", want, listed, hdr
		bad++
	}
}
/^ring: [0-9]+ slots, [0-9]+ full$/ { check(); hdr = $0; want = $4; listed = 0; next }
/^  slot [0-9]+: / { listed++; next }
{ check(); hdr = "" }
END { check(); exit bad > 0 }
' out >bad || { head bad >&2; fail "$(wc -l <bad) ring listings do not match their count"; }
