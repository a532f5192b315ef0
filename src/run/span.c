/* span.c: which instance an atom belongs to, by address: sorted spans of atom arrays and a binary search. */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

void srun_span_set(struct srun_span *s, struct syslet_inst *inst, size_t id)
{
	size_t natoms = syslet_obj__atom_count(syslet_inst__obj(inst));

	s->lo = (uintptr_t)syslet_inst__atom(inst, 0);
	s->hi = s->lo + natoms * sizeof(struct syslet_uatom);
	s->id = id;
}

static int span_cmp(const void *a, const void *b)
{
	const struct srun_span *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

void srun_span_sort(struct srun_span *spans, size_t n)
{
	qsort(spans, n, sizeof(*spans), span_cmp);
}

/* How many spans start at or below @a: the one that may hold it is the
 * last of those. */
static size_t span_upto(const struct srun_span *spans, size_t n, uintptr_t a)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (spans[mid].lo <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The index of the span holding @p, or n. */
static size_t span_at(const struct srun_span *spans, size_t n, const void *p)
{
	uintptr_t a = (uintptr_t)p;
	size_t i = span_upto(spans, n, a);

	return i && a < spans[i - 1].hi ? i - 1 : n;
}

long srun_span_find(const struct srun_span *spans, size_t n, const void *p)
{
	size_t i = span_at(spans, n, p);

	return i < n ? (long)spans[i].id : -1;
}

void srun_span_put(struct srun_span *spans, size_t *n,
		   const struct srun_span *s)
{
	size_t i = span_upto(spans, *n, s->lo);

	if (i && spans[i - 1].lo == s->lo) {
		spans[i - 1] = *s;
		return;
	}
	memmove(&spans[i + 1], &spans[i], (*n - i) * sizeof(*spans));
	spans[i] = *s;
	(*n)++;
}

long srun_span_take(struct srun_span *spans, size_t n, const void *p)
{
	size_t i = span_at(spans, n, p);
	long id;

	if (i >= n || spans[i].id == SIZE_MAX)
		return -1;
	id = (long)spans[i].id;
	spans[i].id = SIZE_MAX;
	return id;
}

void srun_span_drop(struct srun_span *spans, size_t n, const void *p)
{
	size_t i = span_at(spans, n, p);

	if (i < n)
		spans[i].id = SIZE_MAX;
}
