/* kstress.c: in the guest, seeded rounds of threads that end while their heads' chains wait, among signals, stops, exit_group, execve, fork, CPU timers and unregister/munmap races; each round's end is checked. */
/* kt.h has helpers (kt_main, kt_skip) that a program of rounds does not use. */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "kt.h"
#include <pthread.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>

/*
 * Usage: kstress [SEED [ROUNDS]].  Each round is a process of its own
 * (a fresh syslet state) that does one of the mixes below, with its
 * choices drawn from the round's seed; the parent stops and continues
 * it, or kills it, at seeded moments and checks how it ended.  Thread
 * timing is the kernel's, so a seed replays the choices, not the races.
 */
enum ks_mode {
	KS_EXIT,	/* threads end, chains wait; their pipes are written later */
	KS_GROUP,	/* the same, and exit_group(3) from another thread meanwhile */
	KS_EXEC,	/* the same, and execve() from a thread that is not the leader */
	KS_FORK,	/* the same, and fork() from another thread meanwhile */
	KS_KILL,	/* the same, and SIGKILL from the parent at some moment */
	KS_CPU,		/* an endless chain in the caller under ITIMER_PROF or RLIMIT_CPU */
	KS_UNMAP,	/* async_unregister racing munmap() of the ring */
	KS_LEADER,	/* the leader ends (SYS_exit) while its chain waits */
	KS_NMODES
};

static const char *const ks_names[KS_NMODES] = {
	"threads end (exit or pthread_exit) while their chains wait on pipes, signals and stops meanwhile",
	"exit_group from another thread while ended threads wait for their chains",
	"execve from a thread that is not the leader while ended threads wait for their chains",
	"fork from another thread while ended threads wait for their chains",
	"SIGKILL while ended threads wait for their chains",
	"an endless chain in the caller under ITIMER_PROF (handled) or RLIMIT_CPU",
	"async_unregister racing munmap of the ring from another thread",
	"the leader ends while its chain waits; another thread writes its pipe and sees the result",
};

#define KS_EXEC_STATUS 42
#define KS_GROUP_STATUS 3
#define KS_FORK_STATUS 5
#define KS_MAXT 3

static unsigned int ks_seed;

static int ks_rnd(int n)
{
	return rand_r(&ks_seed) % n;
}

static void ks_sleep_us(long us)
{
	struct timespec d = { us / 1000000, (us % 1000000) * 1000 };

	while (nanosleep(&d, &d) && errno == EINTR)
		;
}

/* ---- the round's process ------------------------------------------ */

struct ks_ender {
	pthread_t t;
	int data[2];		/* a byte here ends the chain */
	int how;		/* 0: SYS_exit, 1: pthread_exit, 2: return */
	int chains;		/* 1 or 2 chains sent off */
	int block_usr1;
	unsigned long fd, buf, len, clk, zero, tsp;
	struct kt_ts ts;
	struct syslet_uatom a[3];
	struct syslet_uatom *ring[8];
	struct async_head_user ahu;
	long r[3];
	char byte;
};

static struct ks_ender ks_e[KS_MAXT];
static int ks_n;
static int ks_sync[2];
static volatile sig_atomic_t ks_usr1, ks_prof;

static void ks_on_usr1(int sig)
{
	(void)sig;
	ks_usr1++;
}

static void ks_on_prof(int sig)
{
	(void)sig;
	ks_prof++;
}

/* A thread that registers a head, sends its chains off and ends. */
/*
 * async_exec of @a, whose result goes to *@ret: 0 once it went async.
 * A chain that found no pool thread parked waits in the caller, and a
 * stop of the process (the parent's SIGSTOP) cuts its call short there:
 * as head, the signal ends the chain with -EINTR and async_exec returns
 * its atom, as in 2007 (kernel-patch/README), where a worker restarts
 * the call.  The program sends it again, as one does after EINTR.
 */
static long ks_exec_again(struct syslet_uatom *a, long *ret)
{
	long r;

	for (int i = 0;; i++) {
		*ret = -12345;
		r = K_EXEC(a);
		if (r != (long)a || *ret != -EINTR || i == 100)
			return r;
	}
}

