/* libsyslet.h: the syslet calls under the seeds' names, backend choice, and the image API. */
#ifndef LIBSYSLET_H
#define LIBSYSLET_H

/*
 * Code written for the 2007 kernel builds against this header with only
 * its includes changed: the five calls keep their names and return
 * conventions, whichever backend (kernel or the user-space engine) runs
 * them.  The rest follows the conventions of libsyslet(3): names
 * syslet_OBJECT__VERB for what acts on an object of the library (obj,
 * inst, ring), as in libbpf, syslet_WORDS for library-wide functions;
 * int returns 0 or -errno, pointers NULL with errno set.
 *
 * Sections of this header are owned by different parts of libsyslet:
 * keep additions inside the matching section.
 */

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include <syslet.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Everything declared here is the library's interface; the rest of its
 * symbols are hidden (-fvisibility=hidden and libsyslet.map). */
#pragma GCC visibility push(default)

/*
 * Structs that the library fills or the caller passes start with
 * `size_t sz`, the caller's sizeof, so that fields can be added at their
 * end without breaking programs built against an older header (libbpf's
 * opts).  A smaller sz, an older caller: the library fills the fields it
 * holds and writes nothing past them.  A larger sz, a newer caller: taken
 * when the bytes past the library's struct are zero, -EINVAL (or NULL
 * with errno EINVAL) when not, and when sz is not set.  Declare them with
 * SYSLET_OPTS, which sets sz and zeroes the rest (libsyslet(3)):
 *
 *	SYSLET_OPTS(syslet_stats, st);
 *	SYSLET_OPTS(syslet_ring, ring);
 *
 * A struct the library hands to a callback carries the library's size:
 * SYSLET_HAS(ev, field) tells whether it holds that field.
 */
/*
 * SYSLET_OPTS(TYPE, NAME) or SYSLET_OPTS(TYPE, NAME, .field = v, ...):
 * picked by the number of arguments, so that the form without fields
 * never leaves a macro's "..." empty, which ISO C99 and C++11 forbid
 * (gcc and clang -pedantic), while the forms with fields, a trailing
 * comma included, expand as they always did.  Up to 62 words of fields
 * (each comma counts, those inside braces too).  C++ has designated
 * initializers only from C++20, and g++ -Wextra warns of each field a
 * brace list leaves out, so there TYPE{} zeroes the struct (TYPE{ .f = v }
 * from C++20) and a helper sets sz.
 */
#define SYSLET_OPTS(...)						\
	SYSLET__OPTS_PICK(__VA_ARGS__,					\
		SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F,	\
		SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F,	\
		SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F,	\
		SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F,	\
		SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F,	\
		SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F,	\
		SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F,	\
		SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F,	\
		SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F,	\
		SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F,	\
		SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F,	\
		SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F,	\
		SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F,	\
		SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F,	\
		SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_F,	\
		SYSLET__OPTS_F, SYSLET__OPTS_F, SYSLET__OPTS_2, SYSLET__OPTS_2,	\
		~)(__VA_ARGS__)
#define SYSLET__OPTS_PICK(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10,	\
	_11, _12, _13, _14, _15, _16, _17, _18, _19, _20,	\
	_21, _22, _23, _24, _25, _26, _27, _28, _29, _30,	\
	_31, _32, _33, _34, _35, _36, _37, _38, _39, _40,	\
	_41, _42, _43, _44, _45, _46, _47, _48, _49, _50,	\
	_51, _52, _53, _54, _55, _56, _57, _58, _59, _60,	\
	_61, _62, _63, _64, M, ...) M
#ifdef __cplusplus
#define SYSLET__OPTS_2(TYPE, NAME)					\
	struct TYPE NAME = syslet__opts(TYPE{})
#define SYSLET__OPTS_F(TYPE, NAME, ...)					\
	struct TYPE NAME = syslet__opts(TYPE{ __VA_ARGS__ })
#else
#define SYSLET__OPTS_2(TYPE, NAME)					\
	struct TYPE NAME = { .sz = sizeof(struct TYPE) }
#define SYSLET__OPTS_F(TYPE, NAME, ...)					\
	struct TYPE NAME = { .sz = sizeof(struct TYPE), __VA_ARGS__ }
