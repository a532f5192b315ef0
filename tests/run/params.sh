#!/bin/sh
# params.sh: a sockaddr_in parameter is bound from HOST:PORT by syslet-run, by --each (one address per instance) and by the shell's run; bad addresses are refused with a message.
. "$top_srcdir/tests/lib/harness.sh"
src=$top_srcdir/tests/run/params.syslet
hex() { od -An -tx1 | tr -s ' \n' '  ' | sed 's/^ //; s/ $//'; }

out=$($SYSLET_RUN "$src" 127.0.0.1:8080 | hex) || fail "syslet-run 127.0.0.1:8080"
expect_eq "127.0.0.1:8080" "02 00 1f 90 7f 00 00 01 00 00 00 00 00 00 00 00" "$out"
out=$($SYSLET_RUN "$src" :443 | hex) || fail "syslet-run :443"
expect_eq ":443 (any address)" "02 00 01 bb 00 00 00 00 00 00 00 00 00 00 00 00" "$out"
for bad in 127.0.0.1 127.0.0.1:99999 example.org:80 1.2.3.4:x; do
	status=0
	$SYSLET_RUN "$src" "$bad" >/dev/null 2>"$tmpdir/err" || status=$?
	[ "$status" = 2 ] || fail "'$bad': exit status $status, expected 2"
	grep -q "parameter addr of show: expected HOST:PORT .*got '$bad'" \
		"$tmpdir/err" || { cat "$tmpdir/err" >&2; fail "'$bad': message"; }
	# What is wrong with it, not only the form: a newcomer gives a
	# host name, or a port past 65535, and is told which.
	case $bad in
	127.0.0.1) why="no ':PORT'" ;;
	*:99999) why="port 99999 is past 65535" ;;
	example.org:*) why="'example.org' is no IPv4 address: names are not looked up" ;;
	*:x) why="'x' is no port number" ;;
	esac
	grep -q "got '$bad': $why\$" "$tmpdir/err" ||
		{ cat "$tmpdir/err" >&2; fail "'$bad': no reason '$why'"; }
done

# The port is read as an int parameter is, and as sysletc reads the port
# of sockaddr_in("127.0.0.1", 0100) in a source: a C integer constant,
# so 0100 is 64, 0x50 is 80, and 080, like an int 08, is no number.
for port in 0x50:50 0100:40 0:00 0xffff:ff; do
	out=$($SYSLET_RUN "$src" "127.0.0.1:${port%%:*}" | hex) ||
		fail "syslet-run 127.0.0.1:${port%%:*}"
	lo=${port#*:}
	case ${port%%:*} in 0xffff) hi=ff ;; *) hi=00 ;; esac
	expect_eq "port ${port%%:*}" "02 00 $hi $lo 7f 00 00 01 00 00 00 00 00 00 00 00" "$out"
done
printf 'data a = sockaddr_in("127.0.0.1", 0100);\nsyslet s() { write(1, a, 16); }\n' \
	>"$tmpdir/lang.syslet"
out=$($SYSLET_RUN "$tmpdir/lang.syslet" | hex) || fail "sockaddr_in(..., 0100)"
expect_eq "the language's port 0100" "02 00 00 40 7f 00 00 01 00 00 00 00 00 00 00 00" "$out"
for bad in 080 08 +80 -1 " 80" "80 " 0x 0x10000; do
	status=0
	$SYSLET_RUN "$src" "1.2.3.4:$bad" >/dev/null 2>"$tmpdir/err" || status=$?
	[ "$status" = 2 ] || fail "port '$bad': exit status $status, expected 2"
	case $bad in
	0x10000) why="port 0x10000 is past 65535" ;;
	*) why="'$bad' is no port number" ;;
	esac
	grep -q "got '1.2.3.4:$bad': $why" "$tmpdir/err" ||
		{ cat "$tmpdir/err" >&2; fail "port '$bad': no reason '$why'"; }
done
# Why 080 and 08 are no numbers: a leading 0 makes them octal; an int
# parameter says so too.
hint="(a leading 0 makes it octal, whose digits are 0 to 7)"
$SYSLET_RUN "$src" 1.2.3.4:080 >/dev/null 2>"$tmpdir/err"
grep -qF "'080' is no port number $hint" "$tmpdir/err" ||
	{ cat "$tmpdir/err" >&2; fail "port 080: no octal hint"; }
printf 'syslet n(int v) { getpid(); }\n' >"$tmpdir/int.syslet"
for v in 08 " -019 "; do
	st=0
	$SYSLET_RUN "$tmpdir/int.syslet" "$v" >/dev/null 2>"$tmpdir/err" || st=$?
	expect_eq "int '$v': status" 2 "$st"
	grep -qxF "syslet-run: parameter v of n: expected int, got '$v' $hint" \
		"$tmpdir/err" || { cat "$tmpdir/err" >&2; fail "int '$v': no octal hint"; }
done
# Past a word: out of range, as the options say it (it was "expected
# int"); 2^64-1 and -2^63 are words.
for v in 99999999999999999999999 18446744073709551616 -9223372036854775809; do
	st=0
	$SYSLET_RUN "$tmpdir/int.syslet" "$v" >/dev/null 2>"$tmpdir/err" || st=$?
	expect_eq "int '$v': status" 2 "$st"
	grep -qxF "syslet-run: parameter v of n: $v is out of range: an int holds -9223372036854775808 to 18446744073709551615" \
		"$tmpdir/err" || { cat "$tmpdir/err" >&2; fail "int '$v': not said out of range"; }
done
for v in 18446744073709551615 -9223372036854775808; do
	$SYSLET_RUN "$tmpdir/int.syslet" "$v" >/dev/null ||
		fail "int '$v': exit status $?"
done
$SYSLET_RUN "$tmpdir/int.syslet" 0x >/dev/null 2>"$tmpdir/err"
! grep -q octal "$tmpdir/err" || fail "int '0x': an octal hint"

# --each: one instance per address, each with its own struct.
$SYSLETC -o "$tmpdir/params.slo" "$src" || fail "sysletc params.syslet"
$SYSLET_RUN --each "$tmpdir/params.slo" 10.0.0.1:1 10.0.0.2:2 >"$tmpdir/each" ||
	fail "--each"
out=$(od -An -tx1 -w16 "$tmpdir/each" | sed 's/^ //' | sort)
expect_eq "--each" "02 00 00 01 0a 00 00 01 00 00 00 00 00 00 00 00
02 00 00 02 0a 00 00 02 00 00 00 00 00 00 00 00" "$out"

# The shell's run binds it too (builds with readline only).
if out=$("$SYSLET_RUN" -i </dev/null 2>&1) && case $out in
	*"-i is unavailable"*) false ;; *) true ;; esac; then
	printf 'run show 192.168.1.2:8080\nquit\n' |
		HOME=$tmpdir XDG_DATA_HOME=$tmpdir/data $SYSLET_RUN -i \
		"$tmpdir/params.slo" >"$tmpdir/shell" 2>&1 ||
		{ cat "$tmpdir/shell" >&2; fail "shell run"; }
	grep -q "show(sockaddr_in addr)" "$tmpdir/shell" ||
		{ cat "$tmpdir/shell" >&2; fail "the shell does not show the parameter's type"; }
	case $(hex <"$tmpdir/shell") in
	*"02 00 1f 90 c0 a8 01 02 00 00 00 00 00 00 00 00"*) ;;
	*) cat "$tmpdir/shell" >&2; fail "shell run: the struct was not written" ;;
	esac
fi
exit 0
