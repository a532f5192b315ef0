/* slab-lock.c: a thread that maps a new slab for its instance holds up no other thread making one (syslet-run --each --jobs, issue 13). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "libsyslet.h"
#include "../image/sample.h"

/*
 * mmap() as libsyslet calls it, interposed: the first writable private
 * anonymous mapping of 128 KiB or more that thread A asks for (its
 * instance's new slab) waits, inside the call, until the main thread
 * has made and freed an instance of the same image, or HOLD_S seconds.
 * The allocator used to make the slab with its lock held: the other
 * thread then waited for the lock as long as the mapping took.
 */
#define HOLD_S	3

static pid_t hold_tid;
static int held;
static sem_t in_mmap, b_done;

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	long r;

	if (gettid() == __atomic_load_n(&hold_tid, __ATOMIC_ACQUIRE) &&
	    !held && (flags & MAP_ANONYMOUS) && (flags & MAP_PRIVATE) &&
	    prot == (PROT_READ | PROT_WRITE) && len >= (128 << 10)) {
		struct timespec ts;

		held = 1;
		sem_post(&in_mmap);
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += HOLD_S;
		while (sem_timedwait(&b_done, &ts) && errno == EINTR)
			;
	}
	r = syscall(SYS_mmap, addr, len, prot, flags, fd, off);
	if (r < 0 && r > -4096) {
		errno = (int)-r;
		return MAP_FAILED;
	}
	return (void *)r;
}

static struct syslet_obj *obj;

static void *thread_a(void *arg)
{
	char err[256];
	struct syslet_inst *in;

	(void)arg;
	__atomic_store_n(&hold_tid, gettid(), __ATOMIC_RELEASE);
	in = syslet_obj__instantiate(obj, err, sizeof(err));
	if (!in) {
		fprintf(stderr, "FAIL: thread A: %s\n", err);
		exit(1);
	}
	syslet_inst__free(in);
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(void)
{
	struct slo_image *img;
	struct syslet_inst *in;
	struct timespec ts;
	char err[256] = "", *buf;
	size_t len;
	pthread_t a;
	double t0, took;
	FILE *f;

#ifdef __SANITIZE_ADDRESS__
	return 77;	/* ASan maps its own memory through mmap() */
#endif
	sem_init(&in_mmap, 0, 0);
	sem_init(&b_done, 0, 0);
	/* Three pages of buffer and the atoms': a slot of 16 KiB, a slab
	 * of 256 KiB (image-mem.c). */
	img = sample_image(systab_native_profile());
	img->size[SLO_SEC_BSS] = 12000;
	img->syms[5].size = 12000;
	f = tmpfile();
	if (!f || slo_image_write(img, fileno(f), err, sizeof(err))) {
		fprintf(stderr, "FAIL: writing the sample image: %s\n", err);
		return 1;
	}
	slo_image_free(img);
	len = (size_t)lseek(fileno(f), 0, SEEK_END);
	buf = malloc(len);
	if (!buf || pread(fileno(f), buf, len, 0) != (ssize_t)len) {
		fprintf(stderr, "FAIL: reading the sample image back\n");
		return 1;
	}
	fclose(f);
	obj = syslet_obj__open_mem(buf, len, err, sizeof(err));
	free(buf);
	if (!obj) {
		fprintf(stderr, "FAIL: open_mem: %s\n", err);
		return 1;
	}
	if (pthread_create(&a, NULL, thread_a, NULL)) {
		fprintf(stderr, "FAIL: pthread_create\n");
		return 1;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 10;
	if (sem_timedwait(&in_mmap, &ts)) {
		fprintf(stderr, "FAIL: thread A's first instance mapped no "
			"slab of 128 KiB or more\n");
		return 1;
	}
	/* Thread A is inside the mapping of its slab now. */
	t0 = now();
	in = syslet_obj__instantiate(obj, err, sizeof(err));
	if (!in) {
		fprintf(stderr, "FAIL: the second instance: %s\n", err);
		return 1;
	}
	if (*syslet_inst__cell(in, "cat.n") != 0) {
		fprintf(stderr, "FAIL: the second instance's cell is not 0\n");
		return 1;
	}
	syslet_inst__free(in);
	took = now() - t0;
	sem_post(&b_done);
	pthread_join(a, NULL);
	syslet_obj__close(obj);
	if (took >= 1.0) {
		fprintf(stderr, "FAIL: an instance took %.1f s while another "
			"thread mapped a slab (it waited for that thread)\n",
			took);
		return 1;
	}
	printf("ok: an instance made in %.3f ms while another thread mapped "
	       "a slab\n", took * 1e3);
	return 0;
}
