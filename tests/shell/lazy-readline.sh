#!/bin/sh
# lazy-readline.sh: syslet-run loads GNU readline only for a shell on a terminal (tty.sh runs that one): a run, --help and a scripted shell start without it.
. "$top_srcdir/tests/shell/lib.sh"
shell_require
grep -q '^#define SHL_READLINE_SONAME' "$top_builddir/config.h" ||
	skip "configure linked readline into syslet-run (no dlopen, or its name unknown)"
LD_DEBUG=libs "$SYSLET_RUN" --help >/dev/null 2>"$tmpdir/libs" ||
	fail "syslet-run --help"
grep -q 'calling init' "$tmpdir/libs" ||
	skip "the dynamic loader does not report its libraries (LD_DEBUG)"

printf 'syslet s() { getppid(); }\n' >"$tmpdir/s.syslet"
export XDG_DATA_HOME="$tmpdir/data" HOME="$tmpdir"
for how in --help run each shell; do
	case $how in
	--help) set -- --help ;;
	run) set -- "$tmpdir/s.syslet" ;;
	each) printf 'syslet c(str p) { open(p, O_RDONLY); }\n' \
		>"$tmpdir/c.syslet"
	      set -- --each "$tmpdir/c.syslet" "$tmpdir/s.syslet" \
		"$tmpdir/c.syslet" ;;
	shell) set -- -i ;;
	esac
	LD_DEBUG=libs "$SYSLET_RUN" "$@" </dev/null >/dev/null \
		2>"$tmpdir/libs" || fail "syslet-run $how failed"
	! grep -q 'libreadline' "$tmpdir/libs" ||
		fail "syslet-run $how loaded readline"
done

# A shell on a terminal (script(1) gives it one) whose readline cannot be
# loaded: a clear message and status 1.
script -qec true /dev/null </dev/null >/dev/null 2>&1 ||
	skip "no script(1) to give the shell a terminal"
soname=$(sed -n 's/^#define SHL_READLINE_SONAME "\(.*\)"$/\1/p' \
	"$top_builddir/config.h")
mkdir "$tmpdir/lib"
: >"$tmpdir/lib/$soname"
status=0
LD_LIBRARY_PATH=$tmpdir/lib script -qec "'$SYSLET_RUN' -i" /dev/null \
	</dev/null >"$tmpdir/out" 2>&1 || status=$?
expect_eq "status without a loadable readline" 1 "$status"
grep -q "cannot load readline: .*$soname" "$tmpdir/out" ||
	{ cat "$tmpdir/out" >&2; fail "no message naming readline"; }
exit 0
