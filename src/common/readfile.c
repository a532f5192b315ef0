/* readfile.c: the one reader of whole files for the compiler, the image reader, syslet-run and its shell. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/readfile.h"

/* Every failure: a reason for the caller's message, errno for its logic. */
static int rf_fail(char *err, size_t errlen, int e, const char *reason)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", reason);
	errno = e;
	return -1;
}

void common_read_too_large(char *err, size_t errlen, size_t max)
{
	static const struct {
		size_t		unit;
		const char	*name;
	} units[] = {
		{ (size_t)1 << 30, "GiB" },
		{ (size_t)1 << 20, "MiB" },
		{ (size_t)1 << 10, "KiB" },
	};
	char msg[64];
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (max && max % units[i].unit == 0)
			break;
	if (i < sizeof(units) / sizeof(units[0]))
		snprintf(msg, sizeof(msg), "larger than the limit of %zu %s",
			 max / units[i].unit, units[i].name);
	else
		snprintf(msg, sizeof(msg), "larger than the limit of %zu byte%s",
			 max, max == 1 ? "" : "s");
	rf_fail(err, errlen, EFBIG, msg);
}

/* Room for max + 1 bytes (one more than allowed shows the file is too
 * large without reading on) and the NUL. */
static int rf_read_fd(int fd, size_t max, size_t cap, char **out, size_t *len,
		      char *err, size_t errlen)
{
	char *buf = malloc(cap);
	size_t n = 0;

	if (!buf)
		goto nomem;
	for (;;) {
		ssize_t r;

		if (n == cap - 1) {
			size_t ncap;
			char *nb;

			if (n > max)
				break;
			ncap = cap > (max + 2) / 2 ? max + 2 : cap * 2;
			nb = realloc(buf, ncap);
			if (!nb)
				goto nomem;
			buf = nb;
			cap = ncap;
		}
		r = read(fd, buf + n, cap - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(buf);
			return rf_fail(err, errlen, e, strerror(e));
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n > max) {
		free(buf);
		common_read_too_large(err, errlen, max);
		return -1;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
nomem:
	free(buf);
	return rf_fail(err, errlen, ENOMEM, "out of memory");
}

int common_read_file(const char *path, size_t max, char **buf, size_t *len,
		     char *err, size_t errlen)
{
	int is_stdin = !strcmp(path, "-");
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 65536;
	struct stat st;
	int rc = -1, e;

	*buf = NULL;
	*len = 0;
	if (max > (size_t)-1 / 2)	/* keeps max + 2 and doubling in range */
		max = (size_t)-1 / 2;
	if (fd < 0)
		return rf_fail(err, errlen, errno, strerror(errno));
	if (fstat(fd, &st)) {
		rf_fail(err, errlen, errno, strerror(errno));
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		rf_fail(err, errlen, EISDIR, strerror(EISDIR));
		goto out;
	}
	if (S_ISREG(st.st_mode)) {
		if ((unsigned long long)st.st_size > max) {
			common_read_too_large(err, errlen, max);
			goto out;
		}
		/* One byte over the size sees the end without a realloc. */
		cap = (size_t)st.st_size + 2;
	} else if (cap > max + 2) {
		cap = max + 2;
	}
	rc = rf_read_fd(fd, max, cap, buf, len, err, errlen);
out:
	e = errno;
	if (!is_stdin)
		close(fd);
	errno = e;
	return rc;
}
