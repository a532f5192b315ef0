#!/bin/sh
# output.sh: -o and -H replace only regular files (atomically), follow symlinks, write through devices and FIFOs, refuse the rest, and leave no PATH.XXXXXX when killed.
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99
src=$top_srcdir/examples/hello.syslet
status() { "$@" >out.txt 2>err.txt; echo $?; }
# One symbol prefix for every image, whatever name each is written
# under, so that they all compare equal to ref.slo.
SYSLETC="$SYSLETC --prefix=hello"
# Never -o /dev/null here: run as root against a sysletc with the fault
# this test is about, that would replace the machine's /dev/null.
$SYSLETC -o ref.slo "$src" || fail "plain compile"
# The header's guard comes from its name: references under the same names.
mkdir ref
for h in hlink.h fifo.h; do
	$SYSLETC -H ref/$h -o scratch.slo "$src" 2>/dev/null || fail "plain -H"
done
no_temp() {
	for f in "$@"; do
		[ -z "$(ls -a | grep -F "$f." | grep -v '\.slo$')" ] ||
			fail "a temporary file was left behind: $(ls -a)"
	done
}
is_link() { [ -h "$1" ] || fail "$1 is no longer a symlink: $(ls -l "$1")"; }

# A symlink is followed: its target is replaced, in the target's
# directory; the link stays a link.
mkdir a b
echo old >b/target.slo
ln -s ../b/target.slo a/link.slo
expect_eq "-o through a symlink" 0 "$(status $SYSLETC -o a/link.slo "$src")"
is_link a/link.slo
cmp -s b/target.slo ref.slo || fail "the symlink's target does not hold the image"
# A chain of links, and a dangling one (its target is created).
ln -s a/link.slo chain.slo
echo old >b/target.slo
expect_eq "-o through two symlinks" 0 "$(status $SYSLETC -o chain.slo "$src")"
is_link chain.slo
is_link a/link.slo
cmp -s b/target.slo ref.slo || fail "the chain's target does not hold the image"
ln -s b/new.slo dangling.slo
expect_eq "-o through a dangling symlink" 0 "$(status $SYSLETC -o dangling.slo "$src")"
is_link dangling.slo
cmp -s b/new.slo ref.slo || fail "the dangling symlink's target was not created"
ln -s loop1 loop2
ln -s loop2 loop1
expect_eq "-o a symlink loop" 1 "$(status $SYSLETC -o loop1 "$src")"
grep -q '^sysletc: loop1: Too many levels of symbolic links$' err.txt ||
	fail "symlink loop message: $(cat err.txt)"
is_link loop1
# -H the same way.
ln -s b/hdr.h hlink.h
expect_eq "-H through a symlink" 0 "$(status $SYSLETC -H hlink.h -o scratch.slo "$src")"
is_link hlink.h
cmp -s b/hdr.h ref/hlink.h || fail "-H: the symlink's target does not hold the header"
no_temp target.slo new.slo hdr.h

# A FIFO is written through: its reader gets the image.
mkfifo fifo.slo
cat fifo.slo >from-fifo.slo &
reader=$!
expect_eq "-o a FIFO" 0 "$(status $SYSLETC -o fifo.slo "$src")"
wait $reader
[ -p fifo.slo ] || fail "the FIFO was replaced: $(ls -l fifo.slo)"
cmp -s from-fifo.slo ref.slo || fail "the FIFO's reader did not get the image"
mkfifo fifo.h
cat fifo.h >from-fifo.h &
reader=$!
expect_eq "-H a FIFO" 0 "$(status $SYSLETC -H fifo.h -o scratch.slo "$src")"
wait $reader
[ -p fifo.h ] || fail "-H replaced the FIFO"
cmp -s from-fifo.h ref/fifo.h || fail "the FIFO's reader did not get the header"

# A character device is written through, never replaced.  As root a
# private node stands for /dev/null (the real one is not put at risk).
if mknod null c 1 3 2>/dev/null; then
	expect_eq "-o a character device" 0 "$(status $SYSLETC -o null "$src")"
	[ -c null ] || fail "the device node was replaced: $(ls -l null)"
	expect_eq "-H a character device" 0 "$(status $SYSLETC -H null -o null "$src")"
	[ -c null ] || fail "-H replaced the device node: $(ls -l null)"
	ln -s null nlink
	expect_eq "-o a symlink to a device" 0 "$(status $SYSLETC -o nlink "$src")"
	[ -c null ] && is_link nlink
	if mknod blk b 7 255 2>/dev/null; then
		expect_eq "-o a block device" 1 "$(status $SYSLETC -o blk "$src")"
		grep -q '^sysletc: blk: is a block device' err.txt ||
			fail "block device message: $(cat err.txt)"
		[ -b blk ] || fail "the block device node was replaced"
	fi
	no_temp null blk
