/* consts.h: the language's named constants (O_RDONLY, AF_INET ...), and the per-call table that names an argument's value again in listings. */
#ifndef SYSLET_CONSTS_H
#define SYSLET_CONSTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * One table serves both directions: the compiler looks names up
 * (`open(path, O_RDONLY)` compiles to 0), and a listing turns the 0 of
 * open's second argument back into O_RDONLY, as strace does.  The values
 * are the Linux UAPI ones, the same on every profile we target.
 *
 * A set groups the names one argument takes: an enumeration (AF_*, the
 * value is one of them), or flags (O_*, the value is an OR of them).
 */
enum sysconst_set {
	SC_NONE,
	SC_OPEN,	/* access mode O_RDONLY..O_RDWR | O_* flags */
	SC_OFLAGS,	/* O_* flags without an access mode (pipe2, dup3) */
	SC_MODE,	/* permission bits: shown in octal */
	SC_DIRFD,	/* AT_FDCWD, else a descriptor */
	SC_AT,		/* AT_* flags */
	SC_FACCESS_AT,	/* faccessat2()'s AT_EACCESS (AT_REMOVEDIR's bit) and AT_* */
	SC_STATX_SYNC,	/* statx()'s AT_STATX_* (through SC_STATX_AT) */
	SC_STATX_AT,	/* statx()'s flags: an AT_STATX_* | AT_* flags */
	SC_STATX_MASK,	/* STATX_* */
	SC_RENAME,	/* renameat2()'s RENAME_* flags */
	SC_ACCESS,	/* F_OK, or R_OK|W_OK|X_OK */
	SC_SEEK,	/* SEEK_* */
	SC_FCNTL,	/* F_* commands */
	SC_FCNTL_ARG,	/* fcntl's third: by the command before it */
	SC_FDFLAGS,	/* FD_CLOEXEC */
	SC_AF,		/* AF_* */
	SC_SOCKTYPE,	/* SOCK_STREAM.. | SOCK_NONBLOCK|SOCK_CLOEXEC */
	SC_SOCKFLAGS,	/* SOCK_NONBLOCK|SOCK_CLOEXEC */
	SC_LEVEL,	/* SOL_SOCKET, IPPROTO_* */
	SC_SOCKOPT,	/* SO_* or TCP_*, by the level argument before it */
	SC_PROTO,	/* socket()'s protocol, by the family before it */
	SC_IPPROTO,	/* IPPROTO_* (through SC_PROTO) */
	SC_SO,		/* SO_* (through SC_SOCKOPT) */
	SC_TCP,		/* TCP_* (through SC_SOCKOPT) */
	SC_MSG,		/* MSG_* flags */
	SC_SHUT,	/* SHUT_* */
	SC_PROT,	/* PROT_* flags */
	SC_MAP,		/* MAP_* flags */
	SC_CLOCK,	/* CLOCK_* */
	SC_SIG,		/* SIG* */
	SC_EPOLL_OP,	/* EPOLL_CTL_* */
	SC_SIGHOW,	/* SIG_BLOCK, SIG_UNBLOCK, SIG_SETMASK */
	SC_SFD,		/* SFD_* flags */
	SC_EFD,		/* EFD_* flags */
	SC_TFD,		/* TFD_NONBLOCK|TFD_CLOEXEC */
	SC_TFD_SET,	/* TFD_TIMER_ABSTIME */
	SC_EPOLL,	/* EPOLL_CLOEXEC */
	SC_WAIT,	/* WNOHANG|WUNTRACED|WCONTINUED */
	SC_INOTIFY,	/* IN_* events of inotify_add_watch() */
	SC_IN_INIT,	/* IN_NONBLOCK|IN_CLOEXEC */
	SC_IDTYPE,	/* waitid()'s P_* */
	SC_TIMER,	/* TIMER_ABSTIME (clock_nanosleep) */
	SC_IOCTL,	/* ioctl()'s request: TCGETS ..., else _IOC(...) */
	SC_RLIMIT,	/* RLIMIT_* (prlimit64, getrlimit, setrlimit) */
};

struct sysconst {
	const char		*name;
	int64_t			value;
	enum sysconst_set	set;
};

/* The whole table, in a stable order (for "did you mean"). */
const struct sysconst *sysconst_all(size_t *n);
/* Value of a predefined name (errno names are not in this table). */
bool sysconst_lookup(const char *name, int64_t *v);

/* The set of names argument `arg` of `call` takes (SC_OPEN for open's
 * second), SC_NONE for an argument the table does not know. */
enum sysconst_set sysconst_arg_set(const char *call, unsigned int arg);
/* The first name of a set in the table (O_RDONLY for SC_OPEN), or NULL. */
const char *sysconst_first(enum sysconst_set set);

/*
 * How a listing shows argument `arg` of call `call` when it is the
 * constant v: its name(s) into buf ("O_WRONLY|O_CREAT", "0644",
 * "AF_INET") and true, or false when the table has nothing better than
 * the number.  `vals` and `known` hold the call's other constant
 * arguments (a socket option is named after its level).
 */
bool sysconst_describe(const char *call, unsigned int arg, int64_t v,
		       const int64_t *vals, const bool *known, char *buf,
		       size_t len);

#endif /* SYSLET_CONSTS_H */
