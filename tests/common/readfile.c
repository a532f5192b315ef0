/* readfile.c: unit tests of common_read_file(): sizes at the bound, directories, missing files, pipes. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "common/readfile.h"

/* A file of n bytes 'a'..'z' in a fresh temporary directory. */
struct tmp {
	char	dir[64];
	char	path[96];
};

static void tmp_file(struct tmp *t, size_t n)
{
	FILE *f;

	strcpy(t->dir, "/tmp/readfile-XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	snprintf(t->path, sizeof(t->path), "%s/f", t->dir);
	f = fopen(t->path, "wb");
	assert_non_null(f);
	for (size_t i = 0; i < n; i++)
		assert_int_not_equal(fputc('a' + (int)(i % 26), f), EOF);
	assert_int_equal(fclose(f), 0);
}

static void tmp_done(struct tmp *t)
{
	unlink(t->path);
	rmdir(t->dir);
}

/* path read with bound max holds the n bytes tmp_file writes. */
static void expect_read(const char *path, size_t max, size_t n)
{
	char err[128] = "", *buf;
	size_t len = 99;

	assert_int_equal(common_read_file(path, max, &buf, &len, err,
					  sizeof(err)), 0);
	assert_non_null(buf);
	assert_int_equal(len, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(buf[i], 'a' + (int)(i % 26));
	assert_int_equal(buf[n], '\0');	/* the text parsers rely on it */
	free(buf);
}

/* path is refused with errno e and the reason msg; nothing is left. */
static void expect_refusal(const char *path, size_t max, int e,
			   const char *msg)
{
	char err[128] = "", *buf = err;
	size_t len = 99;

	assert_int_equal(common_read_file(path, max, &buf, &len, err,
					  sizeof(err)), -1);
	assert_int_equal(errno, e);
	assert_null(buf);
	assert_int_equal(len, 0);
	assert_string_equal(err, msg);
}

static void test_empty(void **state)
{
	struct tmp t;

	(void)state;
	tmp_file(&t, 0);
	expect_read(t.path, 10, 0);
	tmp_done(&t);
}

/* Exactly the bound is read; one byte more is refused, naming the bound. */
static void test_bound(void **state)
{
	struct tmp t;

	(void)state;
	tmp_file(&t, 10);
	expect_read(t.path, 10, 10);
	tmp_done(&t);
	tmp_file(&t, 11);
	expect_refusal(t.path, 10, EFBIG, "larger than the limit of 10 bytes");
	tmp_done(&t);
}

/* Larger than the first buffer, to make it grow. */
static void test_large(void **state)
{
	struct tmp t;

	(void)state;
	tmp_file(&t, 300000);
	expect_read(t.path, COMMON_MAX_SOURCE, 300000);
	expect_read(t.path, 300000, 300000);
	expect_refusal(t.path, 299999, EFBIG,
		       "larger than the limit of 299999 bytes");
	tmp_done(&t);
}

static void test_limits_named(void **state)
{
	char err[128];

	(void)state;
	common_read_too_large(err, sizeof(err), COMMON_MAX_SOURCE);
	assert_string_equal(err, "larger than the limit of 64 MiB");
	common_read_too_large(err, sizeof(err), COMMON_MAX_IMAGE);
	assert_string_equal(err, "larger than the limit of 1 GiB");
	common_read_too_large(err, sizeof(err), 1);
	assert_string_equal(err, "larger than the limit of 1 byte");
	/* A short err is cut, never overrun. */
	common_read_too_large(err, 8, COMMON_MAX_SOURCE);
	assert_string_equal(err, "larger ");
}

static void test_directory(void **state)
{
	(void)state;
	expect_refusal("/", 10, EISDIR, strerror(EISDIR));
}

static void test_missing(void **state)
{
	char *buf;
	size_t len;

	(void)state;
	expect_refusal("/nonexistent/readfile", 10, ENOENT, strerror(ENOENT));
	/* No room for a message is no reason to fail differently. */
	assert_int_equal(common_read_file("/nonexistent/readfile", 10, &buf,
					  &len, NULL, 0), -1);
	assert_int_equal(errno, ENOENT);
}

/* "-" reads the standard input, here a pipe fed by a child in chunks
 * (short reads), and leaves it open. */
static int pipe_stdin(size_t n, pid_t *child, int *saved)
{
	int p[2];

	assert_int_equal(pipe(p), 0);
	*child = fork();
	assert_true(*child >= 0);
	if (*child == 0) {
		char chunk[1000];
		size_t done = 0;

		close(p[0]);
		while (done < n) {
			size_t k = n - done < sizeof(chunk) ? n - done :
							     sizeof(chunk);

			for (size_t i = 0; i < k; i++)
				chunk[i] = (char)('a' + (int)((done + i) % 26));
			if (write(p[1], chunk, k) != (ssize_t)k)
				_exit(1);
			done += k;
		}
		_exit(0);
	}
	close(p[1]);
	*saved = dup(STDIN_FILENO);
	assert_true(*saved >= 0);
	assert_int_equal(dup2(p[0], STDIN_FILENO), STDIN_FILENO);
	close(p[0]);
	return 0;
}

static void unpipe_stdin(pid_t child, int saved)
{
	int status;

	/* Still open: common_read_file does not close the standard input. */
	assert_true(fcntl(STDIN_FILENO, F_GETFD) >= 0);
	assert_int_equal(dup2(saved, STDIN_FILENO), STDIN_FILENO);
	close(saved);
	waitpid(child, &status, 0);
}

static void test_stdin_pipe(void **state)
{
	pid_t child;
	int saved;

	(void)state;
	pipe_stdin(200000, &child, &saved);
	expect_read("-", COMMON_MAX_SOURCE, 200000);
	unpipe_stdin(child, saved);

	/* Exactly the bound, then one byte over it, through a pipe. */
	pipe_stdin(5000, &child, &saved);
	expect_read("-", 5000, 5000);
	unpipe_stdin(child, saved);
	pipe_stdin(5001, &child, &saved);
	expect_refusal("-", 5000, EFBIG, "larger than the limit of 5000 bytes");
	unpipe_stdin(child, saved);
}

/* Devices make bytes up (/dev/zero never ends): refused before a read. */
static void test_devices(void **state)
{
	char err[128], *buf;
	size_t len;

	(void)state;
	expect_refusal("/dev/zero", COMMON_MAX_IMAGE, EINVAL,
		       "not a regular file or a pipe (a character device)");
	expect_refusal("/dev/null", 10, EINVAL,
		       "not a regular file or a pipe (a character device)");
	assert_int_equal(common_read_input("/dev/zero", COMMON_TEXT_OR_ELF,
					   &buf, &len, NULL, err, sizeof(err)),
			 -1);
	assert_int_equal(errno, EINVAL);
}

/*
 * The standard input fed by a child with head (n bytes) then filler up
 * to total bytes.  common_read_input() must refuse it at its first bytes
 * that cannot be what it wants: what it left in the pipe, drained after,
 * shows how much it read.
 */
static void expect_early(enum common_content what, const void *head,
			 size_t n, char filler, size_t total, const char *msg)
{
	static char chunk[65536];
	char err[128], *buf;
	size_t len, left = 0;
	int p[2], saved, status;
	pid_t child;
	ssize_t r;

	assert_int_equal(pipe(p), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		size_t done = 0;

		close(p[0]);
		memset(chunk, filler, sizeof(chunk));
		memcpy(chunk, head, n);
		while (done < total) {
			size_t k = total - done < sizeof(chunk) ?
				   total - done : sizeof(chunk);

			if (write(p[1], chunk, k) != (ssize_t)k)
				_exit(1);
			if (!done)
				memset(chunk, filler, n);
			done += k;
		}
		_exit(0);
	}
	close(p[1]);
	saved = dup(STDIN_FILENO);
	assert_int_equal(dup2(p[0], STDIN_FILENO), STDIN_FILENO);
	close(p[0]);
	assert_int_equal(common_read_input("-", what, &buf, &len, NULL, err,
					   sizeof(err)), -1);
	assert_int_equal(errno, EILSEQ);
	assert_string_equal(err, msg);
	while ((r = read(STDIN_FILENO, chunk, sizeof(chunk))) > 0)
		left += (size_t)r;
	assert_int_equal(dup2(saved, STDIN_FILENO), STDIN_FILENO);
	close(saved);
	waitpid(child, &status, 0);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* Read: at most a few pipe buffers' worth, not the bound. */
	assert_true(total - left <= 1 << 20);
}

static void test_content_early(void **state)
{
	/* An ELF64 header whose one section header (type 0) ends at 128. */
	unsigned char elf[128] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
	size_t big = (size_t)16 << 20;

	(void)state;
	elf[16] = 1;			/* ET_REL */
	elf[18] = 62;			/* EM_X86_64 */
	elf[40] = 64;			/* e_shoff */
	elf[58] = 64;			/* e_shentsize */
	elf[60] = 1;			/* e_shnum */
	expect_early(COMMON_TEXT, "", 0, '\0', big,
		     "a NUL byte at line 1, column 1: binary data, not text");
	expect_early(COMMON_TEXT, "syslet\nmain", 11, '\0', big,
		     "a NUL byte at line 2, column 5: binary data, not text");
	expect_early(COMMON_TEXT_OR_ELF, "x", 1, '\0', big,
		     "a NUL byte at line 1, column 2: binary data, not text");
	expect_early(COMMON_ELF, "hello", 5, '\0', big, "not an ELF file");
	expect_early(COMMON_ELF, elf, sizeof(elf), '\0', big,
		     "more bytes than its ELF headers describe");
	expect_early(COMMON_TEXT_OR_ELF, elf, sizeof(elf), 'x', big,
		     "more bytes than its ELF headers describe");
}

/* The first byte tells which bound holds: 64 MiB for text. */
static void test_kind(void **state)
{
	enum common_content kind = 0;
	struct tmp t;
	char err[128], *buf;
	size_t len;

	(void)state;
	tmp_file(&t, 100);
	assert_int_equal(common_read_input(t.path, COMMON_TEXT_OR_ELF, &buf,
					   &len, &kind, err, sizeof(err)), 0);
	assert_int_equal(kind, COMMON_TEXT);
	assert_int_equal(len, 100);
	free(buf);
	assert_int_equal(truncate(t.path, (off_t)COMMON_MAX_SOURCE + 1), 0);
	assert_int_equal(common_read_input(t.path, COMMON_TEXT_OR_ELF, &buf,
					   &len, &kind, err, sizeof(err)), -1);
	assert_int_equal(errno, EFBIG);
	assert_string_equal(err, "larger than the limit of 64 MiB");
	tmp_done(&t);
}

static void test_not_stdin(void **state)
{
	(void)state;
	assert_string_equal(COMMON_PATH_NOT_STDIN("-"), "./-");
	assert_string_equal(COMMON_PATH_NOT_STDIN("a.slo"), "a.slo");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_large),
		cmocka_unit_test(test_limits_named),
		cmocka_unit_test(test_directory),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_stdin_pipe),
		cmocka_unit_test(test_not_stdin),
		cmocka_unit_test(test_devices),
		cmocka_unit_test(test_content_early),
		cmocka_unit_test(test_kind),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
