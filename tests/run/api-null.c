/* api-null.c: every exported function of libsyslet (libsyslet.map) given NULL, empty, out-of-range or over-long arguments answers an error with errno (libsyslet(3), Errors), never a crash. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "libsyslet.h"
#include "../image/sample.h"

static struct syslet_obj *obj;
static struct syslet_inst *inst;
static char image_path[] = "/tmp/api-null-XXXXXX";
static char err[256];
static char *longname;
static int failures;

/*
 * Each case runs in a child of its own, so that a crash fails that case
 * by name and the others still run.  The child reports what the call
 * returned; the parent compares.
 */
enum kind { K_ERR, K_NULL, K_ZERO, K_VOID };

struct outcome {
	long	ret;
	int	err;
};

/* In the child: report what the call returned. */
static void child_report(int fd, long ret, int e)
{
	struct outcome o = { ret, e };

	if (write(fd, &o, sizeof(o)) != sizeof(o))
		_exit(98);
	_exit(0);
}

static pid_t start_case(int pfd[2])
{
	pid_t pid;

	if (pipe(pfd)) {
		perror("pipe");
		exit(99);
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(99);
	}
	if (!pid)
		close(pfd[0]);
	else
		close(pfd[1]);
	return pid;
}

static void end_case(const char *name, enum kind kind, int want, pid_t pid,
		     int fd)
{
	struct outcome o = { 0, 0 };
	int status;
	ssize_t n;

	n = read(fd, &o, sizeof(o));
	close(fd);
	if (waitpid(pid, &status, 0) != pid) {
		perror("waitpid");
		exit(99);
	}
	if (WIFSIGNALED(status)) {
		printf("FAIL %s: killed by signal %d (%s)\n", name,
		       WTERMSIG(status), strsignal(WTERMSIG(status)));
		failures++;
		return;
	}
	if (n != sizeof(o) || !WIFEXITED(status) || WEXITSTATUS(status)) {
		printf("FAIL %s: the child did not report\n", name);
		failures++;
		return;
	}
	switch (kind) {
	case K_ERR:
		if (o.ret == -want && o.err == want)
			break;
		printf("FAIL %s: returned %ld, errno %d (%s); expected -%d, "
		       "errno %d (%s)\n", name, o.ret, o.err, strerror(o.err),
		       want, want, strerror(want));
		failures++;
		return;
	case K_NULL:
	case K_ZERO:
		if (!o.ret && o.err == want)
			break;
		printf("FAIL %s: returned %#lx, errno %d (%s); expected %s, "
		       "errno %d (%s)\n", name, o.ret, o.err, strerror(o.err),
		       kind == K_NULL ? "NULL" : "0", want, strerror(want));
		failures++;
		return;
	case K_VOID:
		break;
	}
	printf("ok   %s\n", name);
}

