/* fuzz.c: random atoms (flags, numbers, pointers, chains) against the patched kernel, as TAP. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "syslet.h"

/*
 * Usage: fuzz [SEED [RUNS]].  Every chain is finite (next pointers go
 * forward, or to an address that cannot be read: never into the cells,
 * whose words the kernel would take for atoms with random result and next
 * pointers, scribbling on the ring and the atoms themselves), and the sleeps' arguments live outside
 * the cells, so that no random umem_add can turn 100 us into years: an
 * earlier version kept &ts in a cell, and a 32-bit run slept "forever"
 * in an atom with async_wait() waiting for it.  A SIGALRM every 2 s
 * bounds what is left (it stops inline chains and interrupts waits),
 * and the last checks make sure a chain that never ends still dies
 * with its process.
 */
#define FZ_ATOMS	64
#define FZ_RUNS		3000
#define FZ_RING		16

#ifdef __x86_64__
#define FZ_SLEEP SYS_clock_nanosleep
#else
#define FZ_SLEEP SYS_clock_nanosleep_time64
#endif

static unsigned long fz_state = 0x5eed5ee1UL;

static unsigned long fz_rand(void)
{
	/* xorshift: reproducible from the printed seed */
	fz_state ^= fz_state << 13;
	fz_state ^= fz_state >> 7;
	fz_state ^= fz_state << 17;
	return fz_state;
}

static struct syslet_uatom fz_atoms[FZ_ATOMS + 1];
static struct syslet_uatom *fz_ring[FZ_RING];
static unsigned long fz_cells[16];
static unsigned long fz_sleep_args[3];
static long fz_rets[16];
static volatile sig_atomic_t fz_alarms;
static char *fz_unmapped;

static unsigned long *fz_ptr(void)
{
	switch (fz_rand() % 8) {
	case 0: return NULL;
	case 1: return (unsigned long *)16;
	case 2: return (unsigned long *)fz_unmapped;
	case 3: return (unsigned long *)(~0UL - 7);
	default: return &fz_cells[fz_rand() % 16];
	}
}

/* A pointer that cannot be read. */
static struct syslet_uatom *fz_badptr(void)
{
	switch (fz_rand() % 3) {
	case 0: return (struct syslet_uatom *)16;
	case 1: return (struct syslet_uatom *)fz_unmapped;
	default: return (struct syslet_uatom *)(~0UL - 7);
	}
}

static long fz_nr(long base)
{
	/* Harmless calls, the syslet calls, denied ones, out of range. */
	static const long safe[] = {
		SYS_getpid, SYS_getppid, SYS_gettid, SYS_getuid, FZ_SLEEP,
		SYS_read, SYS_sched_yield, SYS_fork, SYS_execve,
		SYS_exit_group, SYS_clone,
	};
	switch (fz_rand() % 6) {
	case 0: return base + 4;			/* umem_add */
	case 1: return base + fz_rand() % 4;		/* denied */
	case 2: return 3000 + fz_rand() % 100000;	/* -ENOSYS */
	default: return safe[fz_rand() % (sizeof(safe) / sizeof(safe[0]))];
	}
}

static int fz_valid(long r)
{
	struct syslet_uatom *a = (struct syslet_uatom *)r;

	/* -EAGAIN: a ring's worth of completions waits for slots that
	 * atoms scribbled on. */
	return !r || r == -EFAULT || r == -EAGAIN ||
	       (a >= fz_atoms && a <= &fz_atoms[FZ_ATOMS]);
}

static long fz_read_nr(const char *name)
{
	char path[96], buf[32] = "";
	int fd;

	snprintf(path, sizeof(path), "/sys/kernel/syslet/%s/%s",
#ifdef __x86_64__
		 "x86_64",
#else
		 "i386",
#endif
		 name);
	fd = open(path, O_RDONLY);
	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) <= 0)
		return -1;
	close(fd);
	return strtol(buf, NULL, 10);
}