#endif
#define SYSLET_HAS(PTR, FIELD)						\
	(offsetof(__typeof__(*(PTR)), FIELD) + sizeof((PTR)->FIELD) <=	\
	 (PTR)->sz)

/* ---- The ABI calls (src/lib/calls.c) ----------------------------------
 * Return conventions of the seeds, as by syscall(2) on the 2007 kernel:
 * async_register, async_wait and async_unregister return 0, or -1 with
 * errno set.  async_exec returns the last atom run when the syslet
 * completed without blocking (nothing is queued then), or NULL: with
 * errno 0 when it went async (its last atom will appear in the ring),
 * with errno set on error (EINVAL: not registered, EFAULT: an atom or an
 * argument pointer could not be read).  umem_add returns the kernel's
 * raw value: the new value of *uptr (the old one for inc == 0), or
 * -EFAULT (errno EFAULT too) for a bad pointer.
 * Heads are per thread, as in the kernel: each thread registers its own. */
long sys_async_register(struct async_head_user *ahu, unsigned long len);
struct syslet_uatom *sys_async_exec(struct syslet_uatom *atom);
long sys_async_wait(unsigned long min_wait_events);
long sys_async_unregister(struct async_head_user *ahu, unsigned long len);
long sys_umem_add(unsigned long *uptr, unsigned long inc);

/* sys_async_exec() of @atoms[0..@n), one after the other, as @n calls
 * would run them, for the price of one: the user-space backends check
 * their fault handler and hold signals back once for the batch.
 * done[i] is what async_exec returned for atoms[i], errs[i] its errno (0
 * when it returned its last atom or went async).  Returns how many were
 * run: fewer than @n when a signal the caller takes ended one (its
 * handler runs as this returns; call again for the rest); -errno when
 * none could be (-EINVAL: no ring registered).  See sys_async_exec(3). */
long syslet_exec_batch(struct syslet_uatom *const *atoms, size_t n,
		       struct syslet_uatom **done, int *errs);

/* Number to put in atom->nr for a syslet call (enum syslet_call) under the
 * selected backend and profile; -ENOSYS when the call has no number
 * there, -EINVAL for a value that is no syslet call. */
long syslet_sysno(enum syslet_call call);

/* ---- Backends (src/lib/backend.c) -------------------------------------
 * Chosen once, on first use, by $SYSLET_BACKEND=auto|kernel|uring|emul
 * (auto: the kernel when a patched kernel answers discovery, else uring
 * when io_uring can be set up, else emul), or by
 * syslet_set_backend() before the first call (later: allowed while no
 * head is registered, else -EBUSY).  Returns 0 or -errno: -EINVAL for an
 * unknown name, the probe's error (-ENOSYS: no patched kernel) when the
 * named backend cannot run here. */
int syslet_set_backend(const char *name);
/* Whether syslet_set_backend(name) would succeed, the registered rings
 * aside, without changing the backend in use: 0 or -errno, with the
 * message in syslet_backend_error() on failure. */
int syslet_backend_check(const char *name);
/* Name of the backend in use ("emul", "kernel"), choosing it now if not
 * yet done; NULL with errno set when the choice failed (see
 * syslet_backend_init()). */
const char *syslet_backend_name(void);
/* Make the choice now (from $SYSLET_BACKEND unless set), so that a runner
 * can report a bad name before running anything: 0 or -errno, with a
 * message for the user in syslet_backend_error() on failure. */
int syslet_backend_init(void);
const char *syslet_backend_error(void);
/* NULL-terminated list of the backend names syslet_set_backend() takes. */
const char *const *syslet_backend_list(void);

/*
 * ABI profile the atoms use (systab names: "x86_64", "i386", "i386-2007";
 * default: the library's native one).  The emul engine runs the profile of
 * its own word size only: i386-2007 (async calls at 320..324, nothing
 * from 325 up) needs a -m32 build.  Returns 0, -EINVAL (unknown name) or
 * -ENOTSUP (not runnable by this build and backend).
 */
int syslet_set_profile(const char *name);
const char *syslet_profile_name(void);

/* ---- The completion ring (src/lib/ring.c) -----------------------------
 * liburing-like helpers so that clients need not hand-roll ring indices.
 * The engine fills slots in order from index 0 and wraps; a client pops
 * them in the same order and clears each slot it took. */
