/* image-api.c: libsyslet's image API: open and validation (a buffer past the limit refused before it is copied), instances, lookups, binding, atom info. */
#define _GNU_SOURCE	/* posix_openpt, ptsname */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <linux/perf_event.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <cmocka.h>

#include "libsyslet.h"
#include "../image/sample.h"

struct blob {
	char	*buf;
	size_t	len;
};

static struct blob write_image(struct slo_image *img)
{
	struct blob b = { 0 };
	char err[256] = "";
	FILE *f = tmpfile();
	long n;

	assert_non_null(f);
	assert_int_equal(slo_image_write(img, fileno(f), err, sizeof(err)), 0);
	n = lseek(fileno(f), 0, SEEK_END);
	assert_true(n > 0);
	b.buf = malloc((size_t)n);
	b.len = (size_t)n;
	assert_int_equal(pread(fileno(f), b.buf, b.len, 0), n);
	fclose(f);
	slo_image_free(img);
	return b;
}

static struct syslet_obj *open_sample(struct slo_image *img)
{
	struct blob b = write_image(img);
	char err[256] = "";
	struct syslet_obj *obj = syslet_obj__open_mem(b.buf, b.len, err,
						      sizeof(err));

	if (!obj)
		fail_msg("open_mem: %s", err);
	free(b.buf);
	return obj;
}

static void test_listing(void **state)
{
	struct syslet_obj *obj = open_sample(sample_image(systab_native_profile()));
	SYSLET_OPTS(syslet_param, p);
	SYSLET_OPTS(syslet_atom_info, ai);

	assert_string_equal(syslet_obj__profile(obj),
			    systab_profile_name(systab_native_profile()));
	assert_string_equal(syslet_obj__source(obj), "tests/cat.syslet");
	assert_int_equal(syslet_obj__entry_count(obj), 1);
	assert_string_equal(syslet_obj__entry_name(obj, 0), "cat");
	assert_null(syslet_obj__entry_name(obj, 1));
	assert_int_equal(errno, ERANGE);
	assert_int_equal(syslet_obj__entry_params(obj, "cat"), 1);
	assert_int_equal(syslet_obj__entry_param(obj, "cat", 0, &p), 0);
	assert_string_equal(p.name, "path");
	assert_int_equal(p.type, SYSLET_PARAM_STR);
	assert_int_equal(syslet_obj__entry_param(obj, "cat", 1, &p), -ERANGE);
	assert_int_equal(syslet_obj__entry_param(obj, "dog", 0, &p), -ENOENT);
	assert_int_equal(syslet_obj__entry_params(obj, "dog"), -ENOENT);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(syslet_obj__cell_count(obj), 3);
	assert_int_equal(syslet_obj__atom_count(obj), 4);

	assert_int_equal(syslet_obj__atom_info(obj, 0, &ai), 0);
	assert_int_equal(ai.line, 10);
	assert_string_equal(ai.syscall, "open");
	assert_string_equal(ai.text, "fd = open(path, 0);");
	assert_string_equal(ai.role_name, "call");
	assert_int_equal(syslet_obj__atom_info(obj, 2, &ai), 0);
	assert_int_equal(ai.role, SYSLET_ROLE_STOP);
	assert_string_equal(ai.syscall, "close");
	assert_int_equal(syslet_obj__atom_info(obj, 4, &ai), -ERANGE);
	syslet_obj__close(obj);
}

/* Symbols by index and by name; the listing, line by line, with the atom
 * each line lists. */
struct list_seen {
	int	lines, atoms, cells, objects;
	long	last_atom;
	int	label_before_atom1;
	char	prev[128];
};

static void on_line(const struct syslet_list_line *l, void *ctx)
{
	struct list_seen *ls = ctx;

	assert_int_equal(l->sz, sizeof(*l));
	assert_null(strchr(l->text, '\n'));
	ls->lines++;
	if (l->atom >= 0) {
		assert_int_equal(l->part, SYSLET_LIST_ATOMS);
		assert_int_equal(l->atom, ls->last_atom + 1);
		ls->last_atom = l->atom;
		ls->atoms++;
		/* The line starts with its atom's number. */
		assert_int_equal(strtol(l->text, NULL, 10), l->atom);
		if (l->atom == 1 && !strcmp(ls->prev, "again:"))
			ls->label_before_atom1 = 1;
	}
	ls->cells += l->part == SYSLET_LIST_CELLS;
	ls->objects += l->part == SYSLET_LIST_OBJECTS;
	snprintf(ls->prev, sizeof(ls->prev), "%s", l->text);
}

static void test_symbols(void **state)
{
	struct syslet_obj *obj = open_sample(sample_image(systab_native_profile()));
	struct list_seen ls = { .last_atom = -1 };
	SYSLET_OPTS(syslet_sym_info, si);
	size_t n = syslet_obj__sym_count(obj);
	int seen = 0;

	(void)state;
	assert_int_equal(n, 7);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(syslet_obj__sym_info(obj, i, &si), 0);
		if (!strcmp(si.name, "cat.again")) {
			assert_int_equal(si.kind, SYSLET_SYM_LABEL);
			assert_int_equal(si.atom, 1);
			seen |= 1;
		} else if (!strcmp(si.name, "cat")) {
			assert_int_equal(si.kind, SYSLET_SYM_ENTRY);
			assert_int_equal(si.atom, 0);
			seen |= 2;
		} else if (!strcmp(si.name, "buf")) {
			assert_int_equal(si.kind, SYSLET_SYM_BUFFER);
			assert_int_equal(si.atom, -1);
			assert_int_equal(si.size, 64);
			seen |= 4;
		} else if (!strcmp(si.name, "cat.path")) {
			assert_int_equal(si.kind, SYSLET_SYM_PARAM);
			seen |= 8;
		} else if (!strcmp(si.name, "greeting")) {
			assert_int_equal(si.kind, SYSLET_SYM_DATA);
			assert_int_equal(si.size, 3);
			seen |= 16;
		}
	}
	assert_int_equal(seen, 31);
	assert_int_equal(syslet_obj__sym_info(obj, n, &si), -ERANGE);
	si.sz = 0;
	assert_int_equal(syslet_obj__sym_info(obj, 0, &si), -EINVAL);

	assert_int_equal(syslet_obj__find_atom(obj, "cat"), 0);
	assert_int_equal(syslet_obj__find_atom(obj, "cat.again"), 1);
	assert_int_equal(syslet_obj__find_atom(obj, "again"), 1);
	assert_int_equal(syslet_obj__find_atom(obj, "buf"), -ENOENT);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(syslet_obj__find_atom(obj, "dog"), -ENOENT);

	assert_int_equal(syslet_obj__list(obj, NULL, NULL), -EINVAL);
	assert_int_equal(syslet_obj__list(obj, on_line, &ls), 0);
	assert_int_equal(ls.atoms, 4);
	assert_int_equal(ls.last_atom, 3);
	assert_true(ls.label_before_atom1);
	assert_true(ls.cells > 0 && ls.objects > 0);
	syslet_obj__close(obj);
}

