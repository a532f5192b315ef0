#!/bin/sh
# paths.sh: a named socket given where a program or an image is read (syslet-run IMAGE, sysletc FILE, sysletc -d, the shell's load) is refused as the other non-files are, not with open()'s "No such device or address".
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99
# The socket is made by a syslet: bind() leaves it in the directory.
printf 'data sa = u16(AF_UNIX), "sock";\nsyslet main() { var fd;\n%s\n%s\n}\n' \
	'fd = socket(AF_UNIX, SOCK_STREAM, 0);' 'bind(fd, sa, sizeof(sa));' \
	>mksock.syslet
$SYSLET_RUN mksock.syslet && [ -S sock ] || skip "cannot bind a socket here"
msg='sock: not a regular file or a pipe (a socket)$'
# refused STATUS WHAT CMD...
refused() {
	st=0
	want=$1 what=$2
	shift 2
	"$@" >out.txt 2>err.txt </dev/null || st=$?
	expect_eq "$what: status" "$want" "$st"
	grep -q "$msg" err.txt || { cat err.txt >&2; fail "$what: message"; }
}
refused 2 "syslet-run SOCKET" $SYSLET_RUN sock
refused 1 "sysletc SOCKET" $SYSLETC -o x.slo sock
refused 1 "sysletc -d SOCKET" $SYSLETC -d sock
[ -e x.slo ] && fail "sysletc wrote an image"
if ! "$SYSLET_RUN" -i </dev/null 2>&1 | grep -q -- '-i is unavailable'; then
	printf 'load sock\n' | SYSLET_BACKEND=emul HOME=$tmpdir \
		$SYSLET_RUN -i >out.txt 2>err.txt
	grep -q "^syslet-run: $msg" err.txt || { cat err.txt >&2
		fail "the shell's load of a socket: message"; }
fi
exit 0
