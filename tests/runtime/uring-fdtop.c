/* uring-fdtop.c: with a descriptor limit of a million (as containers often have), the uring engine's descriptors stay near 65,536, so that the process's descriptor table is not grown to 8 MB. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdlib.h>
#include <sys/resource.h>
#include "helpers.h"

#define RING 8
#define TOP 65536L

static struct syslet_uatom *ring[RING];

/* The descriptor table's size (FDSize in /proc/self/status), or -1. */
static long fd_table_size(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long n = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "FDSize: %ld", &n) == 1)
			break;
	fclose(f);
	return n;
}

/* The highest descriptor open, or -1. */
static long highest_fd(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	long hi = -1;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && atol(e->d_name) > hi)
			hi = atol(e->d_name);
	closedir(d);
	return hi;
}

int main(void)
{
	struct async_head_user ahu;
	struct rlimit rl;
	rlim_t want = 1 << 20;
	long size, hi;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		rt_die("getrlimit: %s", strerror(errno));
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want) {
		/* Raising the hard limit needs CAP_SYS_RESOURCE. */
		struct rlimit up = { want, want };

		if (!setrlimit(RLIMIT_NOFILE, &up))
			rl = up;
	}
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want)
		want = rl.rlim_max;
	if (want < 2 * (rlim_t)TOP) {
		fprintf(stderr, "SKIP: RLIMIT_NOFILE cannot go above %lu here "
			"(hard limit, and no CAP_SYS_RESOURCE): the engine's "
			"descriptors are at the top of it\n",
			(unsigned long)want);
		return RT_SKIP;
	}
	rl.rlim_cur = want;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		rt_die("setrlimit: %s", strerror(errno));
	if (fd_table_size() < 0) {
		fprintf(stderr, "SKIP: no /proc/self/status\n");
		return RT_SKIP;
	}
	if (syslet_set_backend("uring")) {
		fprintf(stderr, "SKIP: %s\n", syslet_backend_error());
		return RT_SKIP;
	}
	rt_register(&ahu, ring, RING, -1UL);
	size = fd_table_size();
	hi = highest_fd();
	rt_check(size > 0 && size <= TOP,
		 "the descriptor table has %ld entries at a limit of %lu",
		 size, (unsigned long)want);
	rt_check(hi >= 3 && hi < TOP,
		 "the highest descriptor is %ld at a limit of %lu", hi,
		 (unsigned long)want);
	rt_unregister(&ahu);
	return rt_done("uring-fdtop");
}