/* syslet_atom_info as an older header declared it (up to syscall), with
 * the caller's data after it; and as a newer one, a field longer. */
struct old_atom_info {
	size_t		sz;
	size_t		index;
	long		nr;
	const char	*syscall;
};

static void test_sized(void **state)
{
	struct syslet_obj *obj = open_sample(sample_image(systab_native_profile()));
	struct {
		struct old_atom_info	ai;
		char			after[16];
	} old;
	struct {
		struct syslet_atom_info	ai;
		long			later;
	} nw;
	SYSLET_OPTS(syslet_param, p);

	(void)state;
	memset(&old, 'x', sizeof(old));
	old.ai.sz = sizeof(old.ai);
	assert_int_equal(syslet_obj__atom_info(obj, 2, (void *)&old.ai), 0);
	assert_int_equal(old.ai.sz, sizeof(old.ai));
	assert_int_equal(old.ai.index, 2);
	assert_string_equal(old.ai.syscall, "close");
	for (size_t i = 0; i < sizeof(old.after); i++)
		assert_int_equal(old.after[i], 'x');

	memset(&nw, 0, sizeof(nw));
	nw.ai.sz = sizeof(nw);
	assert_int_equal(syslet_obj__atom_info(obj, 0, &nw.ai), 0);
	assert_string_equal(nw.ai.text, "fd = open(path, 0);");
	assert_int_equal(nw.later, 0);
	nw.later = 1;
	nw.ai.text = NULL;
	assert_int_equal(syslet_obj__atom_info(obj, 0, &nw.ai), -EINVAL);
	assert_int_equal(errno, EINVAL);
	assert_null(nw.ai.text);
	nw.ai.sz = 0;
	assert_int_equal(syslet_obj__atom_info(obj, 0, &nw.ai), -EINVAL);

	p.sz = 0;
	assert_int_equal(syslet_obj__entry_param(obj, "cat", 0, &p), -EINVAL);
	assert_null(p.name);
	syslet_obj__close(obj);
}

/* Every pointer of an instance lands in that instance, never another. */
static void test_instances(void **state)
{
	long res = 0;
	struct syslet_obj *obj = open_sample(sample_image(systab_native_profile()));
	struct syslet_inst *in[3];
	char err[256];

	for (int i = 0; i < 3; i++) {
		in[i] = syslet_obj__instantiate(obj, err, sizeof(err));
		assert_non_null(in[i]);
	}
	for (int i = 0; i < 3; i++) {
		struct syslet_uatom *a0 = syslet_inst__entry(in[i], "cat");
		unsigned long *path = syslet_inst__cell(in[i], "cat.path");
		unsigned long *fd = syslet_inst__cell(in[i], "fd");
		size_t size = 0;
		char *buf = syslet_inst__object(in[i], "buf", &size);
		char *hi = syslet_inst__object(in[i], "greeting", NULL);

		assert_ptr_equal(a0, syslet_inst__atom(in[i], 0));
		assert_ptr_equal(a0->arg_ptr[0], path);
		assert_ptr_equal(a0->ret_ptr, (long *)fd);
		assert_ptr_equal(a0->next, syslet_inst__atom(in[i], 1));
		assert_int_equal(a0->nr, systab_lookup(systab_native_profile(),
							"open"));
		assert_int_equal(*fd, (unsigned long)-1);
		assert_int_equal(size, 64);
		assert_ptr_equal((char *)path[S_BUF], buf);
		assert_ptr_equal((char *)path[S_HI], hi);
		assert_string_equal(hi, "hi");
		/* close has no result cell: it gets a hidden one */
		assert_non_null(syslet_inst__atom(in[i], 2)->ret_ptr);
		*syslet_inst__atom(in[i], 2)->ret_ptr = -9;
		assert_int_equal(syslet_inst__result(in[i],
				 syslet_inst__atom(in[i], 2), &res), 0);
		assert_int_equal(res, -9);
		assert_int_equal(syslet_inst__result(in[i],
				 (struct syslet_uatom *)((char *)a0 + 8), &res),
				 -ERANGE);
		assert_int_equal(syslet_inst__atom_index(in[i], a0), 0);
		for (int j = 0; j < 3; j++)
			if (j != i)
				assert_int_equal(syslet_inst__atom_index(in[j], a0),
						 -ERANGE);
		assert_int_equal(syslet_inst__atom_index(in[i],
				 (struct syslet_uatom *)((char *)a0 + 8)), -ERANGE);
	}
	/* Cells are private. */
	*syslet_inst__cell(in[0], "cat.n") = 7;
	assert_int_equal(*syslet_inst__cell(in[1], "cat.n"), 0);
	assert_null(syslet_inst__cell(in[0], "nothing"));
	assert_null(syslet_inst__entry(in[0], "dog"));
	assert_null(syslet_inst__atom(in[0], 4));
	for (int i = 0; i < 3; i++)
		syslet_inst__free(in[i]);
	syslet_obj__close(obj);
}

/* The ABI lets a result pointer point at any byte (put_user() takes
 * any alignment): syslet_inst__result() reads it as one (UBSan in make
 * check-sanitize saw a misaligned load of long). */
static void test_misaligned_result(void **state)
{
	struct slo_image *img = sample_image(systab_native_profile());
	struct syslet_obj *obj;
	struct syslet_inst *inst;
	struct syslet_uatom *a0;
	long want = -0x123456789L, res = 0;
	char err[256];

	/* sample_atom() wrote open's ret_ptr first: move it 3 bytes on. */
	assert_int_equal(img->relocs[0].offset, 2 * img->word_size);
	img->relocs[0].addend += 3;
	obj = open_sample(img);
	inst = syslet_obj__instantiate(obj, err, sizeof(err));
	assert_non_null(inst);
	a0 = syslet_inst__atom(inst, 0);
	assert_int_equal((uintptr_t)a0->ret_ptr % sizeof(long), 3);
	memcpy(a0->ret_ptr, &want, sizeof(want));
	assert_int_equal(syslet_inst__result(inst, a0, &res), 0);
	assert_int_equal(res, want);
	syslet_inst__free(inst);
	syslet_obj__close(obj);
}