static void *ks_ender_fn(void *arg)
{
	struct ks_ender *e = arg;
	sigset_t s;
	char c = 'e';
	long r;

	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	pthread_sigmask(e->block_usr1 ? SIG_BLOCK : SIG_UNBLOCK, &s, NULL);
	e->ahu.completion_ring = e->ring;
	e->ahu.ring_size_bytes = sizeof(e->ring);
	e->ahu.max_nr_threads = e->chains == 2 ? -1UL : 1;
	e->r[0] = e->r[1] = e->r[2] = -12345;
	if (K_REG(&e->ahu)) {
		c = 'R';
		goto out;
	}
	e->fd = e->data[0];
	e->buf = (unsigned long)&e->byte;
	e->len = 1;
	kt_atom(&e->a[0], SYSLET_ASYNC, SYS_read, &e->r[0], NULL, &e->fd,
		&e->buf, &e->len, NULL);
	r = ks_exec_again(&e->a[0], &e->r[0]);
	if (r != 0) {
		kt_note("async_exec of a read %ld (atom %p), the read gave %ld",
			r, (void *)&e->a[0], e->r[0]);
		c = 'A';
		goto out;
	}
	if (e->chains == 2) {
		/* A short sleep, then getpid: ends on its own. */
		e->clk = CLOCK_MONOTONIC;
		e->tsp = (unsigned long)&e->ts;
		e->ts.nsec = 1000 * 1000 * 20;
		kt_atom(&e->a[1], SYSLET_ASYNC, KT_SLEEP, &e->r[1], &e->a[2],
			&e->clk, &e->zero, &e->tsp, &e->zero);
		kt_atom(&e->a[2], 0, SYS_getpid, &e->r[2], NULL, NULL, NULL,
			NULL, NULL);
		r = ks_exec_again(&e->a[1], &e->r[1]);
		if (r != 0) {
			kt_note("async_exec of a sleep %ld (atom %p), the sleep gave %ld",
				r, (void *)&e->a[1], e->r[1]);
			c = 'B';
			goto out;
		}
	}
out:
	if (write(ks_sync[1], &c, 1) != 1)
		return NULL;
	if (c != 'e')
		return NULL;
	if (e->how == 0)
		syscall(SYS_exit, 0);
	else if (e->how == 1)
		pthread_exit(NULL);
	return NULL;
}

static void *ks_group_fn(void *arg)
{
	ks_sleep_us((long)arg);
	syscall(SYS_exit_group, KS_GROUP_STATUS);
	return NULL;
}

static char *ks_self;

static void *ks_exec_fn(void *arg)
{
	char *argv[] = { ks_self, NULL };
	char *envp[] = { "KSTRESS_EXEC=1", NULL };

	ks_sleep_us((long)arg);
	execve("/proc/self/exe", argv, envp);
	_exit(100);	/* execve failed */
}

static void *ks_fork_fn(void *arg)
{
	int st;
	pid_t p;

	ks_sleep_us((long)arg);
	p = fork();
	if (p == 0)
		_exit(KS_FORK_STATUS);
	if (p < 0 || waitpid(p, &st, 0) != p)
		return (void *)1;
	return (void *)(long)!(WIFEXITED(st) &&
			       WEXITSTATUS(st) == KS_FORK_STATUS);
}

/*
 * The ending threads' rounds.  Exit codes: 0 all chains read their
 * byte; 20+i thread i's chain read something else; 30+i thread i did
 * not end; 40 the fork thread's child; 11 setup; 12 register; 13 not
 * async.
 */
