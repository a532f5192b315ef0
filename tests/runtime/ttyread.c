/* ttyread.c: a syslet of a background process group that reads its terminal is stopped by SIGTTIN and reads once in the foreground, as a plain read(2) is; with SIGTTIN ignored or blocked it fails with EIO at once. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <libsyslet.h>
#include "helpers.h"

/*
 * The terminal's job control (n_tty_read): a read by a process that is
 * not in the terminal's foreground group sends SIGTTIN to its group,
 * which stops it, and is restarted once the group is continued; where
 * the reading thread ignores or blocks SIGTTIN the read fails with EIO
 * instead.  In 2007 the read ran in the caller's task, with the
 * program's mask.  The engines' workers hold every signal back, so a
 * read there failed with EIO where the program does not block SIGTTIN:
 * `syslet-run prog &` reading the terminal ended at once instead of
 * waiting in the background to be brought to the foreground.
 *
 * A session of our own on a pseudo-terminal: its leader (the test's
 * child) makes a process group that is not the foreground one, whose
 * member runs the syslet (its read goes async: the terminal is empty).
 * The member must stop; the leader then makes its group the foreground,
 * continues it and types a line, which the atom must read.  With SIGTTIN
 * set to SIG_IGN, or blocked by the program, the atom must give -EIO
 * and nothing stops.  A line typed before the read makes it run in place
 * in the caller, which must stop all the same; so must a write under
 * TOSTOP (SIGTTOU), which then goes through.
 */

enum { TR_DFL, TR_IGN, TR_BLOCK, TR_AHEAD, TR_TOSTOP, TR_NMODES };

static const char *const tr_names[] = {
	"default", "ignored", "blocked", "typed ahead", "tostop write",
};

/* The mode's stop signal, or 0 where the call must fail with EIO. */
static int tr_stop(int mode)
{
	return mode == TR_TOSTOP ? SIGTTOU :
	       mode == TR_DFL || mode == TR_AHEAD ? SIGTTIN : 0;
}

/* The member: one read atom of the terminal; exit 0 when it read @line,
 * 3 for -EIO, 1 otherwise. */
static int member(int tty, int mode, const char *line)
{
	static struct syslet_uatom *ring[4];
	struct async_head_user ahu;
	struct syslet_uatom a, *done;
	char buf[64];
	unsigned long fd = (unsigned long)tty, bp = (unsigned long)buf;
	unsigned long len = sizeof(buf);
	long ret = 12345;

	if (mode == TR_IGN)
		signal(SIGTTIN, SIG_IGN);
	if (mode == TR_BLOCK) {
		sigset_t s;

		sigemptyset(&s);
		sigaddset(&s, SIGTTIN);
		sigprocmask(SIG_BLOCK, &s, NULL);
	}
	rt_register(&ahu, ring, 4, -1UL);
	memset(buf, 0, sizeof(buf));
	if (mode == TR_TOSTOP) {
		strcpy(buf, line);
		len = strlen(line);
	}
	rt_atom(&a, mode == TR_TOSTOP ? SYS_write : SYS_read, &ret, 0, NULL,
		&fd, &bp, &len);
	done = sys_async_exec(&a);
	if (!done && errno)
		rt_die("async_exec: %s", strerror(errno));
	if (!done)
		while (!ring[0])
			if (sys_async_wait(1) && errno != EINTR)
				rt_die("async_wait: %s", strerror(errno));
	if (ret == -EIO)
		return 3;
	if (ret != (long)strlen(line) || memcmp(buf, line, strlen(line))) {
		fprintf(stderr, "FAIL: %s: the atom read %ld: '%.*s'\n",
			tr_names[mode], ret, ret > 0 ? (int)ret : 0, buf);
		return 1;
	}
	return 0;
}

