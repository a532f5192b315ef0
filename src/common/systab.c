/* systab.c: lookups over the generated syscall and errno tables. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "systab.h"
#include "../include/syslet.h"

extern const struct systab_entry systab_x86_64[], systab_i386[],
	systab_i386_2007[];
extern const unsigned int systab_x86_64_len, systab_i386_len,
	systab_i386_2007_len;
extern const unsigned short systab_x86_64_hash[], systab_i386_hash[],
	systab_i386_2007_hash[];
extern const struct errno_entry errno_table[];
extern const unsigned int errno_table_len;

static const char *const call_names[SYSLET_NR_CALLS] = {
	"async_register", "async_exec", "async_wait", "async_unregister",
	"umem_add",
};

static const char *const profile_names[SYSTAB_NR_PROFILES] = {
	[SYSTAB_I386_2007] = "i386-2007",
	[SYSTAB_I386] = "i386",
	[SYSTAB_X86_64] = "x86_64",
};

const char *systab_profile_name(enum systab_profile p)
{
	return (unsigned)p < SYSTAB_NR_PROFILES ? profile_names[p] : "?";
}

int systab_profile_parse(const char *name)
{
	for (int i = 0; i < SYSTAB_NR_PROFILES; i++)
		if (!strcmp(name, profile_names[i]))
			return i;
	return -1;
}

unsigned int systab_word_size(enum systab_profile p)
{
	return p == SYSTAB_X86_64 ? 8 : 4;
}

enum systab_profile systab_native_profile(void)
{
	return sizeof(long) == 8 ? SYSTAB_X86_64 : SYSTAB_I386;
}

const struct systab_entry *systab_entries(enum systab_profile p,
					  unsigned int *n)
{
	switch (p) {
	case SYSTAB_I386_2007:
		*n = systab_i386_2007_len;
		return systab_i386_2007;
	case SYSTAB_I386:
		*n = systab_i386_len;
		return systab_i386;
	default:
		*n = systab_x86_64_len;
		return systab_x86_64;
	}
}

static long call_base(enum systab_profile p)
{
	return p == SYSTAB_I386_2007 ? SYSLET_NR_BASE_2007 : SYSLET_NR_BASE;
}

long systab_syslet_nr(enum systab_profile p, int call)
{
	if (call < 0 || call >= SYSLET_NR_CALLS)
		return -1;
	return call_base(p) + call;
}

int systab_syslet_call(enum systab_profile p, long nr)
{
	long base = call_base(p);

	/* nr comes from an image word: compare before subtracting, which
	 * would overflow for numbers near LONG_MIN. */
	if (nr < base || nr >= base + SYSLET_NR_CALLS)
		return -1;
	return (int)(nr - base);
}

/* The table's hash of names (gen-tables.sh). */
static const unsigned short *systab_hash(enum systab_profile p)
{
	switch (p) {
	case SYSTAB_I386_2007:
		return systab_i386_2007_hash;
	case SYSTAB_I386:
		return systab_i386_hash;
	default:
		return systab_x86_64_hash;
	}
}

/* gen-tables.sh's hash, in awk: keep the two the same (h * 31 + each
 * byte, modulo 2^16, taken once at the end: the low 16 bits of a sum and
 * product depend on the low 16 bits of their terms alone), two bytes a
 * step (31 * 31 = 961), and the name's length, found on the way. */
static unsigned int name_hash(const char *name, size_t *len)
{
	const unsigned char *c = (const unsigned char *)name;
	unsigned int h = 0;

	while (c[0] && c[1]) {
		h = h * 961 + c[0] * 31u + c[1];
		c += 2;
	}
	if (c[0])
		h = h * 31 + *c++;
	*len = (size_t)((const char *)c - name);
	return h & 0xffff;
}

/* Whether the 8 (4) bytes at @a and @b are the same. */
static inline bool word8_eq(const char *a, const char *b)
{
	uint64_t x, y;

	memcpy(&x, a, sizeof(x));
	memcpy(&y, b, sizeof(y));
	return x == y;
}