static void test_bind(void **state)
{
	struct slo_image *img = sample_image(systab_native_profile());
	struct syslet_obj *obj;
	struct syslet_inst *in;
	char *args[] = { "abc", "def", NULL };
	char *nums[] = { "0x10", "-5", "99999999999999999999999" };
	char err[256];

	obj = open_sample(img);
	in = syslet_obj__instantiate(obj, err, sizeof(err));
	assert_int_equal(syslet_inst__bind(in, "cat", 1, args, err,
					   sizeof(err)), 0);
	assert_string_equal((char *)*syslet_inst__cell(in, "cat.path"), "abc");
	assert_int_equal(syslet_inst__bind(in, "cat", 1, args + 1, err,
					   sizeof(err)), 0);
	assert_string_equal((char *)*syslet_inst__cell(in, "cat.path"), "def");
	assert_int_equal(syslet_inst__bind(in, "cat", 2, args, err,
					   sizeof(err)), -EINVAL);
	assert_string_equal(err, "cat takes 1 parameter (str path), got 2");
	assert_int_equal(syslet_inst__bind(in, "cat", 0, args, err,
					   sizeof(err)), -EINVAL);
	assert_int_equal(syslet_inst__bind(in, "dog", 0, args, err,
					   sizeof(err)), -ENOENT);
	assert_int_equal(errno, ENOENT);
	assert_string_equal(err, "no syslet named 'dog'");
	syslet_inst__free(in);
	syslet_obj__close(obj);

	img = sample_image(systab_native_profile());
	img->syms[2].param_type = SLO_PARAM_INT;
	obj = open_sample(img);
	in = syslet_obj__instantiate(obj, err, sizeof(err));
	assert_int_equal(syslet_inst__bind(in, "cat", 1, args, err,
					   sizeof(err)), -EINVAL);
	assert_string_equal(err, "parameter path of cat: expected int, got 'abc'");
	assert_int_equal(syslet_inst__bind(in, "cat", 1, nums, err,
					   sizeof(err)), 0);
	assert_int_equal(*syslet_inst__cell(in, "cat.path"), 16);
	assert_int_equal(syslet_inst__bind(in, "cat", 1, nums + 1, err,
					   sizeof(err)), 0);
	assert_int_equal((long)*syslet_inst__cell(in, "cat.path"), -5);
	assert_int_equal(syslet_inst__bind(in, "cat", 1, nums + 2, err,
					   sizeof(err)), -EINVAL);
	/* Past the word below 0, after blanks too (strtoul() negated
	 * " -18446744073709551615" to 1: the sign was looked for at the
	 * first byte only); a blank before a number in range is taken. */
	{
		char *past[] = { " -18446744073709551615",
				 "\t-9223372036854775809", " -1",
				 "  18446744073709551615" };

		for (int i = 0; i < 2; i++) {
			*syslet_inst__cell(in, "cat.path") = 77;
			if (syslet_inst__bind(in, "cat", 1, past + i, err,
					      sizeof(err)) != -EINVAL)
				fail_msg("'%s' bound as %ld", past[i],
					 (long)*syslet_inst__cell(in,
								  "cat.path"));
		}
		assert_int_equal(syslet_inst__bind(in, "cat", 1, past + 2, err,
						   sizeof(err)), 0);
		assert_int_equal((long)*syslet_inst__cell(in, "cat.path"), -1);
		assert_int_equal(syslet_inst__bind(in, "cat", 1, past + 3, err,
						   sizeof(err)), 0);
		assert_int_equal((long)*syslet_inst__cell(in, "cat.path"), -1);
	}
	/* Blanks around a number are taken on both sides (test(1),
	 * int() in Python): " 5" was bound and "5 " refused.  Blanks
	 * alone or inside a number are no number. */
	{
		char *around[] = { "5 ", " 5 ", "5\n", "\t0x10\t",
				   " -7 ", "18446744073709551615 " };
		long want[] = { 5, 5, 5, 16, -7, -1 };
		char *bad[] = { "   ", "5 6", "- 5", "5 x", "\n" };

		for (size_t i = 0; i < 6; i++) {
			*syslet_inst__cell(in, "cat.path") = 77;
			if (syslet_inst__bind(in, "cat", 1, around + i, err,
					      sizeof(err)) ||
			    (long)*syslet_inst__cell(in, "cat.path") != want[i])
				fail_msg("'%s' not bound as %ld: %s (cell %ld)",
					 around[i], want[i], err,
					 (long)*syslet_inst__cell(in,
								  "cat.path"));
		}
		for (size_t i = 0; i < 5; i++)
			if (syslet_inst__bind(in, "cat", 1, bad + i, err,
					      sizeof(err)) != -EINVAL)
				fail_msg("'%s' bound as %ld", bad[i],
					 (long)*syslet_inst__cell(in,
								  "cat.path"));
	}
	syslet_inst__free(in);
	syslet_obj__close(obj);
}

/* An image whose ELF symbols carry a prefix (sysletc's default) is
 * reached by the names the source wrote, the prefixed ones unknown. */
static void test_prefix(void **state)
{
	struct slo_image *img = sample_image(systab_native_profile());
	struct syslet_obj *obj;
	struct syslet_inst *in;
	char *args[] = { "abc", NULL };
	char err[256];

	img->prefix = strdup("cat");
	obj = open_sample(img);
	assert_string_equal(syslet_obj__entry_name(obj, 0), "cat");
	assert_string_equal(syslet_obj__cell_name(obj, 0), "cat.path");
	in = syslet_obj__instantiate(obj, err, sizeof(err));
	assert_non_null(in);
	assert_non_null(syslet_inst__entry(in, "cat"));
	assert_null(syslet_inst__entry(in, "cat_cat"));
	assert_non_null(syslet_inst__cell(in, "fd"));
	assert_non_null(syslet_inst__cell(in, "cat.fd"));
	assert_null(syslet_inst__cell(in, "cat_cat.fd"));
	assert_non_null(syslet_inst__object(in, "buf", NULL));
	assert_null(syslet_inst__object(in, "cat_buf", NULL));
	assert_int_equal(syslet_inst__bind(in, "cat", 1, args, err,
					   sizeof(err)), 0);
	assert_string_equal((char *)*syslet_inst__cell(in, "path"), "abc");
	syslet_inst__free(in);
	syslet_obj__close(obj);
}

/* The image's own name (syslet_obj__entry_name(), found without a
 * compare) and a copy of it reach the same entry, bind the same cell. */
