#!/usr/bin/env bash
# series.sh: a git tree of the patch series to work in, and the series regenerated from it with git format-patch.
#
# Usage: series.sh tree [DIR]    DIR (default CACHE/dev) becomes a clone of
#                                the cache's unpacked source at its baseline
#                                tag, with the series applied as commits
#        series.sh export [DIR]  git format-patch baseline..HEAD of DIR into
#                                kernel-patch/patches/, and patches/series
# CACHE is the kernel cache of kernel-check.sh (run make kernel-check once
# first: it unpacks the source); SYSLET_KCACHE overrides it.  Edit and
# commit in DIR (a commit per change, a changelog that says why), then
# export; kernel-patch/local.mk lists the patch files for the tarball.
set -eu
kp=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${SYSLET_KCACHE:-}" ]; then cache=$SYSLET_KCACHE
elif [ -d /var/cache/syslet-kernel/src ]; then cache=/var/cache/syslet-kernel
else cache=${XDG_CACHE_HOME:-$HOME/.cache}/syslet-kernel; fi
dir=${2:-$cache/dev}

case ${1:-} in
tree)
	[ -e "$cache/src/.git/refs/tags/baseline" ] ||
		{ echo "series.sh: no $cache/src: run make kernel-check once" >&2; exit 1; }
	[ ! -e "$dir" ] || { echo "series.sh: $dir exists" >&2; exit 1; }
	git clone -q --shared "$cache/src" "$dir"
	git -C "$dir" checkout -q -b syslet baseline
	git -C "$dir" config user.name "syslet kernel helper"
	git -C "$dir" config user.email kernel@syslet.invalid
	sed 's|^|'"$kp"'/patches/|' "$kp/patches/series" | xargs git -C "$dir" am -q
	git -C "$dir" log --oneline baseline..
	;;
export)
	rm -f "$kp"/patches/*.patch
	git -C "$dir" format-patch -q -N --zero-commit --no-signature \
		--abbrev=9 -o "$kp/patches" baseline
	(cd "$kp/patches" && ls -- *.patch >series)
	cat "$kp/patches/series"
	;;
*)
	sed -n '3,12s/^# \{0,1\}//p' "$0" >&2
	exit 2
	;;
esac
