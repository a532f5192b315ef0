/* compat.c: a program written as the 2007 syslet tests were, on syslet-compat.h's async_head_init(), completion_ring and curr_ring_idx. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A small ring, so that twenty syslets wrap it twice. */
#define SYSLET_COMPAT_RING_ENTRIES 8
/* The 2007 programs included the kernel's syslet.h and their own
 * helpers; this is the one line that changes. */
#include <syslet-compat.h>

#define NR_FILES	20
#define FILE_SIZE	300

/* open + read + close of one file, as the 2007 benchmark did. */
struct request {
	struct syslet_uatom	atoms[3];
	unsigned long		fd, bufp;
	long			ret_read, ret_close;
	char			name[288];	/* dir[256] + "/fNN" */
	char			*namep;
	char			buf[FILE_SIZE + 1];
};

static struct request req[NR_FILES];
static unsigned long o_rdonly = O_RDONLY, buf_size = FILE_SIZE + 1;
static int failures;

static void fail(const char *what)
{
	printf("FAIL: %s\n", what);
	failures++;
}

static void init_atom(struct syslet_uatom *atom, int nr, void *arg_ptr0,
		      void *arg_ptr1, void *arg_ptr2, void *ret_ptr,
		      unsigned long flags, struct syslet_uatom *next)
{
	memset(atom, 0, sizeof(*atom));
	atom->nr = nr;
	atom->arg_ptr[0] = arg_ptr0;
	atom->arg_ptr[1] = arg_ptr1;
	atom->arg_ptr[2] = arg_ptr2;
	atom->ret_ptr = ret_ptr;
	atom->flags = flags;
	atom->next = next;
}

static void setup_request(struct request *r, unsigned long first_flags)
{
	/* Atoms take pointers to their arguments: the name's and the
	 * buffer's addresses need cells of their own. */
	memset(r->buf, 0, sizeof(r->buf));
	r->namep = r->name;
	r->bufp = (unsigned long)r->buf;
	r->ret_read = r->ret_close = -1;
	init_atom(&r->atoms[0], __NR_sys_open, &r->namep, &o_rdonly, NULL,
		  &r->fd, first_flags | SYSLET_STOP_ON_NEGATIVE, &r->atoms[1]);
	init_atom(&r->atoms[1], __NR_sys_read, &r->fd, &r->bufp, &buf_size,
		  &r->ret_read, SYSLET_STOP_ON_NEGATIVE, &r->atoms[2]);
	init_atom(&r->atoms[2], __NR_sys_close, &r->fd, NULL, NULL,
		  &r->ret_close, 0, NULL);
}

/* What a finished request must hold: the whole file, closed. */
static void check_request(int i)
{
	char want[FILE_SIZE + 1];

	memset(want, 'a' + i % 26, FILE_SIZE);
	want[FILE_SIZE] = 0;
	if (req[i].ret_read != FILE_SIZE || req[i].ret_close != 0 ||
	    strcmp(req[i].buf, want)) {
		printf("FAIL: file %d: read %ld, close %ld\n", i,
		       req[i].ret_read, req[i].ret_close);
		failures++;
	}
}

/* Take every completion the ring holds, as the 2007 loops did. */
static int reap(void)
{
	int n = 0;

	while (completion_ring[curr_ring_idx]) {
		struct syslet_uatom *done = completion_ring[curr_ring_idx];
		int i;

		completion_ring[curr_ring_idx] = NULL;
		curr_ring_idx = (curr_ring_idx + 1) % SYSLET_COMPAT_RING_ENTRIES;
		for (i = 0; i < NR_FILES; i++)
			if (done == &req[i].atoms[2])
				break;
		if (i == NR_FILES)
			fail("the ring holds an atom that ends no request");
		else
			check_request(i);
		n++;
	}
	return n;
}