static void test_entry_own_name(void **state)
{
	struct syslet_obj *obj = open_sample(sample_image(systab_native_profile()));
	const char *own = syslet_obj__entry_name(obj, 0);
	char copy[] = "cat", *args[] = { "abc", NULL }, *args2[] = { "de", NULL };
	struct syslet_inst *in;
	char err[256];

	(void)state;
	assert_non_null(own);
	in = syslet_obj__instantiate(obj, err, sizeof(err));
	assert_non_null(in);
	assert_non_null(syslet_inst__entry(in, own));
	assert_ptr_equal(syslet_inst__entry(in, own),
			 syslet_inst__entry(in, copy));
	assert_int_equal(syslet_obj__entry_params(obj, own), 1);
	assert_int_equal(syslet_inst__bind(in, own, 1, args, err,
					   sizeof(err)), 0);
	assert_string_equal((char *)*syslet_inst__cell(in, "path"), "abc");
	assert_int_equal(syslet_inst__bind(in, copy, 1, args2, err,
					   sizeof(err)), 0);
	assert_string_equal((char *)*syslet_inst__cell(in, "path"), "de");
	/* A copy that differs is no entry, however close. */
	copy[2] = 'r';
	assert_null(syslet_inst__entry(in, copy));
	syslet_inst__free(in);
	syslet_obj__close(obj);
}

/* Instances made after others were freed (their records kept for
 * them) start as a first one does: cells zero, no binding, each its own
 * memory; and closing the image frees the records kept (valgrind.sh). */
static void test_inst_reuse(void **state)
{
	struct syslet_obj *obj = open_sample(sample_image(systab_native_profile()));
	struct syslet_inst *in[80];
	char *args[] = { "abc", NULL };
	char err[256];

	(void)state;
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < 80; i++) {
			in[i] = syslet_obj__instantiate(obj, err, sizeof(err));
			assert_non_null(in[i]);
			assert_int_equal(*syslet_inst__cell(in[i], "path"), 0);
			assert_non_null(syslet_inst__entry(in[i], "cat"));
			for (int k = 0; k < i; k++)
				assert_ptr_not_equal(syslet_inst__cell(in[k],
								       "path"),
						     syslet_inst__cell(in[i],
								       "path"));
			assert_int_equal(syslet_inst__bind(in[i], "cat", 1,
							   args, err,
							   sizeof(err)), 0);
		}
		for (int i = 0; i < 80; i++) {
			assert_string_equal((char *)*syslet_inst__cell(in[i],
								      "path"),
					    "abc");
			syslet_inst__free(in[i]);
		}
	}
	syslet_obj__close(obj);
}

/* A sockaddr_in parameter takes "HOST:PORT": the cell points at the
 * struct, in network order, as bind() and connect() want it. */
static void test_bind_sockaddr_in(void **state)
{
	struct slo_image *img = sample_image(systab_native_profile());
	char *good[] = { "127.0.0.1:8080", ":80", "*:1", "localhost:65535" };
	char *bad[] = { "127.0.0.1", "127.0.0.1:", "1.2.3:80", "host:80",
			"10.0.0.1:65536", "10.0.0.1:-1", "10.0.0.1:8x" };
	static const unsigned char want[4][8] = {
		{ 2, 0, 0x1f, 0x90, 127, 0, 0, 1 },
		{ 2, 0, 0, 80, 0, 0, 0, 0 },
		{ 2, 0, 0, 1, 0, 0, 0, 0 },
		{ 2, 0, 0xff, 0xff, 127, 0, 0, 1 },
	};
	SYSLET_OPTS(syslet_param, p);
	struct syslet_obj *obj;
	struct syslet_inst *in;
	char err[256];

	(void)state;
	img->syms[2].param_type = SLO_PARAM_SOCKADDR_IN;
	obj = open_sample(img);
	assert_int_equal(syslet_obj__entry_params(obj, "cat"), 1);
	assert_int_equal(syslet_obj__entry_param(obj, "cat", 0, &p), 0);
	assert_int_equal(p.type, SYSLET_PARAM_SOCKADDR_IN);
	in = syslet_obj__instantiate(obj, err, sizeof(err));
	assert_non_null(in);
	for (int i = 0; i < 4; i++) {
		const unsigned char *sa;

		assert_int_equal(syslet_inst__bind(in, "cat", 1, good + i, err,
						   sizeof(err)), 0);
		sa = (const unsigned char *)*syslet_inst__cell(in, "cat.path");
		assert_memory_equal(sa, want[i], 8);
		for (int k = 8; k < 16; k++)
			assert_int_equal(sa[k], 0);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(syslet_inst__bind(in, "cat", 1, bad + i, err,
						   sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "expected HOST:PORT"));
	}
	assert_int_equal(syslet_inst__bind(in, "cat", 0, bad, err,
					   sizeof(err)), -EINVAL);
	assert_string_equal(err, "cat takes 1 parameter (sockaddr_in path), "
			    "got 0");
	syslet_inst__free(in);
	syslet_obj__close(obj);
}

static void test_bad_input(void **state)
{
	struct blob b = write_image(sample_image(systab_native_profile()));
	char err[256];

	/* Every truncation is refused with a message, never a crash. */
	for (size_t len = 0; len < b.len; len += 7) {
		err[0] = '\0';
		assert_null(syslet_obj__open_mem(b.buf, len, err, sizeof(err)));
		assert_true(err[0] != '\0');
	}
	assert_null(syslet_obj__open_mem("hello", 5, err, sizeof(err)));
	assert_null(syslet_obj__open_mem(NULL, 5, err, sizeof(err)));
	free(b.buf);

	assert_null(syslet_obj__open_file("/nonexistent/x.slo", err,
					  sizeof(err)));
	assert_string_equal(err,
			    "/nonexistent/x.slo: No such file or directory");
	assert_int_equal(errno, ENOENT);
}

/* A buffer past the 1 GiB limit is refused before anything is copied:
 * open_mem copied all of it first (a 1.1 GiB buffer: 1.1 GB more
 * resident and 4 s), then said it was too large.  The buffer holds an
 * image at its start; its untouched pages cost nothing until read. */
static void test_open_mem_too_large(void **state)
{
	struct blob b = write_image(sample_image(systab_native_profile()));
	size_t len = ((size_t)1 << 30) + ((size_t)64 << 20);
	char *big = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	struct rusage before, after;
	char err[256] = "";

	(void)state;
	if (big == MAP_FAILED)
		skip();
	memcpy(big, b.buf, b.len);
	assert_int_equal(getrusage(RUSAGE_SELF, &before), 0);
	assert_null(syslet_obj__open_mem(big, len, err, sizeof(err)));
	assert_int_equal(getrusage(RUSAGE_SELF, &after), 0);
	assert_string_equal(err, "larger than the limit of 1 GiB");
	/* ru_maxrss is in KiB: far less than the buffer's 1.06 GiB. */
	if (after.ru_maxrss - before.ru_maxrss > 64 * 1024)
		fail_msg("open_mem of a %zu-byte buffer grew the resident "
			 "set by %ld KiB", len,
			 after.ru_maxrss - before.ru_maxrss);
	munmap(big, len);
	free(b.buf);
}

