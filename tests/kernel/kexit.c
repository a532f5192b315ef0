/* kexit.c: in the guest, a thread that ends while its head's chains wait leaves the process able to stop, freeze and take its signals; a kill or a stop while the program hands off takes at once; a ring made unwritable for a while loses nothing; limits (RLIMIT_NPROC, RLIMIT_MEMLOCK, RLIMIT_CPU, files held) hold for syslets. */
#include "kt.h"
#include <dirent.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/ioctl.h>
#include <poll.h>
#include <linux/userfaultfd.h>

#ifdef __x86_64__
#define KT_SETRESUID_NR	SYS_setresuid
#else
#define KT_SETRESUID_NR	SYS_setresuid32
#endif

/*
 * The process of each case: a thread registers a head, sends a read of
 * an empty pipe off as an ASYNC atom (its chain waits in a worker for
 * the byte the test writes at the end) and ends with exit(), the raw
 * call: glibc's pthread_exit() blocks every signal first, and a program
 * without glibc's threads does not.  The thread that ends is then the
 * pool thread that took the program's context; it waits in its exit
 * for the chain, as a thread that ends with its head does (0024).
 */
static int kx_data[2];		/* the chain's pipe: a byte ends the chain */
static int kx_sync[2];		/* the head thread's word to the main one */
static char kx_byte;
static long kx_ret = -12345;
static struct syslet_uatom kx_atom;
static volatile sig_atomic_t kx_got;

static void *kx_head(void *arg)
{
	static unsigned long fd, buf, len = 1;
	sigset_t s;
	char c = 'e';

	(void)arg;
	/* The signal case: this thread takes SIGUSR1, the main one not. */
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	if (kt_register(8, -1UL)) {
		c = 'R';
	} else {
		fd = kx_data[0];
		buf = (unsigned long)&kx_byte;
		kt_atom(&kx_atom, SYSLET_ASYNC, SYS_read, &kx_ret, NULL, &fd,
			&buf, &len, NULL);
		if (K_EXEC(&kx_atom) != 0)
			c = 'A';	/* it did not go async */
	}
	if (write(kx_sync[1], &c, 1) != 1)
		c = 'W';
	syscall(SYS_exit, 0);
	return NULL;
}


static void kx_handler(int sig)
{
	(void)sig;
	kx_got = 1;
}

/* The signal case's other thread: it takes SIGUSR1 and waits for it. */
static void *kx_waiter(void *arg)
{
	sigset_t s;

	(void)arg;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	while (!kx_got)
		pause();
	return NULL;
}

/*
 * @mode 0: wait to be stopped, frozen or killed; 1: block SIGUSR1 in the
 * main thread, start a thread that takes it (after the one that ended,
 * so that the kernel's round looks at the ending thread first), send
 * SIGUSR1 to the process, and exit 0 once the handler ran, 20 if it did
 * not within 3 s.
 */
static int kx_child(int mode, int ready)
{
	struct timespec d = { 0, 300 * 1000 * 1000 };
	struct sigaction sa;
	pthread_t t;
	sigset_t s;
	char c;
	int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = kx_handler;
	sigaction(SIGUSR1, &sa, NULL);
	if (pipe(kx_sync))
		return 9;
	if (pthread_create(&t, NULL, kx_head, NULL))
		return 10;
	if (read(kx_sync[0], &c, 1) != 1)
		return 11;
	if (c != 'e')
		return c == 'R' ? 12 : 13;
	nanosleep(&d, NULL);	/* the thread is in its exit now */
	if (mode == 1) {
		sigemptyset(&s);
		sigaddset(&s, SIGUSR1);
		pthread_sigmask(SIG_BLOCK, &s, NULL);
		if (pthread_create(&t, NULL, kx_waiter, NULL))
			return 14;
		nanosleep(&d, NULL);
		kill(getpid(), SIGUSR1);
		for (i = 0; i < 300 && !kx_got; i++) {
			d.tv_nsec = 10 * 1000 * 1000;
			nanosleep(&d, NULL);
		}
		if (!kx_got)
			kt_thread_states(getpid());
		return kx_got ? 0 : 20;
	}
	if (write(ready, "r", 1) != 1)
		return 15;
	for (;;)
		pause();
}

/* The process of a case, once its thread is in its exit; -1: failed. */
static pid_t kx_start(int mode)
{
	int p[2], st;
	pid_t pid;
	char c;

	/* The chain's byte may find the process gone. */
	signal(SIGPIPE, SIG_IGN);
	if (pipe(kx_data) || pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		_exit(kx_child(mode, p[1]));
	}
	close(p[1]);
	close(kx_data[0]);
	if (pid > 0 && mode == 0 && read(p[0], &c, 1) != 1) {
		waitpid(pid, &st, 0);
		kt_note("the process did not start (status %#x: 12 register, 13 not async)",
			st);
		pid = -1;
	}
	close(p[0]);
	return pid;
}


/* The chain gets its byte and ends; then the process goes. */
static int kx_end(pid_t pid, int ok)
{
	if (write(kx_data[1], "x", 1) != 1)
		ok = 0;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(kx_data[1]);
	return ok ? KT_PASS : KT_FAIL;
}

