#!/bin/sh
# compat-uring.sh: the 2007-style program on syslet-compat.h, on the io_uring backend (77 where io_uring cannot be set up or the build lacks it).
: "${top_builddir:?run me through make check}"
SYSLET_BACKEND=uring exec "$top_builddir/tests/runtime/compat"
