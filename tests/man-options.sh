#!/bin/sh
# man-options.sh: every option --help prints is documented (.It Fl) in the program's page and shown in its SYNOPSIS, and every documented option is accepted.
. "$top_srcdir/tests/lib/harness.sh"

# Options in --help: the option column (before two spaces) of lines
# starting with a few blanks and a dash (deeper ones continue the text).
help_opts() {
	"$1" --help | sed -n 's/^ \{1,6\}\(-[^ ].*\)$/\1/p' |
		sed 's/  .*//' | tr ',' '\n' |
		sed -n 's/^ *\(-\{1,2\}[A-Za-z][A-Za-z0-9-]*\).*/\1/p' | sort -u
}

# Options in the page: the Fl words of .It lines.
man_opts() {
	sed -n 's/^\.It Fl //p' "$1" | sed 's/Fl /\n/g' |
		sed -n 's/^\(-\{0,1\}[A-Za-z][A-Za-z0-9-]*\).*/-\1/p' | sort -u
}

# Does PROG reject OPT itself (getopt's complaint), not its argument?
rejects() {
	# In tmpdir: what a run writes (a.slo, an --output=1) stays there.
	(cd "$tmpdir" && "$1" "$2" "$3" </dev/null >/dev/null 2>"$tmpdir/err")
	grep -Eq "unknown option|unrecognized option|invalid option|needs an argument|requires an argument" "$tmpdir/err"
}

# Options in the SYNOPSIS: the words after Fl (letters joined, as in
# "Fl rT", are one option each) and after "| -" (".Fl -help | -version").
syn_opts() {
	sed -n '/^\.Sh SYNOPSIS/,/^\.Sh /p' "$1" |
		grep -o 'Fl [-A-Za-z0-9]*\|| -[-A-Za-z0-9]*' |
		sed 's/^Fl //; s/^| //' | while read -r w; do
			case $w in
			-*) echo "-$w" ;;
			*) echo "$w" | sed 's/./-&\n/g' | sed '/^$/d' ;;
			esac
		done | sort -u
}

# The lines of --help that show an option, its forms comma-separated
# ("-T, --syscall-times"), arguments ([=SET], =N) cut off.
help_lines() {
	"$1" --help | sed -n 's/^ \{1,6\}\(-[^ ].*\)$/\1/p' | sed 's/  .*//' |
		sed 's/\[*=[^,]*//g; s/ [A-Z][A-Za-z.|]*//g; s/,/ /g'
}

status=0
check() { # PROG PAGE INPUT
	prog=$1 page=$2 input=$3
	# Absolute: rejects() runs it from tmpdir.
	case $prog in /*) ;; *) prog=$(pwd)/$prog ;; esac
	[ -x "$prog" ] || fail "no program $prog"
	help_opts "$prog" > "$tmpdir/help"
	man_opts "$page" > "$tmpdir/man"
	[ -s "$tmpdir/help" ] || fail "no options parsed from $prog --help"
	for o in $(comm -23 "$tmpdir/help" "$tmpdir/man"); do
		echo "FAIL: ${prog##*/} --help prints $o, ${page##*/} does not document it" >&2
		status=1
	done
	syn_opts "$page" >"$tmpdir/syn"
	help_lines "$prog" | while read -r forms; do
		found=
		for f in $forms; do
			grep -qx -- "$f" "$tmpdir/syn" && found=1
		done
		[ "$found" ] && continue
		echo "FAIL: ${prog##*/} --help prints $forms, the SYNOPSIS of ${page##*/} does not show it" >&2
		echo x >"$tmpdir/nosyn"
	done
	[ -e "$tmpdir/nosyn" ] && { status=1; rm -f "$tmpdir/nosyn"; }
	for o in $(cat "$tmpdir/man"); do
		# Arguments as the page writes them: --opt=ARG or -o ARG.
		if grep -q "^\.It.*Fl ${o#-} Ns = Ns Ar" "$page"; then
			a="$o=1"
		else
			a="$o"
		fi
		if grep -Eq "^\.It.*Fl ${o#-}( Ar| Ns Ar)" "$page"; then
			rejects "$prog" "$o" "$tmpdir/x" && rejected=1 || rejected=0
		else
			rejects "$prog" "$a" "$input" && rejected=1 || rejected=0
		fi
		if [ $rejected = 1 ]; then
			echo "FAIL: ${page##*/} documents $o, ${prog##*/} rejects it: $(head -1 "$tmpdir/err")" >&2
			status=1
		fi
	done
}

printf 'syslet s() { getppid(); }\n' > "$tmpdir/s.syslet"
check "$SYSLETC" "$top_srcdir/man/sysletc.1" "$tmpdir/s.syslet"
check "$SYSLET_RUN" "$top_srcdir/man/syslet-run.1" "$tmpdir/s.syslet"
exit $status
