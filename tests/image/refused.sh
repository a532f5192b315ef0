# refused.sh: sourced by tests/image/*.sh that refuse crafted images: it
# sources harness.sh, sets $craft (tests/image/craft) and goes to $tmpdir;
# refused LABEL IMAGE WANT [ARG...] checks that every reader of
# images refuses IMAGE with the one message WANT: syslet-run (exit 2,
# from the file and through a pipe; ARG... are its arguments after the
# image; $refused_opts, its options before the image), sysletc -d (exit 1) and both of libsyslet's openers (craft
# open: from the file and from memory).
. "$top_srcdir/tests/lib/harness.sh"
craft=$top_builddir/tests/image/craft
[ -x "$craft" ] || exit 99
cd "$tmpdir" || exit 99

refused() {
	r_label=$1 r_img=$2 r_want=$3
	shift 3
	r_st=0; $SYSLET_RUN $refused_opts "$r_img" "$@" >out.txt 2>err.txt || r_st=$?
	[ $r_st = 2 ] || { cat out.txt err.txt >&2; fail "$r_label: syslet-run: exit status $r_st, expected 2"; }
	expect_eq "$r_label: syslet-run" "syslet-run: $r_img: $r_want" "$(cat err.txt)"
	r_st=0; $SYSLET_RUN $refused_opts /dev/stdin "$@" <"$r_img" >out.txt 2>err.txt || r_st=$?
	[ $r_st = 2 ] || { cat out.txt err.txt >&2; fail "$r_label: syslet-run from a pipe: exit status $r_st, expected 2"; }
	expect_eq "$r_label: syslet-run from a pipe" "syslet-run: /dev/stdin: $r_want" "$(cat err.txt)"
	r_st=0; $SYSLETC -d "$r_img" >out.txt 2>err.txt || r_st=$?
	[ $r_st = 1 ] || { cat out.txt err.txt >&2; fail "$r_label: sysletc -d: exit status $r_st, expected 1"; }
	expect_eq "$r_label: sysletc -d" "sysletc: $r_img: $r_want" "$(cat err.txt)"
	"$craft" open "$r_img" >open.txt || exit 99
	expect_eq "$r_label: the openers" "file: $r_img: $r_want|mem: $r_want" \
		"$(tr '\n' '|' <open.txt | sed 's/|$//')"
}
