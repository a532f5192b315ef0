/* caps.c: a syslet that went async makes its calls with the capabilities of the thread that called async_exec(), which capset() changes for that thread alone; random capability states from a seed. */
#include "helpers.h"
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <linux/capability.h>
#include <sys/wait.h>

/*
 * In 2007 the task that went on with a syslet after a cachemiss was the
 * caller's own, with its credentials, capabilities included.  capset()
 * (which cap_set_proc(3) makes) changes the calling thread's sets alone:
 * a program that lowers its effective set around a client's request, or
 * drops a capability for good, must not have its syslets' calls made
 * with the capabilities a worker was made with, or took for an earlier
 * syslet.  Each round puts the caller's sets in a random state (the
 * effective set any part of the permitted one; after a third of the
 * rounds, a permitted capability dropped for good) and runs two probes
 * from a syslet, ASYNC or after a read that blocks, with the caller in
 * async_wait() or asleep: an open of a 0600 file of another user's
 * (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH) and a bind() to a port below
 * 1024 (CAP_NET_BIND_SERVICE), each compared with the same call made
 * directly by the caller.  Two workers at most, so that each serves
 * several states.  Last, in a child, a worker made with every capability
 * that a seccomp filter then keeps from capset(): it must not open the
 * file for a caller that has lowered its effective set (2007 answered
 * EACCES, a worker that cannot take on the caller's sets EPERM).  Needs
 * root.  caps [SEED [ROUNDS]].
 */

#define NOBODY		65534
#define DAC		((1u << CAP_DAC_OVERRIDE) | (1u << CAP_DAC_READ_SEARCH))
#define BIND		(1u << CAP_NET_BIND_SERVICE)
#define TESTED		(DAC | BIND)

static struct rt_ring8 ring;
static uint64_t rng;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

struct capsets {
	struct __user_cap_data_struct	d[_LINUX_CAPABILITY_U32S_3];
};

static void caps_get(struct capsets *c)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };

	if (syscall(SYS_capget, &h, c->d))
		rt_die("capget: %s", strerror(errno));
}

static void caps_set(const struct capsets *c)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };

	if (syscall(SYS_capset, &h, c->d))
		rt_die("capset: %s", strerror(errno));
}

/* The caller's effective set, within the tested bits: @eff; the tested
 * bits outside @prm leave the permitted set for good. */
static void caps_to(unsigned eff, unsigned prm)
{
	struct capsets c;

	caps_get(&c);
	c.d[0].effective = (c.d[0].effective & ~TESTED) | (eff & prm);
	c.d[0].permitted = (c.d[0].permitted & ~TESTED) | prm;
	c.d[0].inheritable &= c.d[0].permitted | ~TESTED;
	caps_set(&c);
}

/* Run the one-atom syslet @a, ASYNC or after a read that blocks, and
 * return its result. */
static long run(struct syslet_uatom *a, int blocked, int waits)
{
	struct syslet_uatom *done;

	if (blocked)
		a->flags &= ~(unsigned long)SYSLET_ASYNC;
	else
		a->flags |= SYSLET_ASYNC;
	done = rt_exec_behind(&ring, a, blocked, waits);
	if (done != a)
		rt_die("completion %p, want the probe %p", (void *)done,
		       (void *)a);
	return *a->ret_ptr;
}

static long open_probe(const char *path, int blocked, int waits)
{
	unsigned long dirfd = (unsigned long)AT_FDCWD;
	unsigned long p = (unsigned long)path, fl = O_RDONLY | O_CLOEXEC;
	struct syslet_uatom a;
	long r = -12345;

	rt_atom(&a, __NR_openat, &r, 0, NULL, &dirfd, &p, &fl);
	r = run(&a, blocked, waits);
	if (r >= 0)
		close((int)r);
	return r >= 0 ? 0 : r;
}

/* bind() to @port of 127.0.0.1: 0, or -errno (EADDRINUSE also says
 * that the capability check passed). */
