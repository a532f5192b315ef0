/* printres.c: syslet_print_result(3) prints a call's result as its page says strace shows it: errors with their names, addresses in hex, fcntl's F_GETFL and F_GETFD flags, poll's records, umem_add's values, and -EINVAL or -EIO where it cannot. */
#include <fcntl.h>
#include <poll.h>

#include "helpers.h"

/* What syslet_print_result() prints for an event of call @name (NULL:
 * @nr as it is) with @nargs arguments @a0, @a1 and result @ret. */
static char *printed(const char *name, unsigned long nr, unsigned int nargs,
		     unsigned long a0, unsigned long a1, long ret)
{
	SYSLET_OPTS(syslet_event, ev, .nargs = nargs, .args = { a0, a1 },
		    .ret = ret, .end = SYSLET_END_NEXT);
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int err;

	if (!mem)
		rt_die("open_memstream: %s", strerror(errno));
	ev.nr = name ? (unsigned long)syslet_syscall_number(name) : nr;
	err = syslet_print_result(mem, &ev);
	fclose(mem);
	rt_check(err == 0, "%s = %ld: returned %d", name ? name : "?", ret,
		 err);
	return text;
}

#define expect(want, ...)						\
	do {								\
		char *got_ = printed(__VA_ARGS__);			\
									\
		rt_check(got_ && !strcmp(got_, (want)),			\
			 "printed '%s', expected '%s'",			\
			 got_ ? got_ : "(null)", (want));		\
		free(got_);						\
	} while (0)

/* Errors, values and addresses (the page's first four rules). */
static void check_numbers(void)
{
	SYSLET_OPTS(syslet_event, ev, .end = SYSLET_END_UNFINISHED);
	unsigned long past = (unsigned long)syslet_syscall_count() + 5;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;

	expect("3", "openat", 0, 0, 0, 0, 3);
	expect("-2 ENOENT", "openat", 0, 0, 0, 0, -ENOENT);
	expect("-4095", "openat", 0, 0, 0, 0, -4095);	/* no name */
	expect("-4096", "openat", 0, 0, 0, 0, -4096);	/* not an error */
	expect("-38 ENOSYS", NULL, past, 0, 0, 0, -ENOSYS);
	expect("-5 EIO", NULL, past, 0, 0, 0, -EIO);
	/* umem_add's result is a value, whatever its sign. */
	expect("-2", NULL, (unsigned long)syslet_sysno(SYSLET_CALL_UMEM_ADD),
	       0, 0, 0, -2);
	expect("0x7f0012345000", "mmap", 0, 0, 0, 0, 0x7f0012345000L);
	expect("-12 ENOMEM", "mmap", 0, 0, 0, 0, -ENOMEM);
	expect("0x55aa00001000", "brk", 0, 0, 0, 0, 0x55aa00001000L);
	/* Not returned yet. */
	ev.nr = (unsigned long)syslet_syscall_number("read");
	mem = open_memstream(&text, &len);
	if (!mem)
		rt_die("open_memstream: %s", strerror(errno));
	rt_check(syslet_print_result(mem, &ev) == 0, "unfinished");
	fclose(mem);
	rt_check(text && !strcmp(text, "?"), "unfinished: '%s'", text);
	free(text);
}

/* fcntl's flags: the values strace 6 showed for the same files. */
static void check_fcntl(void)
{
	char want[160], *got;
	int fd, fl;

	expect("0x9001 (flags O_WRONLY|O_DSYNC|O_LARGEFILE)", "fcntl", 0, 2,
	       3, F_GETFL, 0x9001);
	expect("0x109401 (flags O_WRONLY|O_APPEND|O_SYNC|O_LARGEFILE)",
	       "fcntl", 0, 2, 3, F_GETFL, 0x109401);
	expect("0x18000 (flags O_RDONLY|O_LARGEFILE|O_DIRECTORY)", "fcntl", 0,
	       2, 3, F_GETFL, 0x18000);
	expect("0x220000 (flags O_RDONLY|O_NOFOLLOW|O_PATH)", "fcntl", 0, 2, 3,
	       F_GETFL, 0x220000);
	expect("0x8802 (flags O_RDWR|O_NONBLOCK|O_LARGEFILE)", "fcntl", 0, 2,
	       3, F_GETFL, 0x8802);
	expect("0 (flags O_RDONLY)", "fcntl", 0, 2, 3, F_GETFL, 0);
	expect("0x8003 (flags O_ACCMODE|O_LARGEFILE)", "fcntl", 0, 2, 3,
	       F_GETFL, 0x8003);
	expect("0x40000002 (flags O_RDWR|0x40000000)", "fcntl", 0, 2, 3,
	       F_GETFL, 0x40000002);
	expect("0x1 (flags FD_CLOEXEC)", "fcntl", 0, 2, 3, F_GETFD, 1);
	expect("0x3 (flags FD_CLOEXEC|0x2)", "fcntl", 0, 2, 3, F_GETFD, 3);
	expect("0", "fcntl", 0, 2, 3, F_GETFD, 0);
	expect("2", "fcntl", 0, 2, 3, F_GETFD, 2);
	/* Other commands, errors, and a call that fetched one argument. */
	expect("0", "fcntl", 0, 2, 3, F_SETFL, 0);
	expect("4", "fcntl", 0, 2, 3, F_DUPFD, 4);
	expect("-9 EBADF", "fcntl", 0, 2, 99, F_GETFL, -EBADF);
	expect("32770", "fcntl", 0, 1, 3, F_GETFL, 32770);

	/* A descriptor the kernel opened O_DSYNC: its own flags. */
	fd = open("/dev/null", O_WRONLY | O_DSYNC);
	if (fd < 0)
		rt_die("open /dev/null: %s", strerror(errno));
	fl = fcntl(fd, F_GETFL);
	got = printed("fcntl", 0, 2, (unsigned long)fd, F_GETFL, fl);
	snprintf(want, sizeof(want), "%#x (flags O_WRONLY|", fl);
	rt_check(got && !strncmp(got, want, strlen(want)) &&
		 strstr(got, "|O_DSYNC") && !strstr(got, "O_SYNC"),
		 "F_GETFL of an O_DSYNC descriptor: '%s'", got);
	free(got);
	close(fd);
}