struct syslet_ring {
	size_t			sz;	/* sizeof(struct syslet_ring) */
	struct async_head_user	head;	/* what is registered */
	struct syslet_uatom	**slots;
	unsigned long		entries;
	unsigned long		head_idx;	/* next slot to pop */
	int			registered;
};

/* Allocate a ring of @entries slots and register it for this thread with
 * @max_threads workers (-1UL: the default pool).  ring->sz must be set
 * (SYSLET_OPTS); the rest is the library's.  0 or -errno. */
int syslet_ring__init(struct syslet_ring *ring, unsigned long entries,
		      unsigned long max_threads);
/* Unregister (waits for busy workers, as the kernel does) and free. */
void syslet_ring__exit(struct syslet_ring *ring);
/* The next completed atom, or NULL with errno EAGAIN when its slot is
 * still empty; peek leaves it in place, pop clears the slot (so the
 * engine may refill it) and advances. */
struct syslet_uatom *syslet_ring__peek(const struct syslet_ring *ring);
struct syslet_uatom *syslet_ring__pop(struct syslet_ring *ring);
/* Wait for @n completions (sys_async_wait), then pop one: the atom, or
 * NULL with errno ECHILD when nothing is busy and the ring is empty
 * (nothing will come), or with sys_async_wait()'s errno. */
struct syslet_uatom *syslet_ring__wait_pop(struct syslet_ring *ring,
					   unsigned long n);

/* ---- The engine's observers (emul backend; src/lib/observe.c) ---------
 * Per-atom trace events (syslet-run --trace), statistics (--stats) and
 * single-stepping (syslet-run -i).  Events come from the emul engine;
 * with the kernel backend only syslet_step() (which always runs in the
 * engine) produces them. */

/* Where an atom ran. */
enum syslet_where {
	SYSLET_WHERE_INLINE	= 0,	/* the calling thread, in async_exec */
	SYSLET_WHERE_CACHEMISS	= 1,	/* a cachemiss worker thread */
	SYSLET_WHERE_STEP	= 2,	/* syslet_step() */
};

/* Why the chain ended after this atom (SYSLET_END_NONE: it goes on). */
enum syslet_end {
	SYSLET_END_NONE		= 0,	/* next atom taken */
	SYSLET_END_NEXT		= 1,	/* next was NULL */
	SYSLET_END_STOP		= 2,	/* stop test true, no SKIP */
	SYSLET_END_SIGNAL	= 3,	/* a signal arrived during the atom */
	SYSLET_END_FAULT	= 4,	/* atom or argument unreadable */
	/* Only with SYSLET_TRACE_UNFINISHED: the syslet goes async at this
	 * atom, which has not run yet (ret is 0, next NULL); the event with
	 * its result, handoff set, comes later, from where it ran. */
	SYSLET_END_UNFINISHED	= 5,
};

struct syslet_event {
	size_t			sz;	/* sizeof(struct syslet_event) */
	struct syslet_uatom	*atom;	/* the atom run (or that faulted) */
	unsigned long		flags;	/* as fetched */
	unsigned long		nr;
	unsigned long		args[6];	/* fetched values, rest 0 */
	unsigned int		nargs;		/* args fetched (first NULL) */
	enum syslet_where	where;
	enum syslet_end		end;
	long			ret;	/* the result the stop test saw */
	int			ret_stored;	/* written to *ret_ptr */
	int			handoff;	/* moved to a worker at this atom */
	struct syslet_uatom	*next;	/* next atom taken, NULL: end */
	int			tid;	/* gettid() of the running thread */
	unsigned long long	seq;	/* global event number, from 1 */
	int			injected;	/* ret was injected, the call
						   not made (syslet_set_inject) */
};

/* Called after every atom (and for a fault before one) from the thread
 * that ran it, workers included: serialise inside if needed.  NULL turns
 * tracing off.  Cost when off: one load per atom. */
typedef void (*syslet_trace_fn)(const struct syslet_event *ev, void *ctx);
/* 0, or -ENOTSUP when the backend in use runs atoms out of the callback's
 * sight (kernel: only syslet_step() reports); fn is installed either way. */
