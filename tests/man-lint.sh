#!/bin/sh
# man-lint.sh: every man page passes mandoc -Tlint at warning level, and every page in man/ is listed.
. "$top_srcdir/tests/lib/harness.sh"

[ -n "${MANDOC:-}" ] || skip "mandoc not found by configure"
[ -n "${MAN_LINT:-}" ] || fail "MAN_LINT is empty: tests/man.mk exports the page list"

status=0
n=0
for page in $MAN_LINT; do
	f=$top_srcdir/$page
	[ -f "$f" ] || { echo "missing page: $page" >&2; status=1; continue; }
	# -Wwarning also reports errors; any output at all is a failure.
	out=$("$MANDOC" -Tlint -Wwarning "$f" 2>&1)
	rc=$?
	if [ -n "$out" ] || [ "$rc" != 0 ]; then
		printf '%s\n' "$out" >&2
		echo "mandoc -Tlint: $page: exit $rc" >&2
		status=1
	fi
	# A macro glued to the end of a text line ("number..It") is only
	# text to mandoc: two list items or paragraphs run together.
	if grep -nE '^[^.].*[^ ]\.(It|Pp|Sh|Ss|Bl|El|Bd|Ed)$' "$f" >&2; then
		echo "$page: a macro at the end of a text line" >&2
		status=1
	fi
	n=$((n + 1))
done

# A page added to man/ but not to man/local.mk would be neither
# installed nor checked.
for f in "$top_srcdir"/man/*.[1-8]; do
	[ -f "$f" ] || continue
	page=man/${f##*/}
	case " $(echo $MAN_LINT) " in
	*" $page "*) ;;
	*) echo "$page is not in MAN_LINT (man/local.mk)" >&2; status=1 ;;
	esac
done

[ "$status" = 0 ] || fail "man pages have lint problems"
echo "$n pages clean"
