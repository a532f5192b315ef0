/* fdreuse.c: a program that closes every descriptor it did not open (close_range(3, ~0U, 0), as a daemon does) and then puts files of its own at the numbers the engine's descriptors had (or one at the eventfd's number alone, the ring left), loses no syslet, and the engine never writes to, reads from or closes those files: each backend, each case in a child. */
#include <dirent.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include "helpers.h"

#define FR_MAX		16
#define FR_BATCH	4

static const char fr_data[] = "the program's own file";

/* The descriptors above 2 this process has that are not in @keep (the
 * engine's, here: the test has only its pipes), into @fds; how many. */
static int engine_fds(int *fds, const int *keep, int nkeep, int only_efd)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0, dfd;

	if (!d)
		rt_die("/proc/self/fd: %s", strerror(errno));
	dfd = dirfd(d);
	while ((e = readdir(d))) {
		int fd = atoi(e->d_name), k = 0;

		if (e->d_name[0] == '.' || fd < 3 || fd == dfd)
			continue;
		for (int i = 0; i < nkeep; i++)
			k |= keep[i] == fd;
		if (only_efd) {
			char path[64], link[128];
			ssize_t l;

			snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
			l = readlink(path, link, sizeof(link) - 1);
			link[l > 0 ? l : 0] = 0;
			k |= !strstr(link, "[eventfd]");
		}
		if (!k && n < FR_MAX)
			fds[n++] = fd;
	}
	closedir(d);
	return n;
}

/* A select() on @sp[0] with no timeout: it blocks, so a worker runs it. */
struct fr_sel {
	struct syslet_uatom	atom;
	unsigned long		nfds, setp, zero;
	long			ret;
	fd_set			set;
};

static void sel_init(struct fr_sel *s, int fd)
{
	memset(s, 0, sizeof(*s));
	FD_ZERO(&s->set);
	FD_SET(fd, &s->set);
	s->nfds = (unsigned long)fd + 1;
	s->setp = (unsigned long)&s->set;
	rt_atom(&s->atom, __NR_select, &s->ret, 0, NULL, &s->nfds, &s->setp,
		&s->zero);
	s->atom.arg_ptr[3] = &s->zero;
	s->atom.arg_ptr[4] = &s->zero;
}

