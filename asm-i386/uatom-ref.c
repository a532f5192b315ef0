/* uatom-ref.c: C reference versions of copy_uatom and umem_add, as the 2007 generic C code behaves. */
#include <config.h>

#include <stdint.h>
#include <string.h>

#include "syslet-asm.h"
#include "uasm.h"
#include "uatom-ref.h"

/*
 * The 2007 kernel/async.c copy_uatom(), with __get_user() replaced by
 * uasm_get_u32() and access_ok() by uasm_access_ok().  Its quirks are
 * kept because the assembly must agree with them: errors are or-ed and
 * reported at the end, a faulting load yields 0, and the walk over
 * arg_ptr[] stops at the first NULL, so later pointers are never read.
 */
long syslet_copy_uatom_c(struct syslet_atom *atom, const void *uatom)
{
	const unsigned char *u = uatom;
	uint32_t w, arg_ptr;
	long ret;
	int i;

	if (!uasm_access_ok(uatom, SYSLET_UATOM_SIZE))
		return -SYSLET_UASM_EFAULT;

	ret = uasm_get_u32(&w, u + SYSLET_UATOM_NR);
	atom->nr = w;
	ret |= uasm_get_u32(&w, u + SYSLET_UATOM_RET_PTR);
	atom->ret_ptr = w;
	ret |= uasm_get_u32(&w, u + SYSLET_UATOM_FLAGS);
	atom->flags = w;
	ret |= uasm_get_u32(&w, u + SYSLET_UATOM_NEXT);
	atom->next = w;

	memset(atom->args, 0, sizeof(atom->args));

	for (i = 0; i < SYSLET_NR_ARGS; i++) {
		ret |= uasm_get_u32(&arg_ptr, u + SYSLET_UATOM_ARG_PTR + 4 * i);
		if (!arg_ptr)
			return ret;
		if (!uasm_access_ok((void *)(uintptr_t)arg_ptr, 4))
			return -SYSLET_UASM_EFAULT;
		ret |= uasm_get_u32(&w, (void *)(uintptr_t)arg_ptr);
		atom->args[i] = w;
	}
	return ret;
}

/*
 * The 2007 generic sys_umem_add(), with one deliberate difference: the
 * 2007 C code ignored a failing __put_user() and returned the new value
 * although nothing was stored; here, as in the 2007 assembly, a write
 * fault gives -EFAULT.
 */
long syslet_umem_add_c(unsigned long *uptr, unsigned long inc)
{
	uint32_t val, new_val;

	if (!uasm_access_ok(uptr, 4) || uasm_get_u32(&val, uptr))
		return -SYSLET_UASM_EFAULT;
	if (!inc)
		return (long)val;
	new_val = val + (uint32_t)inc;
	if (uasm_put_u32(new_val, uptr))
		return -SYSLET_UASM_EFAULT;
	return (long)new_val;
}
