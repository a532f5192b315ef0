/* image-mem.c: the memory of instances: guarded slots carved from slabs, and read-only chunks for bound strings. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "image-priv.h"
#include "once.h"

/*
 * Every instance gets a slot: page-aligned writable memory whose end
 * touches a guard page, so that a system call writing past a buffer or
 * a cell faults there (EFAULT, or a short count) rather than reaching
 * the process's heap or another instance.  A slab holds several slots of
 * one size, guard pages between them:
 *
 *	| guard | slot 0 | guard | slot 1 | guard | ... | slot n-1 | guard |
 *
 * Linux 6.13 and later mark guard pages in the page tables
 * (MADV_GUARD_INSTALL), which keeps a slab one mapping; earlier kernels
 * get PROT_NONE pages, one mapping more per slot.  The guards of a slab
 * are installed by one process_madvise() where the kernel takes
 * PIDFD_SELF (6.14 and later), else by a madvise() each.  Slots are
 * anonymous memory: a large .bss costs nothing until a syslet writes to
 * it (populating a whole slab as it is made costs as much as the page
 * faults of its slots: measured, not done; a small slot's pages are
 * brought in when it is first taken, a few slots a call, populate()).  A
 * freed slot is kept for the next instance of that size and zeroed when
 * it is taken again, not when it is freed: a program that frees its
 * instances before it exits, or a slab that empties and goes back to the
 * kernel, pays nothing for it.  Making and freeing instances one after
 * the other costs no system call.
 */

#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL	102
#endif
/* include/uapi/linux/pidfd.h: the calling thread (its mm for
 * process_madvise). */
#define SLIO_PIDFD_SELF		(-10000)

#define SLIO_SLAB_BYTES		(256 * 1024)

struct slio_class;

struct slio_slab {
	struct slio_class	*cls;
	unsigned char		*base;		/* its first guard page */
	size_t			len;
	unsigned int		nr, nfree;
	unsigned int		fresh;		/* slots [fresh, nr) never used */
	unsigned int		ready;		/* slots [0, ready) populated */
	unsigned int		win;		/* slots the next populate()
						 * brings in */
	bool			idle;		/* empty, counted in slio_idle */
	void			*free;		/* used, freed: linked through
						 * first words */
	struct slio_slab	*prev, *next;	/* slabs with room come first */
};

struct slio_class {
	size_t			rw_len;		/* writable bytes per slot */
	struct slio_slab	*slabs;
	struct slio_class	*next;
};

/* Held for a few dozen instructions at a time, by each thread making
 * or freeing instances (the lanes of syslet-run --each --jobs): glibc's
 * adaptive kind spins briefly before it sleeps in futex(). */
#ifdef PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
static pthread_mutex_t slio_mem_lock = PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP;
#else
static pthread_mutex_t slio_mem_lock = PTHREAD_MUTEX_INITIALIZER;
#endif
static struct slio_class *slio_classes;
static int slio_guard_marks = 1;	/* MADV_GUARD_INSTALL works */
static int slio_batch = 1;		/* process_madvise(PIDFD_SELF) too */
/*
 * Empty slabs kept mapped, beyond the one of each size that always is:
 * a program that makes its instances again (a batch after a batch)
 * finds their pages, where a new mapping would fault each one in again
 * while its system calls run (measured: a fault per file, a third of
 * the cached benchmark's time).  Bounded, as malloc's trim threshold:
 * past it, an emptied slab goes back to the kernel.
 */
#define SLIO_IDLE_MAX		(16u << 20)
static size_t slio_idle;		/* bytes of slabs with idle set */

size_t slio_page_size(void)
{
	static size_t page;

	if (!page) {
		long p = sysconf(_SC_PAGESIZE);

		page = p > 0 ? (size_t)p : 4096;
	}
	return page;
}

/*
 * A guard page: a page-table mark where the kernel has them, else
 * PROT_NONE.  Before 6.13 the advice is unknown (EINVAL); a kernel
 * built without madvise(2) answers ENOSYS, and a sandbox that filters
 * it EPERM or ENOSYS: each of those means "no marks here", for good.
 */
