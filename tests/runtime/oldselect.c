/* oldselect.c: on i386, --trace and syslet_print_call(3) show the old select (82) and old mmap (90), whose one argument is the address of a block of the arguments, as strace does: with the block's words, and the address alone where the block cannot be read; select's result names the ready fds from the block's sets; socketcall (102) is shown as the call it makes. */
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/time.h>

#include "helpers.h"

/* What syslet_print_call() and syslet_print_result() print for call
 * @name with the arguments @a0 and @a1 (@nargs of them) and result
 * @ret: "call = result". */
static char *printed2(const char *name, unsigned int nargs, unsigned long a0,
		      unsigned long a1, long ret)
{
	SYSLET_OPTS(syslet_event, ev, .nargs = nargs, .args = { a0, a1 },
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

static char *printed(const char *name, unsigned long a0, long ret)
{
	return printed2(name, 1, a0, 0, ret);
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
	/* socketcall as the call it makes, with the words of its block;
	 * a call number the kernel refuses as it is. */
	sel[0] = 2;
	sel[1] = 1;
	sel[2] = 0;
	expect("socket(AF_INET, SOCK_STREAM, IPPROTO_IP) = 3",
	       printed2("socketcall", 2, 1, (unsigned long)sel, 3));
	sel[0] = 1;
	sel[1] = (unsigned long)"hi";
	sel[2] = 2;
	sel[3] = 0;
	expect("send(1, \"hi\", 2, 0) = 2",
	       printed2("socketcall", 2, 9, (unsigned long)sel, 2));
	expect("socketcall(99, 16) = -22 EINVAL",
	       printed2("socketcall", 2, 99, 16, -EINVAL));
	/* The new calls by strace's names, with their own arguments. */
	rt_check(syslet_syscall_number("_newselect") == 142,
		 "_newselect is %ld", syslet_syscall_number("_newselect"));
	return rt_done("oldselect");
}
