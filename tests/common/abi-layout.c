/* abi-layout.c: compile-time checks that the user ABI (struct syslet_uatom, async_head_user, the flags, the call numbers) is the seeds', on either word size; compiled -m64 and -m32, never run (abi-layout.sh). */
#include <stddef.h>
#include "syslet.h"

/*
 * Every field is a machine word: the same checks hold for i386 and
 * x86_64, and a compile for each word size checks both layouts.
 */
#define W sizeof(long)
#define ABI(cond) _Static_assert(cond, "ABI: " #cond)

ABI(W == 4 || W == 8);
ABI(sizeof(struct syslet_uatom) == 11 * W);
ABI(sizeof(struct syslet_uatom) == (W == 8 ? 88 : 44));
ABI(offsetof(struct syslet_uatom, flags) == 0);
ABI(offsetof(struct syslet_uatom, nr) == W);
ABI(offsetof(struct syslet_uatom, ret_ptr) == 2 * W);
ABI(offsetof(struct syslet_uatom, next) == 3 * W);
ABI(offsetof(struct syslet_uatom, arg_ptr) == 4 * W);
ABI(sizeof(((struct syslet_uatom *)0)->arg_ptr) == 6 * W);
ABI(offsetof(struct syslet_uatom, private) == 10 * W);

ABI(sizeof(struct async_head_user) == 3 * W);
ABI(offsetof(struct async_head_user, completion_ring) == 0);
ABI(offsetof(struct async_head_user, ring_size_bytes) == W);
ABI(offsetof(struct async_head_user, max_nr_threads) == 2 * W);

ABI(SYSLET_ASYNC == 0x01);
ABI(SYSLET_SYNC == 0x02);
ABI(SYSLET_NO_COMPLETE == 0x04);
ABI(SYSLET_STOP_ON_NONZERO == 0x08);
ABI(SYSLET_STOP_ON_ZERO == 0x10);
ABI(SYSLET_STOP_ON_NEGATIVE == 0x20);
ABI(SYSLET_STOP_ON_NON_POSITIVE == 0x40);
ABI(SYSLET_STOP_MASK == 0x78);
ABI(SYSLET_SKIP_TO_NEXT_ON_STOP == 0x80);
ABI(SYSLET_FLAGS_MASK == 0xff);

/* The calls in the order of the 2007 i386 table, 320..324. */
ABI(SYSLET_NR_BASE_2007 == 320);
ABI(SYSLET_CALL_ASYNC_REGISTER == 0);
ABI(SYSLET_CALL_ASYNC_EXEC == 1);
ABI(SYSLET_CALL_ASYNC_WAIT == 2);
ABI(SYSLET_CALL_ASYNC_UNREGISTER == 3);
ABI(SYSLET_CALL_UMEM_ADD == 4);
ABI(SYSLET_NR_CALLS == 5);

#ifdef __i386__
/* The i386 assembly's byte offsets (asm-i386/syslet-asm.h) are this struct's. */
#define __ASSEMBLY__
#include "syslet-asm.h"
ABI(offsetof(struct syslet_uatom, flags) == SYSLET_UATOM_FLAGS);
ABI(offsetof(struct syslet_uatom, nr) == SYSLET_UATOM_NR);
ABI(offsetof(struct syslet_uatom, ret_ptr) == SYSLET_UATOM_RET_PTR);
ABI(offsetof(struct syslet_uatom, next) == SYSLET_UATOM_NEXT);
ABI(offsetof(struct syslet_uatom, arg_ptr) == SYSLET_UATOM_ARG_PTR);
ABI(offsetof(struct syslet_uatom, private) == SYSLET_UATOM_PRIVATE);
ABI(sizeof(struct syslet_uatom) == SYSLET_UATOM_SIZE);
ABI(SYSLET_NR_ARGS == 6);
#endif