static int guard(unsigned char *at, size_t len)
{
	if (__atomic_load_n(&slio_guard_marks, __ATOMIC_RELAXED)) {
		if (!madvise(at, len, MADV_GUARD_INSTALL))
			return 0;
		if (errno != EINVAL && errno != ENOSYS && errno != EPERM &&
		    errno != EOPNOTSUPP)
			return -1;
		__atomic_store_n(&slio_guard_marks, 0, __ATOMIC_RELAXED);
	}
	return mprotect(at, len, PROT_NONE);
}

/*
 * @advice on the @n ranges of @v in one system call where the kernel
 * can; 0 or -1.  The advice must be idempotent: ranges a partial call
 * did advise are advised again.
 */
static int advise_all(struct iovec *v, unsigned int n, int advice)
{
	long r;

	if (__atomic_load_n(&slio_batch, __ATOMIC_RELAXED)) {
		r = syscall(SYS_process_madvise, SLIO_PIDFD_SELF, v, n, advice,
			    0);
		if (r >= 0) {
			size_t want = 0;

			for (unsigned int i = 0; i < n; i++)
				want += v[i].iov_len;
			if ((size_t)r == want)
				return 0;
		} else if (errno == EBADF || errno == EINVAL ||
			   errno == ENOSYS || errno == EPERM ||
			   errno == ESRCH) {
			/* No PIDFD_SELF, or this advice not for it. */
			__atomic_store_n(&slio_batch, 0, __ATOMIC_RELAXED);
		}
	}
	for (unsigned int i = 0; i < n; i++)
		if (madvise(v[i].iov_base, v[i].iov_len, advice))
			return -1;
	return 0;
}

/* Guard pages at @v[0..n); 0 or -1. */
static int guard_all(struct iovec *v, unsigned int n)
{
	if (__atomic_load_n(&slio_guard_marks, __ATOMIC_RELAXED)) {
		if (!advise_all(v, n, MADV_GUARD_INSTALL))
			return 0;
		/* As guard(): each of these means "no marks here". */
		if (errno != EINVAL && errno != ENOSYS && errno != EPERM &&
		    errno != EOPNOTSUPP)
			return -1;
		__atomic_store_n(&slio_guard_marks, 0, __ATOMIC_RELAXED);
	}
	for (unsigned int i = 0; i < n; i++)
		if (guard(v[i].iov_base, v[i].iov_len))
			return -1;
	return 0;
}

static void list_del(struct slio_slab *s)
{
	if (s->prev)
		s->prev->next = s->next;
	else
		s->cls->slabs = s->next;
	if (s->next)
		s->next->prev = s->prev;
	s->prev = s->next = NULL;
}

static void list_add(struct slio_slab *s, bool front)
{
	struct slio_class *c = s->cls;
	struct slio_slab *t = c->slabs;

	if (front || !t) {
		s->next = t;
		if (t)
			t->prev = s;
		c->slabs = s;
		return;
	}
	while (t->next)
		t = t->next;
	t->next = s;
	s->prev = t;
}

#define SLIO_MAX_SLOTS	(SLIO_SLAB_BYTES / 8192)

/*
 * A new slab of class @c, mapped and guarded, on no list yet: made
 * without slio_mem_lock (its mmap() and its guards' madvise() took 20-40
 * us, while the other lanes of syslet-run --each --jobs, making and
 * freeing instances, waited for the lock in futex()), then added to the
 * class with it held (slio_slot_get()).
 */
static struct slio_slab *slab_new(struct slio_class *c, bool *heap)
{
	size_t page = slio_page_size(), slot = c->rw_len + page;
	struct slio_slab *s = calloc(1, sizeof(*s));
	struct iovec g[SLIO_MAX_SLOTS + 1];	/* the guards */
	unsigned int nr;
	void *p;

