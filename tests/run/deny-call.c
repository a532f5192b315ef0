/* deny-call.c: run a program under a seccomp filter that fails one system call, by number, with an errno (the test of a backend whose calls a container's profile refuses). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>

/* deny-call NR ERRNO PROGRAM [ARG]...: exit 77 where no filter can be
 * set, 127 where PROGRAM cannot run.  NR "process_vm_readv" is that
 * call's number in this build's ABI (x86_64's 310, i386's 347). */
int main(int argc, char **argv)
{
	struct sock_filter f[4] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = 4, .filter = f };

	if (argc < 4) {
		fprintf(stderr, "usage: deny-call NR ERRNO PROGRAM [ARG]...\n");
		return 99;
	}
	if (!strcmp(argv[1], "process_vm_readv"))
		f[1].k = __NR_process_vm_readv;
	else
		f[1].k = (unsigned)atoi(argv[1]);
	f[2].k |= (unsigned)atoi(argv[2]) & SECCOMP_RET_DATA;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		fprintf(stderr, "deny-call: no seccomp filter here: %s\n",
			strerror(errno));
		return 77;
	}
	execvp(argv[3], argv + 3);
	fprintf(stderr, "deny-call: %s: %s\n", argv[3], strerror(errno));
	return 127;
}
