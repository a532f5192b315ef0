#!/bin/sh
# gen-nr.sh: write syslet-nr.h, the __NR_sys_NAME aliases 2007 syslet code used.
# usage: gen-nr.sh UNISTD_64_H UNISTD_32_H > syslet-nr.h
set -e
cat <<'HDR'
/* syslet-nr.h: __NR_sys_NAME syscall names as the 2007 syslet programs spelt them (generated). */
#ifndef SYSLET_NR_H
#define SYSLET_NR_H

/*
 * The 2007 test programs named atoms' syscalls __NR_sys_write and so on;
 * each alias maps to the build target's own __NR_ number, so that such
 * code builds with only its includes changed.  The syslet calls follow
 * the numbering of today's profiles, or of the 2007 kernel when
 * SYSLET_PROFILE_I386_2007 is defined (then call syslet_set_profile()).
 */
#include <asm/unistd.h>
#include <syslet.h>

HDR
sed -n 's/^#define __NR_\([a-z0-9_]*\)[ 	]\{1,\}[0-9]\{1,\}.*/\1/p' "$1" "$2" |
	sort -u | while read -r n; do
	printf '#ifdef __NR_%s\n#define __NR_sys_%s __NR_%s\n#endif\n' "$n" "$n" "$n"
done
cat <<'TAIL'

#ifdef SYSLET_PROFILE_I386_2007
#define SYSLET__NR_FIRST SYSLET_NR_BASE_2007
#else
#define SYSLET__NR_FIRST SYSLET_NR_BASE
#endif
#define __NR_sys_async_register   (SYSLET__NR_FIRST + SYSLET_CALL_ASYNC_REGISTER)
#define __NR_sys_async_exec       (SYSLET__NR_FIRST + SYSLET_CALL_ASYNC_EXEC)
#define __NR_sys_async_wait       (SYSLET__NR_FIRST + SYSLET_CALL_ASYNC_WAIT)
#define __NR_sys_async_unregister (SYSLET__NR_FIRST + SYSLET_CALL_ASYNC_UNREGISTER)
#define __NR_sys_umem_add         (SYSLET__NR_FIRST + SYSLET_CALL_UMEM_ADD)

#endif /* SYSLET_NR_H */
TAIL
