/* image.c: opening a .slo for libsyslet: validation, ABI profile check, entries and parameters. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common/quote.h"
#include "image-priv.h"
#include "common/readfile.h"
#include "common/systab.h"

void slio_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	/* A message without conversions is copied: every open of an image
	 * sets "out of memory" first, and vsnprintf()'s code is libc pages
	 * that a run which never fails would fault in for it alone. */
	if (!strchr(fmt, '%')) {
		size_t n = strnlen(fmt, errlen - 1);

		memcpy(err, fmt, n);
		err[n] = '\0';
		return;
	}
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	/* What the caller gave (a parameter's value, an entry's name, a
	 * path) is quoted in the message: it must not reach a terminal as
	 * a control byte, nor split a one-line message. */
	common_unctrl(err, strlen(err), 0);
}

/* Does [off, off + len) lie inside a section of `size` bytes? */
static bool in_section(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && size - off >= len;
}

/*
 * The reader validated the ELF structure; these checks guard what the
 * loader itself relies on when it copies and patches memory, so that a
 * model built by any other means cannot make it write out of bounds.
 */
static int check_symbol(const struct slo_image *img, size_t i, char *err,
			size_t errlen)
{
	const struct slo_symbol *s = &img->syms[i];
	uint64_t asz = (uint64_t)SLIO_ATOM_WORDS * img->word_size;
	bool ok;

	if (!s->name || !*s->name) {
		slio_err(err, errlen, "symbol %zu has no name", i);
		return -1;
	}
	switch (s->kind) {
	case SLO_SYM_ENTRY:
	case SLO_SYM_LABEL:
		ok = s->section == SLO_SEC_ATOMS && s->value % asz == 0 &&
		     s->value < img->size[SLO_SEC_ATOMS];
		break;
	case SLO_SYM_VAR:
	case SLO_SYM_PARAM:
		ok = s->section == SLO_SEC_CELLS &&
		     s->value % img->word_size == 0 &&
		     in_section(s->value, img->word_size,
				img->size[SLO_SEC_CELLS]);
		break;
	case SLO_SYM_BUFFER:
		ok = s->section == SLO_SEC_BSS &&
		     in_section(s->value, s->size, img->size[SLO_SEC_BSS]);
		break;
	case SLO_SYM_DATA:
		ok = s->section == SLO_SEC_RODATA &&
		     in_section(s->value, s->size, img->size[SLO_SEC_RODATA]);
		break;
	default:
		ok = false;
	}
	if (!ok) {
		slio_err(err, errlen, "symbol '%s' lies outside its section",
			 s->name);
		return -1;
	}
	if (s->kind == SLO_SYM_PARAM &&
	    (s->entry < 0 || (size_t)s->entry >= img->nr_syms ||
	     img->syms[s->entry].kind != SLO_SYM_ENTRY || s->param_index < 0 ||
	     (s->param_type != SLO_PARAM_INT &&
	      s->param_type != SLO_PARAM_STR &&
	      s->param_type != SLO_PARAM_SOCKADDR_IN))) {
		slio_err(err, errlen, "parameter '%s' is malformed", s->name);
		return -1;
	}
	return 0;
}

static int check_relocs(const struct slo_image *img, char *err, size_t errlen)
{
	for (size_t i = 0; i < img->nr_relocs; i++) {
		const struct slo_reloc *r = &img->relocs[i];

		if ((r->where != SLO_SEC_ATOMS && r->where != SLO_SEC_CELLS &&
		     r->where != SLO_SEC_RODATA) ||
		    (unsigned)r->target >= SLO_NR_SECTIONS ||
		    !in_section(r->offset, img->word_size,
				img->size[r->where]) ||
		    r->addend > img->size[r->target]) {
			slio_err(err, errlen,
				 "relocation %zu points outside the image", i);
			return -1;
		}
	}
	return 0;
}