int syslet_set_trace(syslet_trace_fn fn, void *ctx);
/* What the callback sees besides one event per atom run: with
 * SYSLET_TRACE_UNFINISHED, also an event (end SYSLET_END_UNFINISHED)
 * when a syslet goes async at an atom, before that atom runs elsewhere,
 * as strace shows a call that blocks.  0 or -EINVAL (unknown flags). */
#define SYSLET_TRACE_UNFINISHED	0x1u
int syslet_set_trace_flags(unsigned int flags);

struct syslet_stats {
	size_t			sz;		/* sizeof(struct syslet_stats) */
	unsigned long long	execs;		/* async_exec calls */
	unsigned long long	atoms;		/* atoms run */
	unsigned long long	syscalls;	/* atoms that issued a syscall */
	unsigned long long	umem_adds;	/* umem_add atoms (inline) */
	unsigned long long	inline_atoms;	/* in the calling thread */
	unsigned long long	cachemiss_atoms; /* in workers */
	unsigned long long	handoffs;	/* syslets moved to a worker */
	unsigned long long	completions;	/* atoms put in the ring */
	unsigned long long	deferred;	/* found their slot full */
	unsigned long long	dropped;	/* still queued at unregister */
	unsigned long long	faults;		/* -EFAULT on atom/arg fetch */
	unsigned long long	signal_stops;	/* chains ended by a signal */
	unsigned long long	denied;		/* refused syscalls */
	unsigned long long	threads;	/* workers created */
	/* Last, so that a caller built before them keeps working (sz). */
	unsigned long long	uring_atoms;	/* of cachemiss: by io_uring */
	unsigned long long	uring_worker_atoms; /* ...: its workers */
};

/* ---- System calls by number (src/lib/decode.c) -------------------------
 * In the native numbering, as struct syslet_event and the atoms have
 * them. */
/* "open"; NULL with errno ENOENT (a number the table does not name) or
 * ERANGE (past it).  The syslet calls' numbers: syslet_sysno(). */
const char *syslet_syscall_name(long nr);
/* The table's size: numbers 0 to this - 1. */
long syslet_syscall_count(void);
/* The number of a call by name (the syslet calls' by the native
 * profile), or -ENOENT. */
long syslet_syscall_number(const char *name);
/* The known name closest to a misspelt one, for "did you mean", or NULL
 * with errno ENOENT when none is close. */
const char *syslet_syscall_suggest(const char *name);
/* 1 when atoms may not make call nr (syslet(7), the deny list), 0 when
 * they may, -ERANGE past the table. */
int syslet_syscall_denied(long nr);
/* "ENOENT" for 2; NULL with errno ENOENT when unknown. */
const char *syslet_errno_name(int err);
/* 2 for "ENOENT"; -ENOENT when unknown. */
int syslet_errno_number(const char *name);
/* Print the call ev describes as strace would, "open("f", O_RDONLY)":
 * strings and flags by name where known, buffers with what the result
 * says was read, hex for the rest; memory is read so that a bad pointer
 * prints as hex.  A call that blocks may be shown in parts, as strace
 * shows one: ENTER "read(3, ", then CONT "\"abc\", 16)" when nothing came
 * between, else EXIT "<... read resumed>\"abc\", 16)".  0, -EINVAL
 * (ev->sz not set, no such part) or -EIO. */
enum syslet_print_part {
	SYSLET_PRINT_WHOLE,	/* "read(3, \"abc\", 16)" */
	SYSLET_PRINT_ENTER,	/* up to the first argument it writes */
	SYSLET_PRINT_CONT,	/* the rest, on the same line */
	SYSLET_PRINT_EXIT,	/* the rest, on a line of its own */
};
int syslet_print_call(FILE *out, const struct syslet_event *ev,
		      enum syslet_print_part part);
/* Print the result of the call ev describes as strace would, what
 * follows its " = ": "3", "-2 ENOENT", an address in hex, fcntl's
 * F_GETFL and F_GETFD flags "0x8002 (flags O_RDWR|O_LARGEFILE)", poll's
 * "1 ([{fd=3, revents=POLLIN}])" or "0 (Timeout)"; umem_add's value as
 * a number; "?" for SYSLET_END_UNFINISHED.  0, -EINVAL (ev->sz not set)
 * or -EIO. */