/* A real poll of a pipe with a byte in it. */
static void check_poll_pipe(void)
{
	struct pollfd r;
	char want[64], *got;
	int fds[2], n;

	if (pipe(fds) || write(fds[1], "x", 1) != 1)
		rt_die("pipe: %s", strerror(errno));
	r.fd = fds[0];
	r.events = POLLIN;
	r.revents = 0;
	n = poll(&r, 1, 0);
	got = printed("poll", 0, 2, (unsigned long)&r, 1, n);
	snprintf(want, sizeof(want), "1 ([{fd=%d, revents=POLLIN}])", fds[0]);
	rt_check(got && !strcmp(got, want), "real poll: '%s'", got);
	free(got);
	close(fds[0]);
	close(fds[1]);
}

static void check_poll(void)
{
	struct pollfd p[4] = {
		{ 3, POLLIN, POLLIN },
		{ 4, POLLOUT, 0 },
		{ 5, POLLIN, POLLIN | POLLHUP },
		{ 6, POLLIN, POLLNVAL },
	};
	struct pollfd odd = { 7, POLLIN, 0x4000 };
	unsigned long a = (unsigned long)p;

	expect("0 (Timeout)", "poll", 0, 2, a, 4, 0);
	expect("1 ([{fd=3, revents=POLLIN}])", "poll", 0, 2, a, 2, 1);
	expect("2 ([{fd=3, revents=POLLIN}, {fd=5, revents=POLLIN|POLLHUP}])",
	       "poll", 0, 2, a, 4, 2);
	/* Two records at most. */
	expect("3 ([{fd=3, revents=POLLIN}, {fd=5, revents=POLLIN|POLLHUP}, ...])",
	       "poll", 0, 2, a, 4, 3);
	expect("1 ([{fd=7, revents=0x4000}])", "poll", 0, 2,
	       (unsigned long)&odd, 1, 1);
	expect("1 ([{fd=3, revents=POLLIN}])", "ppoll", 0, 2, a, 1, 1);
	expect("-4 EINTR", "poll", 0, 2, a, 4, -EINTR);
	/* Records that cannot be read: the count alone. */
	expect("1", "poll", 0, 2, 1, 1, 1);
	expect("1", "poll", 0, 2, 0, 1, 1);
	check_poll_pipe();
}

static void check_errors(void)
{
	SYSLET_OPTS(syslet_event, ev, .ret = 3);
	FILE *ro;

	ev.nr = (unsigned long)syslet_syscall_number("read");
	rt_check_err(syslet_print_result(NULL, &ev), EINVAL);
	rt_check_err(syslet_print_result(stdout, NULL), EINVAL);
	ev.sz = 0;
	rt_check_err(syslet_print_result(stdout, &ev), EINVAL);
	ev.sz = sizeof(ev);
	/* A stream that cannot be written: its error indicator is set. */
	ro = fopen("/dev/null", "r");
	if (!ro)
		rt_die("fopen /dev/null: %s", strerror(errno));
	setvbuf(ro, NULL, _IONBF, 0);
	rt_check_err(syslet_print_result(ro, &ev), EIO);
	fclose(ro);
}

int main(void)
{
	rt_init();
	check_numbers();
	check_fcntl();
	check_poll();
	check_errors();
	return rt_done("printres");
}
