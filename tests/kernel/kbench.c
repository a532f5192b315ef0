/* kbench.c: the seeds' benchmark in the guest: open+read+close of many small files, a plain loop against syslets on the kernel backend. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <libsyslet.h>

/*
 * Usage: kbench DEVICE MOUNTPOINT DIR ROUNDS.  DIR (under MOUNTPOINT)
 * holds the files, made on the host with mke2fs -d.  Cached: both
 * contenders read the warm page cache; uncached: the page cache is
 * dropped before each timed pass (drop_caches, or by mounting the file
 * system afresh when the kernel has no sysctl), so every open and read
 * goes to the virtio disk and the syslets block and go async.  Each
 * contender runs ROUNDS times, alternating; the best time counts, as
 * TCG timings are noisy.  Ratios are plain / syslets, the seeds' way
 * (1.19x cached, 1.34x uncached in 2007): above 1 the syslets win.
 * The timings are no test; that every file was read in full is.
 */
#define KB_BUF	4096

struct kb_file {
	struct syslet_uatom	a[3];	/* open -> read -> close */
	unsigned long		path, flags, fd, buf, len;
	long			ret[3];
	char			name[64];
	long			size;
	char			data[KB_BUF];
};

static struct kb_file *kb_files;
static unsigned long kb_nr;
static struct syslet_uatom **kb_ring;
static const char *kb_dev, *kb_mnt;
static int kb_tap, kb_bad;

static double kb_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/*
 * The clock's resolution as seen: the smallest step between two
 * different readings.  A guest whose clocksource is jiffies (no TSC it
 * trusts, no HPET or ACPI PM timer in a tiny kernel) steps by 1-10 ms,
 * and then the timings below are noise: say so, with the clocksource.
 */