static pid_t kx_waitpid_ms(pid_t pid, int *status, int options, int ms)
{
	struct timespec d = { 0, 10 * 1000 * 1000 };
	pid_t r;
	int i;

	for (i = 0; i < ms / 10; i++) {
		r = waitpid(pid, status, options | WNOHANG);
		if (r != 0)
			return r;
		nanosleep(&d, NULL);
	}
	return 0;
}

static int kx_case_stop(void)
{
	pid_t pid = kx_start(0);
	int st = 0, ok = 1;

	KT_CHECK(pid > 0, "the process did not start");
	kill(pid, SIGSTOP);
	if (kx_waitpid_ms(pid, &st, WUNTRACED, 10000) != pid || !WIFSTOPPED(st)) {
		kt_note("SIGSTOP: waitpid(WUNTRACED) did not report a stop in 10 s");
		kt_thread_states(pid);
		ok = 0;
	}
	kill(pid, SIGCONT);
	return kx_end(pid, ok);
}

static int kx_case_freeze(void)
{
	char dir[64], pidbuf[16];
	pid_t pid;
	int ok;

	mkdir("/sys/fs/cgroup", 0755);
	if (access("/sys/fs/cgroup/cgroup.procs", F_OK) &&
	    mount("cgroup2", "/sys/fs/cgroup", "cgroup2", 0, NULL))
		return kt_skip("cannot mount cgroup2");
	snprintf(dir, sizeof(dir), "/sys/fs/cgroup/kx%d", (int)getpid());
	KT_CHECK(mkdir(dir, 0755) == 0, "mkdir %s: %s", dir, strerror(errno));
	pid = kx_start(0);
	if (pid <= 0) {
		rmdir(dir);
		KT_CHECK(pid > 0, "the process did not start");
	}
	snprintf(pidbuf, sizeof(pidbuf), "%d", (int)pid);
	ok = kt_cg_write(dir, "cgroup.procs", pidbuf) == 0;
	if (!ok)
		kt_note("cannot move %d into %s", pid, dir);
	ok = ok && kt_cg_write(dir, "cgroup.freeze", "1") == 0;
	if (ok && !(ok = kt_cg_frozen(dir, 1, 10000))) {
		kt_note("the cgroup did not report frozen within 10 s");
		kt_thread_states(pid);
	}
	kt_cg_write(dir, "cgroup.freeze", "0");
	ok = kx_end(pid, ok) == KT_PASS;
	rmdir(dir);
	return ok ? KT_PASS : KT_FAIL;
}

static int kx_case_signal(void)
{
	pid_t pid = kx_start(1);
	int st = 0;

	KT_CHECK(pid > 0, "the process did not start");
	if (kx_waitpid_ms(pid, &st, 0, 8000) != pid) {
		kt_note("the process did not end in 8 s");
		kt_thread_states(pid);
		return kx_end(pid, 0);
	}
	write(kx_data[1], "x", 1);
	close(kx_data[1]);
	KT_CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		 "status %#x (20: SIGUSR1 sent to the process was not handled in 3 s, the thread that takes it waiting in pause(); 12 register, 13 not async)",
		 st);
	return KT_PASS;
}

/*
 * Pool threads are threads of the process: as uid 1000 with
 * RLIMIT_NPROC 3, sixteen chains that each wait 0.2 s in ppoll() leave
 * at most 3 threads (the others run in place), and all complete.
 */
static int kx_case_nproc(void)
{
	static struct syslet_uatom a[16];
	static long ret[16];
	static struct kt_ts ts = { 0, 200 * 1000 * 1000 };
	static unsigned long zero, tsp;
	struct rlimit rl = { 3, 3 };
	struct dirent *e;
	int i, n, most = 0, done = 0;
	DIR *d;
	long r;

	if (setrlimit(RLIMIT_NPROC, &rl) || syscall(KT_SETRESUID_NR, 1000, 1000, 1000))
		return kt_skip("cannot become uid 1000 with RLIMIT_NPROC 3");
	KT_CHECK(kt_register(32, -1UL) == 0, "async_register failed");
	tsp = (unsigned long)&ts;
	for (i = 0; i < 16; i++) {
		kt_atom(&a[i], SYSLET_ASYNC, KT_PPOLL, &ret[i], NULL, &zero,
			&zero, &tsp, &zero);
		r = K_EXEC(&a[i]);
		if (r == (long)&a[i])
			done++;		/* ran in place */
		else
			KT_CHECK(r == 0, "async_exec #%d: %ld", i, r);
		n = 0;
		d = opendir("/proc/self/task");
		while (d && (e = readdir(d)))
			n += e->d_name[0] != '.';
		if (d)
			closedir(d);
		if (n > most)
			most = n;
	}
	while (done < 16 && kt_pop_ms(3000))
		done++;
	kt_note("at most %d threads, %d of 16 chains complete", most, done);
	KT_CHECK(most <= 3, "%d threads with RLIMIT_NPROC 3", most);
	KT_CHECK(done == 16, "%d of 16 chains complete", done);
	return KT_PASS;
}