int syslet_print_result(FILE *out, const struct syslet_event *ev);
/* Copy len bytes at addr in this process into dst through the kernel,
 * so that memory that cannot be read is an error, not a fault: the
 * count copied (less than len where readable memory ends first), or
 * -EFAULT when the first byte cannot be read, -EINVAL for a null dst.
 * process_vm_readv() where the kernel has it and lets the process use
 * it, else a pipe (both what syslet_print_call reads with). */
ssize_t syslet_read_mem(void *dst, const void *addr, size_t len);

/* Totals since start or the last reset, all threads.  Counters of a chain
 * still running are added at its end (or every few thousand atoms).
 * 0, or -EINVAL when st->sz is not set. */
int syslet_get_stats(struct syslet_stats *st);
void syslet_reset_stats(void);

/*
 * Fault injection (src/lib/interp.c), as strace's -e inject=: the atoms
 * whose call is @nr (the number the atom holds when it runs) return @ret
 * instead of making the call -- stored in *ret_ptr and seen by the stop
 * test as the call's own result would be -- on the matching runs of that
 * number: counted from 1 over the whole process (every thread, instance
 * and head) from the moment the rules are set, injected on run first,
 * then every step runs, up to run last (0: no end).  One rule per
 * number; the later wins.  Applies wherever the library's interpreter
 * runs atoms (emul and uring, syslet_step); an atom past the system call
 * table answers -ENOSYS as before.
 */
struct syslet_inject {
	size_t			sz;	/* sizeof(struct syslet_inject) */
	unsigned long		nr;
	long			ret;	/* -ENOENT: fail with ENOENT */
	unsigned long		first;	/* from 1 */
	unsigned long		last;	/* >= first, or 0 */
	unsigned long		step;	/* from 1 */
	/* Filled by syslet_get_inject(): */
	unsigned long long	calls;	/* runs of nr counted */
	unsigned long long	injected;	/* of which failed here */
};

/* Replace every rule by @rules[0..n-1] (n 0: none, injection off), the
 * counts starting from 0.  Every element is rules[0].sz bytes long and
 * has that sz (an array of one caller's struct).  0, -EINVAL for a bad
 * rule (sz not set or not the same in each, nr past the table of the
 * profile in use, first or step 0, last below first; nothing changed),
 * -ENOMEM, or -ENOTSUP with the kernel backend, whose atoms the library
 * does not run (nothing set). */
int syslet_set_inject(const struct syslet_inject *rules, size_t n);
/* The rules in force with their counts, by number, at most @max into
 * @rules, whose elements are rules[0].sz bytes long (each element's sz
 * is set to it); @rules may be NULL with max 0, to count them.  Returns
 * how many rules there are (possibly more than max), or -EINVAL when
 * max is not 0 and rules[0].sz is not set. */
int syslet_get_inject(struct syslet_inject *rules, size_t max);

/*
 * Run exactly one atom in the calling thread, synchronously (blocking
 * allowed, no worker, no registration needed), with the same fetch, stop
 * and SKIP logic as a full run; the trace callback sees it too.  Returns
 * the next atom, or NULL at the end (ev->end says why; ev->end ==
 * SYSLET_END_FAULT: the atom could not be read and did not run), errno
 * 0 then; NULL with errno EINVAL when ev->sz is not set, or the engine's
 * error when it cannot start.  Always the emul engine, whatever backend
 * is selected.  @ev may be NULL.
 */
struct syslet_uatom *syslet_step(struct syslet_uatom *atom,
				 struct syslet_event *ev);

/* ---- Images (src/lib/image*.c) ----------------------------------------
 * A .slo is opened once (every section validated, its ABI profile
 * checked against this library's) and instantiated any number of times:
 * each instance has private atoms, cells, read-only data and buffers,
 * relocated to its own addresses.  Functions that can fail for a reason
 * a user must read take err/errlen and put a one-line message there
 * (no trailing newline); they also set errno.  Names of cells are their
 * symbol names without the image's prefix, as the source wrote them
 * (`count`, `cat.fd`, not `cat_count`); a local may be named without its
 * syslet when that is unambiguous. */