static void kb_clock(void)
{
	char cs[64] = "?";
	double step = 1e9, a, b;
	int fd, n;

	for (int i = 0; i < 20; i++) {
		a = kb_now();
		while ((b = kb_now()) == a)
			;
		if (b - a < step)
			step = b - a;
	}
	fd = open("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		  O_RDONLY);
	if (fd >= 0) {
		n = read(fd, cs, sizeof(cs) - 1);
		cs[n > 0 ? n - 1 : 0] = '\0';
		close(fd);
	}
	printf("# bench: clock steps of %.0f ns (clocksource %s)\n", step * 1e9,
	       cs);
	if (step > 10e-6)
		printf("ok %d - clock resolution # SKIP steps of %.1f ms "
		       "(clocksource %s): the timings below are not meaningful\n",
		       ++kb_tap, step * 1e3, cs);
	else
		printf("ok %d - clock resolution: steps of %.0f ns\n", ++kb_tap,
		       step * 1e9);
}

/* Drop the clean page cache; or remount.  0 when done. */
static int kb_drop(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	sync();
	if (fd >= 0) {
		int ok = write(fd, "3\n", 2) == 2;

		close(fd);
		if (ok)
			return 0;
	}
	if (umount(kb_mnt) || mount(kb_dev, kb_mnt, "ext2", MS_RDONLY, NULL))
		return -1;
	return 0;
}

static int kb_check(const char *what)
{
	unsigned long i, wrong = 0, first = 0;

	for (i = 0; i < kb_nr; i++)
		if (kb_files[i].ret[1] != kb_files[i].size && !wrong++)
			first = i;
	if (wrong) {
		printf("not ok %d - %s: %lu of %lu files read short (first: %s %ld of %ld)\n",
		       ++kb_tap, what, wrong, kb_nr, kb_files[first].name,
		       kb_files[first].ret[1], kb_files[first].size);
		kb_bad++;
		return -1;
	}
	return 0;
}

static double kb_plain(void)
{
	double t = kb_now();
	unsigned long i;

	for (i = 0; i < kb_nr; i++) {
		struct kb_file *f = &kb_files[i];
		int fd = open(f->name, O_RDONLY);

		f->ret[1] = fd < 0 ? -errno : read(fd, f->data, KB_BUF);
		if (fd >= 0)
			close(fd);
	}
	return kb_now() - t;
}

static void kb_build(struct kb_file *f, unsigned long nr_open,
		     unsigned long nr_read, unsigned long nr_close)
{
	struct syslet_uatom *a = f->a;

	memset(a, 0, sizeof(f->a));
	f->path = (unsigned long)f->name;
	f->flags = O_RDONLY;
	f->buf = (unsigned long)f->data;
	f->len = KB_BUF;
	f->ret[0] = f->ret[1] = f->ret[2] = -1;
	a[0].nr = nr_open;
	a[0].flags = SYSLET_STOP_ON_NEGATIVE;
	a[0].ret_ptr = (long *)&f->fd;
	a[0].next = &a[1];
	a[0].arg_ptr[0] = &f->path;
	a[0].arg_ptr[1] = &f->flags;
	a[1].nr = nr_read;
	a[1].ret_ptr = &f->ret[1];
	a[1].next = &a[2];
	a[1].arg_ptr[0] = &f->fd;
	a[1].arg_ptr[1] = &f->buf;
	a[1].arg_ptr[2] = &f->len;
	a[2].nr = nr_close;
	a[2].ret_ptr = &f->ret[2];
	a[2].arg_ptr[0] = &f->fd;
}

/* All files in flight at once; the ring has room for every one. */
static double kb_syslets(unsigned long *went_async)
{
	struct async_head_user ahu = { kb_ring, kb_nr * sizeof(*kb_ring),
				       -1UL };
	unsigned long i, pending = 0, head = 0;
	double t;

	memset(kb_ring, 0, kb_nr * sizeof(*kb_ring));
	for (i = 0; i < kb_nr; i++)
		kb_build(&kb_files[i], __NR_open, __NR_read, __NR_close);
	if (sys_async_register(&ahu, sizeof(ahu)))
		return -1;
	t = kb_now();
	for (i = 0; i < kb_nr; i++) {
		errno = 0;
		if (!sys_async_exec(kb_files[i].a)) {
			if (errno)
				return -1;
			pending++;
		}
	}
	*went_async = pending;
	while (pending) {
		while (pending && kb_ring[head]) {
			__atomic_store_n(&kb_ring[head], NULL,
					 __ATOMIC_RELEASE);
			head = (head + 1) % kb_nr;
			pending--;
		}
		if (pending)
			sys_async_wait(1);
	}
	t = kb_now() - t;
	sys_async_unregister(&ahu, sizeof(ahu));
	return t;
}

/* ROUNDS of each, alternating; the best of each. */
static void kb_compare(const char *mode, int cold, int rounds)
{
	double best_p = 1e9, best_s = 1e9, t;
	unsigned long async = 0, a;

	for (int r = 0; r < rounds; r++) {
		if (cold && kb_drop())
			goto no_drop;
		t = kb_plain();
		if (kb_check("plain loop"))
			return;
		if (t < best_p)
			best_p = t;
		if (cold && kb_drop())
			goto no_drop;
		t = kb_syslets(&a);
		if (t < 0) {
			printf("not ok %d - %s: syslets: %s\n", ++kb_tap, mode,
			       strerror(errno));
			kb_bad++;
			return;
		}
		if (kb_check("syslets"))
			return;
		async += a;
		if (t < best_s)
			best_s = t;
	}
	printf("ok %d - %s: %lu files read in full both ways, %d rounds\n",
	       ++kb_tap, mode, kb_nr, rounds);
	printf("# bench: %s: plain %.2f ms, syslets %.2f ms, ratio %.2fx "
	       "(%.0f of %lu syslets went async per round)\n",
	       mode, best_p * 1e3, best_s * 1e3, best_p / best_s,
	       (double)async / rounds, kb_nr);
	return;
no_drop:
	printf("ok %d - %s # SKIP cannot drop the page cache: %s\n", ++kb_tap,
	       mode, strerror(errno));
}

/*
 * The cost of one atom: a chain of KB_CHAIN getppid atoms run
 * KB_LAPS times against as many bare getppid calls, best of ROUNDS.
 * The difference per call is what the kernel engine adds to a syscall
 * (fetching the atom and its arguments, storing the result, the stop
 * test), less the syscall entry that the atom does not make.
 */
#define KB_CHAIN	1000
#define KB_LAPS		20

static void kb_atoms(int rounds)
{
	static struct syslet_uatom chain[KB_CHAIN], *ring[1];
	struct async_head_user ahu = { ring, sizeof(ring), -1UL };
	double best_a = 1e9, best_b = 1e9, t;
	long ret, calls = (long)KB_CHAIN * KB_LAPS;
	int ok = 1;

	for (int i = 0; i < KB_CHAIN; i++) {
		chain[i].nr = __NR_getppid;
		chain[i].ret_ptr = &ret;
		chain[i].next = i + 1 < KB_CHAIN ? &chain[i + 1] : NULL;
	}
	if (sys_async_register(&ahu, sizeof(ahu))) {
		printf("not ok %d - atom cost: register: %s\n", ++kb_tap,
		       strerror(errno));
		kb_bad++;
		return;
	}
	for (int r = 0; r < rounds; r++) {
		t = kb_now();
		for (long i = 0; i < calls; i++)
			syscall(__NR_getppid);
		t = kb_now() - t;
		if (t < best_b)
			best_b = t;
		t = kb_now();
		for (int l = 0; l < KB_LAPS; l++) {
			ret = -1;
			ok &= sys_async_exec(chain) == &chain[KB_CHAIN - 1] &&
			      ret == getppid();
		}
		t = kb_now() - t;
		if (t < best_a)
			best_a = t;
	}
	sys_async_unregister(&ahu, sizeof(ahu));
	printf("%sok %d - atom cost: every chain of %d getppid atoms ran to its end\n",
	       ok ? "" : "not ", ++kb_tap, KB_CHAIN);
	kb_bad += !ok;
	printf("# bench: getppid atom %.0f ns, bare getppid %.0f ns, "
	       "atom/bare %.2f\n", best_a / calls * 1e9, best_b / calls * 1e9,
	       best_a / best_b);
}

int main(int argc, char **argv)
{
	char path[256];
	struct stat st;
	int rounds;

	if (argc != 5) {
		fprintf(stderr, "usage: kbench DEVICE MOUNTPOINT DIR ROUNDS\n");
		return 2;
	}
	kb_dev = argv[1];
	kb_mnt = argv[2];
	rounds = atoi(argv[4]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (syslet_backend_init()) {
		printf("1..0 # SKIP no kernel backend: %s\n",
		       syslet_backend_error());
		return 77;
	}
	mkdir(kb_mnt, 0755);
	if (mount(kb_dev, kb_mnt, "ext2", MS_RDONLY, NULL)) {
		printf("1..0 # SKIP mount %s: %s\n", kb_dev, strerror(errno));
		return 77;
	}
	for (kb_nr = 0;; kb_nr++) {
		snprintf(path, sizeof(path), "%s/%s/%04lu", kb_mnt, argv[3],
			 kb_nr);
		if (stat(path, &st))
			break;
	}
	kb_files = calloc(kb_nr + 1, sizeof(*kb_files));
	kb_ring = calloc(kb_nr + 1, sizeof(*kb_ring));
	if (!kb_nr || !kb_files || !kb_ring) {
		printf("1..0 # SKIP no files in %s/%s\n", kb_mnt, argv[3]);
		return 77;
	}
	for (unsigned long i = 0; i < kb_nr; i++) {
		snprintf(kb_files[i].name, sizeof(kb_files[i].name),
			 "%s/%s/%04lu", kb_mnt, argv[3], i);
		stat(kb_files[i].name, &st);
		kb_files[i].size = st.st_size;
	}
	printf("# bench: %lu files on %s (ext2, virtio), backend %s\n", kb_nr,
	       kb_dev, syslet_backend_name());
	kb_clock();
	kb_atoms(rounds);
	kb_plain();	/* warm the cache */
	kb_compare("cached", 0, rounds);
	kb_compare("uncached", 1, rounds > 3 ? 3 : rounds);
	umount(kb_mnt);
	printf("1..%d\n", kb_tap);
	return kb_bad ? 1 : 0;
}
