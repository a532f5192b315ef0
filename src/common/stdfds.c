/* stdfds.c: open the standard descriptors a program was started without, and check the standard output at the end (see stdfds.h). */
#define _GNU_SOURCE	/* O_PATH */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/stdfds.h"

ssize_t common_write_wait(int fd, const void *buf, size_t len)
{
	size_t at = 0;

	while (at < len) {
		ssize_t w = write(fd, (const char *)buf + at, len - at);

		if (w >= 0) {
			at += (size_t)w;
			continue;
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			struct pollfd p = { .fd = fd, .events = POLLOUT };

			/* POLLERR or POLLHUP: the next write says what. */
			if (poll(&p, 1, -1) >= 0 || errno == EINTR)
				continue;
		}
		return -1;
	}
	return (ssize_t)len;
}

static ssize_t std_cookie_write(void *cookie, const char *buf, size_t len)
{
	return common_write_wait((int)(intptr_t)cookie, buf, len);
}

/*
 * Standard output or error, when it is non-blocking (O_NONBLOCK set by
 * whoever shares the pipe: a Node.js or asyncio parent, a shell's
 * earlier program): stdio's write() fails with EAGAIN once the pipe is
 * full and drops what it held.  The stream is replaced by one that
 * waits for room, as a blocking descriptor would; the descriptor and
 * its flags, which the syslet sees, stay as they are.  Not a terminal:
 * readline needs its output stream's descriptor.
 */
static void std_wait_for_room(int fd)
{
	cookie_io_functions_t io = { .write = std_cookie_write };
	int fl = fcntl(fd, F_GETFL);
	FILE *f;

	if (fl < 0 || !(fl & O_NONBLOCK) || isatty(fd))
		return;
	f = fopencookie((void *)(intptr_t)fd, "w", io);
	if (!f)
		return;
	if (fd == STDERR_FILENO) {
		setvbuf(f, NULL, _IONBF, 0);
		stderr = f;
	} else {
		stdout = f;
	}
}

void common_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		int nfd;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		/* The lowest free descriptor: fd itself, as the lower ones
		 * are taken by now. */
		nfd = open("/dev/null", (fd ? O_RDONLY : O_WRONLY) | O_NOCTTY);
		if (nfd < 0)
			nfd = open("/", O_PATH | O_DIRECTORY);
		if (nfd > fd)
			close(nfd);
	}
	std_wait_for_room(STDOUT_FILENO);
	std_wait_for_room(STDERR_FILENO);
}

int common_flush_stdout(const char *prog)
{
	/* An earlier write's errno is gone: then say only that one failed. */
	int e = fflush(stdout) ? errno : 0;

	if (e || ferror(stdout)) {
		fprintf(stderr, "%s: standard output: %s\n", prog,
			e ? strerror(e) : "write error");
		return -1;
	}
	return 0;
}

int common_stderr_lost(const char *prog)
{
	int e = fflush(stderr) ? errno : 0;

	if (!e && !ferror(stderr))
		return 0;
	clearerr(stderr);
	fprintf(stderr, "%s: standard error: %s\n", prog,
		e ? strerror(e) : "write error");
	return -1;
}
