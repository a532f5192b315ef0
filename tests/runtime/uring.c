/* uring.c: where io_uring differs from the calls, the uring backend keeps the calls' semantics (O_NONBLOCK, whole writes, descriptor numbers, its own descriptors, nanosleep); many syslets each complete once. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include "helpers.h"

#define MANY 300

static struct syslet_uatom *ring[MANY + 8];
static unsigned long idx;

/* Run @a to its end: its last atom. */
static struct syslet_uatom *run(struct syslet_uatom *a)
{
	struct syslet_uatom *done;

	errno = 0;
	done = sys_async_exec(a);
	if (done)
		return done;
	if (errno)
		rt_die("async_exec: %s", strerror(errno));
	for (int t = 0; t < 10000 && !ring[idx]; t++)
		if (sys_async_wait(1) && errno != EINTR)
			rt_die("async_wait: %s", strerror(errno));
	done = ring[idx];
	rt_drain(ring, MANY + 8, &idx, NULL, 0);
	return done;
}

static void *slow_reader(void *arg)
{
	int fd = *(int *)arg;
	char b[4096];
	struct timespec nap = { 0, 2000000 };
	long r;

	nanosleep(&nap, NULL);
	while ((r = read(fd, b, sizeof(b))) > 0)
		nanosleep(&nap, NULL);
	return NULL;
}

/* Trace events, in order. */
static struct syslet_event evs[16];
static unsigned int nev;

static void on_event(const struct syslet_event *ev, void *ctx)
{
	(void)ctx;
	if (nev < 16)
		evs[nev] = *ev;
	nev++;
}

/* A thread writing MANY / 2 lines of 8 bytes to @fd, each line one
 * syslet, through a head of its own with two syslets in flight at most. */
struct writer {
	unsigned long	fd;
	int		first;
};

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	static __thread struct syslet_uatom *r[8], a[MANY / 2];
	static __thread char line[MANY / 2][9];
	static __thread unsigned long buf[MANY / 2];
	static __thread long ret[MANY / 2];
	unsigned long len = 8, i2 = 0, pend = 0;
	struct async_head_user ah;

	rt_register(&ah, r, 8, 2);
	for (int i = 0; i < MANY / 2; i++) {
		snprintf(line[i], sizeof(line[i]), "%07d\n", w->first + i);
		buf[i] = (unsigned long)line[i];
		rt_atom(&a[i], __NR_write, &ret[i], 0, NULL, &w->fd, &buf[i],
			&len);
		errno = 0;
		if (!sys_async_exec(&a[i])) {
			if (errno)
				rt_die("exec: %s", strerror(errno));
			pend++;
		}
		pend -= rt_drain(r, 8, &i2, NULL, 0);
	}
	while (pend) {
		unsigned long n = rt_drain(r, 8, &i2, NULL, 0);

		pend -= n;
		if (!n && sys_async_wait(1) && errno != EINTR)
			rt_die("async_wait: %s", strerror(errno));
	}
	rt_unregister(&ah);
	return NULL;
}

