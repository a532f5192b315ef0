/* span.c: which instance an atom belongs to, by address: sorted spans of atom arrays and a binary search. */
#include <config.h>

#include <stdlib.h>

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

long srun_span_find(const struct srun_span *spans, size_t n, const void *p)
{
	uintptr_t a = (uintptr_t)p;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a < spans[mid].lo)
			hi = mid;
		else if (a >= spans[mid].hi)
			lo = mid + 1;
		else
			return (long)spans[mid].id;
	}
	return -1;
}
