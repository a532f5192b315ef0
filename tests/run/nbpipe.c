/* nbpipe.c: run a command with its standard output or error (FD, 1 or 2) a non-blocking pipe that is read only after MS milliseconds, so that it fills; what came through goes to our standard output, and we exit with the command's status (128 + a signal's number). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec ts;
	char buf[65536];
	int p[2], fd, ms, st;
	pid_t pid;
	ssize_t n;

	if (argc < 4) {
		fprintf(stderr, "usage: nbpipe FD MS COMMAND [ARG...]\n");
		return 99;
	}
	fd = atoi(argv[1]);
	ms = atoi(argv[2]);
	if ((fd != 1 && fd != 2) || pipe(p) ||
	    fcntl(p[1], F_SETFL, fcntl(p[1], F_GETFL) | O_NONBLOCK)) {
		perror("nbpipe");
		return 99;
	}
	pid = fork();
	if (pid < 0) {
		perror("nbpipe: fork");
		return 99;
	}
	if (!pid) {
		close(p[0]);
		if (dup2(p[1], fd) < 0)
			_exit(99);
		close(p[1]);
		execvp(argv[3], argv + 3);
		perror(argv[3]);
		_exit(127);
	}
	close(p[1]);
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (long)(ms % 1000) * 1000000;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	while ((n = read(p[0], buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || fwrite(buf, 1, (size_t)n, stdout) != (size_t)n) {
			perror("nbpipe: read");
			return 99;
		}
	}
	if (waitpid(pid, &st, 0) < 0) {
		perror("nbpipe: waitpid");
		return 99;
	}
	if (fflush(stdout))
		return 99;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