/* A hostile image's words never reach a terminal as control bytes: its
 * debug texts and source name come out with them made '?' (as sysletc
 * stores them), a symbol name with one is refused, and the message
 * that says so holds none. */
static void test_hostile_text(void **state)
{
	struct slo_image *img = sample_image(systab_native_profile());
	struct syslet_atom_info ai = { .sz = sizeof(ai) };
	struct syslet_obj *obj;
	struct blob b;
	char err[256] = "";

	free(img->source);
	img->source = strdup("x\033[2J.syslet");
	free(img->debug[0].text);
	img->debug[0].text = strdup("open(\033]0;title\007, 0)\177");
	obj = open_sample(img);
	assert_int_equal(syslet_obj__atom_info(obj, 0, &ai), 0);
	assert_string_equal(ai.source, "x?[2J.syslet");
	assert_string_equal(ai.text, "open(?]0;title?, 0)?");
	assert_string_equal(syslet_obj__source(obj), "x?[2J.syslet");
	syslet_obj__close(obj);

	img = sample_image(systab_native_profile());
	free(img->syms[3].name);
	img->syms[3].name = strdup("cat.\033]0;x\007fd");
	b = write_image(img);
	assert_null(syslet_obj__open_mem(b.buf, b.len, err, sizeof(err)));
	assert_non_null(strstr(err, "symbol"));
	for (const char *p = err; *p; p++)
		assert_true((unsigned char)*p >= 0x20 && *p != 0x7f);
	free(b.buf);
}

/* A source given for an image says what it is and what makes an image
 * of it: a program built on the image API is often handed one, as
 * syslet-run takes either. */
static void test_open_file_source(void **state)
{
	char path[] = "/tmp/image-api-XXXXXX.syslet";
	const char src[] = "syslet s() { getpid(); }\n";
	char err[256] = "";
	int fd = mkstemps(path, 7);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, src, sizeof(src) - 1), sizeof(src) - 1);
	close(fd);
	assert_null(syslet_obj__open_file(path, err, sizeof(err)));
	assert_int_equal(errno, ENOEXEC);
	unlink(path);
	assert_non_null(strstr(err, ": not an ELF file: a syslet source; "
				    "sysletc compiles it into an image"));
}

/* syslet_obj__open_file() refuses a device before opening it: opening
 * one can have effects of its own.  Here a terminal, which became the
 * controlling terminal of a session without one (the probe that opened
 * the file before reading it did so without O_NOCTTY). */
static void test_open_file_device(void **state)
{
	char err[256] = "";
	char *pts = NULL;
	int m, st;
	pid_t pid;

	assert_null(syslet_obj__open_file("/dev/zero", err, sizeof(err)));
	assert_int_equal(errno, EINVAL);
	assert_string_equal(err, "/dev/zero: not a regular file or a pipe "
			    "(a character device)");
	assert_null(syslet_obj__open_file("/", err, sizeof(err)));
	assert_int_equal(errno, EISDIR);
	m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m < 0 || grantpt(m) || unlockpt(m) || !(pts = ptsname(m))) {
		if (m >= 0)
			close(m);
		skip();
	}
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		int tty;

		if (setsid() < 0)
			_exit(3);
		if (syslet_obj__open_file(pts, err, sizeof(err)))
			_exit(4);
		tty = open("/dev/tty", O_RDWR | O_NOCTTY);
		_exit(tty >= 0 ? 5 : errno == ENXIO ? 0 : 6);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	close(m);
	/* 5: the terminal became the child's controlling terminal. */
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* Hostile bytes: open_mem either refuses them with a message or yields
 * an image whose instances stay inside their own memory. */
static void test_mutations(void **state)
{
	struct blob b = write_image(sample_image(systab_native_profile()));
	unsigned int seed = 1;
	char *copy = malloc(b.len);
	char err[256];

	assert_non_null(copy);
	for (int round = 0; round < 3000; round++) {
		struct syslet_obj *obj;

		memcpy(copy, b.buf, b.len);
		for (int k = 0; k < 1 + round % 4; k++)
			copy[rand_r(&seed) % b.len] = (char)rand_r(&seed);
		err[0] = '\0';
		obj = syslet_obj__open_mem(copy, b.len, err, sizeof(err));
		if (!obj) {
			assert_true(err[0] != '\0');
			continue;
		}
		syslet_inst__free(syslet_obj__instantiate(obj, err,
							  sizeof(err)));
		syslet_obj__close(obj);
	}
	free(copy);
	free(b.buf);
}

static void test_profile(void **state)
{
	struct blob b;
	struct syslet_obj *obj;
	char err[256] = "";

	b = write_image(sample_image(SYSTAB_I386_2007));
	obj = syslet_obj__open_mem(b.buf, b.len, err, sizeof(err));
	if (systab_native_profile() == SYSTAB_X86_64) {
		assert_null(obj);
		assert_string_equal(err,
			"image is for the i386-2007 ABI profile; this library runs x86_64 "
			"(compile the source again with sysletc --target=x86_64)");
	} else {
		/* The seeds' numbering is translated on today's i386. */
		assert_non_null(obj);
		syslet_obj__close(obj);
	}
	free(b.buf);
	if (systab_native_profile() == SYSTAB_X86_64) {
		b = write_image(sample_image(SYSTAB_I386));
		assert_null(syslet_obj__open_mem(b.buf, b.len, err,
						 sizeof(err)));
		assert_non_null(strstr(err, "i386 ABI profile"));
		free(b.buf);
	}
}

/* What a system call writes through a pointer: the kernel's word on
 * whether the memory is there and writable (the bytes come from a pipe
 * holding a 64 KiB pattern).  The count written, or -errno. */
static long kernel_write(void *at, size_t len)
{
	static char pattern[65536];
	int p[2];
	long n;

	memset(pattern, 0x5a, sizeof(pattern));
	assert_int_equal(pipe(p), 0);
	/* 64 KiB fits the pipe: nothing blocks. */
	assert_int_equal(write(p[1], pattern, sizeof(pattern)),
			 (long)sizeof(pattern));
	n = read(p[0], at, len);
	if (n < 0)
		n = -errno;
	close(p[0]);
	close(p[1]);
	return n;
}

