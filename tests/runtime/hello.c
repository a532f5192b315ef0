/* hello.c: the seeds' Hello World, in our own words: one async write atom, then wait and take it from the ring. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
/* The 2007 program included the kernel's syslet headers; only this
 * changes. */
#include <libsyslet.h>

#define RING_ENTRIES 4

static struct syslet_uatom *completion_ring[RING_ENTRIES];
static unsigned long curr_ring_idx;
static struct async_head_user async_head = {
	.completion_ring = completion_ring,
	.ring_size_bytes = sizeof(completion_ring),
	.max_nr_threads = -1UL,
};

static void fill_atom(struct syslet_uatom *atom, int nr, void *arg0,
		      void *arg1, void *arg2, long *ret_ptr,
		      unsigned long flags, struct syslet_uatom *next)
{
	memset(atom, 0, sizeof(*atom));
	atom->nr = nr;
	atom->arg_ptr[0] = arg0;
	atom->arg_ptr[1] = arg1;
	atom->arg_ptr[2] = arg2;
	atom->ret_ptr = ret_ptr;
	atom->flags = flags;
	atom->next = next;
}

int main(void)
{
	const char *msg = "Hello Syslet World!\n";
	unsigned long fd_out, size = strlen(msg);
	struct syslet_uatom atom, *done;
	char got[64] = "";
	long ret = 0;
	int pfd[2];

	if (syslet_backend_init())
		return 77;
	/* Write into a pipe so that the test can check what arrived. */
	if (pipe(pfd))
		return 99;
	fd_out = (unsigned long)pfd[1];
	if (sys_async_register(&async_head, sizeof(async_head))) {
		perror("sys_async_register");
		return 1;
	}
	fill_atom(&atom, __NR_write, &fd_out, &msg, &size, &ret, SYSLET_ASYNC,
		  NULL);
	done = sys_async_exec(&atom);
	if (!done) {
		sys_async_wait(1);
		if (completion_ring[curr_ring_idx] != &atom) {
			fprintf(stderr, "FAIL: ring slot holds %p, not %p\n",
				(void *)completion_ring[curr_ring_idx],
				(void *)&atom);
			return 1;
		}
		completion_ring[curr_ring_idx] = NULL;
		curr_ring_idx = (curr_ring_idx + 1) % RING_ENTRIES;
		printf("completed an async syslet atom!\n");
	} else {
		printf("completed a cached syslet atom!\n");
	}
	sys_async_unregister(&async_head, sizeof(async_head));
	if (ret != (long)size || read(pfd[0], got, sizeof(got) - 1) != ret ||
	    strcmp(got, msg)) {
		fprintf(stderr, "FAIL: write returned %ld, pipe has '%s'\n",
			ret, got);
		return 1;
	}
	fputs(got, stdout);
	return 0;
}