/*
 * The ring is pinned as mlock() pins: as uid 1000 with RLIMIT_MEMLOCK
 * 64 KiB, a ring of 1 MiB is refused and one of 64 KiB is taken.
 */
static int kx_case_memlock(void)
{
	struct rlimit rl = { 64 << 10, 64 << 10 };
	struct async_head_user ahu;
	void *big;
	long r;

	big = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	KT_CHECK(big != MAP_FAILED, "mmap: %s", strerror(errno));
	if (setrlimit(RLIMIT_MEMLOCK, &rl) ||
	    syscall(KT_SETRESUID_NR, 1000, 1000, 1000))
		return kt_skip("cannot become uid 1000 with RLIMIT_MEMLOCK 64 KiB");
	ahu.completion_ring = big;
	ahu.ring_size_bytes = 1 << 20;
	ahu.max_nr_threads = 1;
	r = K_REG(&ahu);
	kt_note("a ring of 1 MiB: async_register %ld", r);
	KT_CHECK(r == -ENOMEM || r == -EPERM, "a ring of 1 MiB over RLIMIT_MEMLOCK 64 KiB: %ld", r);
	ahu.ring_size_bytes = 64 << 10;
	r = K_REG(&ahu);
	KT_CHECK(r == 0, "a ring of 64 KiB under RLIMIT_MEMLOCK 64 KiB: %ld", r);
	return KT_PASS;
}

/*
 * A core dump waits for every thread of the process: the program's
 * thread aborts while its chain waits in a worker (a pipe read) and
 * the thread whose TID it carries waits out of the pool.
 */
static int kx_case_core(void)
{
	static unsigned long fd, buf, len = 1;
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
	struct stat sb;
	pid_t pid;
	int st = 0, ok;

	signal(SIGPIPE, SIG_IGN);
	KT_CHECK(pipe(kx_data) == 0, "pipe");
	pid = fork();
	if (pid == 0) {
		if (chdir("/tmp") || setrlimit(RLIMIT_CORE, &rl))
			_exit(9);
		prctl(PR_SET_DUMPABLE, 1);
		if (kt_register(8, -1UL))
			_exit(12);
		fd = kx_data[0];
		buf = (unsigned long)&kx_byte;
		kt_atom(&kx_atom, SYSLET_ASYNC, SYS_read, &kx_ret, NULL, &fd,
			&buf, &len, NULL);
		if (K_EXEC(&kx_atom) != 0)
			_exit(13);
		abort();
	}
	close(kx_data[0]);
	ok = kx_waitpid_ms(pid, &st, 0, 20000) == pid;
	if (!ok) {
		kt_note("the process did not end in 20 s");
		kt_thread_states(pid);
		return kx_end(pid, 0);
	}
	close(kx_data[1]);
	kt_note("status %#x, core %s", st,
		stat("/tmp/core", &sb) ? "none" : "written");
	unlink("/tmp/core");
	KT_CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT,
		 "status %#x: not SIGABRT (12 register, 13 not async)", st);
	if (!WCOREDUMP(st))
		return kt_skip("ended by SIGABRT, but no core dump (CONFIG_COREDUMP?)");
	return KT_PASS;
}

/*
 * A chain that runs in place never goes back to user space between its
 * atoms, where task_work runs; the CPU-time timers' expiry is task_work
 * (CONFIG_POSIX_CPU_TIMERS_TASK_WORK).  With RLIMIT_CPU 1 s (hard 2 s),
 * an endless chain of umem_add atoms in the caller must end by SIGXCPU
 * or SIGKILL, as the same loop in user space would.
 */
static int kx_case_cpulimit(void)
{
	static struct syslet_uatom a;
	static unsigned long cnt, cntp, one = 1;
	static long ret;
	struct rlimit rl = { 1, 2 };
	char path[64], buf[512], *p;
	unsigned long ut = 0, stt = 0;
	pid_t pid;
	int st = 0, fd, n;

	pid = fork();
	if (pid == 0) {
		if (setrlimit(RLIMIT_CPU, &rl) || kt_register(8, -1UL))
			_exit(12);
		cntp = (unsigned long)&cnt;
		kt_atom(&a, 0, K_UMEM, &ret, &a, &cntp, &one, NULL, NULL);
		K_EXEC(&a);
		_exit(13);	/* a signal ended the chain, and was ignored */
	}
	if (kx_waitpid_ms(pid, &st, 0, 20000) == pid) {
		kt_note("status %#x", st);
		KT_CHECK(WIFSIGNALED(st) && (WTERMSIG(st) == SIGXCPU ||
					     WTERMSIG(st) == SIGKILL),
			 "status %#x: not SIGXCPU or SIGKILL (12: setup)", st);
		return KT_PASS;
	}
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY);
	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	p = strrchr(buf, ')');
	if (p)
		sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
		       &ut, &stt);
	kt_note("after 20 s the chain still runs, %lu ticks of CPU used (utime %lu, stime %lu), RLIMIT_CPU 1 s soft, 2 s hard",
		ut + stt, ut, stt);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return KT_FAIL;
}