else
	# Not root: /dev/null cannot be replaced, only written through.
	expect_eq "-o /dev/null" 0 "$(status $SYSLETC -o /dev/null "$src")"
	[ -c /dev/null ] || fail "/dev/null was replaced"
fi
expect_eq "-o /dev/stdout" 0 "$(status $SYSLETC -o /dev/stdout "$src")"
cmp -s out.txt ref.slo || fail "-o /dev/stdout did not print the image"
mkdir dir.slo
expect_eq "-o a directory" 1 "$(status $SYSLETC -o dir.slo "$src")"
grep -q '^sysletc: dir.slo: Is a directory$' err.txt || fail "directory message: $(cat err.txt)"

# The image and the header are one result: when either cannot be
# written, neither replaces its file (the image was replaced, with status
# 1, beside a header that was not).  A missing directory fails at open, a
# full device only when its bytes go out, after the image was complete.
echo old >pair.slo
echo old >pair.h
expect_eq "-H into a missing directory" 1 \
	"$(status $SYSLETC -o pair.slo -H nodir/pair.h "$src")"
grep -q '^sysletc: nodir/pair.h: No such file or directory$' err.txt ||
	fail "-H into a missing directory: message: $(cat err.txt)"
expect_eq "-H into a missing directory: the image" old "$(cat pair.slo)"
expect_eq "-H /dev/full" 1 "$(status $SYSLETC -o pair.slo -H /dev/full "$src")"
grep -q '^sysletc: /dev/full: No space left on device$' err.txt ||
	fail "-H /dev/full: message: $(cat err.txt)"
expect_eq "-H /dev/full: the image" old "$(cat pair.slo)"
expect_eq "-o /dev/full -H" 1 "$(status $SYSLETC -o /dev/full -H pair.h "$src")"
expect_eq "-o /dev/full: the header" old "$(cat pair.h)"
# '-o -' or '-H -' onto a full standard output is told as the listing's
# is, 'standard output', not '-'.
# (-d takes no --prefix: the image has its own.)
for opt in "--prefix=hello -o - $src" "-d ref.slo -H -"; do
	# shellcheck disable=SC2086 # words each
	expect_eq "$opt > /dev/full" 1 \
		"$(${SYSLETC% --prefix=hello} $opt >/dev/full 2>err.txt; echo $?)"
	grep -q '^sysletc: standard output: No space left on device$' err.txt ||
		fail "$opt > /dev/full: message: $(cat err.txt)"
done
expect_eq "-o into a missing directory -H" 1 \
	"$(status $SYSLETC -o nodir/pair.slo -H pair.h "$src")"
expect_eq "-o into a missing directory: the header" old "$(cat pair.h)"
# The default image name (hello.slo in the current directory) too.
cp "$src" pair.syslet
expect_eq "default image, -H into a missing directory" 1 \
	"$(status $SYSLETC -H nodir/pair.h pair.syslet)"
[ "$(cat pair.slo)" = old ] ||
	fail "the default image was written: $(ls -l pair.slo)"
no_temp pair.slo pair.h
expect_eq "both written" 0 "$(status $SYSLETC -o pair.slo -H pair.h "$src")"
cmp -s pair.slo ref.slo || fail "the image of a pair"

# A target anyone may write, in a directory its user cannot: the new file
# is made in that directory, and the message says so (a bare "Permission
# denied" named a file the user can write).  As root, run as nobody.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 &&
   setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	chmod 755 "$tmpdir"
	mkdir rodir
	echo old >rodir/t.slo
	chmod 666 rodir/t.slo
	expect_eq "-o into a directory that is not writable" 1 \
		"$(status setpriv --reuid=65534 --regid=65534 --clear-groups \
			$SYSLETC -o rodir/t.slo "$src")"
	grep -q '^sysletc: rodir/t.slo: Permission denied (it is replaced whole by a new file made in its directory, rodir)$' \
		err.txt || fail "a directory that is not writable: $(cat err.txt)"
	expect_eq "a directory that is not writable: the file" old "$(cat rodir/t.slo)"
	# A new file there: the plain reason.
	expect_eq "a new file in a directory that is not writable" 1 \
		"$(status setpriv --reuid=65534 --regid=65534 --clear-groups \
			$SYSLETC -o rodir/new.slo "$src")"
	grep -q '^sysletc: rodir/new.slo: Permission denied$' err.txt ||
		fail "a new file in a directory that is not writable: $(cat err.txt)"
