/* uatom-ref.h: the C reference routines the assembly is tested against. */
#ifndef SYSLET_UATOM_REF_H
#define SYSLET_UATOM_REF_H

struct syslet_atom;

long syslet_copy_uatom_c(struct syslet_atom *atom, const void *uatom);
long syslet_umem_add_c(unsigned long *uptr, unsigned long inc);

#endif /* SYSLET_UATOM_REF_H */