/* An overflow of a buffer or a cell ends at a guard page of its own
 * instance, a bound string is read-only: never the heap, never another
 * instance. */
static void test_overflow(void **state)
{
	struct syslet_obj *obj = open_sample(sample_image(systab_native_profile()));
	struct syslet_inst *in[3];
	char *args[] = { "a path" };
	char err[256];
	long n;

	for (int i = 0; i < 3; i++) {
		in[i] = syslet_obj__instantiate(obj, err, sizeof(err));
		assert_non_null(in[i]);
		assert_int_equal(syslet_inst__bind(in[i], "cat", 1, args, err,
						   sizeof(err)), 0);
	}
	for (int i = 0; i < 3; i++) {
		size_t size = 0;
		char *buf = syslet_inst__object(in[i], "buf", &size);
		char *path = (char *)*syslet_inst__cell(in[i], "cat.path");
		unsigned long *fd = syslet_inst__cell(in[i], "cat.fd");

		/* The buffer takes its 64 bytes and not one more (a pipe
		 * fails a partly copied page with EFAULT). */
		n = kernel_write(buf, 65536);
		assert_true(n == (long)size || n == -EFAULT);
		/* Bound strings are read-only. */
		assert_int_equal(kernel_write(path, 1), -EFAULT);
		assert_string_equal(path, "a path");
		/* A cell is written, and an overflow of one stays in the
		 * instance's own writable part. */
		assert_int_equal(kernel_write(fd, sizeof(*fd)),
				 (long)sizeof(*fd));
		n = kernel_write(fd, 65536);
		assert_true(n == -EFAULT || (n > 0 && n < 65536));
		*fd = 3;
	}
	for (int i = 0; i < 3; i++) {
		struct syslet_uatom *a0 = syslet_inst__entry(in[i], "cat");

		/* The other instances' atoms and cells are as they were. */
		assert_ptr_equal(a0->arg_ptr[0],
				 syslet_inst__cell(in[i], "cat.path"));
		assert_ptr_equal(a0->next, syslet_inst__atom(in[i], 1));
		assert_int_equal(*syslet_inst__cell(in[i], "cat.fd"), 3);
		assert_string_equal((char *)*syslet_inst__cell(in[i],
							       "cat.path"),
				    "a path");
		syslet_inst__free(in[i]);
	}
	syslet_obj__close(obj);
}

static long resident_kib(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long size = 0, res = 0;

	assert_non_null(f);
	assert_int_equal(fscanf(f, "%ld %ld", &size, &res), 2);
	fclose(f);
	return res * (sysconf(_SC_PAGESIZE) / 1024);
}

/* A large .syslet.bss costs nothing until a syslet touches it. */
static void test_lazy(void **state)
{
	struct slo_image *img = sample_image(systab_native_profile());
	enum { N = 8 };
	const size_t big = 64 << 20;	/* the compiler's largest buffer */
	struct syslet_inst *in[N];
	struct syslet_obj *obj;
	char err[256];
	long before, after;

	img->size[SLO_SEC_BSS] = big;
	img->syms[5].size = big;
	obj = open_sample(img);
	before = resident_kib();
	for (int i = 0; i < N; i++) {
		in[i] = syslet_obj__instantiate(obj, err, sizeof(err));
		if (!in[i])
			fail_msg("instantiate: %s", err);
	}
	after = resident_kib();
	/* 8 x 64 MiB zeroed by hand would be 512 MiB; a few pages each. */
	if (after - before > 8 * 1024)
		fail_msg("%d instances of a %zu MiB bss made %ld KiB resident",
			 N, big >> 20, after - before);
	/* Still all there and zero. */
	for (int i = 0; i < N; i++) {
		size_t size = 0;
		unsigned char *b = syslet_inst__object(in[i], "buf", &size);

		assert_int_equal(size, big);
		assert_int_equal(b[0] | b[big / 2] | b[big - 1], 0);
		b[big - 1] = 1;
		syslet_inst__free(in[i]);
	}
	syslet_obj__close(obj);
}

static long minor_faults(void)
{
	struct rusage ru;

	assert_int_equal(getrusage(RUSAGE_SELF, &ru), 0);
	return ru.ru_minflt;
}

/*
 * Freeing instances brings in no page: a freed slot is zeroed when it is
 * taken again, not when it is freed (a program that frees its instances
 * before it exits paid for pages its syslets never touched: 2 faults an
 * instance here).  A slot taken again is all zero but for the image's
 * own data.
 */
static void test_free_lazy(void **state)
{
	struct slo_image *img = sample_image(systab_native_profile());
	enum { N = 200 };
	const size_t bss = 8192;	/* two pages nobody touches */
	struct syslet_inst *in[N];
	struct syslet_obj *obj;
	char err[256];
	long before;
	size_t size = 0;
	unsigned char *b;

	img->size[SLO_SEC_BSS] = bss;
	img->syms[5].size = bss;
	obj = open_sample(img);
	for (int i = 0; i < N; i++) {
		in[i] = syslet_obj__instantiate(obj, err, sizeof(err));
		if (!in[i])
			fail_msg("instantiate: %s", err);
	}
	/* The last one's buffer and cells are used, then it is freed and
	 * made again: the same slot, the only one left of its slab. */
	b = syslet_inst__object(in[N - 1], "buf", &size);
	assert_int_equal(size, bss);
	memset(b, 0x5a, bss);
	*syslet_inst__cell(in[N - 1], "cat.n") = 7;
	before = minor_faults();
	for (int i = 0; i < N; i++)
		syslet_inst__free(in[i]);
	if (minor_faults() - before > N / 10)
		fail_msg("freeing %d instances took %ld page faults", N,
			 minor_faults() - before);
	for (int i = 0; i < N; i++) {
		in[i] = syslet_obj__instantiate(obj, err, sizeof(err));
		if (!in[i])
			fail_msg("instantiate again: %s", err);
		b = syslet_inst__object(in[i], "buf", &size);
		for (size_t k = 0; k < bss; k++)
			if (b[k])
				fail_msg("instance %d: buf[%zu] is %#x", i, k,
					 b[k]);
		assert_int_equal(*syslet_inst__cell(in[i], "cat.n"), 0);
		assert_int_equal(*syslet_inst__cell(in[i], "fd"),
				 (unsigned long)-1);
		assert_string_equal(syslet_inst__object(in[i], "greeting",
							NULL), "hi");
	}
	for (int i = 0; i < N; i++)
		syslet_inst__free(in[i]);
	syslet_obj__close(obj);
}

