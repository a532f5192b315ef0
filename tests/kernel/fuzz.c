/* fuzz.c: random atoms (flags, numbers, pointers, chains) against the patched kernel, as TAP. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "syslet.h"

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
static long fz_rets[16];
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

	return !r || r == -EFAULT ||
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

int main(int argc, char **argv)
{
	struct async_head_user ahu = { fz_ring, sizeof(fz_ring), 4 };
	long base = fz_read_nr("async_register"), r;
	unsigned long bad = 0, async = 0, got = 0, i, j, k, bogus = 0;
	struct { long long s, ns; } ts = { 0, 100000 };

	if (argc > 1)
		fz_state = strtoul(argv[1], NULL, 0);
	printf("TAP version 13\n# seed %#lx, %d runs\n", fz_state, FZ_RUNS);
	if (base < 0) {
		printf("1..0 # SKIP no /sys/kernel/syslet\n");
		return 77;
	}
	fz_unmapped = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	printf("%sok 1 - register\n",
	       syscall(base, &ahu, sizeof(ahu)) == 0 ? "" : "not ");
	for (i = 0; i < FZ_RUNS; i++) {
		for (j = 0; j < FZ_ATOMS; j++) {
			struct syslet_uatom *a = &fz_atoms[j];
			unsigned long pick = fz_rand() % 10;

			memset(a, 0, sizeof(*a));
			a->flags = fz_rand() & SYSLET_FLAGS_MASK;
			if (fz_rand() % 4)
				a->flags &= ~SYSLET_ASYNC;
			a->nr = fz_nr(base);
			if (a->nr == FZ_SLEEP) {
				fz_cells[0] = 1;	/* CLOCK_MONOTONIC */
				fz_cells[1] = 0;
				fz_cells[2] = (unsigned long)&ts;
				a->arg_ptr[0] = &fz_cells[0];
				a->arg_ptr[1] = &fz_cells[1];
				a->arg_ptr[2] = &fz_cells[2];
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
				a->next = (struct syslet_uatom *)fz_ptr();
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
	printf("%sok 2 - every async_exec result is an atom, NULL or -EFAULT (%lu bad)\n",
	       bad ? "not " : "", bad);
	printf("%sok 3 - every completion is an atom (%lu async, %lu completions, %lu bogus)\n",
	       bogus ? "not " : "", async, got, bogus);
	printf("%sok 4 - unregister\n",
	       syscall(base + 3, &ahu, sizeof(ahu)) == 0 ? "" : "not ");
	printf("1..4\n");
	return bad || bogus ? 1 : 0;
}
