#!/bin/sh
# man-rpath.sh: the commands of libsyslet(3) for a library installed where the run-time linker does not look: the plain pkg-config line builds a program that cannot start, the one with the run path one that runs.
. "$top_srcdir/tests/lib/harness.sh"
: "${CC:=cc}"
command -v pkg-config >/dev/null 2>&1 || skip "pkg-config is not installed"
[ -n "${SYSLET_SANITIZE:-}" ] && skip "the sanitizer runtime must come first"
page=$top_srcdir/man/libsyslet.3
lib=$top_builddir/src/lib/.libs
[ -f "$lib/libsyslet.so" ] || skip "no shared libsyslet in this build"
cd "$tmpdir" || exit 99
# A prefix of its own: the build tree's library, found by no one.
mkdir pc
cat >pc/libsyslet.pc <<EOPC
libdir=$lib
Name: libsyslet
Description: syslets
Version: 0
Libs: -L\${libdir} -lsyslet
Cflags: -I$top_srcdir/src/include -I$top_builddir/src/include
EOPC
printf '#include <libsyslet.h>\nint main(void)\n{\n\treturn !syslet_syscall_name(0);\n}\n' >prog.c
# The page's two commands, continuation lines joined.
sed -n '/^\.Sh DESCRIPTION/,/^\.Ss /p' "$page" |
	awk '/^\.Bd -literal/ { on = 1; n++; next } /^\.Ed/ { on = 0 }
	     on { sub(/\\e$/, ""); printf "%s", $0 > ("cmd." n) }' 
for n in 1 2; do
	[ -s cmd.$n ] || fail "libsyslet(3): no command $n in DESCRIPTION"
	sed -i 's/\t/ /g; s/$/\n/' cmd.$n
done
grep -q -- '-Wl,-rpath' cmd.2 || fail "libsyslet(3) gives no run path: $(cat cmd.2)"
export PKG_CONFIG_PATH=$tmpdir/pc
unset LD_LIBRARY_PATH
CC=$CC sh -c "$(sed "s/^cc /$CC /" cmd.1)" || fail "the page's first command fails"
if ! ldconfig -p 2>/dev/null | grep -q 'libsyslet\.so\.0 '; then
	st=0
	./prog 2>err || st=$?
	[ $st != 0 ] && grep -q 'error while loading shared libraries: libsyslet.so.0' err ||
		fail "without a run path the program started (status $st)"
	grep -q 'error while loading shared libraries: libsyslet.so.0' "$page" ||
		fail "libsyslet(3) does not quote the loader's message"
fi
sh -c "$(sed "s/^cc /$CC /" cmd.2)" || fail "the page's command with a run path fails"
./prog || fail "the program built with the page's run path does not run"
exit 0
