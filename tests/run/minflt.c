/* minflt.c: run a command, its standard output thrown away, and print the minor page faults it took and its exit status. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int status, fd;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: minflt COMMAND [ARG...]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("minflt: fork");
		return 99;
	}
	if (pid == 0) {
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0)
			dup2(fd, 1);
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid) {
		perror("minflt: wait4");
		return 99;
	}
	printf("%ld %d\n", ru.ru_minflt,
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return 0;
}
