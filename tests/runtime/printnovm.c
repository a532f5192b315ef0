/* printnovm.c: syslet_print_call() shows the strings of a call where process_vm_readv() is missing (ENOSYS: a kernel without CROSS_MEMORY_ATTACH) or refused (EPERM: a sandbox's seccomp policy), and a bad pointer still as a number. */
#include "helpers.h"
#include <fcntl.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#if defined(__x86_64__)
#define PN_ARCH	AUDIT_ARCH_X86_64
#elif defined(__i386__)
#define PN_ARCH	AUDIT_ARCH_I386
#endif

/* process_vm_readv() fails with @err from now on, in this thread. */
static int refuse_vm_readv(int err)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PN_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_process_vm_readv, 0, 1),
		BPF_STMT(BPF_RET | BPF_K,
			 SECCOMP_RET_ERRNO | ((unsigned int)err & 0xffff)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
}

/* In a child refused process_vm_readv() with @err: 0 when the call
 * prints as it does with it, 1 when not, 77 without seccomp. */
static int child(int err)
{
	static const char want[] =
		"open(\"hello.txt\", O_RDONLY|O_CLOEXEC, 00)\n"
		"open(0x1, O_RDONLY|O_CLOEXEC, 00)\n"
		"write(1, \"hi\\n\", 3)";
	static char path[] = "hello.txt", buf[] = "hi\n";
	char *text = NULL, probe;
	size_t len = 0;
	struct iovec l = { &probe, 1 }, r = { path, 1 };
	FILE *mem;
	SYSLET_OPTS(syslet_event, ev, .nr = __NR_open, .nargs = 3,
		    .args = { (unsigned long)path, O_RDONLY | O_CLOEXEC },
		    .ret = 3);

	if (refuse_vm_readv(err)) {
		fprintf(stderr, "SKIP: no seccomp filter: %s\n",
			strerror(errno));
		return RT_SKIP;
	}
	if (process_vm_readv(getpid(), &l, 1, &r, 1, 0) != -1 ||
	    errno != err) {
		fprintf(stderr, "the filter did not refuse process_vm_readv\n");
		return RT_FAIL;
	}
	mem = open_memstream(&text, &len);
	if (!mem)
		return RT_FAIL;
	syslet_print_call(mem, &ev, SYSLET_PRINT_WHOLE);
	fputc('\n', mem);
	ev.args[0] = 1;	/* a bad pointer */
	syslet_print_call(mem, &ev, SYSLET_PRINT_WHOLE);
	fputc('\n', mem);
	ev.nr = __NR_write;
	ev.args[0] = 1;
	ev.args[1] = (unsigned long)buf;
	ev.args[2] = 3;
	syslet_print_call(mem, &ev, SYSLET_PRINT_WHOLE);
	fclose(mem);
	if (!text || strcmp(text, want)) {
		fprintf(stderr, "process_vm_readv %s: printed\n%s\nwant\n%s\n",
			strerror(err), text ? text : "(nothing)", want);
		return RT_FAIL;
	}
	free(text);
	return RT_PASS;
}

int main(void)
{
	static const int errs[] = { ENOSYS, EPERM };
	int skipped = 0;

#ifndef PN_ARCH
	fprintf(stderr, "SKIP: no seccomp architecture for this build\n");
	return RT_SKIP;
#endif
	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		pid_t pid;
		int st;

		fflush(NULL);
		pid = fork();
		if (pid < 0)
			rt_die("fork: %s", strerror(errno));
		if (pid == 0)
			_exit(child(errs[i]));
		if (waitpid(pid, &st, 0) != pid)
			rt_die("waitpid: %s", strerror(errno));
		if (WIFEXITED(st) && WEXITSTATUS(st) == RT_SKIP) {
			skipped = 1;
			continue;
		}
		rt_check(WIFEXITED(st) && WEXITSTATUS(st) == 0,
			 "process_vm_readv refused with %s: status %#x",
			 strerror(errs[i]), st);
	}
	if (skipped && !rt_failures)
		return RT_SKIP;
	printf("printnovm: %s\n", rt_failures ? "failed" : "ok");
	return rt_failures ? RT_FAIL : RT_PASS;
}