static inline bool word4_eq(const char *a, const char *b)
{
	uint32_t x, y;

	memcpy(&x, a, sizeof(x));
	memcpy(&y, b, sizeof(y));
	return x == y;
}

/*
 * Whether the entry's name is @name, whose length is @len: its NUL where
 * @name's is, then the bytes before it a word at a time, the last word
 * ending at the NUL (it may overlap the one before).  Only the @len
 * bytes of @name are read.  A byte at a time, and the hash before it,
 * made 210 instructions a lookup (140 now), about 300 of them as the engine
 * builds its tables at every start.
 */
static bool name_is(const char *entry, const char *name, size_t len)
{
	size_t i;

	if (len >= SYSTAB_NAME_MAX || entry[len])
		return false;
	if (len >= 8) {
		for (i = 0; i + 8 < len; i += 8)
			if (!word8_eq(entry + i, name + i))
				return false;
		return word8_eq(entry + len - 8, name + len - 8);
	}
	if (len >= 4)
		return word4_eq(entry, name) &&
		       word4_eq(entry + len - 4, name + len - 4);
	for (i = 0; i < len; i++)
		if (entry[i] != name[i])
			return false;
	return true;
}

/* Names are a few bytes: compared in place, where a call to libc's
 * strcmp() (through the PLT, its vector code set up) cost more than
 * the comparison itself. */
static bool name_eq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

int systab_lookup(enum systab_profile p, const char *name)
{
	unsigned int n;
	const struct systab_entry *t = systab_entries(p, &n);
	const unsigned short *hash = systab_hash(p);
	size_t len;

	/*
	 * A hash: the runtime looks up about 300 names as it starts (its
	 * policy tables).  A scan made a tenth of a process's start-up; a
	 * binary search with a strcmp() at each step, and against each
	 * syslet call first, 3,900 calls and 29% of the user time of a
	 * one-file syslet-run --each (perf samples); compared in place,
	 * still 20%, in loads of the ~9 entries each search touched, cold
	 * in a new process.  The syslet calls are in no table
	 * (gen-tables.sh): they are looked for when the table has not the
	 * name, as the rarer.
	 */
	for (unsigned int i = name_hash(name, &len) & (SYSTAB_HASH_SIZE - 1);
	     hash[i]; i = (i + 1) & (SYSTAB_HASH_SIZE - 1))
		if (hash[i] <= n && name_is(t[hash[i] - 1].name, name, len))
			return t[hash[i] - 1].nr;
	for (int i = 0; i < SYSLET_NR_CALLS; i++)
		if (name_eq(name, call_names[i]))
			return (int)systab_syslet_nr(p, i);
	return -1;
}