/*
 * The last fput() of a file is task_work too (close() itself puts its
 * file at once, but dup2() over a descriptor does not), and releases
 * what the file holds (here a pipe's writer) only then.  A chain in the
 * caller that 1000 times reopens a pipe's write end, dup2()s it over one
 * descriptor and closes it, then closes that descriptor and the write
 * end, must read the pipe's end (0), as the same calls from user space
 * do, not EAGAIN with 999 writers it let go of still held.
 */
static int kx_case_files(void)
{
	static struct syslet_uatom a[8];
	static long r[8], fdv;
	static unsigned long path, flags = O_WRONLY, cnt = 1000, cntp;
	static unsigned long minus = -1UL, rfd, wfd, slot, bufp, len = 1;
	static char name[64], buf[4];
	int p[2];
	long r0;

	KT_CHECK(pipe(p) == 0, "pipe");
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	slot = dup(p[1]);
	KT_CHECK(kt_register(8, -1UL) == 0, "async_register failed");
	snprintf(name, sizeof(name), "/proc/self/fd/%d", p[1]);
	path = (unsigned long)name;
	cntp = (unsigned long)&cnt;
	bufp = (unsigned long)buf;
	rfd = p[0];
	wfd = p[1];
	kt_atom(&a[0], SYSLET_STOP_ON_NEGATIVE, SYS_open, &fdv, &a[1], &path,
		&flags, NULL, NULL);
	kt_atom(&a[1], SYSLET_STOP_ON_NEGATIVE, SYS_dup2, &r[1], &a[2],
		(unsigned long *)&fdv, &slot, NULL, NULL);
	kt_atom(&a[2], 0, SYS_close, &r[2], &a[3], (unsigned long *)&fdv,
		NULL, NULL, NULL);
	kt_atom(&a[3], SYSLET_STOP_ON_ZERO | SYSLET_SKIP_TO_NEXT_ON_STOP,
		K_UMEM, &r[3], &a[0], &cntp, &minus, NULL, NULL);
	kt_atom(&a[4], 0, SYS_close, &r[4], &a[5], &slot, NULL, NULL, NULL);
	kt_atom(&a[5], 0, SYS_close, &r[5], &a[6], &wfd, NULL, NULL, NULL);
	kt_atom(&a[6], 0, SYS_read, &r[6], NULL, &rfd, &bufp, &len, NULL);
	r[6] = -12345;
	r0 = K_EXEC(&a[0]);
	KT_CHECK(r0 == (long)&a[6], "async_exec %ld (open %ld, dup2 %ld, %lu left)",
		 r0, fdv, r[1], cnt);
	kt_note("read of the pipe in the chain, its writers all closed: %ld (%s)",
		r[6], r[6] == -EAGAIN ? "EAGAIN" : r[6] == 0 ? "end of file" : "?");
	KT_CHECK(r[4] == 0 && r[5] == 0 && r[6] == 0,
		 "close %ld %ld, read %ld: writers the chain let go of are still held",
		 r[4], r[5], r[6]);
	return KT_PASS;
}

/*
 * async_unregister of a ring the program has unmapped: the head goes
 * (the pinning went with the mapping), and the call says it went, 0,
 * as sys_async_unregister(3) lists no other outcome once the chains
 * are done: a failure here would tell the program to try again, and
 * the next call would be EINVAL.
 */
static int kx_case_unmapped(void)
{
	struct async_head_user ahu;
	void *ring;
	long r, r2;

	ring = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	KT_CHECK(ring != MAP_FAILED, "mmap: %s", strerror(errno));
	ahu.completion_ring = ring;
	ahu.ring_size_bytes = 64;
	ahu.max_nr_threads = 1;
	KT_CHECK(K_REG(&ahu) == 0, "async_register failed");
	munmap(ring, 4096);
	r = K_UNREG(&ahu);
	r2 = K_UNREG(&ahu);
	kt_note("async_unregister after munmap of the ring: %ld, again: %ld", r, r2);
	KT_CHECK(r == 0 && r2 == -EINVAL,
		 "async_unregister %ld (then %ld): the head went all the same", r, r2);
	return KT_PASS;
}

/*
 * A completion waits for a slot behind another that a fault in the ring
 * holds up: here a ring the program remapped onto memory registered
 * with userfaultfd, whose fault nobody serves (FUSE-backed memory or a
 * slow disk does the same, for as long as its server or device takes).
 * The worker taking that fault holds the ring's lock; the head's
 * async_wait, and its async_exec, which deliver what waits for a slot
 * first, wait for that lock.  They must take the program's signals
 * meanwhile, as their waits for completions do: async_wait is cut
 * short (EINTR), async_exec runs the handler and goes on.  No thread
 * sleeps uninterruptibly (D state, the hung-task detector's) on the
 * way.  The test's own thread serves the fault at the end.
 */
static long kr_uffd = -1;
static volatile sig_atomic_t kr_got;
static int kr_phase, kr_served, kr_dstate[2], kr_hung_old;
static pid_t kr_tid;
static char *kr_ring;

static void kr_handler(int sig)
{
	(void)sig;
	kr_got++;
}

