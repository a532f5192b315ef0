/* printnovm.c: syslet_print_call() shows the strings of a call where process_vm_readv() is missing (ENOSYS: a kernel without CROSS_MEMORY_ATTACH) or refused (EPERM: a sandbox's seccomp policy), and a bad pointer still as a number; it asks process_vm_readv() once, not at every read; syslet_read_mem() reads through the pipe as far as memory is readable. */
#define _GNU_SOURCE
#include "helpers.h"
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <ucontext.h>

/* The calls of process_vm_readv() the filter refused, and the errno it
 * answers them with: a SIGSYS handler plays the kernel's part, so that
 * each call is counted. */
static volatile sig_atomic_t vm_calls;
static int vm_err;

static void on_sigsys(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;

	(void)sig;
	(void)si;
	vm_calls++;
#if defined(__x86_64__)
	uc->uc_mcontext.gregs[REG_RAX] = -vm_err;
#elif defined(__i386__)
	uc->uc_mcontext.gregs[REG_EAX] = -vm_err;
#endif
}

/* process_vm_readv() fails with @err from now on, in this thread, each
 * call counted in vm_calls. */
static int refuse_vm_readv(int err)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	vm_err = err;
	if (sigaction(SIGSYS, &sa, NULL))
		return -1;
	return rt_seccomp_refuse(__NR_process_vm_readv, SECCOMP_RET_TRAP, 0);
}

/* syslet_read_mem() through the pipe: a read that runs into an
 * unmapped page gives the bytes before it, one that starts there
 * -EFAULT, and more than a pipe holds comes whole. */
static int read_mem_checks(void)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t big = 300000;
	unsigned char *m, *buf, *src;
	int bad = 0;
	ssize_t n;

	m = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	src = malloc(big);
	buf = malloc(big);
	if (m == MAP_FAILED || !src || !buf)
		return 1;
	memset(m, 'a', (size_t)page);
	munmap(m + page, (size_t)page);
	n = syslet_read_mem(buf, m + page - 100, 300);
	if (n != 100 || memcmp(buf, m + page - 100, 100)) {
		fprintf(stderr, "read_mem into an unmapped page: %zd, want 100\n",
			n);
		bad = 1;
	}
	n = syslet_read_mem(buf, m + page, 8);
	if (n != -EFAULT || errno != EFAULT) {
		fprintf(stderr, "read_mem of an unmapped page: %zd, want %d\n",
			n, -EFAULT);
		bad = 1;
	}
	for (size_t i = 0; i < big; i++)
		src[i] = (unsigned char)(i * 7 + i / 251);
	n = syslet_read_mem(buf, src, big);
	if (n != (ssize_t)big || memcmp(buf, src, big)) {
		fprintf(stderr, "read_mem of %zu bytes: %zd\n", big, n);
		bad = 1;
	}
	if (syslet_read_mem(buf, NULL, 1) != -EFAULT ||
	    syslet_read_mem(NULL, src, 1) != -EINVAL ||
	    syslet_read_mem(NULL, NULL, 0) != 0) {
		fprintf(stderr, "read_mem: NULL arguments\n");
		bad = 1;
	}
	munmap(m, (size_t)page);
	free(src);
	free(buf);
	return bad;
}

/* In a child refused process_vm_readv() with @err: 0 when the call
 * prints as it does with it, 1 when not, 77 without seccomp. */
static int child(int err)
{
	static const char want[] =
		"open(\"hello.txt\", O_RDONLY|O_CLOEXEC, 000)\n"
		"open(0x1, O_RDONLY|O_CLOEXEC, 000)\n"
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
	vm_calls = 0;
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
	/* Missing or refused is so for the life of the process: asked
	 * once, where it was asked at each string (4 calls, or 6). */
	if (vm_calls > 1) {
		fprintf(stderr, "process_vm_readv %s: asked %d times, want "
			"once\n", strerror(err), (int)vm_calls);
		return RT_FAIL;
	}
	if (read_mem_checks())
		return RT_FAIL;
	if (vm_calls > 1) {
		fprintf(stderr, "process_vm_readv %s: syslet_read_mem asked "
			"it again (%d calls)\n", strerror(err), (int)vm_calls);
		return RT_FAIL;
	}
	return RT_PASS;
}

int main(void)
{
	static const int errs[] = { ENOSYS, EPERM };
	int skipped = 0;

#ifndef RT_AUDIT_ARCH
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
