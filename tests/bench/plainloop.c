/* plainloop.c: the benchmark's plain C program: open, read and close each file named on the command line. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char buf[4096];
	int status = 0;

	for (int i = 1; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY);

		if (fd < 0 || read(fd, buf, sizeof(buf)) < 0) {
			perror(argv[i]);
			status = 1;
		}
		if (fd >= 0)
			close(fd);
	}
	return status;
}
