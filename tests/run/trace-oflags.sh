#!/bin/sh
# trace-oflags.sh: --trace names open's flags and what fcntl(F_GETFL) returns as strace does, in its order: O_DSYNC alone is O_DSYNC (O_SYNC holds its bit and more), O_LARGEFILE before O_DIRECTORY, O_PATH by name; the expected lines are strace 6's for the same calls.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
cd "$tmpdir" || exit 99
cat >oflags.syslet <<'SRC'
syslet oflags(str path) {
	var fd;

	fd = open(path, O_WRONLY | O_CREAT | O_DSYNC, 0600);
	fcntl(fd, F_GETFL);
	fd = open(path, O_WRONLY | O_APPEND | O_SYNC);
	fcntl(fd, F_GETFL);
	fd = open(".", O_RDONLY | O_DIRECTORY);
	fcntl(fd, F_GETFL);
	fd = open(path, O_PATH | O_NOFOLLOW);
	fcntl(fd, F_GETFL);
}
SRC
for b in $backends; do
	rm -f f
	$SYSLET_RUN --backend=$b --trace oflags.syslet f 2>trace ||
		{ cat trace >&2; fail "$b: the run failed"; }
	sed 's/^oflags\.syslet:[0-9]* \[[0-9]*\] //; s/ <[^>]*> -> .*//' \
		trace >calls
	for re in \
		'open("f", O_WRONLY|O_CREAT|O_DSYNC, 0600) = [0-9]*' \
		'fcntl([0-9]*, F_GETFL) = 0x9001 (flags O_WRONLY|O_DSYNC|O_LARGEFILE)' \
		'open("f", O_WRONLY|O_APPEND|O_SYNC) = [0-9]*' \
		'fcntl([0-9]*, F_GETFL) = 0x109401 (flags O_WRONLY|O_APPEND|O_SYNC|O_LARGEFILE)' \
		'open(".", O_RDONLY|O_DIRECTORY) = [0-9]*' \
		'fcntl([0-9]*, F_GETFL) = 0x18000 (flags O_RDONLY|O_LARGEFILE|O_DIRECTORY)' \
		'open("f", O_RDONLY|O_NOFOLLOW|O_PATH) = [0-9]*' \
		'fcntl([0-9]*, F_GETFL) = 0x220000 (flags O_RDONLY|O_NOFOLLOW|O_PATH)'
	do
		grep -qx "$re" calls || { cat trace >&2
			fail "$b: no line matches '$re'"; }
	done
done
exit 0