static void report_first(void *ctx, size_t atom, const char *msg)
{
	char *first = ctx;

	if (*first)
		return;
	if (atom == (size_t)-1)
		snprintf(first, 200, "%s", msg);
	else
		snprintf(first, 200, "atom %zu: %s", atom, msg);
}

/*
 * An image runs only on the numbering it was compiled for.  The one
 * exception is the seeds' i386-2007 numbering on an i386 library: it
 * equals today's i386 below 320, and its syslet calls 320..324 are
 * translated; numbers above them meant nothing in 2007 and are refused.
 */
static int native_numbers(struct syslet_obj *obj, char *err, size_t errlen)
{
	const struct slo_image *img = obj->img;
	enum systab_profile native = systab_native_profile();
	enum systab_profile p = (enum systab_profile)img->profile;
	uint64_t asz = (uint64_t)SLIO_ATOM_WORDS * img->word_size;
	bool translate = p == SYSTAB_I386_2007 && native == SYSTAB_I386;

	if (img->word_size != sizeof(long) || (p != native && !translate)) {
		/* What the user can do: compile for the profile that runs. */
		slio_err(err, errlen,
			 "image is for the %s ABI profile; this library runs %s "
			 "(compile the source again with sysletc --target=%s)",
			 systab_profile_name(p) ? systab_profile_name(p) : "unknown",
			 systab_profile_name(native), systab_profile_name(native));
		errno = ENOEXEC;
		return -1;
	}
	obj->nr = calloc(img->nr_atoms ? img->nr_atoms : 1, sizeof(long));
	if (!obj->nr)
		return -1;
	for (size_t i = 0; i < img->nr_atoms; i++) {
		long nr = (long)slo_image_word(img, SLO_SEC_ATOMS,
					       i * asz + img->word_size);
		int call = systab_syslet_call(p, nr);

		if (translate && call >= 0) {
			nr = systab_syslet_nr(native, call);
		} else if (translate && nr >= systab_nr_syscalls(p)) {
			slio_err(err, errlen,
				 "atom %zu: syscall %ld has no meaning in the i386-2007 profile",
				 i, nr);
			errno = ENOEXEC;
			return -1;
		}
		obj->nr[i] = nr;
	}
	return 0;
}

static int param_cmp(const void *a, const void *b)
{
	const struct slo_symbol *x = *(const struct slo_symbol *const *)a;
	const struct slo_symbol *y = *(const struct slo_symbol *const *)b;

	return x->param_index - y->param_index;
}

/* An entry's parameters, gathered by index_symbols(): in order, numbered
 * 0..n-1 without a gap. */
static int name_params(struct slio_entry *e, char *err, size_t errlen)
{
	size_t n = (size_t)e->nr_params;

	qsort(e->param_syms, n, sizeof(*e->param_syms), param_cmp);
	for (size_t i = 0; i < n; i++) {
		const struct slo_symbol *s = e->param_syms[i];
		const char *dot = strchr(s->name, '.');

		if (s->param_index != (int)i) {
			slio_err(err, errlen,
				 "parameters of %s are not numbered 0..%zu",
				 e->sym->name, n - 1);
			return -1;
		}
		e->params[i].sz = sizeof(e->params[i]);
		e->params[i].name = dot ? dot + 1 : s->name;
		e->params[i].type =
			s->param_type == SLO_PARAM_INT ? SYSLET_PARAM_INT :
			s->param_type == SLO_PARAM_SOCKADDR_IN ?
				SYSLET_PARAM_SOCKADDR_IN : SYSLET_PARAM_STR;
	}
	return 0;
}

static int cell_order(const void *a, const void *b)
{
	const struct slo_symbol *x = *(const struct slo_symbol *const *)a;
	const struct slo_symbol *y = *(const struct slo_symbol *const *)b;

	return x->value < y->value ? -1 : x->value > y->value;
}