struct syslet_obj;
struct syslet_inst;

enum syslet_param_type {
	SYSLET_PARAM_INT = 1,	/* the cell holds the integer */
	SYSLET_PARAM_STR = 2,	/* the cell holds a pointer to the string */
	SYSLET_PARAM_SOCKADDR_IN = 3,	/* the cell holds a pointer to a
					   struct sockaddr_in (HOST:PORT) */
};

struct syslet_param {
	size_t			sz;	/* sizeof(struct syslet_param) */
	const char		*name;	/* without the syslet: "path" */
	enum syslet_param_type	type;
};

/* Why the compiler emitted an atom (from the debug records). */
enum syslet_role {
	SYSLET_ROLE_CALL,	/* a syscall statement */
	SYSLET_ROLE_ARITH,	/* umem_add lowering of += -= ++ -- = */
	SYSLET_ROLE_COPY,	/* scratch copy for `var OP const` tests */
	SYSLET_ROLE_TEST,	/* a test of a variable */
	SYSLET_ROLE_TRAMPOLINE,	/* a no-op placed so that a skip lands right */
	SYSLET_ROLE_STOP,	/* the atom that ends the syslet */
	SYSLET_ROLE_UNKNOWN,	/* the image has no debug records */
};

struct syslet_atom_info {
	size_t		sz;		/* sizeof(struct syslet_atom_info) */
	size_t		index;		/* in the image's atom order */
	long		nr;		/* syscall number, native numbering */
	const char	*syscall;	/* name; NULL if unknown */
	enum syslet_role role;
	const char	*role_name;	/* "call", "arith", ... */
	const char	*source;	/* source file name, or NULL */
	unsigned int	line, col;	/* 0 without debug records */
	const char	*text;		/* the source statement, or NULL */
	const char	*arg_name[6];	/* the listing's: "fds[1]", "&c[0]" */
};

struct syslet_obj *syslet_obj__open_file(const char *path, char *err,
					 size_t errlen);
struct syslet_obj *syslet_obj__open_mem(const void *buf, size_t len,
					char *err, size_t errlen);
void syslet_obj__close(struct syslet_obj *obj);

const char *syslet_obj__profile(const struct syslet_obj *obj);
const char *syslet_obj__source(const struct syslet_obj *obj);
size_t syslet_obj__entry_count(const struct syslet_obj *obj);
const char *syslet_obj__entry_name(const struct syslet_obj *obj, size_t i);
/* Number of parameters of entry, or -ENOENT when there is no such
 * entry; parameter @i of it (in order) into *param: 0, -ENOENT, -ERANGE
 * or -EINVAL (param->sz not set). */
int syslet_obj__entry_params(const struct syslet_obj *obj, const char *entry);
int syslet_obj__entry_param(const struct syslet_obj *obj, const char *entry,
			    size_t i, struct syslet_param *param);
/* Named cells (variables and parameters), for listings and completion. */
size_t syslet_obj__cell_count(const struct syslet_obj *obj);
const char *syslet_obj__cell_name(const struct syslet_obj *obj, size_t i);
size_t syslet_obj__atom_count(const struct syslet_obj *obj);
/* 0, -ERANGE, or -EINVAL (info->sz not set). */
int syslet_obj__atom_info(const struct syslet_obj *obj, size_t index,
			  struct syslet_atom_info *info);
const char *syslet_role_name(enum syslet_role role);

/* The image's symbols: syslets, labels, cells and objects. */
enum syslet_sym_kind {
	SYSLET_SYM_ENTRY,	/* a syslet */
	SYSLET_SYM_LABEL,	/* a goto label: "cat.again" */
	SYSLET_SYM_VAR,		/* a variable's cell */
	SYSLET_SYM_PARAM,	/* a parameter's cell */
	SYSLET_SYM_BUFFER,	/* a buffer */
	SYSLET_SYM_DATA,	/* read-only data */
};

struct syslet_sym_info {
	size_t			sz;	/* sizeof(struct syslet_sym_info) */
	const char		*name;	/* as syslet_obj__cell_name() */
	enum syslet_sym_kind	kind;
	long			atom;	/* an entry's or label's atom; else -1 */
	size_t			size;	/* bytes */
};

