/* cring.c: the completion ring as the user-space engines fill it (cring.h). */
#include <config.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cring.h"
#include "emul.h"
#include "emul-fault.h"

struct cring_defer {
	struct syslet_uatom	*atom;
	struct cring_defer	*next;
};

/*
 * A ring up to this size is probed page by page; a larger one through
 * the process's map, whose cost does not grow with the ring: reading
 * each page of a ring of 2^31 slots (16 GiB, syslet-run --ring=2147483648)
 * faulted in every page table and took minutes and gigabytes.
 */
#define CRING_PROBE_MAX	(64UL * 4096)

/*
 * Is [start, end) mapped readable from end to end, as /proc/self/maps
 * lists the mappings (in address order)?  1 yes, 0 no, -1 when the map
 * cannot be read (no /proc): the caller probes each page then.
 */
static int maps_readable(unsigned long start, unsigned long end)
{
	FILE *f = fopen("/proc/self/maps", "re");
	unsigned long at = start, lo, hi;
	char line[256], perms[8];
	bool whole = true;

	if (!f)
		return -1;
	while (at < end && fgets(line, sizeof(line), f)) {
		/* The rest of a long line (a path) is no mapping's start. */
		bool head = whole;

		whole = strchr(line, '\n') != NULL;
		if (!head || sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3)
			continue;
		if (hi <= at)
			continue;
		if (lo > at || perms[0] != 'r')
			break;
		at = hi;
	}
	fclose(f);
	return at >= end;
}

long cring_setup(struct cring *r, struct async_head_user *uah,
		 unsigned long def_threads, unsigned long *maxthr)
{
	unsigned long ring, bytes, max_idx, v;
	/* The program's address, maybe NULL or bad: its words are reached
	 * by integer arithmetic, never by a member access through it. */
	uintptr_t u = (uintptr_t)uah;

	if (emul_get(maxthr, (void *)(u + offsetof(struct async_head_user,
						   max_nr_threads))) ||
	    emul_get(&ring, (void *)(u + offsetof(struct async_head_user,
						  completion_ring))) ||
	    emul_get(&bytes, (void *)(u + offsetof(struct async_head_user,
						   ring_size_bytes))))
		return -EFAULT;
	if (!bytes)
		return -EINVAL;
	/* In async_head_init()'s order: the range (access_ok(): EFAULT
	 * outside user space) before the size's multiple (EINVAL). */
	if (!emul_range_ok((const void *)ring, bytes))
		return -EFAULT;
	max_idx = bytes / sizeof(void *);
	if (bytes != max_idx * sizeof(void *))
		return -EINVAL;
	/*
	 * The ring was then pinned with mlock(), whose ENOMEM
	 * says that part of it is not mapped or not accessible.  mlock does
	 * not ask for writable pages: a read-only ring is registered, and
	 * its completions wait behind it (the kernel backend does the same).
	 * Every page is read, and the last word.
	 */
	switch (bytes > CRING_PROBE_MAX ? maps_readable(ring, ring + bytes)
					 : -1) {
	case 1:
		break;
	case 0:
		return -ENOMEM;
	default:
		for (unsigned long off = 0; off < bytes; off += 4096)
			if (emul_get(&v, (unsigned long *)(ring + off)))
				return -ENOMEM;
		if (emul_get(&v, (unsigned long *)(ring + bytes -
						   sizeof(long))))
			return -ENOMEM;
	}
	if (*maxthr == (unsigned long)-1)
		*maxthr = def_threads;
	if (*maxthr > max_idx)
		*maxthr = max_idx;
	r->slots = (struct syslet_uatom **)ring;
	r->max_idx = max_idx;
	r->cur_idx = 0;
	r->completions = 0;
	r->dq_head = r->dq_tail = NULL;
	return 0;
}

/* Put @atom in the next slot if it is free (NULL); false if not.
 * Counted in @st, or at once where it is NULL. */
static bool cring_put(struct cring *r, struct syslet_uatom *atom,
		      struct emul_lstats *st)
{
	struct syslet_uatom **slot = r->slots + r->cur_idx;
	unsigned long v;

	if (emul_get(&v, slot) || v)
		return false;
	if (emul_put(slot, (unsigned long)atom))
		return false;
	if (++r->cur_idx == r->max_idx)
		r->cur_idx = 0;
	r->completions++;
	if (st)
		st->completions++;
	else
		EMUL_STAT_ADD(completions, 1);
	return true;
}

bool cring_flush(struct cring *r)
{
	bool moved = false;

	while (r->dq_head && cring_put(r, r->dq_head->atom, NULL)) {
		struct cring_defer *d = r->dq_head;

		r->dq_head = d->next;
		if (!r->dq_head)
			r->dq_tail = NULL;
		free(d);
		moved = true;
	}
	return moved;
}

void cring_complete(struct cring *r, struct syslet_uatom *atom,
		    pthread_mutex_t *lock, struct emul_lstats *st)
{
	struct cring_defer *d;

	cring_flush(r);
	if (!r->dq_head && cring_put(r, atom, st))
		return;
	EMUL_STAT_ADD(deferred, 1);
	/* Never lose it: wait for memory rather than drop. */
	while (!(d = malloc(sizeof(*d)))) {
		if (lock)
			pthread_mutex_unlock(lock);
		usleep(1000);
		if (lock)
			pthread_mutex_lock(lock);
	}
	d->atom = atom;
	d->next = NULL;
	if (r->dq_tail)
		r->dq_tail->next = d;
	else
		r->dq_head = d;
	r->dq_tail = d;
}

unsigned long cring_drop(struct cring *r)
{
	unsigned long dropped = 0;

	cring_flush(r);
	while (r->dq_head) {
		struct cring_defer *d = r->dq_head;

		r->dq_head = d->next;
		free(d);
		dropped++;
	}
	r->dq_tail = NULL;
	if (dropped)
		EMUL_STAT_ADD(dropped, dropped);
	return dropped;
}
