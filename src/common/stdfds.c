/* stdfds.c: open the standard descriptors a program was started without, and check the standard output at the end (see stdfds.h). */
#define _GNU_SOURCE	/* O_PATH */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/stdfds.h"

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