	if (!s) {
		*heap = true;
		return NULL;
	}
	/* Slots are two pages at least (rw_len is a page or more). */
	nr = slot >= SLIO_SLAB_BYTES ? 1 : (unsigned int)(SLIO_SLAB_BYTES / slot);
	if (nr > SLIO_MAX_SLOTS)
		nr = SLIO_MAX_SLOTS;
	s->cls = c;
	s->nr = s->nfree = nr;
	s->len = page + nr * slot;
	p = mmap(NULL, s->len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		free(s);
		return NULL;
	}
	s->base = p;
	g[0].iov_base = s->base;
	g[0].iov_len = page;
	for (unsigned int i = 0; i < nr; i++) {
		unsigned char *rw = s->base + page + i * slot;

		g[i + 1].iov_base = rw + c->rw_len;
		g[i + 1].iov_len = page;
	}
	if (guard_all(g, nr + 1)) {
		munmap(s->base, s->len);
		free(s);
		return NULL;
	}
	return s;
}

/* Zero a slot for its next instance: its bytes from @from on (@len in
 * all), those before being no instance's.  Small ones by hand: their
 * pages stay, and the next instance finds them without a fault; large
 * ones go back to the kernel but for the first page (the atoms, always
 * used), so that pages no one touched are not brought in.  Where
 * madvise(2) fails (a kernel without it, a sandbox), fresh zero pages
 * are mapped over them, and should that fail too they are zeroed by
 * hand: the next instance must never see this one's data. */
#define SLIO_MEMSET_MAX		(16 * 1024)