const char *systab_name(enum systab_profile p, long nr)
{
	unsigned int n;
	const struct systab_entry *t = systab_entries(p, &n);
	int call = systab_syslet_call(p, nr);
	unsigned int lo = 0, hi = n;

	if (call >= 0)
		return call_names[call];
	/* The generated tables are sorted by number. */
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (t[mid].nr == nr)
			return t[mid].name;
		if (t[mid].nr < nr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

long systab_nr_syscalls(enum systab_profile p)
{
	return call_base(p) + SYSLET_NR_CALLS;
}

/*
 * The deny list (DESIGN section 4), shared by the compiler, the image
 * checker and every backend; the kernel patch keeps the same list.
 */
static const char *const denied_names[] = {
	/* Process creation and exit, exec, return from a handler. */
	"fork", "vfork", "clone", "clone3", "execve", "execveat", "exit",
	"exit_group", "sigreturn", "rt_sigreturn",
	/* The async calls themselves. */
	"async_register", "async_exec", "async_wait", "async_unregister",
	/* Per-task state whose target is ambiguous once a syslet has been
	 * handed to another thread: credentials, filters, namespaces. */
	"seccomp", "setuid", "setgid", "setreuid", "setregid", "setresuid",
	"setresgid", "setfsuid", "setfsgid", "setgroups", "setuid32",
	"setgid32", "setreuid32", "setregid32", "setresuid32", "setresgid32",
	"setfsuid32", "setfsgid32", "setgroups32", "capset", "unshare",
	"setns", "landlock_restrict_self", "set_tid_address",
	"set_robust_list", "rseq", "sigaltstack",
	/* A thread's I/O port permissions: after a hand-off, the pool
	 * thread's, which carries them to the next program it runs. */
	"ioperm", "iopl",
	/* The runtime's own thread pointer and machine state. */
	"arch_prctl", "set_thread_area", "vm86", "vm86old",
};

/*
 * prctl()'s operations (<linux/prctl.h>) that change the security state
 * of the calling thread alone, as the calls above do: once a syslet
 * went to another thread they would give that thread, not the program,
 * a seccomp filter, no_new_privs, fewer capabilities, securebits, a
 * speculation control or syscall user dispatch, and the program would
 * go on believing it had them.
 */
static const unsigned long denied_prctl[] = {
	8,	/* PR_SET_KEEPCAPS */
	22,	/* PR_SET_SECCOMP */
	24,	/* PR_CAPBSET_DROP */
	28,	/* PR_SET_SECUREBITS */
	38,	/* PR_SET_NO_NEW_PRIVS */
	47,	/* PR_CAP_AMBIENT */
	53,	/* PR_SET_SPECULATION_CTRL */
	59,	/* PR_SET_SYSCALL_USER_DISPATCH */
};

bool systab_denied_name(const char *name)
{
	for (size_t i = 0; i < sizeof(denied_names) / sizeof(denied_names[0]);
	     i++)
		if (name[0] == denied_names[i][0] &&
		    !strcmp(name, denied_names[i]))
			return true;
	return false;
}

const char *systab_denied_nth(size_t i)
{
	return i < sizeof(denied_names) / sizeof(denied_names[0]) ?
	       denied_names[i] : NULL;
}

bool systab_denied(enum systab_profile p, long nr)
{
	const char *name = systab_name(p, nr);

	return name && systab_denied_name(name);
}

/* close_range()'s flag that gives the calling thread a descriptor table
 * of its own, as unshare(CLONE_FILES) does: after a hand-off the thread
 * that ran the atom, and the descriptors later syslets open there, would
 * no longer be the program's. */
#define SYSTAB_CLOSE_RANGE_UNSHARE	(1U << 1)

int systab_denied_arg_index(const char *name)
{
	if (!strcmp(name, "prctl"))
		return 0;
	if (!strcmp(name, "close_range"))
		return 2;
	return -1;
}

bool systab_denied_arg_name(const char *name, unsigned int i, unsigned long v)
{
	if (i == 2 && !strcmp(name, "close_range"))
		return ((unsigned int)v & SYSTAB_CLOSE_RANGE_UNSHARE) != 0;
	if (i != 0 || strcmp(name, "prctl"))
		return false;
	/* prctl's option is an int: the kernel drops the upper half of
	 * the register (PR_SET_NO_NEW_PRIVS | 1UL << 32 is
	 * PR_SET_NO_NEW_PRIVS). */
	for (size_t j = 0; j < sizeof(denied_prctl) / sizeof(denied_prctl[0]);
	     j++)
		if ((unsigned int)v == denied_prctl[j])
			return true;
	return false;
}

bool systab_denied_arg0_name(const char *name, unsigned long arg0)
{
	return systab_denied_arg_name(name, 0, arg0);
}

bool systab_denied_args(enum systab_profile p, long nr,
			const unsigned long *args, unsigned int nargs)
{
	const char *name = systab_name(p, nr);

	if (!name)
		return false;
	if (systab_denied_name(name))
		return true;
	/* The arguments not fetched are 0, which no rule denies. */
	for (unsigned int i = 0; i < nargs && i < 6; i++)
		if (systab_denied_arg_name(name, i, args[i]))
			return true;
	return false;
}

unsigned int systab_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned int row[SYSTAB_EDIT_MAX + 1];

	if (la > SYSTAB_EDIT_MAX || lb > SYSTAB_EDIT_MAX)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		row[j] = (unsigned int)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned int diag = row[0], tmp;

		row[0] = (unsigned int)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned int best = diag + (a[i - 1] != b[j - 1]);

			tmp = row[j];
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = tmp;
		}
	}
	return row[lb];
}

