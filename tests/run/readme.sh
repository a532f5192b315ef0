#!/bin/sh
# readme.sh: runs every "$ command" of README's "Running a syslet", "The interactive shell" and "libsyslet in a C program" sections and compares its output with the lines under it.
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99

# The commands say ./sysletc, ./syslet-run and examples/, as from the
# top of the tree: give them those names here.
printf '#!/bin/sh\nexec %s "$@"\n' "$SYSLETC" >sysletc
printf '#!/bin/sh\nexec %s "$@"\n' "$SYSLET_RUN" >syslet-run
chmod +x sysletc syslet-run
ln -s "$top_srcdir/examples" examples
# pkg-config's uninstalled file, at the top of the build tree; make runs
# there (make install DESTDIR=... stages into this directory).
ln -s "$top_builddir/libsyslet-uninstalled.pc" .
real_make=$(command -v make) || fail "no make in PATH"
mkdir bin
printf '#!/bin/sh\nexec env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL %s --no-print-directory -C %s "$@"\n' \
	"$real_make" "$top_builddir" >bin/make
chmod +x bin/make
# In a sanitizer build the library needs the sanitizer runtime, which must
# come first in the program (ASan refuses to start otherwise): the README's
# cc is then the configured compiler, whose flags link it.
if [ -n "${SYSLET_SANITIZE:-}" ]; then
	printf '#!/bin/sh\nexec %s "$@"\n' "${CC:?}" >bin/cc
	chmod +x bin/cc
fi
PATH=$tmpdir/bin:$PATH
export PATH

# Split the section into case files: cmd.N (the command) and exp.N (the
# lines shown under it, indentation removed).
awk '
	/^## / { on = ($0 == "## Running a syslet" ||
		       $0 == "## The interactive shell" ||
		       $0 == "## libsyslet in a C program"); next }
	!on { next }
	/^    \$ / { n++; sub(/^    \$ /, ""); print > ("cmd." n); close("cmd." n);
		    printf "" > ("exp." n); close("exp." n); cur = n; next }
	/^    / && cur { sub(/^    /, ""); print >> ("exp." cur); close("exp." cur); next }
	{ cur = 0 }
	END { print n > "count" }
' "$top_srcdir/README.md"
n=$(cat count)
[ "$n" -ge 5 ] || fail "found only ${n:-no} commands in README's Running a syslet"

# Every example is shown at work.
for ex in "$top_srcdir"/examples/*.syslet; do
	name=examples/${ex##*/}
	grep -qF "./syslet-run $name" cmd.* ||
		grep -q "^\./sysletc $name" cmd.* ||
		fail "README runs no command on $name"
done

port_busy() {
	grep -q '^ *[0-9]*: [0-9A-F]*:1F90 [0-9A-F:]* 0A ' /proc/net/tcp \
		/proc/net/tcp6 2>/dev/null
}
has_shell=yes
$SYSLET_RUN -i </dev/null 2>&1 | grep -q 'unavailable' && has_shell=

i=1
while [ "$i" -le "$n" ]; do
	j=$i
	i=$((i + 1))
	cmd=$(cat "cmd.$j")
	# A terminal session (prompts and echo): its piped twin is checked.
	grep -q '^syslet> ' "exp.$j" && continue
	case $cmd in
	*'-i '*) [ "$has_shell" ] || continue ;;
	*server.syslet*) port_busy && continue ;;
	*http.syslet*) port_busy && continue
		command -v curl >/dev/null || continue ;;
	esac
	lock=
	case $cmd in
	*server.syslet* | *http.syslet*) command -v flock >/dev/null &&
		lock="flock $top_builddir/tests/run/port-8080.lock" ;;
	esac
	$lock sh -c "$cmd" >"out.$j" 2>"err.$j" </dev/null ||
		fail "README command '$cmd' exited $? ($(cat "err.$j"))"
	# Loopback networking missing or the port taken meanwhile: not
	# the README's fault.
	case $cmd in
	*server.syslet* | *http.syslet*) grep -Eq 'E(ADDRINUSE|ACCES|PERM|AFNOSUPPORT|ADDRNOTAVAIL)' \
		"err.$j" && continue ;;
	esac
	# Whether a traced atom ran inline depends on the machine at that
	# instant (see tests/run/trace.sh): both sides say <inline>.
	for f in "exp.$j" "out.$j"; do
		sed 's/<\(inline\|cachemiss\)[^>]*>/<inline>/' "$f" >"$f.n" &&
			mv "$f.n" "$f"
	done
	diff -u "exp.$j" "out.$j" >"diff.$j" ||
		fail "README command '$cmd' printed something else:
$(cat "diff.$j")"
done
