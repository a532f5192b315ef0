/* api.c: libsyslet's conventions (libsyslet(3) CONVENTIONS) through the public API: -errno and errno, NULL and errno, the ring helpers' answers. */
#include "helpers.h"

/* An int function's failure: the negative value, and errno the same. */
#define rt_check_err(expr, e)						\
	do {								\
		long r_;						\
									\
		errno = 0;						\
		r_ = (long)(expr);					\
		rt_check(r_ == -(e) && errno == (e),			\
			 "returned %ld, errno %d, expected -%d", r_,	\
			 errno, (e));					\
	} while (0)

/* A pointer function's failure: NULL, and errno set. */
#define rt_check_null(expr, e)						\
	do {								\
		const void *p_;						\
									\
		errno = 0;						\
		p_ = (expr);						\
		rt_check(!p_ && errno == (e),				\
			 "returned %p, errno %d, expected NULL and %d",	\
			 p_, errno, (e));				\
	} while (0)

static void check_ring(void)
{
	struct syslet_ring ring, none;
	struct rt_pipe_read pr;
	struct syslet_uatom *done;

	rt_check_err(syslet_ring__init(&none, 0, -1UL), EINVAL);
	rt_check_null(syslet_ring__peek(&none), EINVAL);
	if (syslet_ring__init(&ring, 4, -1UL))
		rt_die("syslet_ring__init: %s", strerror(errno));
	/* Empty: not yet (EAGAIN); nothing busy either: never (ECHILD). */
	rt_check_null(syslet_ring__peek(&ring), EAGAIN);
	rt_check_null(syslet_ring__pop(&ring), EAGAIN);
	rt_check_null(syslet_ring__wait_pop(&ring, 1), ECHILD);

	rt_pipe_read_init(&pr);
	rt_pipe_read_exec(&pr);
	rt_check_null(syslet_ring__pop(&ring), EAGAIN);
	if (write(pr.pfd[1], "x", 1) != 1)
		rt_die("write: %s", strerror(errno));
	errno = 0;
	done = syslet_ring__wait_pop(&ring, 1);
	rt_check(done == &pr.atom && pr.ret == 1,
		 "wait_pop gave %p (ret %ld), errno %d", (void *)done, pr.ret,
		 errno);
	rt_check_null(syslet_ring__wait_pop(&ring, 1), ECHILD);
	syslet_ring__exit(&ring);
	rt_pipe_read_close(&pr);
}

static void check_globals(void)
{
	rt_check_err(syslet_sysno((enum syslet_call)SYSLET_NR_CALLS), EINVAL);
	rt_check(syslet_sysno(SYSLET_CALL_UMEM_ADD) >= 0, "no umem_add");
	rt_check_err(syslet_set_profile("pdp-11"), EINVAL);
	rt_check_err(syslet_set_backend("pdp-11"), EINVAL);
	rt_check(syslet_backend_error() != NULL, "no message for pdp-11");
}

int main(void)
{
	rt_init();
	check_ring();
	check_globals();
	return rt_done("api");
}
