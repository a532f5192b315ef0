#!/bin/sh
# m32-probe.sh PROBE: print "yes" if the -m32 program PROBE runs here, else "no: " and why.
if [ "${HAVE_M32:-}" != yes ]; then
	echo "no: ${CC:-cc} -m32 cannot build programs (Debian: gcc-multilib)"
	exit 0
fi
out=$("$1" 2>&1) && [ "$out" = "32-bit programs run" ] && { echo yes; exit 0; }
# ENOEXEC is what a kernel without ia32 emulation gives.
echo "no: a -m32 program does not run here ($(echo "$out" | head -n 1 | cut -c1-400)); is the kernel's 32-bit emulation off (ia32_emulation=0)?"