static void fz_on_alarm(int sig)
{
	(void)sig;
	fz_alarms++;
}

/*
 * A chain that never ends by itself, in a child: @how 0 is an inline
 * umem_add loop the child's own SIGALRM must stop; 1 the same loop on a
 * cachemiss thread (SYSLET_ASYNC), which blocks signals; 2 and 3 a
 * one-hour sleep, async and inline.  In 1..3 the child then waits
 * forever, so only SIGKILL ends it, and that must work within 20 s.
 */
static int fz_endless(long base, int tap, int how, const char *what)
{
	const struct timespec tick = { 0, 100 * 1000 * 1000 };
	int status = -1, i;
	pid_t pid = fork();

	if (pid == 0) {
		static struct syslet_uatom *ring[4];
		struct async_head_user ah = { ring, sizeof(ring), 2 };
		static struct { long long s, ns; } hour = { 3600, 0 };
		static unsigned long cell, minus = -1UL, *cp = &cell;
		static unsigned long clk = 1, zero = 0, tsp;
		struct itimerval one = { { 0, 0 }, { 0, 200000 } };
		struct syslet_uatom a;
		long r;

		memset(&a, 0, sizeof(a));
		if (syscall(base, &ah, sizeof(ah)))
			_exit(2);
		tsp = (unsigned long)&hour;
		cell = -1UL / 2;
		if (how < 2) {
			a.nr = base + 4;	/* umem_add(&cell, -1) */
			a.arg_ptr[0] = (unsigned long *)&cp;
			a.arg_ptr[1] = &minus;
			a.next = &a;
			a.flags = SYSLET_STOP_ON_ZERO;
		} else {
			a.nr = FZ_SLEEP;
			a.arg_ptr[0] = &clk;
			a.arg_ptr[1] = &zero;
			a.arg_ptr[2] = &tsp;
		}
		if (how == 1 || how == 2)
			a.flags |= SYSLET_ASYNC;
		if (how == 0) {
			setitimer(ITIMER_REAL, &one, NULL);
			r = syscall(base + 1, &a);
			_exit(r == (long)&a && cell && cell < -1UL / 2 ? 0 : 3);
		}
		r = syscall(base + 1, &a);
		(void)r;
		for (;;)
			syscall(base + 2, 1UL);	/* async_wait */
	}
	if (pid < 0) {
		printf("not ok %d - %s: fork\n", tap, what);
		return 1;
	}
	if (how) {
		for (i = 0; i < 5; i++)
			nanosleep(&tick, NULL);
		kill(pid, SIGKILL);
	}
	for (i = 0; i < 200; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		nanosleep(&tick, NULL);
	}
	if (i == 200) {
		printf("not ok %d - %s: still there after 20 s\n", tap, what);
		return 1;
	}
	i = how ? WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL :
		  WIFEXITED(status) && WEXITSTATUS(status) == 0;
	printf("%sok %d - %s (status %#x)\n", i ? "" : "not ", tap, what,
	       status);
	return !i;
}

