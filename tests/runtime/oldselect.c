/* oldselect.c: on i386, --trace and syslet_print_call(3) show the old select (82) and old mmap (90), whose one argument is the address of a block of the arguments, as strace does: with the block's words, and the address alone where the block cannot be read; select's result names the ready fds from the block's sets. */
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/time.h>

#include "helpers.h"

/* What syslet_print_call() and syslet_print_result() print for call
 * @name with the one argument @a0 and result @ret: "call = result". */
static char *printed(const char *name, unsigned long a0, long ret)
{
	SYSLET_OPTS(syslet_event, ev, .nargs = 1, .args = { a0 },
		    .ret = ret, .end = SYSLET_END_NEXT);
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem)
		rt_die("open_memstream: %s", strerror(errno));
	ev.nr = (unsigned long)syslet_syscall_number(name);
	rt_check(syslet_print_call(mem, &ev, SYSLET_PRINT_WHOLE) == 0,
		 "%s: print_call", name);
	fputs(" = ", mem);
	rt_check(syslet_print_result(mem, &ev) == 0, "%s: print_result",
		 name);
	fclose(mem);
	return text;
}

static void expect(const char *want, char *got)
{
	rt_check(got && !strcmp(got, want), "printed '%s', expected '%s'",
		 got ? got : "(null)", want);
	free(got);
}

int main(void)
{
	static fd_set in;
	static struct timeval tv = { 1, 500 };
	unsigned long sel[5], mm[6] = { 0, 4096, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS,
					(unsigned long)-1, 0 };
	char want[256];

	if (sizeof(long) != 4) {
		printf("SKIP: the old select and mmap are i386's\n");
		return RT_SKIP;
	}
	rt_init();
	if (syslet_syscall_number("select") != 82 ||
	    syslet_syscall_number("mmap") != 90)
		rt_die("select is %ld, mmap %ld: not i386's old calls",
		       syslet_syscall_number("select"),
		       syslet_syscall_number("mmap"));
	/* As the kernel left it: fd 3 ready of 0 and 3 asked, 400 us
	 * left. */
	FD_SET(3, &in);
	sel[0] = 4;
	sel[1] = (unsigned long)&in;
	sel[2] = sel[3] = 0;
	sel[4] = (unsigned long)&tv;
	snprintf(want, sizeof(want),
		 "select(4, %p, NULL, NULL, %p) = 1 (in [3], left {tv_sec=1, tv_usec=500})",
		 (void *)&in, (void *)&tv);
	expect(want, printed("select", (unsigned long)sel, 1));
	expect("mmap(NULL, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0xb7f00000",
	       printed("mmap", (unsigned long)mm, (long)0xb7f00000UL));
	/* A block that cannot be read: its address, as strace shows it. */
	expect("select(0x10) = -14 EFAULT", printed("select", 16, -EFAULT));
	expect("mmap(0x10) = -14 EFAULT", printed("mmap", 16, -EFAULT));
	/* The new calls by strace's names, with their own arguments. */
	rt_check(syslet_syscall_number("_newselect") == 142,
		 "_newselect is %ld", syslet_syscall_number("_newselect"));
	return rt_done("oldselect");
}