size_t syslet_obj__sym_count(const struct syslet_obj *obj);
/* 0, -ERANGE, or -EINVAL (info->sz not set). */
int syslet_obj__sym_info(const struct syslet_obj *obj, size_t i,
			 struct syslet_sym_info *info);
/* The atom an entry or a label names (a label also without its syslet,
 * when only one syslet has it), or -ENOENT. */
long syslet_obj__find_atom(const struct syslet_obj *obj, const char *name);

/* The annotated listing (sysletc -S), a line at a time. */
enum syslet_list_part {
	SYSLET_LIST_HEADER,	/* profile and source */
	SYSLET_LIST_ATOMS,	/* syslets, labels and their atoms */
	SYSLET_LIST_CELLS,
	SYSLET_LIST_OBJECTS,
};

struct syslet_list_line {
	size_t			sz;	/* sizeof(struct syslet_list_line) */
	const char		*text;	/* no newline */
	enum syslet_list_part	part;
	long			atom;	/* the atom the line lists, or -1 */
};

typedef void (*syslet_list_fn)(const struct syslet_list_line *line,
			       void *ctx);
/* 0, or -EINVAL when fn is NULL. */
int syslet_obj__list(const struct syslet_obj *obj, syslet_list_fn fn,
		     void *ctx);

struct syslet_inst *syslet_obj__instantiate(const struct syslet_obj *obj,
					    char *err, size_t errlen);
void syslet_inst__free(struct syslet_inst *inst);
const struct syslet_obj *syslet_inst__obj(const struct syslet_inst *inst);

struct syslet_uatom *syslet_inst__entry(struct syslet_inst *inst,
					const char *name);
unsigned long *syslet_inst__cell(struct syslet_inst *inst, const char *name);
/* The name of the variable or parameter whose word is at @addr, or NULL
 * (errno ENOENT): a scratch cell, or no cell of inst. */
const char *syslet_inst__cell_at(const struct syslet_inst *inst,
				 const void *addr);
/* The cell whose word is at @addr as the listing (sysletc -S) names it:
 * a variable or parameter (cat.fd), a scratch cell (%2), a constant (0),
 * an address (&cat.n); NULL (errno ENOENT) when addr is no cell's word
 * of inst. */
const char *syslet_inst__cell_label(const struct syslet_inst *inst,
				    const void *addr);
/* A buffer or data object by name; its size in *size when non-NULL. */
void *syslet_inst__object(struct syslet_inst *inst, const char *name,
			  size_t *size);
struct syslet_uatom *syslet_inst__atom(struct syslet_inst *inst, size_t index);
/* Index of atom in inst, or -ERANGE when it is not one of inst's atoms. */
long syslet_inst__atom_index(const struct syslet_inst *inst,
			     const struct syslet_uatom *atom);
int syslet_inst__atom_info(const struct syslet_inst *inst,
			   const struct syslet_uatom *atom,
			   struct syslet_atom_info *info);
/* What atom last wrote to its result, in *result: 0, or -ERANGE when
 * atom is not one of inst's.  Atoms compiled without a result cell get
 * a hidden one in the instance, so that every atom's result can be
 * reported. */
int syslet_inst__result(const struct syslet_inst *inst,
			const struct syslet_uatom *atom, long *result);

/* Bind entry's parameters from strings, by position: an int parameter
 * takes a C integer literal, a str parameter a copy of the string, a
 * sockaddr_in parameter an IPv4 "HOST:PORT" (127.0.0.1:8080; ":8080" or
 * "*:8080" for any address; "localhost" is 127.0.0.1).
 * Returns 0, or -errno (-ENOENT: no such entry, -EINVAL: a bad value or
 * count, -ENOMEM) with the message ("parameter 1 of cat: expected int,
 * got 'abc'", or a count mismatch) in err. */
int syslet_inst__bind(struct syslet_inst *inst, const char *entry, int argc,
		      char *const argv[], char *err, size_t errlen);

#pragma GCC visibility pop

#ifdef __cplusplus
}

/* SYSLET_OPTS in C++: the struct as given, with sz set to its size. */
template <typename T> static inline T syslet__opts(T opts)
{
	opts.sz = sizeof(T);
	return opts;
}
#endif

#endif /* LIBSYSLET_H */