int main(int argc, char **argv)
{
	struct async_head_user ahu = { fz_ring, sizeof(fz_ring), 4 };
	long base = fz_read_nr("async_register"), r;
	unsigned long bad = 0, async = 0, got = 0, i, j, k, bogus = 0;
	struct { long long s, ns; } ts = { 0, 100000 };

	struct sigaction sa = { .sa_handler = fz_on_alarm };
	struct itimerval it = { { 2, 0 }, { 2, 0 } };
	unsigned long runs = FZ_RUNS;
	int st = 0;

	if (argc > 1)
		fz_state = strtoul(argv[1], NULL, 0);
	if (argc > 2)
		runs = strtoul(argv[2], NULL, 0);
	printf("TAP version 13\n# seed %#lx, %lu runs\n", fz_state, runs);
	setvbuf(stdout, NULL, _IOLBF, 0);
	fz_sleep_args[0] = 1;	/* CLOCK_MONOTONIC */
	fz_sleep_args[1] = 0;
	fz_sleep_args[2] = (unsigned long)&ts;
	/* No SA_RESTART: the alarm ends waits and inline chains. */
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	if (base < 0) {
		printf("1..0 # SKIP no /sys/kernel/syslet\n");
		return 77;
	}
	fz_unmapped = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	printf("%sok 1 - register\n",
	       syscall(base, &ahu, sizeof(ahu)) == 0 ? "" : "not ");
	for (i = 0; i < runs; i++) {
		ts.s = 0;
		ts.ns = 100000;
		if (i && i % 1000 == 0) {
			printf("# %lu runs\n", i);
			fflush(stdout);
		}
		for (j = 0; j < FZ_ATOMS; j++) {
			struct syslet_uatom *a = &fz_atoms[j];
			unsigned long pick = fz_rand() % 10;

			memset(a, 0, sizeof(*a));
			a->flags = fz_rand() & SYSLET_FLAGS_MASK;
			if (fz_rand() % 4)
				a->flags &= ~SYSLET_ASYNC;
			a->nr = fz_nr(base);
			if (a->nr == FZ_SLEEP) {
				a->arg_ptr[0] = &fz_sleep_args[0];
				a->arg_ptr[1] = &fz_sleep_args[1];
				a->arg_ptr[2] = &fz_sleep_args[2];
			} else {
				for (k = 0; k < 6; k++)
					if (!(a->arg_ptr[k] = fz_ptr()))
						break;
			}
			a->ret_ptr = (fz_rand() % 4) ? &fz_rets[fz_rand() % 16]
						     : (long *)fz_ptr();
			/* Forward only, so that every chain ends. */
			if (pick < 6 && j + 1 < FZ_ATOMS)
				a->next = &fz_atoms[j + 1 + fz_rand() % (FZ_ATOMS - j - 1)];
			else if (pick == 6)
				a->next = fz_badptr();
		}
		/* Only a read of fd 0..2 on the console could block forever. */
		for (j = 0; j < FZ_ATOMS; j++)
			if (fz_atoms[j].nr == SYS_read)
				fz_atoms[j].nr = SYS_getpid;
		r = syscall(base + 1, &fz_atoms[fz_rand() % FZ_ATOMS]);
		if (r == -1)
			r = -errno;
		if (!fz_valid(r))
			bad++;
		if (!r)
			async++;
		for (j = 0; j < FZ_RING; j++) {
			struct syslet_uatom *c = fz_ring[j];

			if (!c)
				continue;
			if (c < fz_atoms || c > &fz_atoms[FZ_ATOMS])
				bogus++;
			fz_ring[j] = NULL;
			got++;
		}
	}
	syscall(base + 2, 1000UL);
	for (j = 0; j < FZ_RING; j++)
		if (fz_ring[j]) {
			got++;
			fz_ring[j] = NULL;
		}
	printf("%sok 2 - every async_exec result is an atom, NULL, -EFAULT or -EAGAIN (%lu bad)\n",
	       bad ? "not " : "", bad);
	printf("%sok 3 - every completion is an atom (%lu async, %lu completions, %lu bogus)\n",
	       bogus ? "not " : "", async, got, bogus);
	printf("%sok 4 - unregister\n",
	       syscall(base + 3, &ahu, sizeof(ahu)) == 0 ? "" : "not ");
	printf("# %lu alarms during the runs\n", (unsigned long)fz_alarms);
	it.it_interval.tv_sec = it.it_value.tv_sec = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	st |= fz_endless(base, 5, 0, "a self-looping inline chain ends on SIGALRM");
	st |= fz_endless(base, 6, 1, "a self-looping async chain dies with its process (SIGKILL)");
	st |= fz_endless(base, 7, 2, "an async chain asleep for an hour dies with its process (SIGKILL)");
	st |= fz_endless(base, 8, 3, "an inline chain asleep for an hour dies with its process (SIGKILL)");
	printf("1..8\n");
	return bad || bogus || st ? 1 : 0;
}
