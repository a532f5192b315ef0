/* procwide.c: what a syslet changes for the whole process (umask, working directory, resource limits) the program sees afterwards, whether the atom ran in place or after a hand-off. */
#include "helpers.h"
#include <fcntl.h>
#include <limits.h>
#include <sys/resource.h>
#include <sys/stat.h>

/*
 * 2007's cachemiss threads were made with CLONE_FS and CLONE_THREAD
 * (seeds/006 refill_cachemiss_pool()): the umask, root and working
 * directory (fs_struct) and the resource limits (signal_struct) were
 * the process's, so umask(), chdir(), fchdir() and setrlimit() from an
 * atom changed them for the program whichever task ran it.  Each call
 * runs three ways: in place, as an ASYNC atom, and after a read that
 * blocks (the caller waiting in async_wait()).
 */

#define ENTRIES	8

static struct syslet_uatom *ring[ENTRIES];
static unsigned long idx;

/* @a run in place (0), as ASYNC (1) or after a blocked read (2); returns
 * its result. */
static long run(struct syslet_uatom *a, long *r, int how)
{
	static struct rt_pipe_read pr;
	struct syslet_uatom *done, *first = a;
	pthread_t t;

	a->flags = how == 1 ? SYSLET_ASYNC : 0;
	if (how == 2) {
		rt_pipe_read_init(&pr);
		pr.atom.next = a;
		rt_pipe_write_late(&pr, &t);
		first = &pr.atom;
	}
	errno = 0;
	done = sys_async_exec(first);
	if (!done && errno)
		rt_die("async_exec: %s", strerror(errno));
	if (!done) {
		rt_wait_slot(&ring[idx], 1);
		done = ring[idx];
		ring[idx] = NULL;
		idx = (idx + 1) % ENTRIES;
	}
	if (how == 2) {
		rt_pipe_write_join(t);
		rt_pipe_read_close(&pr);
	}
	if (done != a)
		rt_die("completion %p, want %p", (void *)done, (void *)a);
	return *r;
}

int main(void)
{
	static const char *const hows[] = { "in place", "ASYNC",
					    "after a blocked read" };
	static const char *const dirs[] = { "/", "/tmp", "/dev" };
	struct async_head_user ahu;
	char start[PATH_MAX], cwd[PATH_MAX];
	struct rlimit old;

	rt_init();
	if (!getcwd(start, sizeof(start)) || getrlimit(RLIMIT_NOFILE, &old))
		rt_die("getcwd, getrlimit: %s", strerror(errno));
	rt_register(&ahu, ring, ENTRIES, 2);
	for (int how = 0; how < 3; how++) {
		const char *w = hows[how];
		unsigned long x[2];
		struct syslet_uatom a;
		struct rlimit rl, now;
		mode_t m;
		long r = -12345;
		int fd;

		/* umask: the old value back, the new one the program's. */
		umask(022);
		x[0] = 027 + (unsigned long)how;
		rt_atom(&a, __NR_umask, &r, 0, NULL, &x[0], NULL, NULL);
		r = run(&a, &r, how);
		m = umask(022);
		rt_check(r == 022 && m == 027 + (mode_t)how, "%s: umask atom "
			 "gave %#lo, the program then had %#o, want %#o", w, r,
			 (unsigned)m, 027 + how);

		x[0] = (unsigned long)dirs[how];
		rt_atom(&a, __NR_chdir, &r, 0, NULL, &x[0], NULL, NULL);
		r = run(&a, &r, how);
		rt_check(r == 0 && getcwd(cwd, sizeof(cwd)) &&
			 !strcmp(cwd, dirs[how]), "%s: chdir(%s) atom: %ld, "
			 "the program's directory %s", w, dirs[how], r, cwd);

		fd = open(start, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			rt_die("%s: %s", start, strerror(errno));
		x[0] = (unsigned long)fd;
		rt_atom(&a, __NR_fchdir, &r, 0, NULL, &x[0], NULL, NULL);
		r = run(&a, &r, how);
		rt_check(r == 0 && getcwd(cwd, sizeof(cwd)) &&
			 !strcmp(cwd, start), "%s: fchdir atom: %ld, the "
			 "program's directory %s, want %s", w, r, cwd, start);
		close(fd);

		/* A soft limit of its own each time, under the hard one. */
		rl = old;
		rl.rlim_cur = 200 + (rlim_t)how;
		if (rl.rlim_max != RLIM_INFINITY && rl.rlim_cur > rl.rlim_max)
			rl.rlim_cur = rl.rlim_max - (rlim_t)how;
		x[0] = RLIMIT_NOFILE;
		x[1] = (unsigned long)&rl;
		rt_atom(&a, __NR_setrlimit, &r, 0, NULL, &x[0], &x[1], NULL);
		r = run(&a, &r, how);
		rt_check(r == 0 && !getrlimit(RLIMIT_NOFILE, &now) &&
			 now.rlim_cur == rl.rlim_cur, "%s: setrlimit atom: "
			 "%ld, the program's soft limit %lu, want %lu", w, r,
			 (unsigned long)now.rlim_cur,
			 (unsigned long)rl.rlim_cur);
		setrlimit(RLIMIT_NOFILE, &old);
	}
	rt_unregister(&ahu);
	if (chdir(start))
		rt_die("chdir %s: %s", start, strerror(errno));
	return rt_done("procwide");
}