/* How many threads of this process sleep uninterruptibly ('D'). */
static int kr_count_d(void)
{
	struct dirent *e;
	int d = 0;
	DIR *dir = opendir("/proc/self/task");

	while (dir && (e = readdir(dir)))
		if (e->d_name[0] != '.' &&
		    kt_task_state(getpid(), e->d_name) == 'D')
			d++;
	if (dir)
		closedir(dir);
	return d;
}

static void kr_sleep_ms(int ms)
{
	struct timespec d = { ms / 1000, (ms % 1000) * 1000L * 1000 };

	nanosleep(&d, NULL);
}

/* The hung-task detector's timeout (debug kernel), or -1 without it. */
static int kr_hung_timeout(int set)
{
	const char *f = "/proc/sys/kernel/hung_task_timeout_secs";
	char buf[32];
	int fd, n, old;

	fd = open(f, O_RDWR);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	old = atoi(buf);
	n = snprintf(buf, sizeof(buf), "%d\n", set);
	if (pwrite(fd, buf, n, 0) != n)
		old = -1;
	close(fd);
	return old;
}

/* Serve the ring's fault: a page of zeros, its slots empty. */
static void kr_serve(void)
{
	struct uffdio_zeropage z;

	if (__atomic_exchange_n(&kr_served, 1, __ATOMIC_SEQ_CST))
		return;
	z.range.start = (unsigned long)kr_ring;
	z.range.len = 4096;
	z.mode = 0;
	if (ioctl(kr_uffd, UFFDIO_ZEROPAGE, &z))
		kt_note("UFFDIO_ZEROPAGE: %s", strerror(errno));
}

/*
 * For each of the head's two calls (phase 1, 2): 300 ms into it, count
 * the threads in D state (the hung-task detector, where the kernel has
 * one, looks every second), send SIGUSR1 to the head, and wait up to
 * 3 s for the call to take it before serving the fault anyway.
 */
static void *kr_watch(void *arg)
{
	int i, ph;

	(void)arg;
	for (ph = 1; ph <= 2; ph++) {
		while (__atomic_load_n(&kr_phase, __ATOMIC_SEQ_CST) < ph)
			kr_sleep_ms(1);
		kr_sleep_ms(300);
		kr_dstate[ph - 1] = kr_count_d();
		if (kr_dstate[ph - 1])
			kt_thread_states(getpid());
		if (kr_hung_old > 0)
			kr_sleep_ms(3000);
		syscall(SYS_tgkill, getpid(), kr_tid, SIGUSR1);
		for (i = 0; i < 300; i++) {
			if (__atomic_load_n(&kr_phase, __ATOMIC_SEQ_CST) > ph ||
			    kr_got >= ph)
				break;
			kr_sleep_ms(10);
		}
		if (ph == 2 || i == 300) {
			if (i == 300)
				kt_note("phase %d: the head did not take its signal in 3 s",
					ph);
			kr_serve();
		}
	}
	return NULL;
}

