#!/bin/sh
# compat-emul.sh: the 2007-style program on syslet-compat.h, on the emul backend.
: "${top_builddir:?run me through make check}"
SYSLET_BACKEND=emul exec "$top_builddir/tests/runtime/compat"
