#!/bin/sh
# thin.sh: syslet-run is a client of the libraries' interfaces only (issue 14): its sources include libsyslet.h, the compiler's sysletc.h (the shell's probe of its input too) and six helpers of common/ (files, standard descriptors, main's stack, the quoting of names in messages, the text buffer), never the image model, the syscall tables, the diagnostics or the compiler's inside, and hard-code no atom size.
. "$top_srcdir/tests/lib/harness.sh"

run=$top_srcdir/src/run
ls "$run"/*.c >/dev/null 2>&1 || fail "no sources in $run"
# Quoted includes: what the tree holds.  Allowed: the public headers,
# syslet-run's own, and common/'s file reading and writing helpers and
# its standard descriptors' keeper, the stack main runs on, the quoting
# of names in messages and the text buffer the shell appends to, which know
# nothing of syslets.  The shell asks the compiler library
# (sysletc_probe() ...), not grammar/, whether a line is complete and
# what it declares.
bad=$(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' \
	"$run"/*.c "$run"/*.h |
	grep -v -e '"config\.h"' -e '"libsyslet\.h"' -e '"syslet\.h"' \
		-e '"compiler/sysletc\.h"' -e '"common/readfile\.h"' \
		-e '"common/outfile\.h"' -e '"common/stdfds\.h"' \
		-e '"common/stack\.h"' -e '"common/quote\.h"' \
		-e '"common/textbuf\.h"' \
		-e '"run/[a-z-]*\.h"' \
		-e '"[a-z-]*\.h"' |
	sed "s|^$top_srcdir/||")
# "name.h" without a directory must be one of src/run's own.
own=$(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z-]*\.h"' \
	"$run"/*.c "$run"/*.h |
	sed 's/.*"\([a-z-]*\.h\)".*/\1/' | sort -u)
for h in $own; do
	case $h in
	config.h|libsyslet.h|syslet.h) ;;
	*) [ -f "$run/$h" ] || bad="$bad
src/run: \"$h\" is not one of syslet-run's own headers" ;;
	esac
done
[ -z "$bad" ] || fail "syslet-run includes internal headers:
$bad"
# The atom's size is the image format's business (libsyslet answers in
# atom indexes).
if grep -n -e '11u[[:space:]]*\*' -e '\*[[:space:]]*11u' -e 'word_size' \
	"$run"/*.c "$run"/*.h; then
	fail "syslet-run computes atom offsets itself"
fi
exit 0
