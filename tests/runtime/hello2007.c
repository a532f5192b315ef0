/* hello2007.c: a program in the style of the 2007 Hello World builds against libsyslet.h and syslet-nr.h (its __NR_sys_write) with only its includes changed. */
#include <stdio.h>
#include <string.h>
#include <libsyslet.h>
#include <syslet-nr.h>

static struct syslet_uatom *completion_ring[4];
static unsigned long curr_ring_idx;
static struct async_head_user async_head = {
	completion_ring, sizeof(completion_ring), -1UL
};

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

int main(void)
{
	unsigned long fd_out = 1;
	char *buf = "Hello Syslet World!\n";
	unsigned long size = strlen(buf);
	struct syslet_uatom atom, *done;
	long ret = 0;

	if (syslet_backend_init())
		return 77;
	if (sys_async_register(&async_head, sizeof(async_head)))
		return 1;
	init_atom(&atom, __NR_sys_write, &fd_out, &buf, &size, &ret,
		  SYSLET_ASYNC, NULL);
	done = sys_async_exec(&atom);
	if (!done) {
		sys_async_wait(1);
		if (completion_ring[curr_ring_idx] != &atom)
			return 1;
		completion_ring[curr_ring_idx] = NULL;
		printf("completed an async syslet atom!\n");
	} else {
		printf("completed a cached syslet atom!\n");
	}
	sys_async_unregister(&async_head, sizeof(async_head));
	return ret == (long)size ? 0 : 1;
}
