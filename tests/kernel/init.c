/* init.c: the guest's /init: mounts, runs every program listed in /tests/list, powers off. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Each line of /tests/list is a command line (words split on blanks)
 * and the host reads the markers around each run to name its TAP.
 */
static void kinit_run(char *line)
{
	char *argv[32], *save = NULL, *w;
	int argc = 0, status;
	pid_t pid;

	for (w = strtok_r(line, " \t\n", &save); w && argc < 31;
	     w = strtok_r(NULL, " \t\n", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	if (!argc || argv[0][0] == '#')
		return;
	printf("=== syslet-run-begin %s\n", argv[0]);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execv(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		status = 127 << 8;
	printf("=== syslet-run-end %s %d\n", argv[0],
	       WIFEXITED(status) ? WEXITSTATUS(status) :
	       128 + WTERMSIG(status));
	fflush(stdout);
}

int main(void)
{
	char line[512];
	FILE *list;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount("tmpfs", "/tmp", "tmpfs", 0, NULL);
	setenv("PATH", "/bin", 1);
	setenv("TMPDIR", "/tmp", 1);
	list = fopen("/tests/list", "r");
	if (list) {
		while (fgets(line, sizeof(line), list))
			kinit_run(line);
		fclose(list);
	} else {
		perror("/tests/list");
	}
	printf("=== syslet-guest-done\n");
	fflush(stdout);
	sync();
	/* qemu runs with -no-reboot, so a restart ends it. */
	reboot(RB_AUTOBOOT);
	return 0;
}