/* The session leader: 0 when the member did what a plain read does. */
static int leader(const char *slave, int mfd, int mode)
{
	static const char line[] = "hello\n";
	int tty, st = 0, waited = 0;
	struct termios tio;
	pid_t m, r;

	if (setsid() < 0)
		return 99;
	tty = open(slave, O_RDWR);
	if (tty < 0 || ioctl(tty, TIOCSCTTY, 0) || tcgetattr(tty, &tio))
		return 99;
	if (mode == TR_TOSTOP) {
		tio.c_lflag |= TOSTOP;
		if (tcsetattr(tty, TCSANOW, &tio))
			return 99;
	}
	if (mode == TR_AHEAD) {
		if (write(mfd, line, strlen(line)) != (ssize_t)strlen(line))
			return 99;
		usleep(50000);	/* the line discipline has it */
	}
	m = fork();
	if (m < 0)
		return 99;
	if (!m) {
		setpgid(0, 0);
		_exit(member(tty, mode, line));
	}
	setpgid(m, m);
	/* The member stops (or ends at once with EIO): 10 s at most. */
	for (;;) {
		r = waitpid(m, &st, WUNTRACED | WNOHANG);
		if (r == m || r < 0 || waited++ > 10000)
			break;
		usleep(1000);
	}
	if (r != m) {
		fprintf(stderr, "FAIL: %s: the member neither stopped nor "
			"ended\n", tr_names[mode]);
		kill(m, SIGKILL);
		return 1;
	}
	if (!tr_stop(mode)) {
		if (WIFEXITED(st) && WEXITSTATUS(st) == 3)
			return 0;
		fprintf(stderr, "FAIL: %s SIGTTIN: the read did not fail "
			"with EIO (%s %d), as a plain read does\n",
			tr_names[mode], WIFSTOPPED(st) ? "stopped by" :
			WIFEXITED(st) ? "exit" : "signal",
			WIFSTOPPED(st) ? WSTOPSIG(st) : WIFEXITED(st) ?
			WEXITSTATUS(st) : WTERMSIG(st));
		kill(m, SIGKILL);
		return 1;
	}
	if (!WIFSTOPPED(st) || WSTOPSIG(st) != tr_stop(mode)) {
		fprintf(stderr, "FAIL: %s: the background call did not stop "
			"the program with signal %d, as a plain one does "
			"(%s %d%s)\n", tr_names[mode], tr_stop(mode),
			WIFEXITED(st) ? "exit" : WIFSTOPPED(st) ? "stopped by" :
			"signal", WIFEXITED(st) ? WEXITSTATUS(st) :
			WIFSTOPPED(st) ? WSTOPSIG(st) : WTERMSIG(st),
			WIFEXITED(st) && WEXITSTATUS(st) == 3 ?
			": the atom gave -EIO" : "");
		kill(m, SIGKILL);
		return 1;
	}
	/* The foreground, continued, a line typed: the read gets it. */
	signal(SIGTTOU, SIG_IGN);
	if (tcsetpgrp(tty, m) || kill(m, SIGCONT))
		return 99;
	usleep(100000);
	return -1 - tty;	/* the parent types through the master */
}

int main(void)
{
	const char *b = rt_init();

	/* Not yet measured against the kernel port's hand-off. */
	if (strcmp(b, "emul") && strcmp(b, "uring")) {
		fprintf(stderr, "SKIP: checked on the emul and uring "
			"backends only, not on %s\n", b);
		return RT_SKIP;
	}
	for (int mode = TR_DFL; mode < TR_NMODES; mode++) {
		int mfd = posix_openpt(O_RDWR | O_NOCTTY), st = 0;
		int p[2];
		char *slave;
		pid_t l;

		if (mfd < 0 || grantpt(mfd) || unlockpt(mfd) ||
		    !(slave = ptsname(mfd))) {
			fprintf(stderr, "SKIP: no pseudo-terminal: %s\n",
				strerror(errno));
			return RT_SKIP;
		}
		if (pipe(p))
			rt_die("pipe");
		l = fork();
		if (l < 0)
			rt_die("fork");
		if (!l) {
			int r = leader(slave, mfd, mode);

			if (r < 0) {
				/* Continued: tell the test to type, then
				 * wait for the member. */
				pid_t m;
				int ms = 0;

				(void)!write(p[1], "t", 1);
				m = wait(&ms);
				if (m < 0)
					_exit(99);
				_exit(WIFEXITED(ms) ? WEXITSTATUS(ms) : 1);
			}
			_exit(r);
		}
		close(p[1]);
		{
			char c;
			fd_set fds;
			struct timeval tv = { 20, 0 };

			FD_ZERO(&fds);
			FD_SET(p[0], &fds);
			if (select(p[0] + 1, &fds, NULL, NULL, &tv) > 0 &&
			    read(p[0], &c, 1) == 1 &&
			    write(mfd, "hello\n", 6) != 6)
				rt_die("typing: %s", strerror(errno));
		}
		if (waitpid(l, &st, 0) != l)
			rt_die("waitpid");
		close(p[0]);
		close(mfd);
		if (!WIFEXITED(st) || WEXITSTATUS(st) == 99)
			rt_die("%s: the session's leader failed", tr_names[mode]);
		rt_check(WEXITSTATUS(st) == 0, "%s: see above",
			 tr_names[mode]);
	}
	return rt_done("ttyread");
}