/* Twenty async syslets, at most a ring's worth in flight. */
static void async_files(void)
{
	int next = 0, busy = 0, done = 0, loops = 0;

	while (done < NR_FILES && loops++ < 1000) {
		while (next < NR_FILES && busy < SYSLET_COMPAT_RING_ENTRIES) {
			setup_request(&req[next], SYSLET_ASYNC);
			if (sys_async_exec(&req[next].atoms[0]))
				fail("an SYSLET_ASYNC syslet completed cached");
			next++;
			busy++;
		}
		sys_async_wait(1);
		busy -= reap();
		done = next - busy;
	}
	if (done != NR_FILES || curr_ring_idx != NR_FILES %
						 SYSLET_COMPAT_RING_ENTRIES)
		fail("not every async syslet came back through the ring");
}

/* A read of an empty pipe blocks: the syslet goes on in a cachemiss
 * thread and comes back through the ring once the data is there. */
static void blocking_read(void)
{
	static char got[8];
	unsigned long rfd, gotp = (unsigned long)got, size = sizeof(got) - 1;
	long ret = 0;
	struct syslet_uatom atom;
	int pfd[2];

	if (pipe(pfd))
		return fail("pipe");
	rfd = (unsigned long)pfd[0];
	init_atom(&atom, __NR_sys_read, &rfd, &gotp, &size, &ret, 0, NULL);
	if (sys_async_exec(&atom))
		return fail("a read of an empty pipe completed cached");
	if (write(pfd[1], "hi", 2) != 2)
		return fail("write to the pipe");
	sys_async_wait(1);
	if (completion_ring[curr_ring_idx] != &atom)
		return fail("the blocked read is not in the ring");
	completion_ring[curr_ring_idx] = NULL;
	curr_ring_idx = (curr_ring_idx + 1) % SYSLET_COMPAT_RING_ENTRIES;
	if (ret != 2 || strcmp(got, "hi"))
		fail("the blocked read did not get the pipe's data");
	close(pfd[0]);
	close(pfd[1]);
}

/* A second thread registers a ring of its own; its completion must land
 * there, not in the main thread's. */
static void *thread_main(void *arg)
{
	struct syslet_uatom **main_ring = arg;

	async_head_init();
	if (completion_ring == main_ring)
		fail("the thread sees the main thread's ring");
	setup_request(&req[0], SYSLET_ASYNC);
	if (!sys_async_exec(&req[0].atoms[0])) {
		sys_async_wait(1);
		if (completion_ring[curr_ring_idx] != &req[0].atoms[2])
			fail("the thread's syslet is not in the thread's ring");
		completion_ring[curr_ring_idx] = NULL;
		curr_ring_idx++;
	} else {
		fail("an SYSLET_ASYNC syslet completed cached in the thread");
	}
	check_request(0);
	async_head_exit();
	return NULL;
}

static void other_thread(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, thread_main, completion_ring))
		return fail("pthread_create");
	pthread_join(t, NULL);
	if (completion_ring[curr_ring_idx])
		fail("the thread's completion landed in the main ring");
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	char dir[256];
	int i;

	/* Not in 2007's programs: make check's way to skip a backend that
	 * cannot run here (SYSLET_BACKEND=kernel without the patch). */
	if (syslet_backend_init()) {
		printf("SKIP: %s\n", syslet_backend_error());
		return 77;
	}
	snprintf(dir, sizeof(dir), "%s/syslet-compat.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return 99;
	for (i = 0; i < NR_FILES; i++) {
		char data[FILE_SIZE];
		int fd;

		snprintf(req[i].name, sizeof(req[i].name), "%s/f%02d", dir, i);
		memset(data, 'a' + i % 26, sizeof(data));
		fd = open(req[i].name, O_WRONLY | O_CREAT | O_EXCL, 0600);
		if (fd < 0 || write(fd, data, sizeof(data)) != FILE_SIZE ||
		    close(fd))
			return 99;
	}

	async_head_init();
	async_files();
	blocking_read();

	/* The Hello World's shape: cached or not, both are right. */
	setup_request(&req[1], 0);
	if (!sys_async_exec(&req[1].atoms[0])) {
		sys_async_wait(1);
		if (reap() != 1)
			fail("a syslet that went async left no completion");
	}
	check_request(1);

	other_thread();
	async_head_exit();

	for (i = 0; i < NR_FILES; i++)
		unlink(req[i].name);
	rmdir(dir);
	printf("compat: %s (backend %s)\n", failures ? "FAILED" : "ok",
	       syslet_backend_name());
	return failures ? 1 : 0;
}
