/* pipesig.c: a write() atom run in the caller (SYSLET_SYNC) that waits on a full pipe whose reader then goes away raises SIGPIPE as it returns (EPIPE, or the count it wrote): with SIGPIPE caught the syslet ends after it, the handler run once, as the 2007 kernel's signal_pending() after the call; ignored, the syslet goes on. */
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include "helpers.h"

/*
 * seeds/006 exec_atom(): a signal pending after __exec_atom() ends the
 * chain with that atom as the last.  pipe_write() sends SIGPIPE to the
 * writer when it finds no reader, and answers EPIPE, or the bytes it
 * wrote before the reader went (so the signal is pending whatever the
 * result).  The chain: a0 write(pipe, buf, len) with SYSLET_SYNC, on a
 * pipe already full, so that it waits; a1 getpid().  A thread closes the
 * only reader 50 ms later.
 */

static volatile sig_atomic_t handled;

static void on_sig(int sig)
{
	(void)sig;
	handled++;
}

struct closer {
	int fd;
};

static void *close_late(void *arg)
{
	struct closer *c = arg;
	struct timespec ts = { 0, 50 * 1000 * 1000 };

	nanosleep(&ts, NULL);
	close(c->fd);
	return NULL;
}

static void one(bool ignore, unsigned long len)
{
	static char big[1 << 17];
	struct sigaction sa = { .sa_handler = ignore ? SIG_IGN : on_sig };
	struct syslet_uatom a[2], *done;
	unsigned long fd, buf = (unsigned long)big;
	long r0 = -12345, r1 = -12345;
	struct closer cl;
	pthread_t t;
	int p[2];

	sigaction(SIGPIPE, &sa, NULL);
	handled = 0;
	if (pipe(p))
		rt_die("pipe: %s", strerror(errno));
	/* Full, then (for a long write) room for 8 KiB of it, which it
	 * writes before it waits. */
	fcntl(p[1], F_SETFL, O_NONBLOCK);
	while (write(p[1], big, 4096) > 0)
		;
	fcntl(p[1], F_SETFL, 0);
	if (len > 8192 && read(p[0], big, 8192) != 8192)
		rt_die("read: %s", strerror(errno));
	fd = (unsigned long)p[1];
	rt_atom(&a[0], __NR_write, &r0, SYSLET_SYNC, &a[1], &fd, &buf, &len);
	rt_atom(&a[1], __NR_getpid, &r1, 0, NULL, NULL, NULL, NULL);
	cl.fd = p[0];
	if (pthread_create(&t, NULL, close_late, &cl))
		rt_die("pthread_create");
	errno = 0;
	done = sys_async_exec(&a[0]);
	pthread_join(t, NULL);
	if (!done)
		rt_die("the SYNC write went async: %s", strerror(errno));
	rt_check(len > 8192 ? r0 == 8192 : r0 == -EPIPE,
		 "%s, %lu bytes: write stored %ld", ignore ? "SIG_IGN" :
		 "caught", len, r0);
	if (ignore)
		rt_check(done == &a[1] && r1 == getpid() && handled == 0,
			 "SIG_IGN, %lu bytes: ended at %s, getpid stored %ld: "
			 "nothing pending, the syslet goes on", len,
			 done == &a[0] ? "a0" : "a1", r1);
	else
		rt_check(done == &a[0] && r1 == -12345 && handled == 1,
			 "caught, %lu bytes: ended at %s, getpid stored %ld, "
			 "handler ran %d time(s): SIGPIPE ends the syslet "
			 "after the write", len, done == &a[0] ? "a0" : "a1",
			 r1, (int)handled);
	close(p[1]);
}

int main(void)
{
	static struct syslet_uatom *ring[8];
	struct async_head_user ahu;
	sigset_t none;

	rt_init();
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	rt_register(&ahu, ring, 8, 2);
	one(false, 1);
	one(false, 100000);
	one(true, 1);
	one(true, 100000);
	if (sys_async_unregister(&ahu, sizeof(ahu)))
		rt_die("async_unregister: %s", strerror(errno));
	return rt_done("pipesig");
}