static int fdreuse(const char *backend, int only_efd)
{
	struct async_head_user ahu;
	struct syslet_uatom *ring[16];
	struct rt_pipe_read pr, bt[FR_BATCH];
	struct syslet_uatom *atoms[FR_BATCH], *done[FR_BATCH];
	int errs[FR_BATCH], got[FR_BATCH], got_pr = 0, got_sel = 0;
	int sp[2], mine[FR_MAX], alias[FR_MAX], nmine, keep[FR_MAX + 2], nkeep;
	struct fr_sel sel;
	char back[64];
	long r;

	/* What the process had before the engine: not the engine's. */
	nkeep = engine_fds(keep, NULL, 0, 0);
	if (syslet_set_backend(backend)) {
		printf("%s: skipped: %s\n", backend, syslet_backend_error() ?
		       syslet_backend_error() : "?");
		return RT_SKIP;
	}
	rt_register(&ahu, ring, 16, -1UL);
	/* A syslet that goes to a worker: the engine's wake-ups exist. */
	if (pipe(sp))
		rt_die("pipe: %s", strerror(errno));
	sel_init(&sel, sp[0]);
	errno = 0;
	if (sys_async_exec(&sel.atom) || errno)
		rt_die("%s: the select did not go async: %s", backend,
		       strerror(errno));
	usleep(20000);
	if (write(sp[1], "s", 1) != 1)
		rt_die("write: %s", strerror(errno));
	for (int i = 0; i < 100 && !got_sel; i++) {
		r = sys_async_wait(1);
		rt_check(r == 0, "%s: async_wait: %s", backend,
			 strerror(errno));
		got_sel += rt_taken(ring, 16, &sel.atom);
	}
	rt_check(got_sel == 1 && sel.ret == 1, "%s: the first select: %d, %ld",
		 backend, got_sel, sel.ret);
	keep[nkeep++] = sp[0];
	keep[nkeep++] = sp[1];
	nmine = engine_fds(mine, keep, nkeep, only_efd);
	if (only_efd && nmine != 1) {
		printf("%s: skipped: no eventfd of the engine's\n", backend);
		return RT_SKIP;
	}
	printf("%s%s: the engine's descriptors:", backend,
	       only_efd ? " (its eventfd alone)" : "");
	for (int i = 0; i < nmine; i++) {
		char path[64], link[128];
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/self/fd/%d", mine[i]);
		n = readlink(path, link, sizeof(link) - 1);
		link[n > 0 ? n : 0] = 0;
		printf(" %d (%s)", mine[i], link);
	}
	printf("\n");
	/* The daemon closes everything and opens its own files, which get
	 * the numbers the engine had. */
	if (only_efd)
		close(mine[0]);
	else if (syscall(SYS_close_range, 3U, ~0U, 0U))
		rt_die("close_range: %s", strerror(errno));
	for (int i = 0; i < nmine; i++) {
		char tmpl[] = "/tmp/fdreuse.XXXXXX";
		int own = mkstemp(tmpl);

		if (own < 0)
			rt_die("mkstemp: %s", strerror(errno));
		unlink(tmpl);
		if (write(own, fr_data, sizeof(fr_data)) != sizeof(fr_data) ||
		    dup2(own, mine[i]) != mine[i])
			rt_die("write, dup2: %s", strerror(errno));
		/* The same file elsewhere, to read it if the number goes. */
		alias[i] = own;
	}
	/* More syslets, some on workers: each completes once. */
	if (only_efd) {
		close(sp[0]);
		close(sp[1]);
	}
	if (pipe(sp))
		rt_die("pipe: %s", strerror(errno));
	sel_init(&sel, sp[0]);
	got_sel = 0;
	rt_pipe_read_init(&pr);
	for (int i = 0; i < FR_BATCH; i++) {
		rt_pipe_read_init(&bt[i]);
		atoms[i] = &bt[i].atom;
		got[i] = 0;
	}
	errno = 0;
	if (sys_async_exec(&sel.atom) || errno)
		rt_die("%s: the select did not go async: %s", backend,
		       strerror(errno));
	rt_pipe_read_exec(&pr);
	r = syslet_exec_batch(atoms, FR_BATCH, done, errs);
	rt_check(r == FR_BATCH, "%s: syslet_exec_batch: %ld", backend, r);
	usleep(20000);
	if (write(pr.pfd[1], "y", 1) != 1 || write(sp[1], "s", 1) != 1)
		rt_die("write: %s", strerror(errno));
	for (int i = 0; i < FR_BATCH; i++)
		if (write(bt[i].pfd[1], "z", 1) != 1)
			rt_die("write: %s", strerror(errno));
	for (int round = 0; round < 100; round++) {
		int all = 1;

		errno = 0;
		r = sys_async_wait(1);
		got_pr += rt_taken(ring, 16, &pr.atom);
		got_sel += rt_taken(ring, 16, &sel.atom);
		all &= got_pr && got_sel;
		for (int i = 0; i < FR_BATCH; i++) {
			got[i] += rt_taken(ring, 16, &bt[i].atom);
			all &= got[i] > 0;
		}
		if (r < 0 || all)
			break;
	}
	rt_check(r == 0, "%s: async_wait() after: %ld, %s", backend, r,
		 strerror(errno));
	rt_check(got_sel == 1 && sel.ret == 1,
		 "%s: the select after: %d completions, returned %ld", backend,
		 got_sel, sel.ret);
	rt_check(got_pr == 1 && pr.ret == 1 && pr.c == 'y',
		 "%s: the read after: %d completions, read %ld", backend,
		 got_pr, pr.ret);
	for (int i = 0; i < FR_BATCH; i++)
		rt_check(got[i] == 1 && bt[i].ret == 1 && bt[i].c == 'z',
			 "%s: batch read %d: %d completions, read %ld", backend,
			 i, got[i], bt[i].ret);
	rt_check(sys_async_unregister(&ahu, sizeof(ahu)) == 0,
		 "%s: async_unregister: %s", backend, strerror(errno));
	/* The program's files: still open, their bytes and positions as
	 * the program left them. */
	for (int i = 0; i < nmine; i++) {
		ssize_t n = pread(alias[i], back, sizeof(back), 0);
		off_t pos = lseek(alias[i], 0, SEEK_CUR);

		rt_check(n == sizeof(fr_data) &&
			 !memcmp(back, fr_data, sizeof(fr_data)) &&
			 pos == sizeof(fr_data),
			 "%s: the program's file at %d after async_unregister: "
			 "%zd bytes '%.*s', position %ld, want '%s' at %zu",
			 backend, mine[i], n, n > 0 ? (int)n : 0, back,
			 (long)pos, fr_data, sizeof(fr_data));
		rt_check(fcntl(mine[i], F_GETFD) >= 0,
			 "%s: the program's file at %d after async_unregister: "
			 "%s", backend, mine[i], strerror(errno));
		close(alias[i]);
	}
	rt_pipe_read_close(&pr);
	for (int i = 0; i < FR_BATCH; i++)
		rt_pipe_read_close(&bt[i]);
	return rt_done(backend);
}

/* Each backend in a child, which the parent kills after 20 s. */
int main(void)
{
	static const char *const backends[] = { "emul", "uring", "uring" };
	int worst = RT_PASS;

	for (size_t b = 0; b < sizeof(backends) / sizeof(backends[0]); b++) {
		pid_t pid;

		fflush(stdout);
		pid = fork();
		if (pid < 0)
			rt_die("fork: %s", strerror(errno));
		if (!pid) {
			int rc = fdreuse(backends[b], b == 2);

			fflush(stdout);
			_exit(rc);
		}
		if (rt_case_wait(pid, backends[b], 20, &worst))
			return RT_FAIL;
	}
	return worst;
}