fi

# A process killed while it writes leaves the old file and nothing else:
# SIGXFSZ under ulimit -f (1 KiB; the server example is larger).
big=$top_srcdir/examples/server.syslet
echo old >killed.slo
(ulimit -f 1 && exec $SYSLETC -o killed.slo "$big") >/dev/null 2>&1
[ "$(cat killed.slo)" = old ] || fail "the old output was damaged"
no_temp killed.slo
# With SIGXFSZ ignored the write fails with EFBIG: the message says so
# (libelf's own was "cannot write data to file"), for -o as for -H.
st=0
(trap '' XFSZ; ulimit -f 1 && exec $SYSLETC -o killed.slo "$big") \
	>out.txt 2>err.txt || st=$?
expect_eq "write past ulimit -f: status" 1 "$st"
grep -q '^sysletc: killed.slo: File too large$' err.txt ||
	fail "write past ulimit -f: message: $(cat err.txt)"
[ "$(cat killed.slo)" = old ] || fail "EFBIG: the old output was damaged"
no_temp killed.slo
# A file replaced keeps its permissions, as one written in place (gcc's
# -o) or by sed -i does: the new file took 0666 less the umask, so a
# private 0600 image or header became readable by all.
umask 022
printf old >priv.slo
chmod 600 priv.slo
printf old >grp.h
chmod 640 grp.h
$SYSLETC -o priv.slo -H grp.h "$src" || fail "-o and -H over private files"
expect_eq "-o over a 0600 file: its mode" 600 "$(stat -c %a priv.slo)"
expect_eq "-H over a 0640 file: its mode" 640 "$(stat -c %a grp.h)"
cmp -s priv.slo ref.slo || fail "-o over a 0600 file: wrong image"
# And its owner where the caller may give it (root replacing a user's
# image made it root's, as sed -i's rename does not).
if [ "$(id -u)" = 0 ] && chown 65534:65534 priv.slo 2>/dev/null; then
	$SYSLETC -o priv.slo "$src" || fail "-o over another user's file"
	expect_eq "-o over another user's file: its owner" 65534:65534 \
		"$(stat -c %u:%g priv.slo)"
	expect_eq "-o over another user's file: its mode" 600 \
		"$(stat -c %a priv.slo)"
fi
rm -f new.slo
$SYSLETC -o new.slo "$src" || fail "-o to a new file"
expect_eq "-o to a new file: its mode (umask 022)" 644 "$(stat -c %a new.slo)"
if command -v unshare >/dev/null 2>&1 &&
   unshare -m sh -c 'umount -l /proc' 2>/dev/null; then
	unshare -m sh -c "umount -l /proc && exec $SYSLETC -o priv.slo '$src'" ||
		fail "without /proc: -o over a 0600 file"
	expect_eq "without /proc: -o over a 0600 file: its mode" 600 \
		"$(stat -c %a priv.slo)"
fi

# The same where O_TMPFILE cannot be linked (no /proc): the named
# temporary file is removed by the signal handler.
# The sanitizers' runtime reads its options and checks leaks through
# /proc: a sanitizer build cannot run there (all else above passed).
[ -z "${SYSLET_SANITIZE:-}" ] ||
	skip "the part without /proc: the sanitizer runtime ($SYSLET_SANITIZE) needs /proc"
if command -v unshare >/dev/null 2>&1 &&
   unshare -m sh -c 'umount -l /proc' 2>/dev/null; then
	unshare -m sh -c "umount -l /proc && { ulimit -f 1; exec $SYSLETC -o killed.slo '$big'; }" \
		>/dev/null 2>&1
	[ "$(cat killed.slo)" = old ] || fail "without /proc: the old output was damaged"
	no_temp killed.slo
	unshare -m sh -c "umount -l /proc && exec $SYSLETC -o named.slo '$src'" ||
		fail "without /proc: compile"
	cmp -s named.slo ref.slo || fail "without /proc: wrong image"
	no_temp named.slo
else
	echo "no mount namespace: the named fallback is not tried"
fi
exit 0
