/* image-inst.c: instances of an opened image: private relocated memory, lookups, parameter binding. */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "image-priv.h"

#define SLIO_MAX_ALIGN	4096

/*
 * An instance is one slot of image-mem.c: writable memory ending at a
 * guard page.  The writable objects come last, the buffers at the very
 * end, so that a system call that writes past a buffer or a cell runs
 * into the guard page and fails with EFAULT (or returns what it wrote
 * before the fault), as it would anywhere in the kernel, without
 * reaching the process's heap or another instance; forward overflows
 * never reach the atoms, which come first.  Bound str parameters live in
 * read-only memory (slio_strs_copy).
 */

static size_t round_up(size_t n, size_t align)
{
	return (n + align - 1) & ~(align - 1);
}

/* A section's alignment: what the image asks, a power of two, at least
 * a word. */
static size_t part_align(const struct slo_image *img, int s)
{
	uint64_t a = s < SLO_NR_SECTIONS ? img->align[s] : 0;
	size_t al = sizeof(long);

	while (al < a && al < SLIO_MAX_ALIGN)
		al <<= 1;
	return al;
}

static void put_ptr(unsigned char *at, const void *value)
{
	uintptr_t v = (uintptr_t)value;

	/* rodata fields need not be aligned. */
	memcpy(at, &v, sizeof(v));
}

/* Lay out parts[] one after the other from *at, keeping the largest
 * alignment in *max_align; false when the sizes do not fit a size_t. */
static bool lay_out(struct syslet_inst *inst, const int *parts, int n,
		    size_t *at, size_t *max_align)
{
	const struct slo_image *img = inst->obj->img;

	for (int i = 0; i < n; i++) {
		int s = parts[i];
		size_t al = part_align(img, s);
		uint64_t size = s == SLIO_PART_RESULTS ?
				(uint64_t)img->nr_atoms * sizeof(long) :
				img->size[s];

		/* Not the instance's: one copy for all (part_at()). */
		if (s == SLO_SEC_RODATA && inst->obj->ro)
			continue;
		*at = round_up(*at, al);
		if (size > SIZE_MAX / 2 || *at > SIZE_MAX / 2 - size)
			return false;
		inst->off[s] = *at;
		*at += (size_t)size;
		if (al > *max_align)
			*max_align = al;
	}
	return true;
}

/*
 * An image's rodata (its strings and data objects) is the same in every
 * instance unless it holds an address of an instance's own memory.
 * Then one copy serves them all, made read-only here, when the image is
 * opened: a call that writes through a pointer to a string or a data
 * object fails with EFAULT, as syslet(5) says they are read-only (each
 * instance's writable copy let a read() into a string change what later
 * atoms wrote), and an instance is smaller by it.
 */
