/* kexamples.c: every example image run by syslet-run --backend=kernel in the guest, output and exit status checked, as TAP. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * The guest has no shell, so this is tests/run/examples.sh in C: the
 * same cases and the same expected outputs, run against the images
 * sysletc compiled on the host (/ex/NAME.slo).  Each syslet-run gets
 * --backend=kernel, so a missing kernel backend fails instead of
 * falling back to the emul engine.
 */
#define KX_OUT	"/tmp/kx.out"
#define KX_ERR	"/tmp/kx.err"
#define KX_BIG	"/tmp/kx.big"

/* Overridable from the command line, to try this on the host. */
static const char *kx_prog = "/bin/syslet-run", *kx_dir = "/ex";
static const char *kx_backend = "--backend=kernel";
static int kx_n, kx_failed;

/* /ex/NAME, in one of a few static buffers. */
static const char *kx_ex(const char *name)
{
	static char buf[8][256];
	static int i;

	i = (i + 1) % 8;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", kx_dir, name);
	return buf[i];
}

static void kx_tap(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", ok ? "" : "not ", ++kx_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (!ok)
		kx_failed++;
}

static void kx_skip(const char *what, const char *why)
{
	printf("ok %d - %s # SKIP %s\n", ++kx_n, what, why);
	fflush(stdout);
}