static int kx_case_ring_fault(void)
{
	static unsigned long fd0, fd1, buf0, buf1, len = 1;
	static struct syslet_uatom a[3];
	static long ret[3];
	static char byte[2];
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg;
	struct async_head_user ahu;
	struct sigaction sa;
	struct pollfd pfd;
	struct uffd_msg msg;
	void **ring;
	int p0[2], p1[2], i;
	pthread_t w;
	long r;

	kr_uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	if (kr_uffd < 0)
		return kt_skip("no userfaultfd");
	KT_CHECK(ioctl(kr_uffd, UFFDIO_API, &api) == 0, "UFFDIO_API: %s",
		 strerror(errno));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = kr_handler;	/* no SA_RESTART */
	sigaction(SIGUSR1, &sa, NULL);
	kr_tid = syscall(SYS_gettid);
	KT_CHECK(pipe(p0) == 0 && pipe(p1) == 0, "pipe");
	kr_ring = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	KT_CHECK(kr_ring != MAP_FAILED, "mmap: %s", strerror(errno));
	ring = (void **)kr_ring;
	ahu.completion_ring = (struct syslet_uatom **)ring;
	ahu.ring_size_bytes = 2 * sizeof(void *);
	ahu.max_nr_threads = -1UL;
	KT_CHECK(K_REG(&ahu) == 0, "async_register failed");
	/* Slot 0 holds what the program has not taken yet. */
	ring[0] = &byte[0];
	fd0 = p0[0];
	fd1 = p1[0];
	buf0 = (unsigned long)&byte[0];
	buf1 = (unsigned long)&byte[1];
	kt_atom(&a[0], SYSLET_ASYNC, SYS_read, &ret[0], NULL, &fd0, &buf0,
		&len, NULL);
	kt_atom(&a[1], SYSLET_ASYNC, SYS_read, &ret[1], NULL, &fd1, &buf1,
		&len, NULL);
	kt_atom(&a[2], 0, SYS_getppid, &ret[2], NULL, NULL, NULL, NULL, NULL);
	ret[0] = ret[1] = -12345;
	KT_CHECK(K_EXEC(&a[0]) == 0 && K_EXEC(&a[1]) == 0,
		 "the reads did not go async");
	/* The first read's completion finds slot 0 taken: it waits. */
	KT_CHECK(write(p0[1], "x", 1) == 1, "write");
	for (i = 0; i < 5000 && __atomic_load_n(&ret[0], __ATOMIC_SEQ_CST) != 1; i++)
		kr_sleep_ms(1);
	kr_sleep_ms(200);	/* from its result to its completion */
	KT_CHECK(ret[0] == 1 && ring[0] == &byte[0] && !ring[1],
		 "read %ld, slots %p %p: the first completion did not wait for slot 0",
		 ret[0], ring[0], ring[1]);
	/* The ring becomes memory whose faults the program serves. */
	KT_CHECK(mmap(kr_ring, 4096, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == kr_ring,
		 "mmap over the ring: %s", strerror(errno));
	reg.range.start = (unsigned long)kr_ring;
	reg.range.len = 4096;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	KT_CHECK(ioctl(kr_uffd, UFFDIO_REGISTER, &reg) == 0,
		 "UFFDIO_REGISTER: %s", strerror(errno));
	/* The second completion delivers the first: the worker faults. */
	KT_CHECK(write(p1[1], "y", 1) == 1, "write");
	pfd.fd = kr_uffd;
	pfd.events = POLLIN;
	KT_CHECK(poll(&pfd, 1, 5000) == 1 &&
		 read(kr_uffd, &msg, sizeof(msg)) == sizeof(msg) &&
		 msg.event == UFFD_EVENT_PAGEFAULT &&
		 (msg.arg.pagefault.address & ~4095ULL) ==
			 (unsigned long)kr_ring,
		 "no fault in the ring within 5 s");
	kr_hung_old = kr_hung_timeout(1);
	KT_CHECK(pthread_create(&w, NULL, kr_watch, NULL) == 0,
		 "pthread_create");
	__atomic_store_n(&kr_phase, 1, __ATOMIC_SEQ_CST);
	r = K_WAIT(1);
	i = __atomic_load_n(&kr_served, __ATOMIC_SEQ_CST);
	__atomic_store_n(&kr_phase, 2, __ATOMIC_SEQ_CST);
	kt_note("async_wait(1) while the worker waits on the ring's fault: %ld, %d handler run(s), %s, %d thread(s) in D state",
		r, (int)kr_got, i ? "after the fault was served" : "fault not served",
		kr_dstate[0]);
	r = K_EXEC(&a[2]);
	kt_note("async_exec of a getppid meanwhile: %s, %d handler run(s) before the fault was served, %d thread(s) in D state",
		r == (long)&a[2] ? "ran" : "failed", (int)kr_got,
		kr_dstate[1]);
	pthread_join(w, NULL);
	if (kr_hung_old > 0)
		kr_hung_timeout(kr_hung_old);
	KT_CHECK(!i && kr_dstate[0] == 0,
		 "async_wait took no signal while the ring's lock was held");
	KT_CHECK(r == (long)&a[2] && ret[2] == getppid(),
		 "async_exec gave %ld", r);
	KT_CHECK(kr_got == 2 && kr_dstate[1] == 0,
		 "async_exec took no signal while the ring's lock was held");
	/* Served: both completions are in the ring, in order. */
	for (i = 0; i < 500 && !__atomic_load_n(&ring[1], __ATOMIC_ACQUIRE); i++) {
		K_WAIT(0);
		kr_sleep_ms(10);
	}
	KT_CHECK(ring[0] == &a[0] && ring[1] == &a[1] && ret[0] == 1 &&
		 ret[1] == 1, "slots %p %p (atoms %p %p), reads %ld %ld",
		 ring[0], ring[1], (void *)&a[0], (void *)&a[1], ret[0], ret[1]);
	KT_CHECK(K_UNREG(&ahu) == 0, "async_unregister failed");
	return KT_PASS;
}

/*
 * SIGKILL while the program hands off, again and again: the process of
 * each round loops on SYSLET_ASYNC atoms, each of which gives the
 * program's context to a parked pool thread (syslet_handoff()), and is
 * killed at a seeded moment.  The parked thread, woken by the kill, may
 * be on its way out (do_exit(), syslet_leave_pool()) when the head
 * picks it; the two must not wait for each other.  The same loop of
 * direct getpid() calls, killed the same way, is the yardstick: the
 * kill of either must be reaped at once.  The parent waits for SIGCHLD
 * asleep (sigtimedwait()), so that no task of the test comes to the
 * CPUs and breaks a wait of the kernel for it.
 */
static void kk_loop(int ready, int direct)
{
	static struct syslet_uatom a;
	static long ret;
	unsigned long n = 0, i;
	long r;

	if (!direct && kt_register(8, -1UL))
		_exit(12);
	for (;; n++) {
		if (n == 16 && write(ready, "r", 1) != 1)
			_exit(15);
		if (direct) {
			ret = syscall(SYS_getpid);
			continue;
		}
		kt_atom(&a, SYSLET_ASYNC, SYS_getpid, &ret, NULL, NULL, NULL,
			NULL, NULL);
		r = K_EXEC(&a);
		/* In place, as when no pool thread is parked: no completion. */
		if (r == (long)&a)
			continue;
		if (r != 0) {
			kt_note("iteration %lu: async_exec %ld", n, r);
			_exit(13);
		}
		K_WAIT(1);
		for (i = 0; i < kt_ring_n; i++)
			if (__atomic_load_n(&kt_ring[i], __ATOMIC_ACQUIRE))
				kt_ring[i] = NULL;
	}
}

/* Rounds of fork, loop, kill at a seeded moment; the longest reap, in
 * ms (-1: a round failed to start or was not reaped). */
static long kk_rounds(int rounds, int direct, unsigned int seed)
{
	struct timespec t0, t1, lim = { 3, 0 }, d;
	long worst = 0, ms;
	sigset_t chld;
	int p[2], i, st;
	pid_t pid, r;
	char c;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	for (i = 0; i < rounds; i++) {
		if (pipe(p))
			return -1;
		pid = fork();
		if (pid == 0) {
			close(p[0]);
			kk_loop(p[1], direct);
		}
		close(p[1]);
		if (pid < 0 || read(p[0], &c, 1) != 1) {
			kt_note("round %d: the process did not start", i);
			if (pid > 0)
				waitpid(pid, &st, 0);
			close(p[0]);
			return -1;
		}
		close(p[0]);
		d.tv_sec = 0;
		d.tv_nsec = (rand_r(&seed) % 3000) * 1000;
		nanosleep(&d, NULL);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		kill(pid, SIGKILL);
		while ((r = waitpid(pid, &st, WNOHANG)) == 0)
			if (sigtimedwait(&chld, NULL, &lim) < 0 && errno == EAGAIN)
				break;
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ms = (t1.tv_sec - t0.tv_sec) * 1000 +
		     (t1.tv_nsec - t0.tv_nsec) / 1000000;
		if (r != pid) {
			kt_note("round %d: SIGKILL not reaped in %ld ms", i, ms);
			kt_thread_states(pid);
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			return -1;
		}
		if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGKILL) {
			kt_note("round %d: status %#x, not SIGKILL", i, st);
			return -1;
		}
		if (ms > worst)
			worst = ms;
	}
	return worst;
}