int slio_obj_rodata(struct syslet_obj *obj)
{
	const struct slo_image *img = obj->img;
	size_t len = (size_t)img->size[SLO_SEC_RODATA], page = slio_page_size();
	unsigned char *p;

	if (!len || !img->data[SLO_SEC_RODATA])
		return 0;
	for (size_t i = 0; i < img->nr_relocs; i++)
		if (img->relocs[i].where == SLO_SEC_RODATA &&
		    img->relocs[i].target != SLO_SEC_RODATA)
			return 0;
	obj->ro_len = round_up(len, page);
	p = mmap(NULL, obj->ro_len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	memcpy(p, img->data[SLO_SEC_RODATA], len);
	for (size_t i = 0; i < img->nr_relocs; i++) {
		const struct slo_reloc *r = &img->relocs[i];

		if (r->where == SLO_SEC_RODATA)
			put_ptr(p + r->offset, p + r->addend);
	}
	if (mprotect(p, obj->ro_len, PROT_READ)) {
		munmap(p, obj->ro_len);
		return -1;
	}
	obj->ro = p;
	return 0;
}

/* Where part @s of @inst is: its own memory, or the shared rodata. */
static unsigned char *part_at(const struct syslet_inst *inst, int s)
{
	if (s == SLO_SEC_RODATA && inst->obj->ro)
		return inst->obj->ro;
	return inst->base + inst->off[s];
}

/*
 * Where an instance's parts go and what its pointers hold, relative to
 * its memory: the same for every instance of @obj, so worked out when
 * the image is opened (after slio_obj_rodata()), not per instance
 * (syslet-run --each makes one per file: about 300 instructions each).
 * -1 without memory; an image too large for the address space opens,
 * and instantiating it says so.
 */
int slio_obj_layout(struct syslet_obj *obj)
{
	static const int parts[] = { SLO_SEC_ATOMS, SLIO_PART_RESULTS,
				     SLO_SEC_CELLS, SLO_SEC_RODATA,
				     SLO_SEC_BSS };
	const struct slo_image *img = obj->img;
	size_t page = slio_page_size(), end = 0, align = 0, shift, n = 0;
	struct syslet_inst lay = { .obj = obj };

	/* The instance and its table of bound strings in one allocation:
	 * --each makes and frees an instance per file. */
	if (obj->nr_entries >= (SIZE_MAX - sizeof(lay)) /
			       sizeof(*lay.strs) - 1)
		return 0;
	if (!lay_out(&lay, parts, sizeof(parts) / sizeof(parts[0]), &end,
		     &align) || end > SIZE_MAX / 2)
		return 0;
	/* The last buffer ends where the guard page begins. */
	lay.size = round_up(end ? end : 1, page);
	shift = (lay.size - end) & ~(align - 1);
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		lay.off[parts[i]] += shift;
	/* The parts begin at the shift (lay_out() from 0): the bytes
	 * before are padding no syslet of this instance addresses. */
	lay.from = shift;
	obj->rels = calloc(img->nr_relocs ? img->nr_relocs : 1,
			   sizeof(*obj->rels));
	if (!obj->rels)
		return -1;
	/* Pointer fields hold the addend (i386) or zero: overwrite both
	 * (the shared rodata's own were, when the image was opened). */
	for (size_t i = 0; i < img->nr_relocs; i++) {
		const struct slo_reloc *r = &img->relocs[i];
		struct slio_rel *o = &obj->rels[n];

		if (r->where == SLO_SEC_RODATA && obj->ro)
			continue;
		o->at = lay.off[r->where] + (size_t)r->offset;
		o->shared = r->target == SLO_SEC_RODATA && obj->ro;
		o->value = o->shared ?
			   (uintptr_t)obj->ro + (uintptr_t)r->addend :
			   lay.off[r->target] + (uintptr_t)r->addend;
		n++;
	}
	obj->nr_rels = n;
	memcpy(obj->lay_off, lay.off, sizeof(obj->lay_off));
	obj->lay_size = lay.size;
	obj->lay_from = lay.from;
	obj->lay_ok = true;
	return 0;
}

struct syslet_inst *syslet_obj__instantiate(const struct syslet_obj *obj,
					    char *err, size_t errlen)
{
	const struct slo_image *img;
	struct syslet_inst *inst = NULL, lay = { .obj = obj };
	void *rec = NULL;
	bool heap = false;

	if (!obj) {
		slio_err(err, errlen, "no image");
		errno = EINVAL;
		return NULL;
	}
	img = obj->img;
	if (!obj->lay_ok)
		goto nomem;
	memcpy(lay.off, obj->lay_off, sizeof(lay.off));
	lay.size = obj->lay_size;
	lay.from = obj->lay_from;
	/* The record of an instance of this image that was freed, if any,
	 * in the same hold of the lock as the slot (slio_inst_put()). */
	lay.base = slio_slot_get(lay.size, lay.from, &lay.slab,
				 &((struct syslet_obj *)obj)->spares, &rec,
				 &heap);
	if (!lay.base && heap)
		goto nomem;
	if (!lay.base) {
		/* Before Linux 6.13 each guard page is a mapping; under an
		 * address space limit that limit is the likelier cause. */
		int e = errno;
		struct rlimit as;
		bool limited = !getrlimit(RLIMIT_AS, &as) &&
			       as.rlim_cur != RLIM_INFINITY;

		slio_err(err, errlen, "cannot map an instance of %zu bytes: %s%s",
			 lay.size, strerror(e), e != ENOMEM ? "" :
			 limited ? " (the address space limit, ulimit -v?)" :
			 " (too many instances for vm.max_map_count?)");
		errno = ENOMEM;
		return NULL;
	}
	inst = rec ? rec : malloc(sizeof(*inst) + (obj->nr_entries + 1) *
						  sizeof(*inst->strs));
	if (!inst) {
		slio_inst_put(NULL, 0, lay.slab, lay.base, lay.from, NULL,
			      NULL);
		goto nomem;
	}
	*inst = lay;
	inst->strs = (struct slio_chunk **)(inst + 1);
	memset(inst->strs, 0, (obj->nr_entries + 1) * sizeof(*inst->strs));
	for (int s = 0; s < SLO_NR_SECTIONS; s++)
		if (s != SLO_SEC_BSS && img->data[s] && img->size[s] &&
		    !(s == SLO_SEC_RODATA && obj->ro))
			memcpy(inst->base + inst->off[s], img->data[s],
			       (size_t)img->size[s]);
	/* The pointers, as slio_obj_layout() worked them out. */
	for (size_t i = 0; i < obj->nr_rels; i++) {
		const struct slio_rel *r = &obj->rels[i];

		put_ptr(inst->base + r->at, (const void *)(r->value +
			(r->shared ? 0 : (uintptr_t)inst->base)));
	}
	for (size_t i = 0; i < img->nr_atoms; i++) {
		struct syslet_uatom *a = syslet_inst__atom(inst, i);

		if (!a)		/* cannot be: i < nr_atoms */
			break;
		a->nr = (unsigned long)obj->nr[i];
		if (!a->ret_ptr)
			a->ret_ptr = (long *)(inst->base +
					      inst->off[SLIO_PART_RESULTS]) + i;
	}
	return inst;
nomem:
	syslet_inst__free(inst);
	slio_err(err, errlen, "out of memory");
	errno = ENOMEM;
	return NULL;
}

void syslet_inst__free(struct syslet_inst *inst)
{
	if (!inst)
		return;
	slio_inst_put(inst->strs, inst->obj->nr_entries, inst->slab,
		      inst->base, inst->from,
		      &((struct syslet_obj *)inst->obj)->spares, inst);
}

const struct syslet_obj *syslet_inst__obj(const struct syslet_inst *inst)
{
	if (!inst)
		return api_null(EINVAL);
	return inst->obj;
}

struct syslet_uatom *syslet_inst__atom(struct syslet_inst *inst, size_t index)
{
	if (!inst)
		return api_null(EINVAL);
	if (index >= inst->obj->img->nr_atoms)
		return api_null(ERANGE);
	return (struct syslet_uatom *)(inst->base + inst->off[SLO_SEC_ATOMS]) +
	       index;
}

struct syslet_uatom *syslet_inst__entry(struct syslet_inst *inst,
					const char *name)
{
	const struct slio_entry *e;

	if (!inst)
		return api_null(EINVAL);
	e = slio_find_entry(inst->obj, name);
	if (!e) {
		errno = ENOENT;
		return NULL;
	}
	return syslet_inst__atom(inst, e->sym->value /
				       sizeof(struct syslet_uatom));
}

unsigned long *syslet_inst__cell(struct syslet_inst *inst, const char *name)
{
	const struct slo_symbol *s;

	if (!inst)
		return api_null(EINVAL);
	s = slio_find_sym(inst->obj, name, SLO_SYM_VAR, SLO_SYM_PARAM);
	if (!s) {
		errno = ENOENT;
		return NULL;
	}
	return (unsigned long *)(inst->base + inst->off[SLO_SEC_CELLS] +
				 s->value);
}

const char *syslet_inst__cell_at(const struct syslet_inst *inst,
				 const void *addr)
{
	const struct syslet_obj *obj;
	uintptr_t base;
	size_t lo = 0, hi;

	if (!inst)
		return api_null(EINVAL);
	obj = inst->obj;
	base = (uintptr_t)(inst->base + inst->off[SLO_SEC_CELLS]);
	hi = obj->nr_cells;
	while ((uintptr_t)addr >= base && lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct slo_symbol *s = obj->cells_by_off[mid];
		uint64_t off = (uintptr_t)addr - base;

		if (s->value == off)
			return s->name;
		if (s->value < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	errno = ENOENT;
	return NULL;
}

/* The listing's names, made once per image: a trace asks per atom. */
static const struct slo_names *obj_names(const struct syslet_obj *obj)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	struct syslet_obj *o = (struct syslet_obj *)obj;
	struct slo_names *nm;

	nm = __atomic_load_n(&o->names, __ATOMIC_ACQUIRE);
	if (nm)
		return nm;
	pthread_mutex_lock(&lock);
	nm = o->names;
	if (!nm) {
		nm = calloc(1, sizeof(*nm));
		if (nm && slo_names_init(nm, obj->img)) {
			free(nm);
			nm = NULL;
		}
		if (nm)
			__atomic_store_n(&o->names, nm, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&lock);
	return nm;
}

const char *syslet_inst__cell_label(const struct syslet_inst *inst,
				    const void *addr)
{
	const struct slo_names *nm;
	uintptr_t base, off;
	size_t word;

	if (!inst)
		return api_null(EINVAL);
	word = inst->obj->img->word_size;
	base = (uintptr_t)(inst->base + inst->off[SLO_SEC_CELLS]);
	off = (uintptr_t)addr - base;
	if ((uintptr_t)addr < base || off % word ||
	    off / word >= inst->obj->img->size[SLO_SEC_CELLS] / word)
		return api_null(ENOENT);
	nm = obj_names(inst->obj);
	if (!nm)
		return api_null(ENOMEM);
	if (off / word >= nm->nr_cells || !nm->cell[off / word])
		return api_null(ENOENT);
	return nm->cell[off / word];
}

void *syslet_inst__object(struct syslet_inst *inst, const char *name,
			  size_t *size)
{
	const struct slo_symbol *s;

	if (!inst)
		return api_null(EINVAL);
	s = slio_find_sym(inst->obj, name, SLO_SYM_BUFFER, SLO_SYM_DATA);
	if (!s) {
		errno = ENOENT;
		return NULL;
	}
	if (size)
		*size = (size_t)s->size;
	return part_at(inst, s->section) + s->value;
}

long syslet_inst__atom_index(const struct syslet_inst *inst,
			     const struct syslet_uatom *atom)
{
	uintptr_t first, p = (uintptr_t)atom;
	size_t n;

	if (!inst)
		return api_err(-EINVAL);
	first = (uintptr_t)(inst->base + inst->off[SLO_SEC_ATOMS]);
	n = inst->obj->img->nr_atoms;
	if (p < first || (p - first) % sizeof(*atom) ||
	    (p - first) / sizeof(*atom) >= n)
		return api_err(-ERANGE);
	return (long)((p - first) / sizeof(*atom));
}

int syslet_inst__atom_info(const struct syslet_inst *inst,
			   const struct syslet_uatom *atom,
			   struct syslet_atom_info *info)
{
	long i = syslet_inst__atom_index(inst, atom);

	if (i < 0)
		return (int)i;
	return syslet_obj__atom_info(inst->obj, (size_t)i, info);
}

int syslet_inst__result(const struct syslet_inst *inst,
			const struct syslet_uatom *atom, long *result)
{
	long i;

	if (!result)
		return api_err(-EINVAL);
	i = syslet_inst__atom_index(inst, atom);
	if (i < 0)
		return (int)i;
	/* Every atom of an instance has a result cell, hidden or not,
	 * unless the program cleared the pointer since.  An image may put
	 * it at any byte, as the kernel's put_user() takes any alignment. */
	*result = 0;
	if (atom->ret_ptr)
		memcpy(result, atom->ret_ptr, sizeof(*result));
	return 0;
}

static void describe_params(const struct slio_entry *e, char *buf,
			    size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int i = 0; i < e->nr_params && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s %s",
				       i ? ", " : "",
				       e->params[i].type == SYSLET_PARAM_INT ?
				       "int" :
				       e->params[i].type ==
				       SYSLET_PARAM_SOCKADDR_IN ? "sockaddr_in" :
				       "str", e->params[i].name);
}

/*
 * Blanks around the number are not part of it, on either side, as
 * test(1), the shell's arithmetic and Python's int() take them: strtol()
 * skips those before it, so " 5" was bound and "5 " refused (a count
 * from `wc -l` padded by BSD's wc, a value read with its newline).
 * Blanks alone, or inside ("5 6"), are still no number.
 */
static bool int_ended(const char *s, const char *end)
{
	return end != s && !end[strspn(end, " \t\n\v\f\r")];
}

/* 0, or -ERANGE for a whole literal past a word's range, -EINVAL for
 * what is no integer. */
static int parse_int(const char *s, long *out)
{
	char *end;
	int r = -EINVAL;

	errno = 0;
	*out = strtol(s, &end, 0);
	if (int_ended(s, end) && !errno)
		return 0;
	if (int_ended(s, end))
		r = -ERANGE;
	/* Unsigned literals up to the word's range are fine too; but
	 * strtoul() negates what follows a '-' (after blanks, as strtol()
	 * skips them), which would take "-18446744073709551615" for 1. */
	errno = 0;
	if (*s && s[strspn(s, " \t\n\v\f\r")] != '-') {
		unsigned long u = strtoul(s, &end, 0);

		if (int_ended(s, end) && !errno) {
			*out = (long)u;
			return 0;
		}
	}
	return r;
}

/* Why a number that looks decimal is none: "08", "-019", a port "080"
 * (blanks and a sign before it aside), or "" for any other. */
static const char *octal_hint(const char *s)
{
	s += strspn(s, " \t\n\v\f\r");
	if (*s == '-' || *s == '+')
		s++;
	if (*s != '0')
		return "";
	s += strspn(s, "01234567");
	return *s == '8' || *s == '9' ?
	       " (a leading 0 makes it octal, whose digits are 0 to 7)" : "";
}

/*
 * "HOST:PORT" -> struct sockaddr_in, without name lookups (a runner must
 * not block on DNS): a dotted IPv4 address, "localhost", or nothing or
 * "*" for any address.  On failure, @why (@whylen bytes) says what is
 * wrong, since the form alone does not tell a host name from a typo.
 */
static int parse_sockaddr_in(const char *s, struct sockaddr_in *sa,
			     char *why, size_t whylen)
{
	const char *colon = strrchr(s, ':');
	char host[64], *end;
	unsigned long port;
	size_t n;

	if (!colon) {
		snprintf(why, whylen, "no ':PORT'");
		return -1;
	}
	n = (size_t)(colon - s);
	if (n >= sizeof(host)) {
		snprintf(why, whylen, "the host is longer than an address");
		return -1;
	}
	memcpy(host, s, n);
	host[n] = '\0';
	/* Read as an int parameter is, and as sysletc reads the port of
	 * sockaddr_in(): a C integer constant (0x50 and 0120 are 80, 080
	 * no number); only a digit starts it, no sign, no blank, within
	 * HOST:PORT. */
	errno = 0;
	port = strtoul(colon + 1, &end, 0);
	if (!isdigit((unsigned char)colon[1]) || *end) {
		snprintf(why, whylen, "'%.16s' is no port number%s", colon + 1,
			 octal_hint(colon + 1));
		return -1;
	}
	if (errno || port > 65535) {
		snprintf(why, whylen, "port %.24s is past 65535", colon + 1);
		return -1;
	}
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)port);
	if (!n || !strcmp(host, "*"))
		sa->sin_addr.s_addr = htonl(INADDR_ANY);
	else if (!strcmp(host, "localhost"))
		sa->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	else if (inet_pton(AF_INET, host, &sa->sin_addr) != 1) {
		snprintf(why, whylen, "'%.63s' is no IPv4 address: names are "
			 "not looked up", host);
		return -1;
	}
	return 0;
}

