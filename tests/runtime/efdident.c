/* efdident.c: an eventfd of the program's own at the number where the engine kept its workers' eventfd, after the program closed that one, is never taken for the engine's: not written, not closed, and the syslets still complete. */
#include "helpers.h"
#include <dirent.h>
#include <fcntl.h>
#include <sys/eventfd.h>
#include <sys/wait.h>

/*
 * uring tells its workers' results to the driver through an eventfd of
 * its own, kept at a high number, and checks on each use that the
 * number is still that file (a program that closes every descriptor it
 * did not open may put one of its own there).  The check compared
 * st_dev and st_ino, which every anonymous-inode file shares: an
 * eventfd, a timerfd, a signalfd, an epoll of the program's passed for
 * the engine's.  Then the workers' results went to the program's
 * eventfd (whose count they raised), the driver waited on the old file
 * for ever (async_wait() hung), and async_unregister() closed the
 * program's descriptor.  Here: a wait4() made by a worker, the engine's
 * eventfd found in /proc/self/fd and closed, an eventfd of the
 * program's put at its number, a second wait4().  Other backends have no
 * such descriptor: the test then checks only that the syslets complete.
 */

/* The number of an eventfd this program did not make (@mine: its own),
 * or -1. */
static int foreign_eventfd(int mine)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int found = -1;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char p[300], l[64];
		ssize_t n;
		int fd = atoi(e->d_name);

		if (fd == dirfd(d) || fd == mine || e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "/proc/self/fd/%s", e->d_name);
		n = readlink(p, l, sizeof(l) - 1);
		if (n < 0)
			continue;
		l[n] = 0;
		if (!strcmp(l, "anon_inode:[eventfd]"))
			found = fd;
	}
	closedir(d);
	return found;
}

/* A wait4() of a child that exits with @code later: a call io_uring
 * lacks, made by a worker where there is one; done within 10 s. */
static void wait_child(const char *what, int code, struct syslet_uatom **ring,
		       unsigned long *idx)
{
	struct timespec ms = { 0, 1000 * 1000 };
	unsigned long pid, statp, zero = 0;
	struct syslet_uatom w, *done;
	int status = 0, i;
	long r = 0;
	pid_t c = rt_child_exits_later(code);

	pid = (unsigned long)c;
	statp = (unsigned long)&status;
	rt_atom(&w, SYS_wait4, &r, 0, NULL, &pid, &statp, &zero);
	w.arg_ptr[3] = &zero;
	errno = 0;
	done = sys_async_exec(&w);
	rt_check(errno == 0, "%s: async_exec: %s", what, strerror(errno));
	/* async_wait() with a bound: a hang is what is looked for. */
	for (i = 0; !done && i < 10000 &&
	     !__atomic_load_n(&ring[*idx], __ATOMIC_ACQUIRE); i++)
		nanosleep(&ms, NULL);
	if (!done) {
		done = ring[*idx];
		rt_drain(ring, 8, idx, NULL, 0);
	}
	rt_check(done == &w && r == c && WIFEXITED(status) &&
		 WEXITSTATUS(status) == code,
		 "%s: completed as %p (want %p) after %d ms, ret %ld "
		 "status %#x", what, (void *)done, (void *)&w, i, r, status);
	if (!done) {
		kill(c, SIGKILL);
		rt_done("efdident");
		exit(RT_FAIL);
	}
}

int main(void)
{
	static struct syslet_uatom *ring[8];
	struct async_head_user ahu;
	unsigned long idx = 0;
	uint64_t v = 0;
	int efd, mine;

	rt_init();
	rt_register(&ahu, ring, 8, 4);
	wait_child("first wait4", 3, ring, &idx);
	efd = foreign_eventfd(-1);
	if (efd >= 0) {
		close(efd);
		mine = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (mine < 0)
			rt_die("eventfd: %s", strerror(errno));
		if (mine != efd) {
			if (dup2(mine, efd) != efd)
				rt_die("dup2: %s", strerror(errno));
			close(mine);
		}
	} else {
		mine = -1;
	}
	wait_child("second wait4", 4, ring, &idx);
	if (mine < 0)
		efd = -1;
	if (efd >= 0) {
		errno = 0;
		rt_check(read(efd, &v, sizeof(v)) < 0 && errno == EAGAIN,
			 "the program's eventfd at %d was written: count %llu",
			 efd, (unsigned long long)v);
	}
	rt_unregister(&ahu);
	if (efd >= 0)
		rt_check(fcntl(efd, F_GETFD) >= 0,
			 "async_unregister() closed the program's eventfd "
			 "at %d: %s", efd, strerror(errno));
	return rt_done("efdident");
}
