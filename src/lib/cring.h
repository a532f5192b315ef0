/* cring.h: the completion ring as the user-space engines fill it: registration checks, slots, and completions that wait behind a full slot. */
#ifndef SYSLET_CRING_H
#define SYSLET_CRING_H

#include <pthread.h>
#include <stdbool.h>
#include "libsyslet.h"

struct emul_lstats;

/*
 * The emul and uring engines fill the user's ring the same way, under
 * their head's lock: one completion a slot, in order, a slot the user
 * has not cleared (not NULL) never overwritten.
 */
struct cring_defer;

struct cring {
	struct syslet_uatom	**slots;
	unsigned long		max_idx, cur_idx;
	unsigned long		completions;	/* put in the ring, ever */
	/* Completions that found their slot full, oldest first. */
	struct cring_defer	*dq_head, *dq_tail;
};

/*
 * async_register()'s reading of @uah: the ring must be there and
 * writable now (instead of the kernel's mlock()).  *maxthr is its
 * max_nr_threads, @def_threads for -1, at most the ring's slots (fewer
 * threads than slots, or completions could be lost).  0 or -errno.
 */
long cring_setup(struct cring *r, struct async_head_user *uah,
		 unsigned long def_threads, unsigned long *maxthr);

/* Move waiting completions into the slots the user has cleared; true
 * when one moved. */
bool cring_flush(struct cring *r);

/*
 * complete_uatom().  Where the 2007 kernel found the slot still holding
 * an atom the user had not taken, it dropped the completion.  We keep
 * it instead: it waits in a FIFO behind the ring (so completions still
 * appear in the order they happened) and goes into its slot once the
 * user has cleared it, at the next library call that looks (async_exec,
 * async_wait -- which also looks every millisecond while completions
 * wait --, syslet_ring__pop, or another completion: cring_flush()).  Only
 * async_unregister drops what still waits (cring_drop()).  Without
 * memory it waits for some, with @lock (held; may be NULL) dropped
 * meanwhile.  A completion that goes into its slot at once is counted in
 * @st (a run's statistics, flushed later), or at once where @st is NULL.
 */
void cring_complete(struct cring *r, struct syslet_uatom *atom,
		    pthread_mutex_t *lock, struct emul_lstats *st);

/* Whether completions wait for a slot; may be read without the lock. */
static inline bool cring_waiting(const struct cring *r)
{
	return __atomic_load_n(&r->dq_head, __ATOMIC_RELAXED) != NULL;
}

/* async_unregister(): what still waits is dropped; how many (also
 * counted in syslet_stats.dropped). */
unsigned long cring_drop(struct cring *r);

#endif /* SYSLET_CRING_H */
