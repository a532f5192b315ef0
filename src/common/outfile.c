/* outfile.c: output files that appear whole or not at all, through symlinks, and never replace a device (see outfile.h). */
#define _GNU_SOURCE	/* O_TMPFILE, linkat */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/outfile.h"
#include "common/stdfds.h"
#include "common/quote.h"

enum {
	OUT_STDOUT,	/* an unnamed temporary file, copied out at commit */
	OUT_UNNAMED,	/* O_TMPFILE in the target's directory */
	OUT_NAMED,	/* PATH.XXXXXX from the start */
	OUT_THROUGH,	/* the device or FIFO itself */
};

/* As the kernel's own bound on symlinks in one lookup. */
#define OUT_MAX_LINKS	40

static int out_fail(char *err, size_t errlen, int e, const char *reason)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", reason ? reason : strerror(e));
	errno = e;
	return -1;
}

/* ---- Removing a named temporary file when a signal ends the process ---- */

static const int out_fatal_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGXFSZ, SIGXCPU, SIGALRM,
	SIGVTALRM, SIGPROF, SIGUSR1, SIGUSR2,
};
#define OUT_NR_SIGNALS (sizeof(out_fatal_signals) / sizeof(out_fatal_signals[0]))

static char *volatile out_pending;	/* the name a signal must remove */
static struct sigaction out_saved[OUT_NR_SIGNALS];
static unsigned char out_hooked[OUT_NR_SIGNALS];

static void out_on_signal(int sig)
{
	char *p = out_pending;

	if (p)
		unlink(p);
	/* SA_RESETHAND restored the default action and SA_NODEFER leaves the
	 * signal unblocked: it now ends the process as it would have. */
	raise(sig);
}

/* Only signals left at their default (deadly) action: an ignored SIGHUP
 * under nohup stays ignored, a caller's own handler stays its own. */
static void out_hook_signals(char *name)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = out_on_signal;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	sigfillset(&sa.sa_mask);
	out_pending = name;
	for (size_t i = 0; i < OUT_NR_SIGNALS; i++) {
		struct sigaction old;

		out_hooked[i] = 0;
		if (sigaction(out_fatal_signals[i], NULL, &old) ||
		    old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO))
			continue;
		if (!sigaction(out_fatal_signals[i], &sa, &out_saved[i]))
			out_hooked[i] = 1;
	}
}

static void out_unhook_signals(void)
{
	for (size_t i = 0; i < OUT_NR_SIGNALS; i++)
		if (out_hooked[i])
			sigaction(out_fatal_signals[i], &out_saved[i], NULL);
	out_pending = NULL;
}

/* ---- Following symlinks to the name to create or replace --------------- */

static char *out_readlink(const char *path)
{
	size_t cap = 256;

	for (;;) {
		char *buf = malloc(cap);
		ssize_t n;

		if (!buf)
			return NULL;
		n = readlink(path, buf, cap);
		if (n < 0) {
			free(buf);
			return NULL;
		}
		if ((size_t)n < cap) {
			buf[n] = '\0';
			return buf;
		}
		free(buf);
		if (cap > (1u << 20)) {
			errno = ENAMETOOLONG;
			return NULL;
		}
		cap *= 2;
	}
}

char *common_path_follow(const char *path, struct stat *st, int *exists)
{
	char *cur = strdup(path);

	for (int hops = 0; cur; hops++) {
		const char *slash;
		char *link, *next;
		size_t dl;

		if (lstat(cur, st)) {
			if (errno != ENOENT)
				break;
			*exists = 0;
			return cur;
		}
		if (!S_ISLNK(st->st_mode)) {
			*exists = 1;
			return cur;
		}
		if (hops == OUT_MAX_LINKS) {
			errno = ELOOP;
			break;
		}
		link = out_readlink(cur);
		if (!link)
			break;
		slash = strrchr(cur, '/');
		if (link[0] == '/' || !slash) {
			next = link;
		} else {
			dl = (size_t)(slash - cur) + 1;
			next = malloc(dl + strlen(link) + 1);
			if (next) {
				memcpy(next, cur, dl);
				strcpy(next + dl, link);
			}
			free(link);
			if (!next)
				break;
		}
		free(cur);
		cur = next;
	}
	free(cur);
	return NULL;
}

/* The directory a new file for path goes in: "." for a bare name. */
static char *out_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *d;

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	d = strndup(path, (size_t)(slash - path));
	return d;
}

/* ---- Opening ------------------------------------------------------------ */

/* The image writer needs a file it can seek in: a standard output or
 * a device gets its bytes from an unnamed temporary file at commit. */
