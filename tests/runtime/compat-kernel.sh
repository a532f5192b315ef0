#!/bin/sh
# compat-kernel.sh: the 2007-style program on syslet-compat.h, on the kernel backend (77 where no patched kernel answers).
: "${top_builddir:?run me through make check}"
SYSLET_BACKEND=kernel exec "$top_builddir/tests/runtime/compat"