static int kx_case_kill_handoff(void)
{
	long direct, async;

	direct = kk_rounds(40, 1, 1);
	async = kk_rounds(300, 0, 2);
	kt_note("longest reap after SIGKILL: %ld ms with direct getpid(), %ld ms handing off async getpid atoms",
		direct, async);
	KT_CHECK(direct >= 0, "the direct loop was not killed");
	KT_CHECK(async >= 0 && async <= direct + 1000,
		 "a process killed while it hands off was not reaped in time");
	return KT_PASS;
}

/*
 * The same with stops: SIGSTOP and SIGCONT, again and again, to one
 * process of the loop.  A parked thread that the stop found in the pool
 * (it takes its stop there, as any thread) may be picked before it did:
 * it must not keep its CPU meanwhile.  The longest wait for the stop's
 * report, in ms (-1: the process did not start or a stop was not
 * reported in 3 s).
 */
static long kk_stops(int rounds, int direct, unsigned int seed)
{
	struct timespec t0, t1, lim = { 3, 0 }, d;
	long worst = 0, ms;
	sigset_t chld;
	int p[2], i, st = 0;
	pid_t pid, r;
	char c;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		kk_loop(p[1], direct);
	}
	close(p[1]);
	if (pid < 0 || read(p[0], &c, 1) != 1) {
		close(p[0]);
		return -1;
	}
	close(p[0]);
	for (i = 0; i < rounds; i++) {
		d.tv_sec = 0;
		d.tv_nsec = (rand_r(&seed) % 3000) * 1000;
		nanosleep(&d, NULL);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		kill(pid, SIGSTOP);
		while ((r = waitpid(pid, &st, WUNTRACED | WNOHANG)) == 0)
			if (sigtimedwait(&chld, NULL, &lim) < 0 && errno == EAGAIN)
				break;
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ms = (t1.tv_sec - t0.tv_sec) * 1000 +
		     (t1.tv_nsec - t0.tv_nsec) / 1000000;
		if (r != pid || !WIFSTOPPED(st)) {
			kt_note("round %d: no stop reported in %ld ms (status %#x)",
				i, ms, r == pid ? st : 0);
			kt_thread_states(pid);
			worst = -1;
			break;
		}
		if (ms > worst)
			worst = ms;
		kill(pid, SIGCONT);
		while ((r = waitpid(pid, &st, WCONTINUED | WNOHANG)) == 0)
			if (sigtimedwait(&chld, NULL, &lim) < 0 && errno == EAGAIN)
				break;
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return worst;
}

static int kx_case_stop_handoff(void)
{
	long direct, async;

	direct = kk_stops(40, 1, 3);
	async = kk_stops(300, 0, 4);
	kt_note("longest wait for a stop: %ld ms with direct getpid(), %ld ms handing off async getpid atoms",
		direct, async);
	KT_CHECK(direct >= 0, "the direct loop did not stop");
	KT_CHECK(async >= 0 && async <= direct + 1000,
		 "a process stopped while it hands off did not stop in time");
	return KT_PASS;
}

