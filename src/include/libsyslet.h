/* libsyslet.h: the syslet calls under the seeds' names, backend choice, and the image API. */
#ifndef LIBSYSLET_H
#define LIBSYSLET_H

/*
 * Code written for the 2007 kernel builds against this header with only
 * its includes changed: the five calls keep their names and return
 * conventions, whichever backend (kernel or the user-space engine) runs
 * them.  Naming rule: syslet_OBJECT__VERB for objects (as libbpf),
 * plain syslet_VERB for library-wide calls, sys_* for the ABI calls.
 *
 * Sections of this header are owned by different parts of libsyslet:
 * keep additions inside the matching section.
 */

#include <stddef.h>
#include <syslet.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- The ABI calls (src/lib/calls.c) ----------------------------------
 * Return conventions of the seeds: async_exec returns the last atom run
 * when the syslet completed without blocking, NULL when it went async;
 * errors are reported as by syscall(2): -1 (or NULL) with errno set. */
long sys_async_register(struct async_head_user *ahu, unsigned long len);
struct syslet_uatom *sys_async_exec(struct syslet_uatom *atom);
long sys_async_wait(unsigned long min_wait_events);
long sys_async_unregister(struct async_head_user *ahu, unsigned long len);
long sys_umem_add(unsigned long *uptr, unsigned long inc);

/* ---- Backends (src/lib/backend.c) -------------------------------------
 * Chosen once, on first use, by $SYSLET_BACKEND=auto|kernel|emul (auto:
 * the kernel when a patched kernel answers discovery, else emul), or by
 * syslet_set_backend() before the first call.  Returns 0 or -errno. */
int syslet_set_backend(const char *name);
const char *syslet_backend_name(void);

/* ---- The engine's observers (emul backend; src/lib/emul*.c) -----------
 * Filled in by the runtime part: per-atom trace events (syslet-run
 * --trace, --stats) and single-stepping (syslet-run -i). */

/* ---- Images (src/lib/image*.c) ----------------------------------------
 * Filled in by the loader part: open a .slo from a file or memory,
 * instantiate it with private cells, entries and cells by name, bind
 * parameters, map an atom back to its source line. */

#ifdef __cplusplus
}
#endif

#endif /* LIBSYSLET_H */