/* Whole file into a NUL-terminated buffer (empty on error). */
static char *kx_slurp(const char *path, size_t *lenp)
{
	static char buf[64 * 1024];
	size_t len = 0;
	ssize_t r;
	int fd = open(path, O_RDONLY);

	if (fd >= 0) {
		while (len < sizeof(buf) - 1 &&
		       (r = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
			len += (size_t)r;
		close(fd);
	}
	buf[len] = '\0';
	if (lenp)
		*lenp = len;
	return buf;
}

static void kx_show_err(void)
{
	char *e = kx_slurp(KX_ERR, NULL), *line, *save = NULL;

	for (line = strtok_r(e, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		printf("# stderr: %s\n", line);
}

/* syslet-run --backend=kernel ARGS... > KX_OUT 2> KX_ERR; exit status. */
static int kx_run(const char *arg, ...)
{
	const char *argv[16] = { kx_prog, kx_backend };
	int argc = 2, status;
	va_list ap;
	pid_t pid;

	va_start(ap, arg);
	for (; arg && argc < 15; arg = va_arg(ap, const char *))
		argv[argc++] = arg;
	va_end(ap);
	argv[argc] = NULL;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int o = open(KX_OUT, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(KX_ERR, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(126);
		execv(kx_prog, (char **)argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) :
				   128 + WTERMSIG(status);
}

/* Check exit status and, when @want is not NULL, standard output. */
static void kx_expect(const char *what, int st, int want_st, const char *want)
{
	const char *out = kx_slurp(KX_OUT, NULL);
	int ok = st == want_st && (!want || !strcmp(out, want));

	kx_tap(ok, "%s (exit %d)", what, st);
	if (!ok) {
		if (want && strcmp(out, want))
			printf("# stdout: '%.200s', expected '%s'\n", out, want);
		kx_show_err();
	}
}

static int kx_same(const char *a, const char *b)
{
	size_t la, lb;
	char *x = strdup(kx_slurp(a, &la)), *y;
	int same;

	if (!x)
		return 0;
	y = kx_slurp(b, &lb);
	same = la == lb && !memcmp(x, y, la);
	free(x);
	return same;
}

static int kx_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static int kx_count(const char *s, const char *word)
{
	int n = 0;

	for (; (s = strstr(s, word)); s += strlen(word))
		n++;
	return n;
}

static void kx_hello(void)
{
	kx_expect("hello.slo prints its greeting",
		  kx_run(kx_ex("hello.slo"), NULL), 0, "Hello Syslet World!\n");
	kx_expect("hello.syslet compiled in memory prints its greeting",
		  kx_run(kx_ex("hello.syslet"), NULL), 0,
		  "Hello Syslet World!\n");
	/* The kernel has no per-atom observer: --trace is refused before
	 * anything runs, with a message, not silently ignored. */
	kx_tap(kx_run("--trace", kx_ex("hello.slo"), NULL) == 2 &&
		       !strcmp(kx_slurp(KX_OUT, NULL), "") &&
		       strstr(kx_slurp(KX_ERR, NULL),
			      "--trace needs a backend that reports its atoms (this is kernel)"),
	       "hello.slo --trace is refused on the kernel backend");
	kx_expect("hello.slo --stats prints the greeting",
		  kx_run("--stats", kx_ex("hello.slo"), NULL), 0,
		  "Hello Syslet World!\n");
	/* --backend=auto (the default) finds the patched kernel's calls;
	 * the later option overrides kx_run's --backend=kernel. */
	kx_tap(kx_run("--backend=auto", "--stats", kx_ex("hello.slo"),
		      NULL) == 0 &&
		       !strcmp(kx_slurp(KX_OUT, NULL), "Hello Syslet World!\n") &&
		       strstr(kx_slurp(KX_ERR, NULL), "(backend kernel)"),
	       "hello.slo with --backend=auto runs on the kernel backend");
	if (!strstr(kx_slurp(KX_ERR, NULL), "(backend kernel)"))
		kx_show_err();
}

static void kx_cat(void)
{
	FILE *f = fopen(KX_BIG, "w");
	const char *err;
	int ok;
	int st;

	if (!f) {
		kx_tap(0, "cat: create %s: %s", KX_BIG, strerror(errno));
		return;
	}
	/* Larger than the example's 4096-byte buffer. */
	for (int i = 0; i < 400; i++)
		fprintf(f, "line %d of a file longer than one 4096-byte buffer\n",
			i);
	fclose(f);
	st = kx_run(kx_ex("cat.slo"), KX_BIG, NULL);
	kx_tap(st == 0 && kx_same(KX_BIG, KX_OUT),
	       "cat.slo: a file larger than its buffer comes out whole (exit %d)",
	       st);
	kx_expect("cat.slo /dev/null prints nothing",
		  kx_run(kx_ex("cat.slo"), "/dev/null", NULL), 0, "");
	st = kx_run(kx_ex("cat.slo"), "/tmp/kx.none", NULL);
	err = kx_slurp(KX_ERR, NULL);
	/* The call as strace shows it, its path read through a pipe where
	 * the guest's kernel lacks process_vm_readv() (syslet_read_mem). */
	ok = st == 1 && strstr(err, "cat stopped at atom 0 (") &&
	     strstr(err, "fd = open(path, O_RDONLY)): open(\"/tmp/kx.none\", "
		    "O_RDONLY) = -2 ENOENT\n");
	kx_tap(ok, "cat.slo: a missing file is reported at its atom (exit %d)",
	       st);
	if (!ok)
		kx_show_err();
}

static void kx_copy(void)
{
	int st;

	st = kx_run(kx_ex("copy.slo"), KX_BIG, "/tmp/kx.copied", NULL);
	kx_tap(st == 0 && kx_same(KX_BIG, "/tmp/kx.copied"),
	       "copy.slo: the copy is identical (exit %d)", st);
	st = kx_run(kx_ex("copy.slo"), "/tmp/kx.none", "/tmp/kx.c2", NULL);
	kx_tap(st == 1 && strstr(kx_slurp(KX_ERR, NULL), "-2 ENOENT\n") &&
		       !kx_exists("/tmp/kx.c2"),
	       "copy.slo: a missing source is ENOENT, no target (exit %d)", st);
	/* The syslet ends at the open that failed: status 1. */
	st = kx_run(kx_ex("copy.slo"), KX_BIG, "/tmp/kx.no/such/dir", NULL);
	kx_tap(st == 1 && !kx_exists("/tmp/kx.no"),
	       "copy.slo: a bad target is not created (exit %d)", st);
	kx_expect("copy.slo with one argument is a usage error",
		  kx_run(kx_ex("copy.slo"), KX_BIG, NULL), 2, NULL);
}

static void kx_countdown(void)
{
	kx_expect("countdown.slo 3", kx_run(kx_ex("countdown.slo"), "3", NULL), 0,
		  "tick\ntick\ntick\nliftoff!\n");
	kx_expect("countdown.slo 0", kx_run(kx_ex("countdown.slo"), "0", NULL), 0,
		  "liftoff!\n");
	kx_tap(kx_run(kx_ex("countdown.slo"), "three", NULL) == 2 &&
		       strstr(kx_slurp(KX_ERR, NULL),
			      "parameter count of countdown: expected int, got 'three'"),
	       "countdown.slo three is a type error");
	/* --each: one instance per argument, all in flight at once, so
	 * the lines may interleave: count them. */
	kx_expect("countdown.slo --each 1 2",
		  kx_run("--each", kx_ex("countdown.slo"), "1", "2", NULL), 0,
		  NULL);
	kx_tap(kx_count(kx_slurp(KX_OUT, NULL), "tick\n") == 3 &&
		       kx_count(kx_slurp(KX_OUT, NULL), "liftoff!\n") == 2,
	       "countdown.slo --each 1 2: three ticks, two liftoffs");
}

static int kx_connect_once(void)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(8080) };
	static const char msg[] = "GET / syslet\r\n\r\n";
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		return -1;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)) ||
	    write(fd, msg, sizeof(msg) - 1) != (ssize_t)sizeof(msg) - 1) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static void kx_server(void)
{
	const struct timespec pause = { 0, 50 * 1000 * 1000 };
	int fd = socket(AF_INET, SOCK_STREAM, 0), status, i, ok = 1;
	pid_t pid;

	if (fd < 0) {
		kx_skip("server.slo", "no TCP/IP in the guest kernel");
		return;
	}
	close(fd);	/* lo is up: init.c */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		const char *argv[] = { kx_prog, kx_backend,
				       kx_ex("server.slo"), "127.0.0.1:8080",
				       "3", NULL };
		int e = open(KX_ERR, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (e >= 0)
			dup2(e, 2);
		execv(kx_prog, (char **)argv);
		_exit(127);
	}
	for (i = 0; i < 3 && ok; i++) {
		int tries = 0;

		while (kx_connect_once()) {
			if (++tries > 100) {
				ok = 0;
				break;
			}
			nanosleep(&pause, NULL);
		}
	}
	for (i = 0; i < 100 && waitpid(pid, &status, WNOHANG) == 0; i++)
		nanosleep(&pause, NULL);
	if (i == 100) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		ok = 0;
	}
	kx_tap(ok && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "server.slo serves three connections and ends");
	if (!ok)
		kx_show_err();
}

int main(int argc, char **argv)
{
	if (argc > 3) {
		kx_dir = argv[1];
		kx_prog = argv[2];
		kx_backend = argv[3];
	}
	if (access(kx_prog, X_OK)) {
		printf("1..0 # SKIP no static syslet-run in the guest\n");
		return 77;
	}
	kx_hello();
	kx_cat();
	kx_copy();
	kx_countdown();
	kx_server();
	printf("1..%d\n", kx_n);
	return kx_failed ? 1 : 0;
}