/* Which lookup finds a kind of symbol (slio_find_sym()'s pairs). */
static int kind_class(enum slo_sym_kind kind)
{
	return kind == SLO_SYM_PARAM ? SLO_SYM_VAR :
	       kind == SLO_SYM_DATA ? SLO_SYM_BUFFER : (int)kind;
}

static const char *short_of(const struct slo_symbol *s)
{
	const char *dot = strchr(s->name, '.');

	return dot ? dot + 1 : NULL;
}

static uint32_t name_hash(const char *name, int cls)
{
	return common_hash_str(name) ^ (uint32_t)cls * 0x9e3779b9u;
}

/* The symbol named @name (its short name if @shortname) of class @cls
 * in index @x, or -1. */
static long name_find(const struct syslet_obj *obj,
		      const struct common_hidx *x, const char *name, int cls,
		      bool shortname)
{
	struct common_hidx_iter it;

	for (long i = common_hidx_first(x, name_hash(name, cls), &it); i >= 0;
	     i = common_hidx_next(x, &it)) {
		const struct slo_symbol *s = &obj->img->syms[i];
		/* The short index holds dotted names only; a name without
		 * a dot has no short form and matches none. */
		const char *n = shortname ? short_of(s) : s->name;

		if (kind_class(s->kind) == cls && n && !strcmp(n, name))
			return i;
	}
	return -1;
}

/* The name indexes and the cells by offset: lookups by name or address
 * cost O(1) or O(log n) whatever the image holds, so that a trace naming
 * the cell of each umem_add is linear in its events.  Each name goes in
 * once per class (the first in the image's order, as a walk found it):
 * 16,000 syslets with a parameter named a must not make one chain of
 * 16,000 equal keys. */
static int index_names(struct syslet_obj *obj)
{
	const struct slo_image *img = obj->img;

	obj->cells_by_off = calloc(obj->nr_cells + 1,
				   sizeof(*obj->cells_by_off));
	obj->short_dup = calloc(img->nr_syms + 1, 1);
	if (!obj->cells_by_off || !obj->short_dup)
		return -1;
	if (obj->nr_cells)
		memcpy(obj->cells_by_off, obj->cells,
		       obj->nr_cells * sizeof(*obj->cells));
	qsort(obj->cells_by_off, obj->nr_cells, sizeof(*obj->cells_by_off),
	      cell_order);
	for (size_t i = 0; i < img->nr_syms; i++) {
		const struct slo_symbol *s = &img->syms[i];
		const char *sh = short_of(s);
		int cls = kind_class(s->kind);
		long dup;

		if (name_find(obj, &obj->by_name, s->name, cls, false) < 0 &&
		    common_hidx_add(&obj->by_name, name_hash(s->name, cls), i))
			return -1;
		if (!sh)
			continue;
		dup = name_find(obj, &obj->by_short, sh, cls, true);
		if (dup >= 0)
			obj->short_dup[dup] = 1;
		else if (common_hidx_add(&obj->by_short, name_hash(sh, cls), i))
			return -1;
	}
	return 0;
}

/*
 * The cells, the entries and each entry's parameters, in passes over the
 * symbols that do not depend on one another's counts: time in proportion
 * to the symbols, however many entries an image has.
 */