static int out_open_spool(struct common_out *o, char *err, size_t errlen)
{
	FILE *t = tmpfile();

	o->fd = t ? dup(fileno(t)) : -1;
	if (t)
		fclose(t);
	if (o->fd < 0)
		return out_fail(err, errlen, errno, NULL);
	return 0;
}

/* A device or FIFO gets the bytes; it is never created, truncated or
 * replaced.  fstat() on what was opened closes the race with a rename. */
static int out_open_through(struct common_out *o, const char *path,
			    char *err, size_t errlen)
{
	struct stat st;
	int e;

	o->dest = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (o->dest < 0)
		return out_fail(err, errlen, errno, NULL);
	if (fstat(o->dest, &st) ||
	    !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
		e = errno;
		close(o->dest);
		return out_fail(err, errlen, e ? e : EAGAIN,
				"changed while it was opened; not written");
	}
	if (out_open_spool(o, err, errlen)) {
		e = errno;
		close(o->dest);
		errno = e;
		return -1;
	}
	o->how = OUT_THROUGH;
	return 0;
}

/*
 * The new file is made in the target's directory: where that directory
 * is not writable, a target that is (chmod 666, or /proc's files) cannot
 * be replaced, and a bare "Permission denied" named the writable file.
 */
static int out_fail_dir(char *err, size_t errlen, int e, const char *dir,
			int exists)
{
	char why[512];

	if (!exists || (e != EACCES && e != EPERM && e != EROFS &&
			e != ENOENT))
		return out_fail(err, errlen, e, NULL);
	snprintf(why, sizeof(why), "%s (it is replaced whole by a new file "
		 "made in its directory, %s)", strerror(e), common_quote(dir, 0));
	return out_fail(err, errlen, e, why);
}

/*
 * The new file takes the permissions of the file it replaces, and its
 * owner where the caller may give it (root, or a group the caller is
 * in), as one written in place (gcc -o, a shell's >) or by sed -i keeps
 * them: else a private 0600 image became 0644, and root replacing a
 * user's image made it root's.  The set-ID bits are not carried onto a
 * new file.  A file made anew gets 0666 less the umask.
 */
static void out_set_mode(int fd, const struct stat *was)
{
	mode_t mask;

	if (was) {
		/* Before the mode: a change of owner clears set-ID bits. */
		if (fchown(fd, was->st_uid, was->st_gid))
			(void)!fchown(fd, (uid_t)-1, was->st_gid);
		fchmod(fd, was->st_mode & 0777);
		return;
	}
	mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
}

static int out_open_new(struct common_out *o, char *final, int exists,
			const struct stat *was, char *err, size_t errlen)
{
	char *dir = out_dir_of(final);
	char proc[64];
	size_t n = strlen(final);
	int e;

	o->path = final;
	if (!dir)
		return out_fail(err, errlen, ENOMEM, NULL);
	o->fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
	/* Linking it a name later goes through /proc/self/fd. */
	if (o->fd >= 0) {
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", o->fd);
		if (!access(proc, F_OK)) {
			free(dir);
			out_set_mode(o->fd, was);
			o->how = OUT_UNNAMED;
			return 0;
		}
		close(o->fd);
	} else if (errno != EOPNOTSUPP && errno != EISDIR &&
		   errno != EINVAL && errno != EPERM) {
		e = out_fail_dir(err, errlen, errno, dir, exists);
		free(dir);
		return e;
	}
	/* No O_TMPFILE here: a name from the start.  EPERM too: ext4
	 * answers it for a directory that was removed (the working
	 * directory of a shell whose directory went away), where creating
	 * a name says ENOENT, as every other tool says; a directory that
	 * really refuses gives its EPERM again. */
	o->tmp = malloc(n + 8);
	if (!o->tmp) {
		free(dir);
		return out_fail(err, errlen, ENOMEM, NULL);
	}
	memcpy(o->tmp, final, n);
	strcpy(o->tmp + n, ".XXXXXX");
	out_hook_signals(o->tmp);
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd < 0) {
		e = errno;
		out_unhook_signals();
		free(o->tmp);
		o->tmp = NULL;
		e = out_fail_dir(err, errlen, e, dir, exists);
		free(dir);
		return e;
	}
	free(dir);
	out_set_mode(o->fd, was);
	o->how = OUT_NAMED;
	return 0;
}

