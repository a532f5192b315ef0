/* stdfds.c: open the standard descriptors a program was started without (see stdfds.h). */
#define _GNU_SOURCE	/* O_PATH */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
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