static int index_symbols(struct syslet_obj *obj, char *err, size_t errlen)
{
	const struct slo_image *img = obj->img;
	struct slio_entry **of;		/* symbol index -> its entry */
	int ret = -1;

	obj->entries = calloc(img->nr_syms + 1, sizeof(*obj->entries));
	obj->cells = calloc(img->nr_syms + 1, sizeof(*obj->cells));
	of = calloc(img->nr_syms + 1, sizeof(*of));
	if (!obj->entries || !obj->cells || !of)
		goto out;
	for (size_t i = 0; i < img->nr_syms; i++) {
		const struct slo_symbol *s = &img->syms[i];

		if (check_symbol(img, i, err, errlen))
			goto out;
		if (s->kind == SLO_SYM_VAR || s->kind == SLO_SYM_PARAM)
			obj->cells[obj->nr_cells++] = s;
		if (s->kind == SLO_SYM_ENTRY) {
			of[i] = &obj->entries[obj->nr_entries++];
			of[i]->sym = s;
		}
	}
	/* Count, allocate, fill: a parameter naming no entry is ignored. */
	for (size_t i = 0; i < img->nr_syms; i++) {
		const struct slo_symbol *s = &img->syms[i];

		if (s->kind == SLO_SYM_PARAM && s->entry >= 0 &&
		    (size_t)s->entry < img->nr_syms && of[s->entry])
			of[s->entry]->nr_params++;
	}
	for (size_t k = 0; k < obj->nr_entries; k++) {
		struct slio_entry *e = &obj->entries[k];
		size_t n = (size_t)e->nr_params;

		e->param_syms = calloc(n + 1, sizeof(*e->param_syms));
		e->params = calloc(n + 1, sizeof(*e->params));
		if (!e->param_syms || !e->params)
			goto out;
		e->nr_params = 0;
	}
	for (size_t i = 0; i < img->nr_syms; i++) {
		const struct slo_symbol *s = &img->syms[i];
		struct slio_entry *e;

		if (s->kind != SLO_SYM_PARAM || s->entry < 0 ||
		    (size_t)s->entry >= img->nr_syms || !of[s->entry])
			continue;
		e = of[s->entry];
		e->param_syms[e->nr_params++] = s;
	}
	for (size_t k = 0; k < obj->nr_entries; k++)
		if (name_params(&obj->entries[k], err, errlen))
			goto out;
	if (index_names(obj))
		goto out;
	ret = 0;
out:
	free(of);
	return ret;
}