int main(void)
{
	struct async_head_user ahu;
	struct syslet_uatom a[3], many[MANY][3];
	static char big[70000];
	unsigned long fd, buf, len, zero = 0, flags = O_RDONLY;
	unsigned long mfd[MANY], mbuf[MANY], mlen = 16, path;
	long ret = 0, mret[MANY][3];
	char c, mdata[MANY][16];
	int p[2], expect, seen[MANY];
	pthread_t th;

	if (syslet_set_backend("uring")) {
		fprintf(stderr, "SKIP: %s\n", syslet_backend_error());
		return RT_SKIP;
	}
	/* A wait that never ends is a failure, not a hang. */
	alarm(120);
	rt_init();
	rt_register(&ahu, ring, MANY + 8, -1UL);

	/* O_NONBLOCK: io_uring would wait; the call says EAGAIN. */
	if (pipe2(p, O_NONBLOCK))
		rt_die("pipe2: %s", strerror(errno));
	fd = (unsigned long)p[0];
	buf = (unsigned long)&c;
	len = 1;
	rt_atom(&a[0], __NR_read, &ret, 0, NULL, &fd, &buf, &len);
	rt_check(run(&a[0]) == &a[0] && ret == -EAGAIN,
		 "read of an empty O_NONBLOCK pipe: %ld", ret);
	close(p[0]);
	close(p[1]);

	/* Descriptor -1 (also the engine's "none") with a bad buffer: the
	 * call says EBADF at once, in place; io_uring would say EFAULT. */
	fd = -1UL;
	buf = 16;
	len = 8;
	rt_atom(&a[0], __NR_read, &ret, 0, NULL, &fd, &buf, &len);
	errno = 0;
	rt_check(sys_async_exec(&a[0]) == &a[0] && ret == -EBADF,
		 "read(-1, bad buffer): %ld, errno %d", ret, errno);

	/* A write to a pipe is whole, however slowly the reader reads. */
	if (pipe(p))
		rt_die("pipe: %s", strerror(errno));
	if (pthread_create(&th, NULL, slow_reader, &p[0]))
		rt_die("pthread_create");
	fd = (unsigned long)p[1];
	buf = (unsigned long)big;
	len = sizeof(big);
	rt_atom(&a[0], __NR_write, &ret, 0, NULL, &fd, &buf, &len);
	rt_check(run(&a[0]) == &a[0] && ret == (long)sizeof(big),
		 "write of %zu bytes to a pipe: %ld", sizeof(big), ret);
	close(p[1]);
	pthread_join(th, NULL);
	close(p[0]);

	/* The first free descriptor, as the kernel would give. */
	expect = dup(0);
	close(expect);
	path = (unsigned long)"/dev/null";
	rt_atom(&a[0], __NR_open, &ret, 0, NULL, &path, &flags, NULL);
	rt_check(run(&a[0]) == &a[0] && ret == expect,
		 "open got %ld, the first free is %d", ret, expect);
	if (ret >= 0)
		close((int)ret);

	/* close_range over everything leaves the engine working. */
	{
		unsigned long lo = 1000, hi = ~0U;

		rt_atom(&a[0], __NR_close_range, &ret, 0, NULL, &lo, &hi,
			&zero);
		rt_check(run(&a[0]) == &a[0] && ret == 0,
			 "close_range: %ld", ret);
	}

	/* nanosleep through the ring returns 0. */
	{
		struct timespec ts = { 0, 1000000 };
		unsigned long tsp = (unsigned long)&ts;

		rt_atom(&a[0], __NR_nanosleep, &ret, 0, NULL, &tsp, &zero,
			NULL);
		ret = 1;
		rt_check(run(&a[0]) == &a[0] && ret == 0, "nanosleep: %ld",
			 ret);
	}

	/* Many open/read/close syslets in flight: each completes once,
	 * with its own descriptor and data. */
	path = (unsigned long)"/proc/self/cmdline";
	memset(seen, 0, sizeof(seen));
	for (int i = 0; i < MANY; i++) {
		mbuf[i] = (unsigned long)mdata[i];
		rt_atom(&many[i][0], __NR_open, (long *)&mfd[i],
			SYSLET_STOP_ON_NEGATIVE, &many[i][1], &path, &flags,
			NULL);
		rt_atom(&many[i][1], __NR_read, &mret[i][1], 0, &many[i][2],
			&mfd[i], &mbuf[i], &mlen);
		rt_atom(&many[i][2], __NR_close, &mret[i][2], 0, NULL,
			&mfd[i], NULL, NULL);
	}
	{
		unsigned long pending = 0;

		for (int i = 0; i < MANY; i++) {
			struct syslet_uatom *d;

			errno = 0;
			d = sys_async_exec(&many[i][0]);
			if (d)
				seen[i]++;
			else if (errno)
				rt_die("async_exec %d: %s", i, strerror(errno));
			else
				pending++;
		}
		while (pending) {
			struct syslet_uatom *got[MANY];
			unsigned long n = rt_drain(ring, MANY + 8, &idx, got,
						   MANY);

			for (unsigned long k = 0; k < n; k++) {
				long i = (got[k] - &many[0][0]) / 3;

				rt_check(i >= 0 && i < MANY &&
					 got[k] == &many[i][2],
					 "stray completion %p", (void *)got[k]);
				if (i >= 0 && i < MANY)
					seen[i]++;
			}
			pending -= n < pending ? n : pending;
			if (!n && sys_async_wait(1) && errno != EINTR)
				rt_die("async_wait: %s", strerror(errno));
		}
	}
	for (int i = 0; i < MANY; i++)
		rt_check(seen[i] == 1 && mret[i][1] > 0 && mret[i][2] == 0,
			 "syslet %d: seen %d, read %ld, close %ld", i, seen[i],
			 mret[i][1], mret[i][2]);
	/* A SYNC read in the caller that only an async syslet's write can
	 * satisfy: the async one must go on while the caller blocks. */
	{
		struct syslet_uatom w, r;
		unsigned long wfd, rfd, wbuf = (unsigned long)"s", one = 1;
		unsigned long rbuf = (unsigned long)&c;
		struct timespec ts = { 0, 20000000 };
		unsigned long tsp = (unsigned long)&ts;
		long wret = 0, sret = 0;
		struct syslet_uatom nap;

		if (pipe(p))
			rt_die("pipe: %s", strerror(errno));
		wfd = (unsigned long)p[1];
		rfd = (unsigned long)p[0];
		/* async: sleep, then write a byte */
		rt_atom(&nap, __NR_nanosleep, &sret, 0, &w, &tsp, &zero, NULL);
		rt_atom(&w, __NR_write, &wret, 0, NULL, &wfd, &wbuf, &one);
		rt_atom(&r, __NR_read, &ret, SYSLET_SYNC, NULL, &rfd, &rbuf,
			&one);
		errno = 0;
		rt_check(!sys_async_exec(&nap) && !errno, "the sleep ran inline");
		c = 0;
		rt_check(sys_async_exec(&r) == &r && ret == 1 && c == 's',
			 "SYNC read: %ld %c", ret, c);
		for (int t = 0; t < 10000 && !ring[idx]; t++)
			if (sys_async_wait(1) && errno != EINTR)
				rt_die("async_wait: %s", strerror(errno));
		rt_check(ring[idx] == &w && wret == 1, "write: %p %ld",
			 (void *)ring[idx], wret);
		rt_drain(ring, MANY + 8, &idx, NULL, 0);
		close(p[0]);
		close(p[1]);
	}

	/* Lines written at the file position of a shared regular file (as
	 * stdout redirected to a file is), by two threads with a head each,
	 * in flight together and some in place: each lands whole, none on
	 * top of another. */
	for (int round = 0; round < 5; round++) {
		char tmpl[] = "/tmp/syslet-uring-XXXXXX";
		struct writer w[2];
		pthread_t wt[2];
		struct stat st;
		int tfd = mkstemp(tmpl);

		if (tfd < 0)
			rt_die("mkstemp: %s", strerror(errno));
		unlink(tmpl);
		for (int k = 0; k < 2; k++) {
			w[k].fd = (unsigned long)tfd;
			w[k].first = k * (MANY / 2);
			if (pthread_create(&wt[k], NULL, writer_main, &w[k]))
				rt_die("pthread_create");
		}
		for (int k = 0; k < 2; k++)
			pthread_join(wt[k], NULL);
		rt_check(!fstat(tfd, &st) && st.st_size == MANY * 8,
			 "round %d: %ld bytes written at the file position, "
			 "not %d", round, (long)st.st_size, MANY * 8);
		close(tfd);
	}

	/* The shared interpreter reports atoms of every backend: umem_add
	 * in place, then a read through the ring, then umem_add again in
	 * the driver; statistics count the same.  The read is marked
	 * async: one that completes at once runs on in place. */
	{
		struct syslet_uatom t[3];
		SYSLET_OPTS(syslet_stats, s0);
		SYSLET_OPTS(syslet_stats, s1);
		unsigned long cell = 0, *cp = &cell, one = 1, pfd;
		unsigned long pbuf = (unsigned long)&c;
		int tp[2];

		if (pipe(tp))
			rt_die("pipe: %s", strerror(errno));
		if (write(tp[1], "t", 1) != 1)
			rt_die("write");
		pfd = (unsigned long)tp[0];
		len = 1;
		rt_atom(&t[0], rt_umem_nr(), NULL, 0, &t[1],
			(unsigned long *)&cp, &one, NULL);
		rt_atom(&t[1], __NR_read, &ret, SYSLET_ASYNC, &t[2], &pfd,
			&pbuf, &len);
		rt_atom(&t[2], rt_umem_nr(), NULL, 0, NULL,
			(unsigned long *)&cp, &one, NULL);
		syslet_get_stats(&s0);
		nev = 0;
		rt_check(syslet_set_trace(on_event, NULL) == 0,
			 "uring's atoms cannot be traced");
		rt_check(run(&t[0]) == &t[2] && cell == 2 && ret == 1,
			 "traced chain: cell %lu ret %ld", cell, ret);
		syslet_set_trace(NULL, NULL);
		syslet_get_stats(&s1);
		rt_check(nev == 3, "%u events", nev);
		if (nev == 3) {
			rt_check(evs[0].atom == &t[0] &&
				 evs[0].where == SYSLET_WHERE_INLINE &&
				 evs[0].ret == 1 && !evs[0].handoff,
				 "event 0: where %d ret %ld", evs[0].where,
				 evs[0].ret);
			rt_check(evs[1].atom == &t[1] &&
				 evs[1].where == SYSLET_WHERE_CACHEMISS &&
				 evs[1].ret == 1 && evs[1].handoff &&
				 evs[1].nargs == 3 && evs[1].args[0] == pfd &&
				 evs[1].next == &t[2],
				 "event 1: where %d ret %ld handoff %d",
				 evs[1].where, evs[1].ret, evs[1].handoff);
			rt_check(evs[2].atom == &t[2] && evs[2].ret == 2 &&
				 evs[2].end == SYSLET_END_NEXT,
				 "event 2: ret %ld end %d", evs[2].ret,
				 evs[2].end);
		}
		rt_check(s1.execs - s0.execs == 1 &&
			 s1.atoms - s0.atoms == 3 &&
			 s1.umem_adds - s0.umem_adds == 2 &&
			 s1.syscalls - s0.syscalls == 1 &&
			 s1.inline_atoms - s0.inline_atoms == 1 &&
			 s1.cachemiss_atoms - s0.cachemiss_atoms == 2 &&
			 s1.handoffs - s0.handoffs == 1 &&
			 s1.completions - s0.completions == 1,
			 "stats: execs %llu atoms %llu umem %llu syscalls %llu "
			 "inline %llu cachemiss %llu handoffs %llu "
			 "completions %llu", s1.execs - s0.execs,
			 s1.atoms - s0.atoms, s1.umem_adds - s0.umem_adds,
			 s1.syscalls - s0.syscalls,
			 s1.inline_atoms - s0.inline_atoms,
			 s1.cachemiss_atoms - s0.cachemiss_atoms,
			 s1.handoffs - s0.handoffs,
			 s1.completions - s0.completions);
		close(tp[0]);
		close(tp[1]);
	}

	/*
	 * async_exec() of a chain whose calls io_uring completes without
	 * waiting (a read of a pipe with data, a cached open, read and
	 * close) runs it to its end in place and returns its last atom,
	 * with no completion in the ring, as the kernel does; one that
	 * waits (the same read of an empty pipe) goes async at that atom,
	 * its read already with the kernel: a write from another thread
	 * completes it while the caller sleeps, without async_wait().
	 */
	{
		struct syslet_uatom t[4];
		SYSLET_OPTS(syslet_stats, s0);
		SYSLET_OPTS(syslet_stats, s1);
		unsigned long rdonly = O_RDONLY, cwd = (unsigned long)AT_FDCWD;
		unsigned long pbuf = (unsigned long)&c, tbuf, tlen = 16;
		unsigned long tpath, pfd, tfd;
		char tb[16], tname[] = "/tmp/syslet-uring.XXXXXX";
		long r0 = 0, r1 = 0, r2 = -1;
		int tp[2], wfd = mkstemp(tname);

		/* Just written: its name and pages are in the caches. */
		if (wfd < 0 || write(wfd, "cached, sixteen!", 16) != 16)
			rt_die("%s: %s", tname, strerror(errno));
		close(wfd);
		tpath = (unsigned long)tname;
		tbuf = (unsigned long)tb;
		rt_atom(&t[0], __NR_openat, (long *)&tfd, 0, &t[1], &cwd,
			&tpath, &rdonly);
		rt_atom(&t[1], __NR_read, &r1, 0, &t[2], &tfd, &tbuf, &tlen);
		rt_atom(&t[2], __NR_close, &r2, 0, NULL, &tfd, NULL, NULL);
		syslet_get_stats(&s0);
		errno = 0;
		rt_check(sys_async_exec(&t[0]) == &t[2] && r1 == 16 &&
			 !memcmp(tb, "cached, sixteen!", 16) && r2 == 0,
			 "a cached open, read and close went async (errno %d, "
			 "read %ld, close %ld)", errno, r1, r2);
		syslet_get_stats(&s1);
		rt_check(s1.inline_atoms - s0.inline_atoms == 3 &&
			 s1.handoffs == s0.handoffs &&
			 s1.completions == s0.completions && !ring[idx],
			 "in place: inline %llu handoffs %llu completions "
			 "%llu", s1.inline_atoms - s0.inline_atoms,
			 s1.handoffs - s0.handoffs,
			 s1.completions - s0.completions);

		if (pipe(tp))
			rt_die("pipe: %s", strerror(errno));
		pfd = (unsigned long)tp[0];
		len = 1;
		rt_atom(&t[3], __NR_read, &r0, 0, NULL, &pfd, &pbuf, &len);
		if (write(tp[1], "x", 1) != 1)
			rt_die("write");
		c = 0;
		rt_check(sys_async_exec(&t[3]) == &t[3] && r0 == 1 && c == 'x',
			 "a read of a pipe with data: %ld", r0);
		r0 = 0;
		syslet_get_stats(&s0);
		rt_check(sys_async_exec(&t[3]) == NULL && errno == 0,
			 "a read of an empty pipe did not go async");
		if (write(tp[1], "y", 1) != 1)
			rt_die("write");
		for (int k = 0; k < 2000 && !ring[idx]; k++)
			usleep(1000);
		rt_check(ring[idx] == &t[3] && r0 == 1 && c == 'y',
			 "the read in flight: ring %p, ret %ld",
			 (void *)ring[idx], r0);
		syslet_get_stats(&s1);
		rt_check(s1.handoffs - s0.handoffs == 1 &&
			 s1.cachemiss_atoms - s0.cachemiss_atoms == 1,
			 "went async %llu, cachemiss %llu",
			 s1.handoffs - s0.handoffs,
			 s1.cachemiss_atoms - s0.cachemiss_atoms);
		rt_drain(ring, MANY + 8, &idx, NULL, 0);
		close(tp[0]);
		close(tp[1]);
		unlink(tname);
	}

	/* A forked child has no head: it may register its own. */
	{
		pid_t pid = fork();
		int st = 0;

		if (pid < 0)
			rt_die("fork: %s", strerror(errno));
		if (pid == 0) {
			static struct syslet_uatom *cring[4];
			struct async_head_user cahu = { cring, sizeof(cring),
							-1UL };

			_exit(sys_async_register(&cahu, sizeof(cahu)) ? 1 : 0);
		}
		waitpid(pid, &st, 0);
		rt_check(WIFEXITED(st) && WEXITSTATUS(st) == 0,
			 "the child could not register a head of its own");
	}
	rt_unregister(&ahu);
	return rt_done("uring");
}