static int ks_child_exit(int mode)
{
	struct sigaction sa;
	pthread_t aux;
	int i, j, x, order[KS_MAXT], aux_started = 0;
	void *auxr;
	sigset_t s;
	char c;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = ks_on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	ks_n = 1 + ks_rnd(KS_MAXT);
	if (pipe(ks_sync))
		return 11;
	/* Half the time the main thread blocks SIGUSR1: it goes to an ender. */
	if (ks_rnd(2)) {
		sigemptyset(&s);
		sigaddset(&s, SIGUSR1);
		pthread_sigmask(SIG_BLOCK, &s, NULL);
	}
	for (i = 0; i < ks_n; i++) {
		struct ks_ender *e = &ks_e[i];

		if (pipe(e->data))
			return 11;
		e->how = ks_rnd(3);
		e->chains = 1 + ks_rnd(2);
		e->block_usr1 = ks_rnd(4) == 0;
		if (pthread_create(&e->t, NULL, ks_ender_fn, e))
			return 11;
		if (read(ks_sync[0], &c, 1) != 1)
			return 11;
		if (c != 'e')
			return c == 'R' ? 12 : 13;
	}
	switch (mode) {
	case KS_GROUP:
		aux_started = !pthread_create(&aux, NULL, ks_group_fn,
					      (void *)(long)ks_rnd(30000));
		break;
	case KS_EXEC:
		aux_started = !pthread_create(&aux, NULL, ks_exec_fn,
					      (void *)(long)ks_rnd(30000));
		break;
	case KS_FORK:
		aux_started = !pthread_create(&aux, NULL, ks_fork_fn,
					      (void *)(long)ks_rnd(30000));
		break;
	}
	/* Process-directed signals while the enders wait in their exit. */
	for (i = ks_rnd(4); i > 0; i--) {
		ks_sleep_us(ks_rnd(10000));
		kill(getpid(), SIGUSR1);
	}
	for (i = 0; i < ks_n; i++)
		order[i] = i;
	for (i = ks_n - 1; i > 0; i--) {
		j = ks_rnd(i + 1);
		x = order[i], order[i] = order[j], order[j] = x;
	}
	for (i = 0; i < ks_n; i++) {
		struct ks_ender *e = &ks_e[order[i]];

		ks_sleep_us(ks_rnd(40000));
		c = 'a' + order[i];
		if (write(e->data[1], &c, 1) != 1)
			return 11;
	}
	for (i = 0; i < ks_n; i++) {
		struct timespec dl;

		clock_gettime(CLOCK_REALTIME, &dl);
		dl.tv_sec += 10;
		if (pthread_timedjoin_np(ks_e[i].t, NULL, &dl))
			return 30 + i;
		if (ks_e[i].r[0] != 1 || ks_e[i].byte != 'a' + i)
			return 20 + i;
	}
	if (aux_started) {
		pthread_join(aux, &auxr);
		if (auxr)
			return 40;
	}
	return 0;
}

/*
 * An endless chain in the caller: ITIMER_PROF with a handler ends it
 * at each tick (its signal is pending), and the program runs it again
 * until 5 ticks came (0); or RLIMIT_CPU ends the process (SIGXCPU).
 */
static int ks_child_cpu(int limit)
{
	static struct syslet_uatom a;
	static unsigned long cnt, cntp, one = 1;
	static long ret;
	struct itimerval it = { { 0, 10000 }, { 0, 10000 } };
	struct rlimit rl = { 1, 3 };
	struct sigaction sa;
	int i;

	if (kt_register(8, -1UL))
		return 12;
	cntp = (unsigned long)&cnt;
	kt_atom(&a, 0, K_UMEM, &ret, &a, &cntp, &one, NULL, NULL);
	if (limit) {
		if (setrlimit(RLIMIT_CPU, &rl))
			return 11;
		/* A stop or a continue ends the chain too: run it again. */
		for (i = 0; i < 1000; i++)
			K_EXEC(&a);
		return 14;	/* 1000 signals ended the chain, none SIGXCPU */
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = ks_on_prof;
	sigaction(SIGPROF, &sa, NULL);
	rl.rlim_cur = 10, rl.rlim_max = 12;	/* a backstop */
	if (setrlimit(RLIMIT_CPU, &rl) || setitimer(ITIMER_PROF, &it, NULL))
		return 11;
	for (i = 0; i < 1000 && ks_prof < 5; i++)
		K_EXEC(&a);
	return ks_prof >= 5 && cnt > 0 ? 0 : 15;
}

/* async_unregister while another thread munmap()s the ring: always 0. */
static void *ks_unmap_fn(void *arg)
{
	void **ring = arg;

	ks_sleep_us(ks_rnd(3000));
	munmap(*ring, 4096);
	return NULL;
}

static int ks_child_unmap(void)
{
	static struct syslet_uatom a[2];
	static unsigned long clk = CLOCK_MONOTONIC, zero, tsp;
	static struct kt_ts ts = { 0, 500 * 1000 };
	static long r[2];
	struct async_head_user ahu;
	pthread_t t;
	void *ring;
	long u, u2;
	int i;

	ring = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ring == MAP_FAILED)
		return 11;
	ahu.completion_ring = ring;
	ahu.ring_size_bytes = 8 * sizeof(void *);
	ahu.max_nr_threads = 1 + ks_rnd(3);
	if (K_REG(&ahu))
		return 12;
	tsp = (unsigned long)&ts;
	kt_atom(&a[0], SYSLET_ASYNC, KT_SLEEP, &r[0], &a[1], &clk, &zero,
		&tsp, &zero);
	kt_atom(&a[1], 0, SYS_getpid, &r[1], NULL, NULL, NULL, NULL, NULL);
	if (pthread_create(&t, NULL, ks_unmap_fn, &ring))
		return 11;
	for (i = ks_rnd(6); i > 0; i--) {
		K_EXEC(&a[0]);
		ks_sleep_us(ks_rnd(1000));
	}
	u = K_UNREG(&ahu);
	u2 = K_UNREG(&ahu);
	pthread_join(t, NULL);
	if (u != 0)
		return 50;
	if (u2 != -EINVAL)
		return 51;
	return 0;
}

