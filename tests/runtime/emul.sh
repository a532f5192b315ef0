#!/bin/sh
# emul.sh: the signal, fault, deny and stop rules on the emul backend by name, whatever auto picks here (uring where io_uring works).
: "${top_builddir:?run me through make check}"
status=0
for t in eintr sigkinds faultown deny signal sigloop fault stop umem \
	ttyread; do
	SYSLET_BACKEND=emul "$top_builddir/tests/runtime/$t" || {
		echo "FAIL: $t on the emul backend" >&2
		status=1
	}
done
exit $status