int common_out_open(struct common_out *o, const char *path, char *err,
		    size_t errlen)
{
	struct stat st;
	char *final;
	int exists;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->dest = -1;
	if (!strcmp(path, "-")) {
		o->how = OUT_STDOUT;
		o->dest = STDOUT_FILENO;
		return out_open_spool(o, err, errlen);
	}
	/* What the name finally stands for, through every link. */
	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode))
			return out_fail(err, errlen, EISDIR, NULL);
		if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
			return out_open_through(o, path, err, errlen);
		if (S_ISBLK(st.st_mode))
			return out_fail(err, errlen, EINVAL, "is a block device; "
					"an image is written to a file, a "
					"character device or a FIFO");
		if (S_ISSOCK(st.st_mode))
			return out_fail(err, errlen, EINVAL, "is a socket; "
					"an image is written to a file, a "
					"character device or a FIFO");
	} else if (errno != ENOENT) {
		return out_fail(err, errlen, errno, NULL);
	}
	/* A regular file, or a name to create: find the name itself. */
	final = common_path_follow(path, &st, &exists);
	if (!final)
		return out_fail(err, errlen, errno, NULL);
	if (exists && !S_ISREG(st.st_mode)) {
		/* /dev/stdout and friends: /proc's links to what is not a
		 * path, or a name that changed since stat(). */
		free(final);
		return out_fail(err, errlen, EINVAL, "does not name a file "
				"that can be replaced");
	}
	return out_open_new(o, final, exists, exists ? &st : NULL, err,
			    errlen);
}

/* ---- Closing ------------------------------------------------------------ */

static int out_copy(int from, int to)
{
	char buf[65536];
	ssize_t r;

	if (lseek(from, 0, SEEK_SET) < 0)
		return -1;
	while ((r = read(from, buf, sizeof(buf))) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		/* A non-blocking standard output (-o -) that fills: wait. */
		if (common_write_wait(to, buf, (size_t)r) < 0)
			return -1;
	}
	return 0;
}

static void out_random_suffix(char *s)
{
	static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	static unsigned int counter;
	unsigned char r[6];

	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		unsigned int x = (unsigned int)getpid() * 2654435761u ^
				 ++counter * 40503u ^ (unsigned int)(size_t)s;

		for (int i = 0; i < 6; i++, x = x * 1103515245u + 12345u)
			r[i] = (unsigned char)(x >> 16);
	}
	for (int i = 0; i < 6; i++)
		s[i] = set[r[i] % (sizeof(set) - 1)];
}

/* Give the unnamed file PATH.XXXXXX, then rename that over PATH; no
 * catchable signal can end the process between the two. */
static int out_link_unnamed(struct common_out *o, char *err, size_t errlen)
{
	size_t n = strlen(o->path);
	char proc[64], *tmp = malloc(n + 8);
	sigset_t all, old;
	int rc = -1, e = 0;

	if (!tmp)
		return out_fail(err, errlen, ENOMEM, NULL);
	memcpy(tmp, o->path, n);
	tmp[n] = '.';
	tmp[n + 7] = '\0';
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", o->fd);
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	for (int tries = 0; tries < 100; tries++) {
		out_random_suffix(tmp + n + 1);
		if (!linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW)) {
			rc = 0;
			break;
		}
		e = errno;
		if (e != EEXIST)
			break;
	}
	if (!rc && rename(tmp, o->path)) {
		e = errno;
		unlink(tmp);
		rc = -1;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(tmp);
	return rc ? out_fail(err, errlen, e, NULL) : 0;
}

int common_out_close(struct common_out *o, int keep, char *err, size_t errlen)
{
	int rc = 0, e = 0;

	switch (o->how) {
	case OUT_STDOUT:
		/* What the caller printed through stdio goes first. */
		if (keep && (fflush(stdout) || out_copy(o->fd, o->dest)))
			rc = -1, e = errno;
		close(o->fd);
		break;
	case OUT_THROUGH:
		if (keep && out_copy(o->fd, o->dest))
			rc = -1, e = errno;
		close(o->fd);
		if (close(o->dest) && !rc)
			rc = -1, e = errno;
		break;
	case OUT_UNNAMED:
		/* Linked while still open (the name goes through the fd).
		 * The file systems that report write errors only at close
		 * (NFS) have no O_TMPFILE and take the named way. */
		if (keep && out_link_unnamed(o, NULL, 0))
			rc = -1, e = errno;
		if (close(o->fd) && !rc)
			rc = -1, e = errno;
		break;
	case OUT_NAMED:
		if (close(o->fd))
			keep = 0, rc = -1, e = errno;
		if (keep && rename(o->tmp, o->path))
			rc = -1, e = errno;
		if (!keep || rc)
			unlink(o->tmp);
		out_unhook_signals();
		break;
	}
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
	o->fd = o->dest = -1;
	return rc ? out_fail(err, errlen, e, NULL) : 0;
}