/*
 * The leader registers a head, sends a read of a pipe off and ends with
 * SYS_exit: it waits in its exit for the chain.  Another thread writes
 * the byte, waits for the chain's result and ends the process with
 * exit_group: 0 when the read gave 1, 60 when it gave something else,
 * 61 when no result came in 10 s.
 */
static struct ks_ender ks_lead;

static void *ks_leader_fn(void *arg)
{
	int i;

	(void)arg;
	ks_sleep_us(ks_rnd(40000));
	if (write(ks_lead.data[1], "a", 1) != 1)
		syscall(SYS_exit_group, 11);
	for (i = 0; i < 10000; i++) {
		if (__atomic_load_n(&ks_lead.r[0], __ATOMIC_ACQUIRE) != -12345)
			syscall(SYS_exit_group,
				ks_lead.r[0] == 1 && ks_lead.byte == 'a' ? 0 : 60);
		ks_sleep_us(1000);
	}
	syscall(SYS_exit_group, 61);
	return NULL;
}

static int ks_child_leader(void)
{
	struct ks_ender *e = &ks_lead;
	pthread_t t;

	if (pipe(e->data))
		return 11;
	e->ahu.completion_ring = e->ring;
	e->ahu.ring_size_bytes = sizeof(e->ring);
	e->ahu.max_nr_threads = -1UL;
	e->r[0] = -12345;
	if (K_REG(&e->ahu))
		return 12;
	e->fd = e->data[0];
	e->buf = (unsigned long)&e->byte;
	e->len = 1;
	kt_atom(&e->a[0], SYSLET_ASYNC, SYS_read, &e->r[0], NULL, &e->fd,
		&e->buf, &e->len, NULL);
	if (ks_exec_again(&e->a[0], &e->r[0]) != 0)
		return 13;
	if (pthread_create(&t, NULL, ks_leader_fn, NULL))
		return 11;
	syscall(SYS_exit, 0);
	return 0;
}

/* ---- the parent ---------------------------------------------------- */


