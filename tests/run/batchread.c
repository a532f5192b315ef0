/* batchread.c: one instance of an image's entry per file named on the command line, all submitted by one syslet_exec_batch() on a backend (a getppid call marks its start, another its return) and waited for; prints the bytes the entry's cell n got in all, and on stderr the malloc() and calloc() calls the batch made, and the page faults it took. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <libsyslet.h>

/*
 * The batch's allocations, counted by interposing glibc's malloc() and
 * calloc() (libsyslet's calls come here): the engine's per-syslet
 * records (uring-enters.sh).  Not under a sanitizer, which has its own.
 */
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
#define BR_COUNT_MALLOCS 1
extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
static unsigned long br_mallocs;
static int br_counting;

void *malloc(size_t n)
{
	br_mallocs += br_counting;
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	br_mallocs += br_counting;
	return __libc_calloc(n, size);
}
#endif

int main(int argc, char **argv)
{
	struct async_head_user ahu;
	struct syslet_obj *obj;
	struct syslet_inst **inst;
	struct syslet_uatom **ring, **first, **done;
	size_t nr, pending = 0, head = 0;
	long total = 0;
	char err[256];
	struct rusage ru0, ru1;
	int *errs;

	if (argc < 4) {
		fprintf(stderr, "usage: batchread BACKEND IMAGE.slo FILE...\n");
		return 2;
	}
	if (syslet_set_backend(argv[1])) {
		fprintf(stderr, "SKIP: %s\n", syslet_backend_error());
		return 77;
	}
	obj = syslet_obj__open_file(argv[2], err, sizeof(err));
	if (!obj) {
		fprintf(stderr, "batchread: %s\n", err);
		return 1;
	}
	nr = (size_t)argc - 3;
	inst = calloc(nr, sizeof(*inst));
	ring = calloc(nr, sizeof(*ring));
	first = calloc(nr, sizeof(*first));
	done = calloc(nr, sizeof(*done));
	errs = calloc(nr, sizeof(*errs));
	if (!inst || !ring || !first || !done || !errs) {
		fprintf(stderr, "batchread: out of memory\n");
		return 1;
	}
	for (size_t i = 0; i < nr; i++) {
		inst[i] = syslet_obj__instantiate(obj, err, sizeof(err));
		if (!inst[i] || syslet_inst__bind(inst[i], "readfile", 1,
						  &argv[3 + i], err,
						  sizeof(err))) {
			fprintf(stderr, "batchread: %s\n", err);
			return 1;
		}
		first[i] = syslet_inst__entry(inst[i], "readfile");
	}
	ahu.completion_ring = ring;
	ahu.ring_size_bytes = nr * sizeof(*ring);
	ahu.max_nr_threads = -1UL;
	if (sys_async_register(&ahu, sizeof(ahu))) {
		perror("batchread: async_register");
		return 1;
	}
	/* Marks for a trace: the batch starts here, and returns at the
	 * next one (uring-enters.sh). */
	syscall(SYS_getppid);
	getrusage(RUSAGE_SELF, &ru0);
#ifdef BR_COUNT_MALLOCS
	br_counting = 1;
#endif
	for (size_t i = 0; i < nr;) {
		long k = syslet_exec_batch(first + i, nr - i, done + i,
					   errs + i);

		if (k < 0) {
			perror("batchread: syslet_exec_batch");
			return 1;
		}
		for (size_t m = i; m < i + (size_t)k; m++) {
			if (errs[m]) {
				fprintf(stderr, "batchread: async_exec: %s\n",
					strerror(errs[m]));
				return 1;
			}
			pending += !done[m];
		}
		i += (size_t)k;
	}
#ifdef BR_COUNT_MALLOCS
	br_counting = 0;
	fprintf(stderr, "batchread: %lu malloc and calloc calls in the batch\n",
		br_mallocs);
#endif
	getrusage(RUSAGE_SELF, &ru1);
	fprintf(stderr, "batchread: %ld page faults in the batch\n",
		ru1.ru_minflt - ru0.ru_minflt);
	syscall(SYS_getppid);
	while (pending) {
		if (!ring[head]) {
			sys_async_wait(1);
			continue;
		}
		ring[head] = NULL;
		head = (head + 1) % nr;
		pending--;
	}
	sys_async_unregister(&ahu, sizeof(ahu));
	for (size_t i = 0; i < nr; i++) {
		long n = (long)*syslet_inst__cell(inst[i], "readfile.n");

		if (n < 0) {
			fprintf(stderr, "batchread: %s: %s\n", argv[3 + i],
				strerror((int)-n));
			return 1;
		}
		total += n;
		syslet_inst__free(inst[i]);
	}
	printf("%ld\n", total);
	return 0;
}