#define CASE(kind, want, expr)						\
	do {								\
		int pfd_[2];						\
		pid_t pid_ = start_case(pfd_);				\
									\
		if (!pid_) {						\
			long r_;					\
									\
			errno = 0;					\
			r_ = (long)(expr);				\
			child_report(pfd_[1], r_, errno);		\
		}							\
		end_case(#expr, kind, want, pid_, pfd_[0]);		\
	} while (0)
#define ERR(e, expr)	CASE(K_ERR, e, expr)
#define NUL(e, expr)	CASE(K_NULL, e, expr)
#define ZERO(expr)	CASE(K_ZERO, EINVAL, expr)
#define VOID(expr)	CASE(K_VOID, 0, ((expr), 0))

static void setup(void)
{
	struct slo_image *img = sample_image(systab_native_profile());
	int fd = mkstemp(image_path);

	if (fd < 0 || slo_image_write(img, fd, err, sizeof(err))) {
		fprintf(stderr, "cannot write the sample image: %s\n", err);
		exit(99);
	}
	close(fd);
	slo_image_free(img);
	obj = syslet_obj__open_file(image_path, err, sizeof(err));
	inst = obj ? syslet_obj__instantiate(obj, err, sizeof(err)) : NULL;
	if (!inst) {
		fprintf(stderr, "cannot open the sample image: %s\n", err);
		exit(99);
	}
	/* A name far longer than any the library holds. */
	longname = malloc(1 << 20);
	memset(longname, 'a', (1 << 20) - 1);
	longname[(1 << 20) - 1] = '\0';
}

int main(void)
{
	char *nullv[] = { NULL, NULL };
	SYSLET_OPTS(syslet_event, ev);
	SYSLET_OPTS(syslet_ring, ring);
	struct syslet_atom_info ai = { .sz = sizeof(ai) };
	struct syslet_param par = { .sz = sizeof(par) };
	struct syslet_sym_info si = { .sz = sizeof(si) };
	struct syslet_uatom *a0;
	long res;

	setup();
	a0 = syslet_inst__atom(inst, 0);

	/* Images. */
	NUL(EINVAL, syslet_obj__open_file(NULL, err, sizeof(err)));
	NUL(EINVAL, syslet_obj__open_file(NULL, NULL, 0));
	NUL(ENOENT, syslet_obj__open_file("", err, sizeof(err)));
	NUL(ENOENT, syslet_obj__open_file("/nonexistent/x.slo", NULL, 8));
	NUL(ENAMETOOLONG, syslet_obj__open_file(longname, err, sizeof(err)));
	NUL(EINVAL, syslet_obj__open_mem(NULL, 16, err, sizeof(err)));
	NUL(ENOEXEC, syslet_obj__open_mem("", 0, err, sizeof(err)));
	NUL(ENOEXEC, syslet_obj__open_mem("x", 1, NULL, 1));
	VOID(syslet_obj__close(NULL));
	NUL(EINVAL, syslet_obj__profile(NULL));
	NUL(EINVAL, syslet_obj__source(NULL));
	ZERO(syslet_obj__entry_count(NULL));
	NUL(EINVAL, syslet_obj__entry_name(NULL, 0));
	NUL(ERANGE, syslet_obj__entry_name(obj, (size_t)-1));
	ERR(EINVAL, syslet_obj__entry_params(NULL, "cat"));
	ERR(ENOENT, syslet_obj__entry_params(obj, NULL));
	ERR(ENOENT, syslet_obj__entry_params(obj, ""));
	ERR(ENOENT, syslet_obj__entry_params(obj, longname));
	ERR(EINVAL, syslet_obj__entry_param(NULL, "cat", 0, &par));
	ERR(EINVAL, syslet_obj__entry_param(obj, "cat", 0, NULL));
	ERR(ENOENT, syslet_obj__entry_param(obj, NULL, 0, &par));
	ERR(ERANGE, syslet_obj__entry_param(obj, "cat", (size_t)-1, &par));
	ZERO(syslet_obj__cell_count(NULL));
	NUL(EINVAL, syslet_obj__cell_name(NULL, 0));
	NUL(ERANGE, syslet_obj__cell_name(obj, (size_t)-1));
	ZERO(syslet_obj__atom_count(NULL));
	ERR(EINVAL, syslet_obj__atom_info(NULL, 0, &ai));
	ERR(EINVAL, syslet_obj__atom_info(obj, 0, NULL));
	ERR(ERANGE, syslet_obj__atom_info(obj, (size_t)-1, &ai));
	ZERO(syslet_obj__sym_count(NULL));
	ERR(EINVAL, syslet_obj__sym_info(NULL, 0, &si));
	ERR(EINVAL, syslet_obj__sym_info(obj, 0, NULL));
	ERR(ERANGE, syslet_obj__sym_info(obj, (size_t)-1, &si));
	ERR(EINVAL, syslet_obj__find_atom(NULL, "cat"));
	ERR(ENOENT, syslet_obj__find_atom(obj, NULL));
	ERR(ENOENT, syslet_obj__find_atom(obj, longname));
	ERR(EINVAL, syslet_obj__list(NULL, NULL, NULL));
	ERR(EINVAL, syslet_obj__list(obj, NULL, NULL));
	NUL(EINVAL, syslet_obj__instantiate(NULL, err, sizeof(err)));
	NUL(EINVAL, syslet_obj__instantiate(NULL, NULL, 0));

	/* Instances. */
	VOID(syslet_inst__free(NULL));
	NUL(EINVAL, syslet_inst__obj(NULL));
	NUL(EINVAL, syslet_inst__entry(NULL, "cat"));
	NUL(ENOENT, syslet_inst__entry(inst, NULL));
	NUL(ENOENT, syslet_inst__entry(inst, longname));
	NUL(EINVAL, syslet_inst__cell(NULL, "fd"));
	NUL(ENOENT, syslet_inst__cell(inst, NULL));
	NUL(EINVAL, syslet_inst__cell_at(NULL, a0));
	NUL(ENOENT, syslet_inst__cell_at(inst, NULL));
	NUL(EINVAL, syslet_inst__object(NULL, "buf", NULL));
	NUL(ENOENT, syslet_inst__object(inst, NULL, NULL));
	NUL(EINVAL, syslet_inst__atom(NULL, 0));
	NUL(ERANGE, syslet_inst__atom(inst, (size_t)-1));
	ERR(EINVAL, syslet_inst__atom_index(NULL, a0));
	ERR(ERANGE, syslet_inst__atom_index(inst, NULL));
	ERR(EINVAL, syslet_inst__atom_info(NULL, a0, &ai));
	ERR(ERANGE, syslet_inst__atom_info(inst, NULL, &ai));
	ERR(EINVAL, syslet_inst__atom_info(inst, a0, NULL));
	ERR(EINVAL, syslet_inst__result(NULL, a0, &res));
	ERR(ERANGE, syslet_inst__result(inst, NULL, &res));
	ERR(EINVAL, syslet_inst__result(inst, a0, NULL));
	ERR(EINVAL, syslet_inst__bind(NULL, "cat", 1, nullv, err,
				      sizeof(err)));
	ERR(EINVAL, syslet_inst__bind(inst, NULL, 1, nullv, err,
				      sizeof(err)));
	ERR(EINVAL, syslet_inst__bind(inst, "cat", 1, NULL, err,
				      sizeof(err)));
	ERR(EINVAL, syslet_inst__bind(inst, "cat", 1, nullv, err,
				      sizeof(err)));
	ERR(EINVAL, syslet_inst__bind(inst, "cat", 1, nullv, NULL, 0));
	ERR(EINVAL, syslet_inst__bind(inst, "cat", -1, nullv, err,
				      sizeof(err)));
	ERR(EINVAL, syslet_inst__bind(inst, "cat", INT_MAX, nullv, err,
				      sizeof(err)));
	ERR(ENOENT, syslet_inst__bind(inst, longname, 0, NULL, err,
				      sizeof(err)));

	/* Names and numbers. */
	NUL(ERANGE, syslet_syscall_name(-1));
	NUL(ERANGE, syslet_syscall_name(LONG_MAX));
	ERR(ENOENT, syslet_syscall_number(NULL));
	ERR(ENOENT, syslet_syscall_number(""));
	ERR(ENOENT, syslet_syscall_number(longname));
	NUL(ENOENT, syslet_syscall_suggest(NULL));
	NUL(ENOENT, syslet_syscall_suggest(longname));
	ERR(ERANGE, syslet_syscall_denied(-1));
	ERR(ERANGE, syslet_syscall_denied(LONG_MAX));
	NUL(ENOENT, syslet_errno_name(-1));
	NUL(ENOENT, syslet_errno_name(INT_MIN));
	ERR(ENOENT, syslet_errno_number(NULL));
	ERR(ENOENT, syslet_errno_number(longname));
	VOID(syslet_role_name((enum syslet_role)-1));
	ERR(EINVAL, syslet_print_call(NULL, &ev, SYSLET_PRINT_WHOLE));
	ERR(EINVAL, syslet_print_call(stdout, NULL, SYSLET_PRINT_WHOLE));
	ERR(EINVAL, syslet_print_call(stdout, &ev, (enum syslet_print_part)99));
	ERR(EINVAL, syslet_sysno((enum syslet_call)-1));

	/* Backends, profiles, observers. */
	ERR(EINVAL, syslet_set_backend(longname));
	ERR(EINVAL, syslet_set_profile(NULL));
	ERR(EINVAL, syslet_set_profile(longname));
	ERR(EINVAL, syslet_set_trace_flags(~0u));
	ERR(EINVAL, syslet_get_stats(NULL));
	ERR(EINVAL, syslet_set_inject(NULL, 1));
	ERR(EINVAL, syslet_get_inject(NULL, 1));

	/* The ring helpers and the calls. */
	ERR(EINVAL, syslet_ring__init(NULL, 4, -1UL));
	ERR(EINVAL, syslet_ring__init(&ring, 0, -1UL));
	ERR(EINVAL, syslet_ring__init(&ring, ULONG_MAX, -1UL));
	VOID(syslet_ring__exit(NULL));
	NUL(EINVAL, syslet_ring__peek(NULL));
	NUL(EINVAL, syslet_ring__pop(NULL));
	NUL(EINVAL, syslet_ring__wait_pop(NULL, 1));
	ERR(EINVAL, syslet_exec_batch(NULL, 1, NULL, NULL));
	ERR(EFAULT, sys_umem_add(NULL, 0));
	/* With a ring registered, so that it is the arguments that fail. */
	{
		SYSLET_OPTS(syslet_ring, r);
		struct syslet_uatom *done[1];
		int errs[1];

		if (syslet_ring__init(&r, 4, -1UL)) {
			fprintf(stderr, "syslet_ring__init: %s\n",
				strerror(errno));
			return 99;
		}
		ERR(EINVAL, syslet_exec_batch(NULL, 1, done, errs));
		ERR(EINVAL, syslet_exec_batch(&a0, 1, NULL, errs));
		ERR(EINVAL, syslet_exec_batch(&a0, 1, done, NULL));
		syslet_ring__exit(&r);
	}

	syslet_inst__free(inst);
	syslet_obj__close(obj);
	unlink(image_path);
	free(longname);
	if (failures)
		printf("%d case%s failed\n", failures,
		       failures == 1 ? "" : "s");
	return failures ? 1 : 0;
}