/* Does @st fit @mode (with @cpu_limit for KS_CPU, @killed for any)? */
static int ks_status_ok(int mode, int cpu_limit, int killed, int st)
{
	if (killed && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
		return 1;
	switch (mode) {
	case KS_GROUP:
		return WIFEXITED(st) && (WEXITSTATUS(st) == KS_GROUP_STATUS ||
					 WEXITSTATUS(st) == 0);
	case KS_EXEC:
		/* A SIGUSR1 sent before the exec finds the new image's default. */
		if (WIFSIGNALED(st) && WTERMSIG(st) == SIGUSR1)
			return 1;
		return WIFEXITED(st) && (WEXITSTATUS(st) == KS_EXEC_STATUS ||
					 WEXITSTATUS(st) == 0);
	case KS_CPU:
		if (cpu_limit)
			return WIFSIGNALED(st) && (WTERMSIG(st) == SIGXCPU ||
						   WTERMSIG(st) == SIGKILL);
		return WIFEXITED(st) && WEXITSTATUS(st) == 0;
	default:
		return WIFEXITED(st) && WEXITSTATUS(st) == 0;
	}
}

int main(int argc, char **argv)
{
	unsigned int seed = argc > 1 ? strtoul(argv[1], NULL, 0) : 0x5eed2021;
	int rounds = argc > 2 ? atoi(argv[2]) : 240;
	int runs[KS_NMODES] = { 0 }, bad[KS_NMODES] = { 0 };
	int i, k, st, mode, cpu_limit, killed, stops, waited, ms;
	unsigned int rs;
	time_t t0 = time(NULL);
	pid_t pid, r;

	if (getenv("KSTRESS_EXEC"))
		return KS_EXEC_STATUS;
	ks_self = argv[0];
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	if (kt_discover()) {
		printf("1..0 # SKIP no /sys/kernel/syslet/%s\n", KT_ABI);
		return 77;
	}
	kt_note("seed %#x, %d rounds", seed, rounds);
	for (i = 0; i < rounds; i++) {
		/* 150 s at most: init's limit is 240. */
		if (time(NULL) - t0 > 150) {
			kt_note("time is up after %d rounds", i);
			break;
		}
		ks_seed = seed ^ (i * 2654435761u);
		rs = rand_r(&ks_seed);
		mode = ks_rnd(KS_NMODES);
		cpu_limit = ks_rnd(2);
		killed = mode == KS_KILL;
		stops = ks_rnd(3) ? 0 : 1 + ks_rnd(3);
		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			ks_seed = rs;
			switch (mode) {
			case KS_CPU:
				_exit(ks_child_cpu(cpu_limit));
			case KS_UNMAP:
				_exit(ks_child_unmap());
			case KS_LEADER:
				_exit(ks_child_leader());
			default:
				_exit(ks_child_exit(mode));
			}
		}
		if (pid < 0) {
			kt_note("round %d: fork: %s", i, strerror(errno));
			bad[mode]++;
			continue;
		}
		runs[mode]++;
		for (k = 0; k < stops; k++) {
			ks_sleep_us(ks_rnd(30000));
			kill(pid, SIGSTOP);
			ks_sleep_us(ks_rnd(20000));
			kill(pid, SIGCONT);
		}
		if (killed) {
			ks_sleep_us(ks_rnd(60000));
			kill(pid, SIGKILL);
		}
		waited = 0;
		for (ms = 0; ms < 20000; ms += 10) {
			r = waitpid(pid, &st, WNOHANG);
			if (r == pid) {
				waited = 1;
				break;
			}
			ks_sleep_us(10000);
		}
		if (!waited) {
			kt_note("round %d (%s, seed %#x): still there after 20 s",
				i, ks_names[mode], seed);
			kt_thread_states(pid);
			kill(pid, SIGKILL);
			for (ms = 0; ms < 5000; ms += 10) {
				if (waitpid(pid, &st, WNOHANG) == pid)
					break;
				ks_sleep_us(10000);
			}
			if (ms >= 5000)
				kt_note("round %d: SIGKILL did not end it in 5 s", i);
			bad[mode]++;
			continue;
		}
		if (!ks_status_ok(mode, cpu_limit, killed, st)) {
			kt_note("round %d (%s%s, %d stops, seed %#x): status %#x (exit %d, signal %d)",
				i, ks_names[mode],
				mode == KS_CPU ? (cpu_limit ? ", RLIMIT_CPU" : ", ITIMER_PROF") : "",
				stops, seed, st, WIFEXITED(st) ? WEXITSTATUS(st) : -1,
				WIFSIGNALED(st) ? WTERMSIG(st) : 0);
			bad[mode]++;
		}
	}
	kt_note("%d rounds in %ld s", i, (long)(time(NULL) - t0));
	k = 0;
	for (mode = 0; mode < KS_NMODES; mode++) {
		printf("%sok %d - stress: %s (%d rounds)\n",
		       bad[mode] ? "not " : "", mode + 1, ks_names[mode],
		       runs[mode]);
		k |= bad[mode];
	}
	printf("1..%d\n", KS_NMODES);
	return k ? 1 : 0;
}
