/* ringclosed.c: a program that closes the uring backend's ring descriptor behind its back (a daemon closing every descriptor it does not know), or puts a file of its own at that number with dup2(), loses no syslet: those in flight (in the ring, or on a worker while the progress thread sleeps in the ring) and those submitted after complete once, async_wait() succeeds, and async_unregister() returns and leaves the program's file alone. */
#include <dirent.h>
#include <sys/select.h>
#include <sys/utsname.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "helpers.h"

#define RC_BATCH 4

/* The descriptor of this process's io_uring (the head's: the test has
 * one ring), or -1. */
static int ring_fd(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	char path[300], link[128];
	int fd = -1;

	if (!d)
		rt_die("/proc/self/fd: %s", strerror(errno));
	while ((e = readdir(d))) {
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = 0;
		if (strstr(link, "[io_uring]"))
			fd = atoi(e->d_name);
	}
	closedir(d);
	return fd;
}

/* @how: "close" every descriptor above the pipes, or "dup2" a file of
 * the program's onto the ring's number, with a read in the ring; or
 * "worker": close them with a select() on a worker, the ring's read
 * done and the progress thread asleep in the ring. */
static int ringclosed(const char *how)
{
	static const char data[] = "the program's own file";
	struct async_head_user ahu;
	struct syslet_uatom *ring[16];
	struct rt_pipe_read pr, pr2, bt[RC_BATCH];
	struct syslet_uatom *atoms[RC_BATCH], *done[RC_BATCH];
	int errs[RC_BATCH], got[RC_BATCH], got2 = 0, rfd, own = -1;
	char tmpl[] = "/tmp/ringclosed.XXXXXX", back[64];
	int worker = !strcmp(how, "worker"), sp[2], got_sel = 0;
	struct syslet_uatom sel;
	unsigned long nfds, setp, zero = 0;
	long sel_ret = 0;
	fd_set set;
	struct rlimit rl;
	long r;

	if (syslet_set_backend("uring")) {
		fprintf(stderr, "SKIP: the uring backend does not run here: %s\n",
			syslet_backend_error() ? syslet_backend_error() : "?");
		return RT_SKIP;
	}
	rt_register(&ahu, ring, 16, -1UL);
	rt_pipe_read_init(&pr);
	rt_pipe_read_init(&pr2);
	for (int i = 0; i < RC_BATCH; i++) {
		rt_pipe_read_init(&bt[i]);
		atoms[i] = &bt[i].atom;
		got[i] = 0;
	}
	if (pipe(sp))
		rt_die("pipe: %s", strerror(errno));
	FD_ZERO(&set);
	FD_SET(sp[0], &set);
	nfds = (unsigned long)sp[0] + 1;
	setp = (unsigned long)&set;
	rt_atom(&sel, __NR_select, &sel_ret, 0, NULL, &nfds, &setp, &zero);
	sel.arg_ptr[3] = &zero;
	sel.arg_ptr[4] = &zero;
	rt_pipe_read_exec(&pr);
	rfd = ring_fd();
	if (rfd < 0)
		rt_die("no io_uring among the descriptors");
	if (worker) {
		/* Nothing of the ring's to come: its read is done, and the
		 * select() waits on a worker. */
		if (write(pr.pfd[1], "x", 1) != 1)
			rt_die("write: %s", strerror(errno));
		r = sys_async_wait(1);
		rt_check(r == 0 && ring[0] == &pr.atom && pr.ret == 1,
			 "worker: the read: async_wait %ld, slot %p", r,
			 (void *)ring[0]);
		rt_taken(ring, 16, &pr.atom);
		errno = 0;
		if (sys_async_exec(&sel) || errno)
			rt_die("the select did not go async: %s",
			       strerror(errno));
		/* The progress thread goes to sleep in the ring after 8
		 * looks of a millisecond with nothing to do. */
		usleep(100000);
	}
	if (strcmp(how, "dup2")) {
		/* Everything above the pipes goes: the ring and its
		 * eventfd are near the top of the limit. */
		if (getrlimit(RLIMIT_NOFILE, &rl))
			rt_die("getrlimit: %s", strerror(errno));
		for (long fd = sp[1] + 1;
		     fd < (long)(rl.rlim_cur < 1048576 ? rl.rlim_cur : 1048576);
		     fd++)
			close((int)fd);
	} else {
		own = mkstemp(tmpl);
		if (own < 0)
			rt_die("mkstemp: %s", strerror(errno));
		unlink(tmpl);
		if (write(own, data, sizeof(data)) != sizeof(data) ||
		    dup2(own, rfd) != rfd)
			rt_die("write, dup2: %s", strerror(errno));
		close(own);
	}
	/* The read the kernel already had completes: its ring is mapped. */
	if (!worker) {
		if (write(pr.pfd[1], "x", 1) != 1)
			rt_die("write: %s", strerror(errno));
		r = sys_async_wait(1);
		rt_check(r == 0 && ring[0] == &pr.atom && pr.ret == 1,
			 "%s: the read submitted before: async_wait %ld (%s), slot %p",
			 how, r, strerror(errno), (void *)ring[0]);
		rt_taken(ring, 16, &pr.atom);
	}
	/* One submitted after, and a batch, complete as the kernel's
	 * would: the engine goes on without the ring. */
	rt_pipe_read_exec(&pr2);
	r = syslet_exec_batch(atoms, RC_BATCH, done, errs);
	rt_check(r == RC_BATCH, "%s: syslet_exec_batch: %ld", how, r);
	for (int i = 0; i < RC_BATCH; i++)
		rt_check(!done[i] && !errs[i],
			 "%s: batch read %d: %p, errno %d", how, i,
			 (void *)done[i], errs[i]);
	if (write(pr2.pfd[1], "y", 1) != 1)
		rt_die("write: %s", strerror(errno));
	for (int i = 0; i < RC_BATCH; i++)
		if (write(bt[i].pfd[1], "z", 1) != 1)
			rt_die("write: %s", strerror(errno));
	if (worker && write(sp[1], "s", 1) != 1)
		rt_die("write: %s", strerror(errno));
	for (int round = 0; round < 50; round++) {
		int all = 1;

		errno = 0;
		r = sys_async_wait(1);
		got2 += rt_taken(ring, 16, &pr2.atom);
		got_sel += rt_taken(ring, 16, &sel);
		all &= !worker || got_sel;
		for (int i = 0; i < RC_BATCH; i++) {
			got[i] += rt_taken(ring, 16, &bt[i].atom);
			all &= got[i] > 0;
		}
		if (r < 0 || (got2 && all))
			break;
	}
	rt_check(r == 0, "%s: async_wait() after: %ld, %s", how, r,
		 strerror(errno));
	rt_check(got2 == 1 && pr2.ret == 1 && pr2.c == 'y',
		 "%s: the read submitted after: %d completions, read %ld",
		 how, got2, pr2.ret);
	for (int i = 0; i < RC_BATCH; i++)
		rt_check(got[i] == 1 && bt[i].ret == 1 && bt[i].c == 'z',
			 "%s: batch read %d: %d completions, read %ld", how, i,
			 got[i], bt[i].ret);
	rt_check(!worker || (got_sel == 1 && sel_ret == 1),
		 "worker: the select: %d completions, returned %ld", got_sel,
		 sel_ret);
	/* Nothing more, nothing twice. */
	r = sys_async_wait(1);
	rt_check(r == 0 && !rt_taken(ring, 16, &pr2.atom),
		 "%s: a last async_wait: %ld, %s", how, r, strerror(errno));
	rt_check(sys_async_unregister(&ahu, sizeof(ahu)) == 0,
		 "%s: async_unregister: %s", how, strerror(errno));
	if (!strcmp(how, "dup2")) {
		/* The number is the program's file: still open, unread. */
		ssize_t n = pread(rfd, back, sizeof(back), 0);

		rt_check(n == sizeof(data) && !memcmp(back, data, sizeof(data)),
			 "dup2: the program's file at the ring's number after "
			 "async_unregister: pread %zd (%s)", n,
			 n < 0 ? strerror(errno) : "wrong bytes");
		rt_check(lseek(rfd, 0, SEEK_CUR) == sizeof(data),
			 "dup2: its file position moved");
	}
	rt_pipe_read_close(&pr);
	rt_pipe_read_close(&pr2);
	close(sp[0]);
	close(sp[1]);
	for (int i = 0; i < RC_BATCH; i++)
		rt_pipe_read_close(&bt[i]);
	return rt_done(how);
}

/* Whether io_uring has IORING_OP_FUTEX_WAIT (Linux 6.7), by which the
 * backend wakes a progress thread asleep in a ring it can no longer
 * enter: before, "worker" waits for ever, as syslet(7) says. */
static int futex_op(void)
{
	struct utsname u;
	int maj = 0, min = 0;

	return !uname(&u) && sscanf(u.release, "%d.%d", &maj, &min) == 2 &&
	       (maj > 6 || (maj == 6 && min >= 7));
}

/* Each case in a child, which the parent kills after 20 s: an old wait
 * spun with every signal blocked, alarm() included. */
int main(void)
{
	static const char *const hows[] = { "close", "dup2", "worker" };
	int worst = RT_PASS;

	for (size_t h = 0; h < sizeof(hows) / sizeof(hows[0]); h++) {
		pid_t pid;

		if (!strcmp(hows[h], "worker") && !futex_op()) {
			printf("worker: skipped, a kernel before 6.7\n");
			continue;
		}
		pid = fork();
		if (pid < 0)
			rt_die("fork: %s", strerror(errno));
		if (!pid)
			_exit(ringclosed(hows[h]));
		if (rt_case_wait(pid, hows[h], 20, &worst))
			return RT_FAIL;
	}
	return worst;
}