/*
 * The ring is the program's memory, and the program may take it away
 * for a while: make it read-only (mprotect), or truncate the file it
 * maps (a tmpfs file here) and grow it again.  A completion meanwhile
 * finds no slot it can write: it waits in the kernel, nothing faults,
 * no signal comes (the program's own store there would take SIGSEGV or
 * SIGBUS), and async_wait delivers it, in its turn, once the memory is
 * writable again.  async_unregister is 0 after all that.
 */
static int kx_case_ring_taken(void)
{
	static struct syslet_uatom a[3];
	static long ret[3];
	struct async_head_user ahu;
	void **ring;
	long r;
	int fd, i;

	fd = open("/tmp/kx-ring", O_RDWR | O_CREAT | O_TRUNC, 0600);
	KT_CHECK(fd >= 0 && ftruncate(fd, 4096) == 0, "tmpfs file: %s",
		 strerror(errno));
	ring = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	KT_CHECK(ring != MAP_FAILED, "mmap: %s", strerror(errno));
	ahu.completion_ring = (struct syslet_uatom **)ring;
	ahu.ring_size_bytes = 8 * sizeof(void *);
	ahu.max_nr_threads = 2;
	KT_CHECK(K_REG(&ahu) == 0, "async_register failed");
	for (i = 0; i < 3; i++) {
		kt_atom(&a[i], SYSLET_ASYNC, SYS_getpid, &ret[i], NULL, NULL,
			NULL, NULL, NULL);
		if (i == 1)
			KT_CHECK(mprotect(ring, 4096, PROT_READ) == 0,
				 "mprotect: %s", strerror(errno));
		if (i == 2)
			KT_CHECK(ftruncate(fd, 0) == 0, "ftruncate 0: %s",
				 strerror(errno));
		r = K_EXEC(&a[i]);
		KT_CHECK(r == 0, "atom %d: async_exec %ld", i, r);
		r = K_WAIT(1);
		kt_note("atom %d: async_wait(1) %ld, slot %d %s", i, r, i,
			i == 1 ? "read-only" : i == 2 ? "truncated" : "writable");
		if (i == 1)
			KT_CHECK(mprotect(ring, 4096, PROT_READ | PROT_WRITE) == 0,
				 "mprotect: %s", strerror(errno));
		if (i == 2)
			KT_CHECK(ftruncate(fd, 4096) == 0, "ftruncate: %s",
				 strerror(errno));
		/* Delivers what waited for its slot. */
		K_WAIT(0);
		KT_CHECK(__atomic_load_n(&ring[i], __ATOMIC_ACQUIRE) == &a[i] &&
			 ret[i] == getpid(),
			 "atom %d: slot %p (atom %p), getpid %ld", i, ring[i],
			 (void *)&a[i], ret[i]);
	}
	r = K_UNREG(&ahu);
	KT_CHECK(r == 0, "async_unregister %ld", r);
	munmap(ring, 4096);
	close(fd);
	unlink("/tmp/kx-ring");
	return KT_PASS;
}

static const struct kt_case kx_cases[] = {
	{ "exit: SIGSTOP stops a process whose thread ended while its head's chain waits",
	  kx_case_stop, 40 },
	{ "exit: cgroup.freeze freezes a process whose thread ended while its head's chain waits",
	  kx_case_freeze, 40 },
	{ "exit: a signal for the process is handled while a thread that ended waits for its head's chain",
	  kx_case_signal, 40 },
	{ "limits: pool threads count against RLIMIT_NPROC", kx_case_nproc, 40 },
	{ "limits: the ring's pinning counts against RLIMIT_MEMLOCK", kx_case_memlock },
	{ "exit: a core dump of a process whose chain waits in a worker", kx_case_core, 40 },
	{ "limits: RLIMIT_CPU ends an endless chain that runs in the caller", kx_case_cpulimit, 40 },
	{ "limits: a chain in the caller does not hold the files it let go of (a pipe's writers dup2()ed over)",
	  kx_case_files, 60 },
	{ "unregister: a ring the program unmapped: the head goes and the call is 0", kx_case_unmapped },
	{ "ring: async_wait and async_exec take signals while a fault in the ring holds its lock (userfaultfd)",
	  kx_case_ring_fault, 40 },
	{ "exit: SIGKILL while the program hands its context off, 300 times: reaped at once, as a direct loop is",
	  kx_case_kill_handoff, 150 },
	{ "exit: SIGSTOP and SIGCONT while the program hands its context off, 300 times: each stop at once, as a direct loop's",
	  kx_case_stop_handoff, 150 },
	{ "ring: a ring made read-only, or a file mapping truncated under it: completions wait, nothing faults, and come in turn once it is writable",
	  kx_case_ring_taken },
};

int main(void)
{
	(void)kt_async_getpid;	/* kt.h's, for ksafe */
	return kt_main(kx_cases, sizeof(kx_cases) / sizeof(kx_cases[0]));
}