/*
 * A slot taken again is zeroed from where the instance that had it
 * began, when that is lower than where the new one begins: an instance
 * of another image of the same size, with less to hold, has more bytes
 * before its atoms, and the last one's buffer was there.
 */
static void test_reuse_other(void **state)
{
	const size_t page = 4096, big = 11000, small = 8192;
	struct slo_image *ia = sample_image(systab_native_profile());
	struct slo_image *ib = sample_image(systab_native_profile());
	struct syslet_obj *oa, *ob;
	struct syslet_inst *a, *b;
	unsigned char *buf, *base, *atom0;
	size_t size = 0;
	char err[256];

	(void)state;
	ia->size[SLO_SEC_BSS] = big;
	ia->syms[5].size = big;
	ib->size[SLO_SEC_BSS] = small;
	ib->syms[5].size = small;
	oa = open_sample(ia);
	ob = open_sample(ib);
	a = syslet_obj__instantiate(oa, err, sizeof(err));
	if (!a)
		fail_msg("instantiate: %s", err);
	buf = syslet_inst__object(a, "buf", &size);
	assert_int_equal(size, big);
	memset(buf, 0x5a, big);
	syslet_inst__free(a);
	b = syslet_obj__instantiate(ob, err, sizeof(err));
	if (!b)
		fail_msg("instantiate: %s", err);
	buf = syslet_inst__object(b, "buf", &size);
	assert_int_equal(size, small);
	/* Both take three pages, the buffer last. */
	base = buf + small - 3 * page;
	atom0 = (unsigned char *)syslet_inst__atom(b, 0);
	assert_int_equal((uintptr_t)base % page, 0);
	assert_true(atom0 > base && atom0 < buf);
	for (unsigned char *p = base; p < atom0; p++)
		if (*p)
			fail_msg("%zu bytes before the atoms: %#x, the last "
				 "instance's", (size_t)(atom0 - p), *p);
	for (size_t k = 0; k < small; k++)
		if (buf[k])
			fail_msg("buf[%zu] is %#x", k, buf[k]);
	syslet_inst__free(b);
	syslet_obj__close(oa);
	syslet_obj__close(ob);
}

/* Instances made @n at a time with a @bss of their own, each buffer
 * written as a read(2) into it would; the page faults that cost. */
static long touch_round(struct syslet_obj *obj, struct syslet_inst **in,
			int n, size_t bss)
{
	long before = minor_faults();
	char err[256];

	for (int i = 0; i < n; i++) {
		size_t size = 0;
		unsigned char *b;

		in[i] = syslet_obj__instantiate(obj, err, sizeof(err));
		if (!in[i])
			fail_msg("instantiate: %s", err);
		b = syslet_inst__object(in[i], "buf", &size);
		assert_int_equal(size, bss);
		for (size_t k = 0; k < bss; k++)
			if (b[k])
				fail_msg("instance %d: buf[%zu] is %#x", i, k,
					 b[k]);
		memset(b, 0x5a, bss);
	}
	return minor_faults() - before;
}

/*
 * A program that makes its instances again (a batch after a batch) finds
 * their pages: emptied slabs stay mapped, up to a bound.  Unmapped, every
 * instance of the second batch faulted its pages in again, inside the
 * system calls that wrote to them (a third of the cached benchmark).
 * Past the bound, emptied slabs go back to the kernel.
 */
static void test_reuse_warm(void **state)
{
	struct slo_image *img = sample_image(systab_native_profile());
	enum { N = 600, BIG = 400 };
	static struct syslet_inst *in[N];
	struct syslet_obj *obj;
	long first, again, before;

	img->size[SLO_SEC_BSS] = 4096;
	img->syms[5].size = 4096;
	obj = open_sample(img);
	first = touch_round(obj, in, N, 4096);
	for (int i = 0; i < N; i++)
		syslet_inst__free(in[i]);
	again = touch_round(obj, in, N, 4096);
	for (int i = 0; i < N; i++)
		syslet_inst__free(in[i]);
	if (first < N || again > N / 10)
		fail_msg("%d instances made again took %ld page faults (the "
			 "first time %ld)", N, again, first);
	syslet_obj__close(obj);

	/* 400 x 256 KiB written and freed: not all of it stays. */
	img = sample_image(systab_native_profile());
	img->size[SLO_SEC_BSS] = 256 << 10;
	img->syms[5].size = 256 << 10;
	obj = open_sample(img);
	before = resident_kib();
	touch_round(obj, in, BIG, 256 << 10);
	for (int i = 0; i < BIG; i++)
		syslet_inst__free(in[i]);
	if (resident_kib() - before > 40 * 1024)
		fail_msg("%d freed instances of 256 KiB left %ld KiB resident",
			 BIG, resident_kib() - before);
	syslet_obj__close(obj);
}

/*
 * A new small slot's pages come in with one madvise(MADV_POPULATE_WRITE)
 * as it is taken, not by a page fault each as the instance is written
 * and its buffer read into: 10-12 us a fault under a virtual machine
 * that shadows the page tables, against 0.9 us a system call (issue 13:
 * syslet-run --each of 1,000 files took 266 faults, 137 with this).
 * Counted as the CPU takes them (perf's page-faults; getrusage() counts
 * the pages the advice brought in as well).  Skipped where the kernel
 * has no such advice (before 5.14) or lets no one count.
 */
static long trap_faults(int fd)
{
	uint64_t n = 0;

	assert_int_equal(read(fd, &n, sizeof(n)), (ssize_t)sizeof(n));
	return (long)n;
}

static void test_populate(void **state)
{
	struct slo_image *img;
	enum { N = 64 };
	const size_t bss = 12000;	/* three pages and the atoms' */
	static struct syslet_inst *in[N];
	struct perf_event_attr pa;
	struct syslet_obj *obj;
	void *probe;
	long before, got;
	int fd;

	(void)state;
#ifdef __SANITIZE_ADDRESS__
	skip();		/* ASan's shadow pages fault as well */
#endif
	probe = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(probe != MAP_FAILED);
	if (madvise(probe, 4096, 23 /* MADV_POPULATE_WRITE */)) {
		munmap(probe, 4096);
		skip();
	}
	munmap(probe, 4096);
	memset(&pa, 0, sizeof(pa));
	pa.size = sizeof(pa);
	pa.type = PERF_TYPE_SOFTWARE;
	pa.config = PERF_COUNT_SW_PAGE_FAULTS;
	pa.exclude_hv = 1;
	fd = (int)syscall(SYS_perf_event_open, &pa, 0, -1, -1, 0);
	if (fd < 0)
		skip();
	img = sample_image(systab_native_profile());
	img->size[SLO_SEC_BSS] = bss;
	img->syms[5].size = bss;
	obj = open_sample(img);
	before = trap_faults(fd);
	touch_round(obj, in, N, bss);
	got = trap_faults(fd) - before;
	close(fd);
	for (int i = 0; i < N; i++)
		syslet_inst__free(in[i]);
	syslet_obj__close(obj);
	if (got > N / 2)
		fail_msg("%d new instances of %zu bytes took %ld page faults",
			 N, bss, got);
}

