#!/bin/sh
# man-api.sh: the section 3 pages name only functions libsyslet.h (or syslet-compat.h) declares, and each extra name gets an installed link.
. "$top_srcdir/tests/lib/harness.sh"

hdr=$top_srcdir/src/include/libsyslet.h
compat=$top_srcdir/src/include/syslet-compat.h
[ -f "$hdr" ] && [ -f "$compat" ] || fail "missing $hdr or $compat"
: "${MAN_LINKS=}"

# The names a page's NAME section lists (.Nm lines before .Nd).
page_names() {
	sed -n '/^\.Sh NAME/,/^\.Nd/s/^\.Nm \([A-Za-z_0-9]*\).*/\1/p' "$1"
}

status=0
for f in "$top_srcdir"/man/*.3; do
	page=${f##*/}
	first=
	for name in $(page_names "$f"); do
		[ -n "$first" ] || first=$name
		[ "$name" = libsyslet ] && continue
		if ! grep -Eq "(^|[^A-Za-z0-9_])$name\(" "$hdr" "$compat"; then
			echo "$page: $name is not declared in libsyslet.h" >&2
			status=1
		fi
		if [ "$name.3" != "$page" ]; then
			case " $(echo $MAN_LINKS) " in
			*" $name.3:$page "*) ;;
			*) echo "$page: no link $name.3:$page in man/local.mk" >&2
			   status=1 ;;
			esac
		fi
	done
	[ "$first.3" = "$page" ] || { echo "$page: first name is $first" >&2; status=1; }
done

# Declared but undocumented functions are listed, not failed: the API
# grows in parallel with its pages.
for name in $(sed -n 's/^[a-z].*[ *]\(sys_[a-z_]*\|syslet_[a-z_]*\)(.*/\1/p' "$hdr"); do
	[ -f "$top_srcdir/man/$name.3" ] && continue
	case " $(echo $MAN_LINKS) " in
	*" $name.3:"*) ;;
	*) echo "note: $name has no page yet" ;;
	esac
done

[ "$status" = 0 ] || fail "section 3 pages and libsyslet.h disagree"