/*
 * Names a C programmer knows from libc, whose call the kernel spells
 * otherwise: the nearest spelling would mislead (waitid for waitpid,
 * read for pread, fstat for fstatat).  Each maps to the kernel's calls
 * that do its work, in order of preference; the first the profile has
 * is suggested.
 */
static const struct {
	const char	*libc;
	const char	*kernel[3];
} libc_names[] = {
	{ "waitpid", { "wait4" } },	{ "wait", { "wait4" } },
	{ "pread", { "pread64" } },	{ "pwrite", { "pwrite64" } },
	{ "sigprocmask", { "rt_sigprocmask" } },
	{ "sigaction", { "rt_sigaction" } },
	{ "signal", { "rt_sigaction" } },
	{ "sigsuspend", { "rt_sigsuspend" } },
	{ "fstatat", { "newfstatat", "fstatat64" } },
	{ "stat64", { "stat64", "newfstatat" } },
	{ "lseek64", { "_llseek", "lseek" } },
	{ "sleep", { "clock_nanosleep", "nanosleep" } },
	{ "usleep", { "clock_nanosleep", "nanosleep" } },
	/* i386 before Linux 4.3, the i386-2007 profile's, reached the
	 * socket calls only through socketcall(): the nearest spelling
	 * (mbind for bind) would mislead. */
	{ "accept", { "accept4", "socketcall" } },
	{ "socket", { "socketcall" } },	{ "bind", { "socketcall" } },
	{ "connect", { "socketcall" } },	{ "listen", { "socketcall" } },
	{ "accept4", { "socketcall" } },
	{ "getsockname", { "socketcall" } },
	{ "getpeername", { "socketcall" } },
	{ "socketpair", { "socketcall" } },
	{ "send", { "sendto", "socketcall" } },
	{ "recv", { "recvfrom", "socketcall" } },
	{ "sendto", { "socketcall" } },	{ "recvfrom", { "socketcall" } },
	{ "shutdown", { "socketcall" } },
	{ "setsockopt", { "socketcall" } },
	{ "getsockopt", { "socketcall" } },
	{ "sendmsg", { "socketcall" } },	{ "recvmsg", { "socketcall" } },
	{ "getdents", { "getdents64" } },
	{ "epoll_create", { "epoll_create1" } },
};

const char *systab_suggest(enum systab_profile p, const char *name)
{
	unsigned int n, best = 3;
	const struct systab_entry *t = systab_entries(p, &n);
	const char *found = NULL;

	for (size_t i = 0; i < sizeof(libc_names) / sizeof(libc_names[0]);
	     i++) {
		if (strcmp(name, libc_names[i].libc))
			continue;
		for (int k = 0; k < 3 && libc_names[i].kernel[k]; k++)
			if (systab_lookup(p, libc_names[i].kernel[k]) >= 0)
				return libc_names[i].kernel[k];
	}

	/* Two edits at most: a swapped pair of letters costs two here. */
	for (unsigned int i = 0; i < n; i++) {
		unsigned int d = systab_edit_distance(name, t[i].name);

		if (d < best) {
			best = d;
			found = t[i].name;
		}
	}
	for (int i = 0; i < SYSLET_NR_CALLS; i++) {
		unsigned int d = systab_edit_distance(name, call_names[i]);

		if (d < best) {
			best = d;
			found = call_names[i];
		}
	}
	return found;
}

const char *errno_name(int err)
{
	for (unsigned int i = 0; i < errno_table_len; i++)
		if (errno_table[i].nr == err)
			return errno_table[i].name;
	return NULL;
}

int errno_lookup(const char *name)
{
	for (unsigned int i = 0; i < errno_table_len; i++)
		if (!strcmp(errno_table[i].name, name))
			return errno_table[i].nr;
	return -1;
}