/* Bound strings after fork(): neither process may write over the
 * other's (the string memory is shared between them). */
static void test_fork_strings(void **state)
{
	struct syslet_obj *obj = open_sample(sample_image(systab_native_profile()));
	struct syslet_inst *a, *c;
	char *pa[] = { "parent-before" }, *pc[] = { "parent-after" };
	char err[256], go;
	int to_child[2], st;
	pid_t pid;

	a = syslet_obj__instantiate(obj, err, sizeof(err));
	c = syslet_obj__instantiate(obj, err, sizeof(err));
	assert_non_null(a);
	assert_non_null(c);
	assert_int_equal(syslet_inst__bind(a, "cat", 1, pa, err, sizeof(err)),
			 0);
	assert_int_equal(pipe(to_child), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct syslet_inst *b = syslet_obj__instantiate(obj, err,
								sizeof(err));
		char *pb[] = { "child-wrote-here" };

		/* After the parent bound its string: same offset, once. */
		if (read(to_child[0], &go, 1) != 1 || !b ||
		    syslet_inst__bind(b, "cat", 1, pb, err, sizeof(err)))
			_exit(2);
		_exit(strcmp((char *)*syslet_inst__cell(a, "cat.path"),
			     "parent-before") ? 3 : 0);
	}
	assert_int_equal(syslet_inst__bind(c, "cat", 1, pc, err, sizeof(err)),
			 0);
	assert_int_equal(write(to_child[1], "g", 1), 1);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_string_equal((char *)*syslet_inst__cell(a, "cat.path"),
			    "parent-before");
	assert_string_equal((char *)*syslet_inst__cell(c, "cat.path"),
			    "parent-after");
	close(to_child[0]);
	close(to_child[1]);
	syslet_inst__free(a);
	syslet_inst__free(c);
	syslet_obj__close(obj);
}

/*
 * Where madvise(2) is refused (a kernel built without it answers ENOSYS,
 * a sandbox EPERM), instances still get guard pages (PROT_NONE then),
 * and a freed slot too large to zero by hand is still zero for the next
 * instance.  In a child, which the filter cannot leave: plain checks,
 * an exit code per failure.
 */
static void no_madvise_child(const struct syslet_obj *obj, size_t big, int e)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		/* process_madvise too: the library batches guards in it. */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_madvise, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_madvise, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (unsigned)e),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };
	struct syslet_inst *a, *b;
	unsigned char *buf;
	char err[256], junk[4096];
	size_t size = 0;
	int p[2];
	long n;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		fprintf(stderr, "no seccomp filter here: %s\n", strerror(errno));
		_exit(77);
	}
	a = syslet_obj__instantiate(obj, err, sizeof(err));
	b = syslet_obj__instantiate(obj, err, sizeof(err));
	if (!a || !b) {
		fprintf(stderr, "instantiate: %s\n", err);
		_exit(2);
	}
	buf = syslet_inst__object(a, "buf", &size);
	if (size != big)
		_exit(3);
	/* A read into the buffer's last 16 bytes and on: the guard page. */
	memset(junk, 0x5a, sizeof(junk));
	if (pipe(p) || write(p[1], junk, sizeof(junk)) != sizeof(junk))
		_exit(4);
	n = read(p[0], buf + size - 16, sizeof(junk));
	if (n != 16 && !(n < 0 && errno == EFAULT)) {
		fprintf(stderr, "a read past the buffer: %ld\n", n);
		_exit(5);
	}
	memset(buf, 0xa5, size);
	syslet_inst__free(a);
	a = syslet_obj__instantiate(obj, err, sizeof(err));
	if (!a)
		_exit(6);
	buf = syslet_inst__object(a, "buf", &size);
	for (size_t i = 0; i < size; i++)
		if (buf[i]) {
			fprintf(stderr, "a new instance's bss holds %#x at "
				"%zu: the last one's\n", buf[i], i);
			_exit(7);
		}
	syslet_inst__free(a);
	syslet_inst__free(b);
	_exit(0);
}

static void test_no_madvise(void **state)
{
	static const int errs[] = { ENOSYS, EPERM };

	for (int i = 0; i < 2; i++) {
		struct slo_image *img = sample_image(systab_native_profile());
		/* A size of its own: its slab is made in the child. */
		const size_t big = (96 << 10) + (size_t)i * 4096;
		struct syslet_obj *obj;
		int st;
		pid_t pid;

		img->size[SLO_SEC_BSS] = big;
		img->syms[5].size = big;
		obj = open_sample(img);
		fflush(NULL);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0)
			no_madvise_child(obj, big, errs[i]);
		assert_int_equal(waitpid(pid, &st, 0), pid);
		syslet_obj__close(obj);
		if (WIFEXITED(st) && WEXITSTATUS(st) == 77)
			skip();
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			fail_msg("madvise refused with %s: the child %s %d",
				 strerror(errs[i]), WIFEXITED(st) ?
				 "exited" : "died of signal", WIFEXITED(st) ?
				 WEXITSTATUS(st) : WTERMSIG(st));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_listing),
		cmocka_unit_test(test_sized),
		cmocka_unit_test(test_symbols),
		cmocka_unit_test(test_instances),
		cmocka_unit_test(test_misaligned_result),
		cmocka_unit_test(test_bind),
		cmocka_unit_test(test_prefix),
		cmocka_unit_test(test_entry_own_name),
		cmocka_unit_test(test_inst_reuse),
		cmocka_unit_test(test_bind_sockaddr_in),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_open_mem_too_large),
		cmocka_unit_test(test_hostile_text),
		cmocka_unit_test(test_open_file_device),
		cmocka_unit_test(test_open_file_source),
		cmocka_unit_test(test_profile),
		cmocka_unit_test(test_mutations),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_lazy),
		cmocka_unit_test(test_free_lazy),
		cmocka_unit_test(test_reuse_other),
		cmocka_unit_test(test_populate),
		cmocka_unit_test(test_reuse_warm),
		cmocka_unit_test(test_fork_strings),
		cmocka_unit_test(test_no_madvise),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