/* Parameters bound without a heap allocation: syslet-run --each binds
 * one per instance, an instance per file. */
#define SLIO_BIND_SMALL	8

int syslet_inst__bind(struct syslet_inst *inst, const char *entry, int argc,
		      char *const argv[], char *err, size_t errlen)
{
	const struct slio_entry *e;
	struct slio_chunk *chunk;
	struct sockaddr_in *sin = NULL;
	const void **blob = NULL;
	size_t *len = NULL;
	void **at = NULL;
	struct sockaddr_in small_sin[SLIO_BIND_SMALL];
	const void *small_blob[SLIO_BIND_SMALL];
	size_t small_len[SLIO_BIND_SMALL];
	void *small_at[SLIO_BIND_SMALL];
	char list[256], why[128];
	int eno = EINVAL;

	if (!inst || !entry) {
		slio_err(err, errlen, "%s", inst ? "no entry name"
						 : "no instance");
		return api_err(-EINVAL);
	}
	if (argc > 0 && !argv) {
		slio_err(err, errlen, "%d parameters of %s but no values",
			 argc, entry);
		return api_err(-EINVAL);
	}
	e = slio_find_entry(inst->obj, entry);
	if (!e) {
		slio_err(err, errlen, "no syslet named '%s'", entry);
		return api_err(-ENOENT);
	}
	if (argc != e->nr_params) {
		describe_params(e, list, sizeof(list));
		slio_err(err, errlen, "%s takes %d parameter%s%s%s%s, got %d",
			 entry, e->nr_params, e->nr_params == 1 ? "" : "s",
			 e->nr_params ? " (" : "", list,
			 e->nr_params ? ")" : "", argc);
		return api_err(-EINVAL);
	}
	for (int i = 0; i < argc; i++)
		if (!argv[i]) {
			slio_err(err, errlen,
				 "parameter %d of %s: a null pointer", i + 1,
				 entry);
			return api_err(-EINVAL);
		}
	if (argc <= SLIO_BIND_SMALL) {
		/* The argc entries read, not all eight: once per instance. */
		memset(small_sin, 0, (size_t)argc * sizeof(*small_sin));
		memset(small_blob, 0, (size_t)argc * sizeof(*small_blob));
		memset(small_len, 0, (size_t)argc * sizeof(*small_len));
		memset(small_at, 0, (size_t)argc * sizeof(*small_at));
		sin = small_sin;
		blob = small_blob;
		len = small_len;
		at = small_at;
	} else {
		sin = calloc((size_t)argc + 1, sizeof(*sin));
		blob = calloc((size_t)argc + 1, sizeof(*blob));
		len = calloc((size_t)argc + 1, sizeof(*len));
		at = calloc((size_t)argc + 1, sizeof(*at));
		if (!sin || !blob || !len || !at)
			goto nomem;
	}
	for (int i = 0; i < argc; i++) {
		long v;
		int r;

		switch (e->params[i].type) {
		case SYSLET_PARAM_INT:
			r = parse_int(argv[i], &v);
			if (!r)
				continue;
			if (r == -ERANGE) {
				slio_err(err, errlen,
					 "parameter %s of %s: %s is out of "
					 "range: an int holds %ld to %lu",
					 e->params[i].name, entry, argv[i],
					 LONG_MIN, ULONG_MAX);
				goto out;
			}
			slio_err(err, errlen,
				 "parameter %s of %s: expected int, got '%s'%s",
				 e->params[i].name, entry, argv[i],
				 octal_hint(argv[i]));
			goto out;
		case SYSLET_PARAM_SOCKADDR_IN:
			if (parse_sockaddr_in(argv[i], &sin[i], why,
					      sizeof(why))) {
				slio_err(err, errlen,
					 "parameter %s of %s: expected HOST:PORT "
					 "(127.0.0.1:8080, or :8080 for any "
					 "address), got '%s': %s",
					 e->params[i].name, entry, argv[i],
					 why);
				goto out;
			}
			blob[i] = &sin[i];
			len[i] = sizeof(sin[i]);
			break;
		default:
			blob[i] = argv[i];
			len[i] = strlen(argv[i]) + 1;
			break;
		}
	}
	/* Strings and addresses go to read-only memory: a call that writes
	 * through such a parameter gets EFAULT rather than the heap. */
	errno = 0;
	chunk = slio_blobs_copy(blob, len, argc, at);
	if (!chunk && errno)
		goto nomem;
	for (int i = 0; i < argc; i++) {
		const struct slo_symbol *s = e->param_syms[i];
		unsigned long *cell = (unsigned long *)(inst->base +
			inst->off[SLO_SEC_CELLS] + s->value);
		long v = 0;

		if (e->params[i].type == SYSLET_PARAM_INT)
			parse_int(argv[i], &v);
		else
			v = (long)(uintptr_t)at[i];
		*cell = (unsigned long)v;
	}
	/* The strings an earlier binding of this entry made go now. */
	slio_strs_put(inst->strs[e - inst->obj->entries]);
	inst->strs[e - inst->obj->entries] = chunk;
	eno = 0;
	goto out;
nomem:
	slio_err(err, errlen, "out of memory for the parameters of %s", entry);
	eno = ENOMEM;
out:
	if (sin != small_sin) {
		free(sin);
		free(blob);
		free(len);
		free(at);
	}
	return api_err(-eno);
}
