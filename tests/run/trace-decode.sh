#!/bin/sh
# trace-decode.sh: --trace shows what a call wrote, as strace does: pipe's descriptors, getcwd's string, the entries getdents64 read, clock_gettime's and nanosleep's timespec, setsockopt's int, wait4's status, mmap's address in hex, fstat's and newfstatat's struct stat, uname's names, fcntl's F_GETFL and F_GETFD flags, a pid (pidfd_open's) in decimal, splice's offsets and length, and a null buffer as NULL.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
cd "$tmpdir" || exit 99
mkdir d && touch d/a d/b d/c || exit 99
cat >decode.syslet <<'SRC'
u32 fds[2];
buffer cwd[256];
buffer ents[4096];
buffer ts[64];
buffer st[144];
buffer uts[390];
data nap = word(0), word(1000);
var one = 1;

syslet decode(str dir, int child) {
	var fd, s;

	pipe2(fds, O_CLOEXEC);
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	getdents64(fd, ents, sizeof(ents));
	close(fd);
	chdir("/");
	getcwd(cwd, sizeof(cwd));
	clock_gettime(CLOCK_MONOTONIC, ts);
	nanosleep(nap, NULL);
	s = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, 4);
	close(s);
	mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	wait4(child, ts, 0, NULL);
	fd = open("/dev/null", O_RDWR | O_NONBLOCK);
	fstat(fd, st);
	fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	fcntl(fd, F_GETFD);
	newfstatat(AT_FDCWD, "/", st, 0);
	uname(uts);
	pidfd_open(999999, 0);
	splice(-1, NULL, -1, NULL, 65536, 0);
	write(fd, NULL, 0);
}
SRC
dirsize=$(stat -c %s /) || exit 99
sysname=$(uname -s) || exit 99
for b in $backends; do
	# The shell's child, exiting 7, becomes syslet-run's through exec.
	sh -c '(sleep 0.2; exit 7) & exec "$@" $!' sh \
		$SYSLET_RUN --backend=$b --trace decode.syslet d \
		2>trace || { cat trace >&2; fail "$b: the run failed"; }
	sed 's/^decode\.syslet:[0-9]* \[[0-9]*\] //; s/ <[^>]*> -> .*//' \
		trace >calls
	for re in \
		'pipe2(\[[0-9]*, [0-9]*\], O_CLOEXEC) = 0' \
		'getdents64([0-9]*, 0x[0-9a-f]* /\* 5 entries \*/, 4096) = [0-9]*' \
		'getcwd("/", 256) = 2' \
		'clock_gettime(CLOCK_MONOTONIC, {tv_sec=[0-9]*, tv_nsec=[0-9]*}) = 0' \
		'nanosleep({tv_sec=0, tv_nsec=1000}, NULL) = 0' \
		'setsockopt([0-9]*, SOL_SOCKET, SO_REUSEADDR, \[1\], 4) = 0' \
		'mmap(NULL, 4096, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x[0-9a-f]*' \
		'wait4([0-9]*, \[{WIFEXITED(s) \&\& WEXITSTATUS(s) == 7}\], 0, NULL) = [0-9]*' \
		'fstat([0-9]*, {st_mode=S_IFCHR|0666, st_rdev=makedev(0x1, 0x3), ...}) = 0' \
		'fcntl([0-9]*, F_GETFL) = 0x[0-9a-f]* (flags O_RDWR|O_NONBLOCK[|A-Z_]*)' \
		'fcntl([0-9]*, F_GETFD) = 0x1 (flags FD_CLOEXEC)' \
		"newfstatat(AT_FDCWD, \"/\", {st_mode=S_IFDIR|0[0-7]*, st_size=$dirsize, ...}, 0) = 0" \
		"uname({sysname=\"$sysname\", nodename=\"[^\"]*\", ...}) = 0" \
		'write([0-9]*, NULL, 0) = 0' \
		'pidfd_open(999999, 0) = .*' \
		'splice(-1, NULL, -1, NULL, 65536, 0) = -9 EBADF'
	do
		grep -qx "$re" calls || { cat trace >&2
			fail "$b: no line matches '$re'"; }
	done
done
exit 0