static long bind_probe(unsigned port, int blocked, int waits, int direct)
{
	struct sockaddr_in sa;
	unsigned long fd, sp = (unsigned long)&sa, len = sizeof(sa);
	struct syslet_uatom a;
	long r = -12345;
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (s < 0)
		rt_die("socket: %s", strerror(errno));
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons((unsigned short)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = (unsigned long)s;
	if (direct) {
		r = bind(s, (struct sockaddr *)&sa, sizeof(sa)) ? -errno : 0;
	} else {
		rt_atom(&a, __NR_bind, &r, 0, NULL, &fd, &sp, &len);
		r = run(&a, blocked, waits);
	}
	close(s);
	return r == -EADDRINUSE ? 0 : r;
}

/* Every thread of the process, the workers made already included: capset()
 * fails with EPERM. */
static int deny_capset(void)
{
	return rt_seccomp_refuse(__NR_capset, SECCOMP_RET_ERRNO | EPERM,
				 SECCOMP_FILTER_FLAG_TSYNC);
}

/* The child's exit status: 0 the open was refused, 1 it was not, 77 no
 * seccomp filter here. */
static int locked_worker(const char *path)
{
	struct async_head_user ahu;
	struct syslet_uatom a;
	long r;

	rt_register(&ahu, ring.slot, 8, 1);
	ring.next = 0;
	/* The one worker, made with every capability. */
	rt_atom(&a, __NR_getppid, &r, 0, NULL, NULL, NULL, NULL);
	if (run(&a, 0, 1) != getppid())
		rt_die("getppid from a syslet: %ld", r);
	caps_to(0, TESTED);
	if (deny_capset()) {
		fprintf(stderr, "SKIP: no seccomp filter: %s\n",
			strerror(errno));
		return RT_SKIP;
	}
	/* The kernel backend refuses every syslet of a task with a seccomp
	 * filter (kernel-patch/README, 4: atoms do not pass the syscall
	 * entry): async_exec fails with EPERM before any atom runs. */
	if (!strcmp(syslet_backend_name(), "kernel")) {
		struct syslet_uatom b;

		rt_atom(&b, __NR_getppid, &r, 0, NULL, NULL, NULL, NULL);
		b.flags |= SYSLET_ASYNC;
		errno = 0;
		if (sys_async_exec(&b) || errno != EPERM) {
			fprintf(stderr, "FAIL: kernel: async_exec with a "
				"seccomp filter: not EPERM (%s)\n",
				strerror(errno));
			return 1;
		}
		printf("capset() denied: the kernel refuses the syslet "
		       "(EPERM)\n");
		return 0;
	}
	r = open_probe(path, 0, 1);
	if (r == 0)
		fprintf(stderr, "FAIL: with capset() denied to its worker, "
			"the syslet of a caller without CAP_DAC_OVERRIDE "
			"opened a 0600 file of uid %d\n", NOBODY);
	else
		printf("capset() denied: the syslet's open gave %ld\n", r);
	fflush(stdout);
	return r == 0;
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/caps.XXXXXX", path[64];
	unsigned long rounds = 60, seed = 0x5eedca95;
	struct async_head_user ahu;
	unsigned prm = TESTED;
	struct capsets c0;
	int fd;

	rt_init();
	if (argc > 1)
		seed = strtoul(argv[1], NULL, 0);
	if (argc > 2)
		rounds = strtoul(argv[2], NULL, 0);
	rng = seed ? seed : 1;
	caps_get(&c0);
	if (geteuid() != 0 || (c0.d[0].effective & TESTED) != TESTED) {
		fprintf(stderr, "SKIP: needs root with CAP_DAC_OVERRIDE, "
			"CAP_DAC_READ_SEARCH and CAP_NET_BIND_SERVICE\n");
		return RT_SKIP;
	}
	if (!mkdtemp(dir))
		rt_die("mkdtemp: %s", strerror(errno));
	chmod(dir, 0755);
	snprintf(path, sizeof(path), "%s/nobody", dir);
	fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0 || close(fd) || chown(path, NOBODY, NOBODY))
		rt_die("%s: %s", path, strerror(errno));
	caps_to(0, TESTED);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	caps_to(TESTED, TESTED);
	if (fd >= 0) {
		fprintf(stderr, "SKIP: without CAP_DAC_OVERRIDE root still "
			"opens a 0600 file of another user's\n");
		close(fd);
		unlink(path);
		rmdir(dir);
		return RT_SKIP;
	}
	{
		pid_t pid = fork();
		int st;

		if (pid < 0)
			rt_die("fork: %s", strerror(errno));
		if (!pid)
			_exit(locked_worker(path));
		if (waitpid(pid, &st, 0) != pid)
			rt_die("waitpid: %s", strerror(errno));
		rt_check(WIFEXITED(st) && (WEXITSTATUS(st) == 0 ||
					   WEXITSTATUS(st) == RT_SKIP),
			 "seed %#lx: the child with capset() denied: status "
			 "%#x", seed, st);
	}
	rt_register(&ahu, ring.slot, 8, 2);
	for (unsigned long i = 0; i < rounds; i++) {
		unsigned eff = (unsigned)rnd() & TESTED, port;
		int blocked = !(rnd() % 4), waits = (int)(rnd() % 2);
		const char *how = blocked ? "after a blocked read" : "ASYNC";
		const char *w = waits ? "caller in async_wait" :
					"caller asleep";
		long want, got;

		/* A third of the way in, one tested capability leaves the
		 * permitted set for good (the C library's capset() is the
		 * calling thread's alone). */
		if (i == rounds / 3)
			prm &= (rnd() % 2) ? ~DAC : ~BIND;
		caps_to(eff, prm);
		eff &= prm;
		fd = open(path, O_RDONLY | O_CLOEXEC);
		want = fd >= 0 ? 0 : -errno;
		if (fd >= 0)
			close(fd);
		got = open_probe(path, blocked, waits);
		rt_check(got == want, "seed %#lx round %lu (effective %#x, "
			 "permitted %#x), %s, %s: the syslet's open of a 0600 "
			 "file of uid %d gave %ld, the caller's own %ld", seed,
			 i, eff, prm, w, how, NOBODY, got, want);
		port = 600 + (unsigned)(rnd() % 400);
		want = bind_probe(port, 0, 0, 1);
		got = bind_probe(port, blocked, waits, 0);
		rt_check(got == want, "seed %#lx round %lu (effective %#x, "
			 "permitted %#x), %s, %s: the syslet's bind() to port "
			 "%u gave %ld, the caller's own %ld", seed, i, eff,
			 prm, w, how, port, got, want);
	}
	rt_unregister(&ahu);
	caps_to(prm, prm);
	unlink(path);
	rmdir(dir);
	return rt_done("caps");
}
