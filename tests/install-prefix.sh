#!/bin/sh
# install-prefix.sh: "make install prefix=DIR" (the GNU way to install elsewhere without configuring again) installs a libsyslet.pc that names DIR, so that with PKG_CONFIG_PATH=DIR/lib/pkgconfig the commands of libsyslet(3) build programs, shared and --static, that run.
. "$top_srcdir/tests/lib/harness.sh"
: "${CC:=cc}"
: "${MAKE:=make}"
command -v pkg-config >/dev/null 2>&1 || skip "pkg-config is not installed"
[ -n "${SYSLET_SANITIZE:-}" ] && skip "the sanitizer runtime must come first"
[ -f "$top_builddir/src/lib/.libs/libsyslet.so" ] ||
	skip "no shared libsyslet in this build"
p=$tmpdir/prefix
# Only what a C program needs: headers, library, .pc.  The build tree's
# libsyslet.pc is made again afterwards for the configured prefix.
$MAKE -C "$top_builddir" install-libLTLIBRARIES install-includeHEADERS \
	install-nodist_includeHEADERS \
	install-pkgconfigDATA prefix="$p" >"$tmpdir/make.out" 2>&1 ||
	{ cat "$tmpdir/make.out" >&2; fail "make install prefix=$p failed"; }
$MAKE -C "$top_builddir" src/lib/libsyslet.pc >/dev/null 2>&1
[ -f "$p/lib/pkgconfig/libsyslet.pc" ] || fail "no $p/lib/pkgconfig/libsyslet.pc"
export PKG_CONFIG_PATH=$p/lib/pkgconfig
expect_eq "pkg-config --variable=libdir" "$p/lib" \
	"$(pkg-config --variable=libdir libsyslet)"
expect_eq "pkg-config --cflags" "-I$p/include" \
	"$(echo $(pkg-config --cflags libsyslet))"
cat >"$tmpdir/prog.c" <<'EOP'
#include <libsyslet.h>
#include <stdio.h>

int main(void)
{
	const char *n = syslet_syscall_name(0);

	if (!n)
		return 1;
	puts(n);
	return 0;
}
EOP
cd "$tmpdir" || exit 99
unset LD_LIBRARY_PATH
# libsyslet(3)'s command with a run path.
$CC -o prog prog.c $(pkg-config --cflags --libs libsyslet) \
	-Wl,-rpath,$(pkg-config --variable=libdir libsyslet) 2>cc.err ||
	fail "the page's command does not build: $(head -1 cc.err)"
[ -n "$(./prog)" ] || fail "the program built against DIR does not run"
ldd ./prog 2>/dev/null | grep -q "$p/lib/libsyslet.so" ||
	fail "the program does not use DIR's library: $(ldd ./prog | grep syslet)"
# Static: the library's own archive and what it needs, from the .pc.
if [ -f "$p/lib/libsyslet.a" ]; then
	$CC -o sprog prog.c $(pkg-config --cflags libsyslet) "$p/lib/libsyslet.a" \
		$(pkg-config --static --libs-only-l libsyslet | sed 's/-lsyslet//') \
		2>cc.err || fail "--static does not build: $(head -1 cc.err)"
	[ -n "$(./sprog)" ] || fail "the static program does not run"
fi
exit 0
