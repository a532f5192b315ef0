/* asyncfetch.c: an atom marked SYSLET_ASYNC is read (its number, flags, result pointer, next and arguments) before async_exec returns NULL: what the program changes afterwards does not reach that atom. */
#include "helpers.h"

/*
 * seeds/006, exec_atom(): copy_uatom(&atom, uatom) reads the atom and its
 * arguments into the kernel's copy, then __exec_atom() calls
 * async_schedule() for SYSLET_ASYNC, which hands the caller's context to
 * a new thread that returns NULL from async_exec, and the call runs from
 * that copy.  So once async_exec has returned NULL the atom is read: the
 * program may reuse its cells at once.  Each round changes one thing
 * right after async_exec returns; the atom must run as it was.  A round
 * whose atom did not hand off (no parked thread: the kernel runs it in
 * the caller) shows nothing and is not counted.
 */
#define ROUNDS	10

enum change { CH_ARG, CH_NR, CH_RET, CH_NEXT, CH_FLAGS, CH_COUNT };

static const char *const ch_names[CH_COUNT] = {
	"an argument cell", "the number", "the result pointer", "next",
	"the flags",
};

int main(void)
{
	struct rt_ring8 r;
	struct async_head_user ahu;
	unsigned long umem = rt_umem_nr();
	int handed = 0;

	rt_init();
	memset(&r, 0, sizeof(r));
	rt_register(&ahu, r.slot, 8, -1UL);
	for (int ch = 0; ch < CH_COUNT; ch++) {
		int wrong = 0, rounds = 0;

		for (int i = 0; i < ROUNDS; i++) {
			unsigned long cell = 0, *cp = &cell, inc = 5;
			unsigned long cell2 = 0, *cp2 = &cell2, one = 1;
			long ret = 0, ret2 = 0, other = 0;
			struct syslet_uatom a[2], *done;

			/* a: umem_add(&cell, 5), then b: umem_add(&cell2, 1). */
			rt_atom(&a[0], umem, &ret, SYSLET_ASYNC, &a[1],
				(unsigned long *)&cp, &inc, NULL);
			rt_atom(&a[1], umem, &ret2, 0, NULL,
				(unsigned long *)&cp2, &one, NULL);
			errno = 0;
			done = sys_async_exec(&a[0]);
			switch (ch) {
			case CH_ARG:
				inc = 100;
				break;
			case CH_NR:
				a[0].nr = SYS_getppid;
				break;
			case CH_RET:
				a[0].ret_ptr = &other;
				break;
			case CH_NEXT:
				a[0].next = NULL;
				break;
			default:
				/* umem_add gives 5: this would stop there. */
				a[0].flags |= SYSLET_STOP_ON_NONZERO;
				break;
			}
			if (done || errno) {
				if (!done)
					rt_die("async_exec: %s",
					       strerror(errno));
				continue;	/* ran in the caller */
			}
			rounds++;
			handed++;
			rt_wait_slot(&r.slot[r.next], 1);
			done = r.slot[r.next];
			r.slot[r.next] = NULL;
			r.next = (r.next + 1) % 8;
			if (cell != 5 || ret != 5 || other != 0 ||
			    done != &a[1] || cell2 != 1 || ret2 != 1) {
				if (!wrong)
					fprintf(stderr, "%s changed after "
						"async_exec returned NULL: "
						"cell %lu result %ld (other "
						"%ld), ended at atom %d, next "
						"atom's cell %lu; the atom as "
						"it was gives 5, 5 (0), 1, "
						"1\n", ch_names[ch], cell,
						ret, other,
						done == &a[0] ? 0 :
						done == &a[1] ? 1 : -1,
						cell2);
				wrong++;
			}
		}
		rt_check(!wrong, "%s: %d of %d rounds ran the atom as changed "
			 "after async_exec returned NULL (seeds/006 "
			 "exec_atom: copy_uatom() before async_schedule())",
			 ch_names[ch], wrong, rounds);
	}
	rt_unregister(&ahu);
	if (!handed) {
		printf("SKIP: no ASYNC atom handed off\n");
		return RT_SKIP;
	}
	return rt_done("asyncfetch");
}
