/* threads.c: what libsyslet(3) says is safe from several threads at once: one image shared, an instance and a ring per thread, the library-wide calls (stats, trace, backend queries) from any thread. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libsyslet.h>

/*
 * Usage: threads IMAGE DIR.  IMAGE is tests/run/mt.syslet compiled;
 * DIR holds the files 0..THREADS-1, file t holding "thread t\n".  Each
 * thread registers its own ring, then over and over instantiates the one
 * shared image, binds its own file, runs the entry (its read is async, so
 * the chain ends in the thread's ring) and checks what the instance read.
 * Meanwhile other threads read the counters, install and remove a trace
 * callback and ask which backend runs.  Exit 0 when every run read its
 * own file and the counters add up, 1 otherwise, 77 when no backend runs.
 */

#define THREADS	4
#define ITERS	300

static struct syslet_obj *obj;
static const char *dir;
static int failed;
static int stop_side;
static unsigned long traced;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static void __attribute__((format(printf, 1, 2))) fail(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&out_lock);
	fprintf(stderr, "FAIL: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	failed = 1;
	pthread_mutex_unlock(&out_lock);
}

static void *runner(void *arg)
{
	long t = (long)arg, i;
	SYSLET_OPTS(syslet_ring, ring);
	char path[4096], want[32], err[256];
	char *argv[1] = { path };

	snprintf(path, sizeof(path), "%s/%ld", dir, t);
	snprintf(want, sizeof(want), "thread %ld\n", t);
	if (syslet_ring__init(&ring, 8, -1UL)) {
		fail("%s: ring %ld", strerror(errno), t);
		return NULL;
	}
	for (i = 0; i < ITERS; i++) {
		struct syslet_inst *inst = syslet_obj__instantiate(obj, err,
								   sizeof(err));
		struct syslet_uatom *entry, *done;
		unsigned long *n;
		char *buf;

		if (!inst) {
			fail("instantiate: %s (thread %ld)", err, t);
			break;
		}
		if (syslet_inst__bind(inst, "rd", 1, argv, err, sizeof(err))) {
			fail("bind: %s (thread %ld)", err, t);
			syslet_inst__free(inst);
			break;
		}
		entry = syslet_inst__entry(inst, "rd");
		done = sys_async_exec(entry);
		if (!done) {
			if (errno)
				fail("async_exec: %s (thread %ld)",
				     strerror(errno), t);
			done = syslet_ring__wait_pop(&ring, 1);
		}
		if (!done || syslet_inst__atom_index(inst, done) < 0)
			fail("completion %s of thread %ld is not its own",
			     done ? "atom" : "NULL", t);
		n = syslet_inst__cell(inst, "rd.n");
		buf = syslet_inst__object(inst, "buf", NULL);
		if (!n || !buf || *n != strlen(want) ||
		    memcmp(buf, want, strlen(want)))
			fail("read %s into thread %ld's instance",
			     buf ? buf : "?", t);
		syslet_inst__free(inst);
	}
	syslet_ring__exit(&ring);
	return NULL;
}

static void count(const struct syslet_event *ev, void *ctx)
{
	(void)ev;
	__atomic_add_fetch((unsigned long *)ctx, 1, __ATOMIC_RELAXED);
}

/* The library-wide calls, from a thread that runs no syslet. */
static void *side(void *arg)
{
	SYSLET_OPTS(syslet_stats, st);
	unsigned long long last = 0;
	long k = 0;

	(void)arg;
	while (!__atomic_load_n(&stop_side, __ATOMIC_ACQUIRE)) {
		if (syslet_get_stats(&st))
			fail("get_stats: %s", strerror(errno));
		else if (st.atoms < last)
			fail("atoms went back by %ld",
			     (long)(last - st.atoms));
		last = st.atoms;
		if (!syslet_backend_name())
			fail("backend_name: NULL (%ld)", k);
		if (syslet_set_trace(k++ % 2 ? count : NULL, &traced))
			fail("set_trace: %ld", k);
	}
	syslet_set_trace(NULL, NULL);
	return NULL;
}

int main(int argc, char **argv)
{
	SYSLET_OPTS(syslet_stats, a);
	SYSLET_OPTS(syslet_stats, b);
	pthread_t th[THREADS], sd;
	char err[256];
	long t;

	if (argc != 3)
		return 2;
	dir = argv[2];
	if (syslet_backend_init()) {
		fprintf(stderr, "SKIP: %s\n", syslet_backend_error());
		return 77;
	}
	obj = syslet_obj__open_file(argv[1], err, sizeof(err));
	if (!obj) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	syslet_get_stats(&a);
	pthread_create(&sd, NULL, side, NULL);
	for (t = 0; t < THREADS; t++)
		pthread_create(&th[t], NULL, runner, (void *)t);
	for (t = 0; t < THREADS; t++)
		pthread_join(th[t], NULL);
	__atomic_store_n(&stop_side, 1, __ATOMIC_RELEASE);
	pthread_join(sd, NULL);
	syslet_get_stats(&b);
	/* Every run: open, read, close, one exec and one completion. */
	if (b.execs - a.execs != THREADS * ITERS)
		fail("execs: %ld", (long)(b.execs - a.execs));
	if (b.atoms - a.atoms != 3 * THREADS * ITERS)
		fail("atoms: %ld", (long)(b.atoms - a.atoms));
	if (b.completions - a.completions != THREADS * ITERS)
		fail("completions: %ld",
		     (long)(b.completions - a.completions));
	syslet_obj__close(obj);
	printf("%s: %d threads x %d runs, %lu trace events seen\n",
	       syslet_backend_name(), THREADS, ITERS, traced);
	return failed;
}
