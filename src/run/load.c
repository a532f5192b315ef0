/* load.c: syslet-run's loading: an image file, or a syslet source compiled in memory; the entry to run. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "run/input.h"
#include "compiler/sysletc.h"
#include "common/quote.h"

static bool word_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* Whether src declares an entry anywhere ("syslet NAME("), however
 * broken the rest: a file without one was not meant for syslet-run. */
static bool has_entry(const char *src, size_t len)
{
	static const char kw[] = "syslet";
	size_t k = sizeof(kw) - 1;

	for (size_t i = 0; i + k < len; i++) {
		size_t j = i + k;

		if (memcmp(src + i, kw, k) || (i && word_char(src[i - 1])) ||
		    word_char(src[j]))
			continue;
		while (j < len && (src[j] == ' ' || src[j] == '\t' ||
				   src[j] == '\n'))
			j++;
		if (j == len || !word_char(src[j]) ||
		    (src[j] >= '0' && src[j] <= '9'))
			continue;
		while (j < len && word_char(src[j]))
			j++;
		while (j < len && (src[j] == ' ' || src[j] == '\t' ||
				   src[j] == '\n'))
			j++;
		if (j < len && src[j] == '(')
			return true;
	}
	return false;
}

/* Whether src parses as a syslet(5) file: then it is a program in the
 * language, and the compiler's errors say what it lacks (one with no
 * syslet and no other error is told "no syslet in this file"), so the
 * hint for files in another language would only repeat them. */
static bool parses(const char *src, size_t len)
{
	struct sysletc_probe r = { .sz = sizeof(r) };

	return !sysletc_probe(src, len, SYSLETC_UNIT_FILE, &r) &&
	       r.status == SYSLETC_PROBE_OK;
}

/* A name that C files have: foo.h, foo.c. */
static bool is_c(const char *path)
{
	size_t n = strlen(path);

	return n > 2 && path[n - 2] == '.' &&
	       (path[n - 1] == 'h' || path[n - 1] == 'c');
}

static struct syslet_obj *compile(const char *path, const char *src,
				  size_t len, const char *progname)
{
	struct syslet_obj *obj = NULL;
	size_t elf_len;
	char err[256];
	void *elf;
	int n;

	n = sysletc_compile_mem(path, src, len, stderr, &elf, &elf_len, err,
				sizeof(err));
	if (n > 0) {
		/* The diagnostics alone, as sysletc and the shell's load
		 * print them: they name the file, and ten at most are
		 * followed by how many more there were. */
		if (!has_entry(src, len) && !parses(src, len))
			fprintf(stderr, "%s: %s declares no syslet ('syslet "
				"NAME(...) { ... }'): %s runs an image written "
				"by sysletc(1) or a program in the language of "
				"syslet(5)%s%s\n", progname,
				common_quote(path, 0), progname,
				is_c(path) ? ", not C (a header from sysletc "
					     "-H is for the C compiler)" : "",
				n > SYSLETC_MEM_MAX_ERRORS ?
				"; sysletc prints every error" : "");
		return NULL;
	}
	if (n == 0)
		obj = syslet_obj__open_mem(elf, elf_len, err, sizeof(err));
	if (!obj)
		fprintf(stderr, "%s: %s: %s\n", progname,
			common_quote(path, 0), err);
	free(elf);
	return obj;
}

struct syslet_obj *srun_load(const char *path, const char *progname,
			     int *status)
{
	struct syslet_obj *obj = NULL;
	char err[256] = "";
	size_t len;
	char *buf;

	*status = SRUN_USAGE;
	switch (srun_input_read(path, &buf, &len, err, sizeof(err))) {
	case SRUN_INPUT_IMAGE:
		obj = syslet_obj__open_mem(buf, len, err, sizeof(err));
		if (!obj)
			fprintf(stderr, "%s: %s: %s\n", progname,
				common_quote(path, 0), err);
		break;
	case SRUN_INPUT_SOURCE:
		obj = compile(path, buf, len, progname);
		break;
	default:
		/* sysletc takes "-" for the standard input, which here
		 * stays the syslet's: say so, and how to read it anyway. */
		fprintf(stderr, "%s: %s: %s%s\n", progname,
			common_quote(path, 0), err,
			errno == ENOENT && !strcmp(path, "-") ?
			" (the standard input stays the syslet's; /dev/stdin "
			"reads the program from it)" : "");
		return NULL;
	}
	free(buf);
	if (obj)
		*status = 0;
	return obj;
}

/* The names a message lists; the rest are counted (sysletc -d lists
 * them all): an image of 100,000 syslets gave a line of 690 KB. */
#define SRUN_ENTRIES_SHOWN	20

const char *srun_pick_entry(const struct syslet_obj *obj, const char *want,
			    const char *progname)
{
	size_t n = syslet_obj__entry_count(obj), len = 0;
	char *msg = NULL;
	FILE *m, *mem;

	if (want) {
		if (syslet_obj__entry_params(obj, want) >= 0)
			return want;
	} else if (n == 1) {
		return syslet_obj__entry_name(obj, 0);
	}
	/* One line, written once: a write(2) a name before. */
	mem = open_memstream(&msg, &len);
	m = mem ? mem : stderr;
	if (want)
		fprintf(m, "%s: no syslet named %s; the image has:", progname,
			common_quote(want, 1));
	else
		fprintf(m, "%s: the image has %zu syslets; choose one with "
			"--entry:", progname, n);
	for (size_t i = 0; i < n && i < SRUN_ENTRIES_SHOWN; i++)
		fprintf(m, " %s", syslet_obj__entry_name(obj, i));
	if (n > SRUN_ENTRIES_SHOWN)
		fprintf(m, " and %zu more (sysletc -d lists them)",
			n - SRUN_ENTRIES_SHOWN);
	fputc('\n', m);
	if (mem) {
		if (!fclose(mem))
			fputs(msg, stderr);
		free(msg);
	}
	return NULL;
}
