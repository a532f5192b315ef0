/* init.c: the guest's /init: mounts, runs every program listed in /tests/list, powers off. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * A program that outlives this is killed with its process group, so a
 * hung program (or a chain that never ends) costs one TAP failure, not
 * the whole boot.  SIGKILL must work on any chain: that is tested too.
 */
#define KINIT_LIMIT 240

/* syslog(2)'s SYSLOG_ACTION_READ_ALL and _READ_CLEAR, which glibc does not name. */
#define KINIT_SYSLOG_READ_ALL 3
#define KINIT_SYSLOG_READ_CLEAR 4

/*
 * What the kernel logged at KERN_WARNING or worse since the last look
 * (a WARN_ON, lockdep, a sleeping-in-atomic report), as "=== kmsg"
 * lines: the console shows warnings too (loglevel=5), but it can lose
 * lines, and here they follow the program that caused them.
 */
static void kinit_kmsg(void)
{
	static char buf[1 << 17];
	char *line, *save = NULL;
	int n;

	n = klogctl(KINIT_SYSLOG_READ_CLEAR, buf, sizeof(buf) - 1);
	if (n <= 0)
		return;
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (line[0] == '<' && line[1] >= '0' && line[1] <= '4')
			printf("=== kmsg %s\n", line);
	fflush(stdout);
}

static volatile sig_atomic_t kinit_expired;

static void kinit_alarm(int sig)
{
	(void)sig;
	kinit_expired = 1;
}

/*
 * Each line of /tests/list is a command line (words split on blanks),
 * after any NAME=VALUE words, which go into the program's environment
 * (SYSLET_BACKEND=emul: the same program on another engine); the host
 * reads the markers around each run, which name the program and those
 * words, to name its TAP.
 */
static void kinit_run(char *line)
{
	char *argv[32], *save = NULL, *w, **prog;
	int argc = 0, status, kills = 0, nenv;
	pid_t pid;

	for (w = strtok_r(line, " \t\n", &save); w && argc < 31;
	     w = strtok_r(NULL, " \t\n", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	if (!argc || argv[0][0] == '#')
		return;
	for (nenv = 0; nenv < argc && argv[nenv][0] != '/' &&
	     strchr(argv[nenv], '='); nenv++)
		;
	prog = argv + nenv;
	if (!*prog)
		return;
	printf("=== syslet-run-begin %s", prog[0]);
	for (int i = 0; i < nenv; i++)
		printf(" %s", argv[i]);
	printf("\n");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		for (int i = 0; i < nenv; i++)
			putenv(argv[i]);
		execv(prog[0], prog);
		perror(prog[0]);
		_exit(127);
	}
	kinit_expired = 0;
	alarm(KINIT_LIMIT);
	while (pid > 0 && waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			status = 127 << 8;
			break;
		}
		if (kinit_expired && kills++) {
			/* SIGKILL did not end it within another limit. */
			printf("=== syslet-run-unkillable %s\n", prog[0]);
			status = 127 << 8;
			break;
		}
		if (kinit_expired) {
			printf("=== syslet-run-timeout %s %d\n", prog[0],
			       KINIT_LIMIT);
			fflush(stdout);
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			kinit_expired = 0;
			alarm(KINIT_LIMIT);
		}
	}
	alarm(0);
	if (pid < 0)
		status = 127 << 8;
	printf("=== syslet-run-end %s %d\n", prog[0],
	       WIFEXITED(status) ? WEXITSTATUS(status) :
	       128 + WTERMSIG(status));
	fflush(stdout);
	kinit_kmsg();
}

/*
 * The KUnit suites built into the kernel ran before us and printed
 * KTAP at KERN_INFO, which "quiet" keeps off the console: copy their
 * result lines out of the kernel log as the output of a program named
 * "kunit", indentation stripped, so that the host reads them as TAP.
 */
static void kinit_kunit(void)
{
	static char buf[1 << 17];
	char *line, *save = NULL, *t;
	int n, found = 0, failed = 0;

	n = klogctl(KINIT_SYSLOG_READ_ALL, buf, sizeof(buf) - 1);
	if (n <= 0)
		return;
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '<' && (t = strchr(line, '>')))
			line = t + 1;
		while (*line == ' ' || *line == '\t')
			line++;
		if (strncmp(line, "ok ", 3) && strncmp(line, "not ok ", 7) &&
		    strncmp(line, "# Subtest: ", 11))
			continue;
		if (!found++)
			printf("=== syslet-run-begin /bin/kunit\n");
		failed += !strncmp(line, "not ok ", 7);
		printf("%s\n", line);
	}
	if (found)
		printf("=== syslet-run-end /bin/kunit %d\n", failed ? 1 : 0);
	fflush(stdout);
}

/* Bring up lo, as a system's init does (the guest has no ip(8)): the
 * programs talk TCP on loopback (the server example; the stream tests'
 * socket pairs where the kernel has no Unix sockets). */
static void kinit_lo_up(void)
{
	struct ifreq ifr;
	int s = socket(AF_INET, SOCK_DGRAM, 0);

	if (s < 0)
		return;	/* no TCP/IP in this kernel */
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(s, SIOCGIFFLAGS, &ifr) == 0) {
		ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
		if (ioctl(s, SIOCSIFFLAGS, &ifr))
			perror("init: lo up");
	}
	close(s);
}

int main(void)
{
	char line[512];
	FILE *list;

	struct sigaction sa = { .sa_handler = kinit_alarm };

	/* No SA_RESTART: the alarm must interrupt waitpid(). */
	sigaction(SIGALRM, &sa, NULL);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount("tmpfs", "/tmp", "tmpfs", 0, NULL);
	kinit_lo_up();
	setenv("PATH", "/bin", 1);
	setenv("TMPDIR", "/tmp", 1);
	/* The conformance programs must test the kernel, never fall back. */
	setenv("SYSLET_BACKEND", "kernel", 1);
	kinit_kunit();
	kinit_kmsg();
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