static void slot_clear(void *rw, size_t from, size_t len)
{
	size_t page = slio_page_size();

	if (len - from <= SLIO_MEMSET_MAX) {
		memset((unsigned char *)rw + from, 0, len - from);
		return;
	}
	memset(rw, 0, page);
	rw = (unsigned char *)rw + page;
	len -= page;
	if (madvise(rw, len, MADV_DONTNEED) &&
	    mmap(rw, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
		memset(rw, 0, len);
}

/*
 * A new small slot's pages are brought in by one madvise() before the
 * instance uses them, rather than by a page fault each as its atoms are
 * written and its buffer read into: where page faults are dear (a
 * virtual machine that shadows the page tables: 10-12 us a fault here,
 * where a system call costs 0.9), that is half of what it cost.  Only
 * where a slot taken again would be zeroed by hand (what it holds is
 * expected to be used); large buffers stay lazy.  A kernel without the
 * advice (before 5.14), or a sandbox that refuses it, is not asked again.
 *
 * A slab's fresh slots are brought in ahead, as readahead does: the
 * first alone (a program that makes one instance populates no more),
 * then 2, 4, up to SLIO_POP_MAX slots at once, by one process_madvise()
 * where the kernel takes PIDFD_SELF with any advice (6.14 and later),
 * so that a program making instances one after the other (syslet-run
 * --each: a syslet's instance made as the one before it ends) makes a
 * system call every few instances rather than one each.
 */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE	23
#endif
#define SLIO_POP_MAX		8
static int slio_populate = 1;
static int slio_pop_batch = 1;		/* process_madvise() takes it */

/* The pages of @rw (@len bytes, those before @from no instance's) worth
 * bringing in, in *@v; false where none are. */
static bool pop_range(void *rw, size_t from, size_t len, struct iovec *v)
{
	size_t page = slio_page_size();
	unsigned char *at = (unsigned char *)rw + (from & ~(page - 1));

	if (len - from > SLIO_MEMSET_MAX)
		return false;
	v->iov_base = at;
	v->iov_len = (size_t)((unsigned char *)rw + len - at);
	return true;
}

static void populate(struct iovec *v, unsigned int n)
{
	long r = -1;

	if (!n || !__atomic_load_n(&slio_populate, __ATOMIC_RELAXED))
		return;
	if (n > 1 && __atomic_load_n(&slio_pop_batch, __ATOMIC_RELAXED)) {
		r = syscall(SYS_process_madvise, SLIO_PIDFD_SELF, v, n,
			    MADV_POPULATE_WRITE, 0);
		if (r >= 0)
			return;
		/* No PIDFD_SELF, or not this advice for it: a madvise()
		 * each from now on.  Another error (ENOMEM): the pages
		 * fault in as they are used. */
		if (errno != EBADF && errno != EINVAL && errno != ENOSYS &&
		    errno != EPERM && errno != ESRCH)
			return;
		__atomic_store_n(&slio_pop_batch, 0, __ATOMIC_RELAXED);
	}
	for (unsigned int i = 0; i < n; i++) {
		if (!madvise(v[i].iov_base, v[i].iov_len, MADV_POPULATE_WRITE))
			continue;
		if (errno == EINVAL || errno == ENOSYS || errno == EPERM)
			__atomic_store_n(&slio_populate, 0, __ATOMIC_RELAXED);
		return;
	}
}

/* A freed slot's first words, until it is taken again: the next freed
 * slot of its slab, and where the instance that had it began. */
struct slio_freed {
	void	*next;
	size_t	from;
};

void *slio_slot_get(size_t rw_len, size_t from, struct slio_slab **slab,
		    struct slio_spares *spares, void **rec, bool *heap)
{
	struct slio_class *c;
	struct slio_slab *s;
	struct slio_freed fr;
	void *rw = NULL;
	bool used = false;
	struct iovec pop[SLIO_POP_MAX];
	unsigned int npop = 0;

	pthread_mutex_lock(&slio_mem_lock);
	for (c = slio_classes; c && c->rw_len != rw_len; c = c->next)
		;
	if (!c) {
		c = calloc(1, sizeof(*c));
		if (!c) {
			*heap = true;
			goto out;
		}
		c->rw_len = rw_len;
		c->next = slio_classes;
		slio_classes = c;
	}
	s = c->slabs;
	if (!s || !s->nfree) {
		/* Classes are never freed: c outlives the unlocked part. */
		pthread_mutex_unlock(&slio_mem_lock);
		s = slab_new(c, heap);
		pthread_mutex_lock(&slio_mem_lock);
		if (!s)
			goto out;
		/* Another thread may have made or emptied one meanwhile:
		 * this one goes first all the same, whole. */
		list_add(s, true);
	}
	if (s->idle) {
		s->idle = false;
		slio_idle -= s->len;
	}
	if (s->free) {
		/* Used before: zeroed below, for this instance. */
		rw = s->free;
		memcpy(&fr, rw, sizeof(fr));
		s->free = fr.next;
		used = true;
	} else if (s->fresh < s->nr) {
		/* Never used: as the kernel made it, zero; brought in
		 * with the next few, unless it already was. */
		size_t page = slio_page_size(), slot = c->rw_len + page;
		unsigned int i = s->fresh++;

		rw = s->base + page + i * slot;
		if (i >= s->ready) {
			unsigned int n = s->win ? s->win : 1;

			if (n > s->nr - i)
				n = s->nr - i;
			s->ready = i + n;
			s->win = n * 2 > SLIO_POP_MAX ? SLIO_POP_MAX : n * 2;
			for (unsigned int k = 0; k < n; k++)
				if (pop_range((unsigned char *)rw + k * slot,
					      from, c->rw_len, &pop[npop]))
					npop++;
		}
	} else {
		goto out;	/* cannot be: nfree counts both kinds */
	}
	if (--s->nfree == 0 && s->next) {
		/* Full: behind the slabs that have room. */
		list_del(s);
		list_add(s, false);
	}
	*slab = s;
	/* A freed instance's record, in the same hold of the lock. */
	if (spares && spares->list) {
		*rec = spares->list;
		memcpy(&spares->list, *rec, sizeof(spares->list));
		spares->n--;
	}
out:
	pthread_mutex_unlock(&slio_mem_lock);
	/*
	 * Outside the lock: the slot is this instance's now, and threads
	 * making instances at once (syslet-run --each --jobs) do not wait
	 * for each other's.  From where this instance or the last one
	 * began, whichever is lower, and the words that linked it.
	 */
	if (used) {
		if (fr.from > from)
			fr.from = from;
		if (fr.from > c->rw_len)
			fr.from = 0;
		slot_clear(rw, fr.from, c->rw_len);
		memset(rw, 0, sizeof(fr));
	} else {
		populate(pop, npop);
	}
	return rw;
}

/* With slio_mem_lock held: the slab to unmap once it is let go, or
 * NULL. */
static struct slio_slab *slot_put_locked(struct slio_slab *s, void *rw,
					 size_t from)
{
	struct slio_class *c = s->cls;
	struct slio_freed fr = { NULL, from };

	/* An empty slab goes back to the kernel, unless it is the only one
	 * of its size (the next instance will want it) or idle slabs are
	 * kept within SLIO_IDLE_MAX. */
	if (s->nfree + 1 == s->nr && (s->nr == 1 || c->slabs != s ||
				      s->next)) {
		if (slio_idle + s->len > SLIO_IDLE_MAX) {
			list_del(s);
			return s;
		}
		s->idle = true;
		slio_idle += s->len;
	}
	/* Zeroed when it is taken again. */
	fr.next = s->free;
	memcpy(rw, &fr, sizeof(fr));
	s->free = rw;
	if (++s->nfree == 1) {
		list_del(s);
		list_add(s, true);
	}
	return NULL;
}

static void strs_put_locked(struct slio_chunk *c);

/*
 * An instance's strings, its slot and its record given back in one hold
 * of the lock, the record kept for the next instance of its image: a
 * lock taken for each of the three, and free() and calloc() of the
 * record, cost syslet-run --each about 300 instructions a file.
 */
void slio_inst_put(struct slio_chunk *const *strs, size_t nstrs,
		   struct slio_slab *s, void *rw, size_t from,
		   struct slio_spares *spares, void *rec)
{
	struct slio_slab *gone = NULL;

	pthread_mutex_lock(&slio_mem_lock);
	for (size_t i = 0; i < nstrs; i++)
		strs_put_locked(strs[i]);
	if (rw)
		gone = slot_put_locked(s, rw, from);
	if (spares && spares->n < SLIO_SPARE_MAX) {
		memcpy(rec, &spares->list, sizeof(spares->list));
		spares->list = rec;
		spares->n++;
		rec = NULL;
	}
	pthread_mutex_unlock(&slio_mem_lock);
	if (gone) {
		munmap(gone->base, gone->len);
		free(gone);
	}
	free(rec);
}

void slio_spares_free(struct slio_spares *spares)
{
	void *rec, *next;

	pthread_mutex_lock(&slio_mem_lock);
	rec = spares->list;
	spares->list = NULL;
	spares->n = 0;
	pthread_mutex_unlock(&slio_mem_lock);
	for (; rec; rec = next) {
		memcpy(&next, rec, sizeof(next));
		free(rec);
	}
}

/*
 * Bound strings: copied into read-only chunks, the strings of many
 * instances to a chunk, so that binding costs no mapping per instance.
 * A chunk is shared memory mapped twice: read-only where cells point,
 * writable for the copy (anonymous, or a memfd where mremap() cannot
 * map it again).  Without either, one private mapping is made writable
 * while strings are copied in.  A chunk goes away with the last
 * instance that uses it.
 */
struct slio_chunk {
	unsigned char	*ro, *rw;	/* rw: NULL without a second view */
	size_t		size, used;
	unsigned long	refs;
};

#define SLIO_CHUNK	(64 * 1024)

static struct slio_chunk *slio_chunk_cur;
static struct lib_once slio_fork_once = LIB_ONCE_INIT;

static size_t round_up(size_t n, size_t align)
{
	return (n + align - 1) & ~(align - 1);
}

static void chunk_unmap(struct slio_chunk *c)
{
	munmap(c->ro, c->size);
	if (c->rw)
		munmap(c->rw, c->size);
	free(c);
}

/*
 * A shared chunk is shared with a child after fork(): were either process
 * to go on copying strings into it, or to reuse it from the start, it
 * would write over the other's.  Both leave it as it is (it goes away
 * with its last instance in each) and start a new one.  The lock is
 * taken over fork() so that the child does not inherit it held.
 */
static void slio_fork_prepare(void)
{
	pthread_mutex_lock(&slio_mem_lock);
}

static void slio_fork_after(void)
{
	struct slio_chunk *c = slio_chunk_cur;

	slio_chunk_cur = NULL;
	if (c && !c->refs)
		chunk_unmap(c);
	pthread_mutex_unlock(&slio_mem_lock);
}

static void slio_fork_init(void)
{
	(void)pthread_atfork(slio_fork_prepare, slio_fork_after,
			     slio_fork_after);
}

static struct slio_chunk *chunk_new(size_t len)
{
	size_t size = len > SLIO_CHUNK ? round_up(len, slio_page_size())
				       : SLIO_CHUNK;
	struct slio_chunk *c = calloc(1, sizeof(*c));
	int fd;

	if (!c)
		return NULL;
	c->size = size;
	/*
	 * Shared anonymous memory seen twice: mremap() of a shared mapping
	 * with an old size of 0 maps the same pages again, and that view
	 * is made read-only.  Three system calls where a memfd takes five
	 * (memfd_create, ftruncate, two mmap, close) and a descriptor.
	 */
	{
		void *rw = mmap(NULL, size, PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		void *ro = MAP_FAILED;

		if (rw != MAP_FAILED) {
			ro = mremap(rw, 0, size, MREMAP_MAYMOVE);
			if (ro != MAP_FAILED && !mprotect(ro, size, PROT_READ)) {
				c->ro = ro;
				c->rw = rw;
				return c;
			}
			if (ro != MAP_FAILED)
				munmap(ro, size);
			munmap(rw, size);
		}
	}
	fd = memfd_create("syslet-strings", MFD_CLOEXEC);
	if (fd >= 0) {
		void *ro = MAP_FAILED, *rw = MAP_FAILED;

		if (!ftruncate(fd, (off_t)size)) {
			ro = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
			rw = mmap(NULL, size, PROT_READ | PROT_WRITE,
				  MAP_SHARED, fd, 0);
		}
		close(fd);
		if (ro != MAP_FAILED && rw != MAP_FAILED) {
			c->ro = ro;
			c->rw = rw;
			return c;
		}
		if (ro != MAP_FAILED)
			munmap(ro, size);
		if (rw != MAP_FAILED)
			munmap(rw, size);
	}
	c->ro = mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		     0);
	if (c->ro == MAP_FAILED) {
		free(c);
		return NULL;
	}
	return c;
}

struct slio_chunk *slio_blobs_copy(const void *const blobs[],
				   const size_t *lens, int n, void **out)
{
	size_t page = slio_page_size(), len = 0, at, lo = 0;
	struct slio_chunk *c, *old;

	/* Each blob starts on a word, so a structure (sockaddr_in) is
	 * aligned as its C type wants. */
	for (int i = 0; i < n; i++)
		if (lens[i])
			len += round_up(lens[i], sizeof(long));
	if (!len)
		return NULL;
	lib_once(&slio_fork_once, slio_fork_init);
	pthread_mutex_lock(&slio_mem_lock);
	c = slio_chunk_cur;
	if (!c || c->size - c->used < len) {
		c = chunk_new(len);
		if (!c) {
			pthread_mutex_unlock(&slio_mem_lock);
			errno = ENOMEM;
			return NULL;
		}
		old = slio_chunk_cur;
		slio_chunk_cur = c;
		if (old && !old->refs)
			chunk_unmap(old);
	}
	at = c->used;
	if (!c->rw) {
		lo = at & ~(page - 1);
		if (mprotect(c->ro + lo, round_up(at + len, page) - lo,
			     PROT_READ | PROT_WRITE)) {
			pthread_mutex_unlock(&slio_mem_lock);
			return NULL;
		}
	}
	for (int i = 0; i < n; i++) {
		if (!lens[i])
			continue;
		memcpy((c->rw ? c->rw : c->ro) + c->used, blobs[i], lens[i]);
		out[i] = (char *)c->ro + c->used;
		c->used += round_up(lens[i], sizeof(long));
	}
	if (!c->rw)
		(void)mprotect(c->ro + lo, round_up(at + len, page) - lo,
			       PROT_READ);
	c->refs++;
	pthread_mutex_unlock(&slio_mem_lock);
	return c;
}

static void strs_put_locked(struct slio_chunk *c)
{
	if (c && --c->refs == 0) {
		if (c != slio_chunk_cur)
			chunk_unmap(c);
		else
			c->used = 0;	/* nothing points into it any more */
	}
}

void slio_strs_put(struct slio_chunk *c)
{
	if (!c)
		return;
	pthread_mutex_lock(&slio_mem_lock);
	strs_put_locked(c);
	pthread_mutex_unlock(&slio_mem_lock);
}