/* Takes ownership of img, whatever happens. */
static struct syslet_obj *obj_from_image(struct slo_image *img, char *err,
					 size_t errlen)
{
	struct syslet_obj *obj;
	char first[200] = "";

	if (!img)
		return NULL;
	obj = calloc(1, sizeof(*obj));
	if (!obj) {
		slo_image_free(img);
		slio_err(err, errlen, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	obj->img = img;
	obj->profile_name = systab_profile_name((enum systab_profile)img->profile);
	errno = ENOMEM;
	slio_err(err, errlen, "out of memory");
	if (slo_image_verify(img, report_first, first)) {
		slio_err(err, errlen, "invalid image: %s", first);
		errno = EINVAL;
		goto fail;
	}
	if (check_relocs(img, err, errlen) || index_symbols(obj, err, errlen)) {
		if (errno == ENOMEM && strcmp(err, "out of memory"))
			errno = EINVAL;
		goto fail;
	}
	if (native_numbers(obj, err, errlen))
		goto fail;
	if (slio_obj_rodata(obj)) {
		slio_err(err, errlen, "cannot map the image's read-only data: %s",
			 strerror(errno));
		goto fail;
	}
	if (slio_obj_layout(obj)) {
		slio_err(err, errlen, "out of memory");
		errno = ENOMEM;
		goto fail;
	}
	if (!obj->nr_entries) {
		slio_err(err, errlen, "image has no syslet entry");
		errno = ENOENT;
		goto fail;
	}
	return obj;
fail:
	syslet_obj__close(obj);
	return NULL;
}

struct syslet_obj *syslet_obj__open_mem(const void *buf, size_t len,
					char *err, size_t errlen)
{
	struct slo_image *img;

	if (!buf) {
		slio_err(err, errlen, "no image");
		errno = EINVAL;
		return NULL;
	}
	img = slo_image_read_mem(buf, len, err, errlen);
	if (!img) {
		errno = ENOEXEC;
		return NULL;
	}
	/* Held to its headers as a file is (common_read_input()): bytes
	 * past what they describe are refused from memory too. */
	if (common_check_elf(buf, len, err, errlen)) {
		slo_image_free(img);
		errno = ENOEXEC;
		return NULL;
	}
	return obj_from_image(img, err, errlen);
}

struct syslet_obj *syslet_obj__open_file(const char *path, char *err,
					 size_t errlen)
{
	struct syslet_obj *obj = NULL;
	char msg[256];
	size_t len;
	char *buf;
	int e;

	if (!path || !*path) {
		slio_err(err, errlen, "%s", path ? "empty image path"
						 : "no image path");
		errno = path ? ENOENT : EINVAL;
		return NULL;
	}
	/* The reader refuses a device before it opens it (opening a
	 * terminal, say, can make it the controlling one), and says
	 * plainly when the file is missing. */
	if (common_read_input(COMMON_PATH_NOT_STDIN(path), COMMON_ELF, &buf,
			      &len, NULL, msg, sizeof(msg))) {
		size_t n = strlen(path);

		e = errno;
		/* A source where an image is wanted, as syslet-run takes
		 * either: say what makes an image of it. */
		if (e == EILSEQ && n > 7 && !strcmp(path + n - 7, ".syslet"))
			slio_err(err, errlen, "%s: %s: a syslet source; sysletc "
				 "compiles it into an image", path, msg);
		else
			slio_err(err, errlen, "%s: %s", path, msg);
		/* Bytes that cannot be an image, or too many of them. */
		errno = e == EILSEQ || e == EFBIG ? ENOEXEC : e;
		return NULL;
	}
	obj = syslet_obj__open_mem(buf, len, msg, sizeof(msg));
	e = errno;
	free(buf);
	if (!obj)
		slio_err(err, errlen, "%s: %s", path, msg);
	errno = e;
	return obj;
}

void syslet_obj__close(struct syslet_obj *obj)
{
	if (!obj)
		return;
	for (size_t i = 0; i < obj->nr_entries; i++) {
		free(obj->entries[i].params);
		free(obj->entries[i].param_syms);
	}
	free(obj->entries);
	free(obj->cells);
	free(obj->cells_by_off);
	common_hidx_free(&obj->by_name);
	common_hidx_free(&obj->by_short);
	free(obj->short_dup);
	free(obj->nr);
	if (obj->names) {
		slo_names_free(obj->names);
		free(obj->names);
	}
	if (obj->ro)
		munmap(obj->ro, obj->ro_len);
	slio_spares_free(&obj->spares);
	free(obj->rels);
	slo_image_free(obj->img);
	free(obj);
}

const char *syslet_obj__profile(const struct syslet_obj *obj)
{
	if (!obj)
		return api_null(EINVAL);
	return obj->profile_name;
}

const char *syslet_obj__source(const struct syslet_obj *obj)
{
	if (!obj)
		return api_null(EINVAL);
	return obj->img->source ? obj->img->source : api_null(ENOENT);
}

size_t syslet_obj__entry_count(const struct syslet_obj *obj)
{
	if (!obj)
		return api_none();
	return obj->nr_entries;
}

const char *syslet_obj__entry_name(const struct syslet_obj *obj, size_t i)
{
	if (!obj)
		return api_null(EINVAL);
	return i < obj->nr_entries ? obj->entries[i].sym->name
				   : api_null(ERANGE);
}

const struct slio_entry *slio_find_entry(const struct syslet_obj *obj,
					 const char *name)
{
	/* The image's own string (syslet_obj__entry_name()), as
	 * syslet-run --each passes it once per instance: no compare. */
	for (size_t i = 0; obj && name && i < obj->nr_entries; i++)
		if (obj->entries[i].sym->name == name ||
		    !strcmp(obj->entries[i].sym->name, name))
			return &obj->entries[i];
	return NULL;
}

int syslet_obj__entry_params(const struct syslet_obj *obj, const char *entry)
{
	const struct slio_entry *e = slio_find_entry(obj, entry);

	if (!obj)
		return api_err(-EINVAL);
	return e ? e->nr_params : api_err(-ENOENT);
}

int syslet_obj__entry_param(const struct syslet_obj *obj, const char *entry,
			    size_t i, struct syslet_param *param)
{
	const struct slio_entry *e = slio_find_entry(obj, entry);

	if (!obj || !api_sz_ok(param, sizeof(*param)))
		return api_err(-EINVAL);
	if (!e)
		return api_err(-ENOENT);
	if (i >= (size_t)e->nr_params)
		return api_err(-ERANGE);
	api_sz_copy(param, &e->params[i], sizeof(e->params[i]));
	return 0;
}

size_t syslet_obj__cell_count(const struct syslet_obj *obj)
{
	if (!obj)
		return api_none();
	return obj->nr_cells;
}

const char *syslet_obj__cell_name(const struct syslet_obj *obj, size_t i)
{
	if (!obj)
		return api_null(EINVAL);
	return i < obj->nr_cells ? obj->cells[i]->name : api_null(ERANGE);
}

const struct slo_symbol *slio_find_sym(const struct syslet_obj *obj,
				       const char *name, int kind1, int kind2)
{
	int cls = kind_class((enum slo_sym_kind)kind1);
	long i;

	if (!obj || !name || cls != kind_class((enum slo_sym_kind)kind2))
		return NULL;
	i = name_find(obj, &obj->by_name, name, cls, false);
	if (i >= 0)
		return &obj->img->syms[i];
	/* A local by its short name, when only one syslet has it. */
	i = name_find(obj, &obj->by_short, name, cls, true);
	return i >= 0 && !obj->short_dup[i] ? &obj->img->syms[i] : NULL;
}

size_t syslet_obj__atom_count(const struct syslet_obj *obj)
{
	if (!obj)
		return api_none();
	return obj->img->nr_atoms;
}

static const char *const role_names[] = {
	[SYSLET_ROLE_CALL] = "call",
	[SYSLET_ROLE_ARITH] = "arith",
	[SYSLET_ROLE_COPY] = "copy",
	[SYSLET_ROLE_TEST] = "test",
	[SYSLET_ROLE_TRAMPOLINE] = "trampoline",
	[SYSLET_ROLE_STOP] = "stop",
	[SYSLET_ROLE_UNKNOWN] = "unknown",
};

const char *syslet_role_name(enum syslet_role role)
{
	if ((unsigned)role > SYSLET_ROLE_UNKNOWN)
		role = SYSLET_ROLE_UNKNOWN;
	return role_names[role];
}

int syslet_obj__atom_info(const struct syslet_obj *obj, size_t index,
			  struct syslet_atom_info *info)
{
	const struct slo_image *img;
	const struct slo_debug *d;
	struct syslet_atom_info ai = { .sz = sizeof(ai) };

	if (!obj || !api_sz_ok(info, sizeof(*info)))
		return api_err(-EINVAL);
	img = obj->img;
	if (index >= img->nr_atoms)
		return api_err(-ERANGE);
	ai.index = index;
	ai.nr = obj->nr[index];
	ai.syscall = systab_name(systab_native_profile(), ai.nr);
	ai.role = SYSLET_ROLE_UNKNOWN;
	ai.source = img->source;
	d = img->debug ? &img->debug[index] : NULL;
	if (d) {
		ai.line = d->line;
		ai.col = d->col;
		if ((unsigned)d->role < SLO_NR_ROLES)
			ai.role = (enum syslet_role)d->role;
		if (d->syscall && *d->syscall)
			ai.syscall = d->syscall;
		ai.text = d->text;
		for (int a = 0; a < 6; a++)
			ai.arg_name[a] = d->name[1 + a];
	}
	ai.role_name = syslet_role_name(ai.role);
	api_sz_copy(info, &ai, sizeof(ai));
	return 0;
}
