#!/usr/bin/env bash
# kernel-check.sh: build the patched linux-source-6.12 (cached), boot it under qemu, report the guest's tests as TAP.
#
# Usage: kernel-check.sh SRCDIR   (make kernel-check passes the top source dir)
# Environment: SYSLET_KCACHE (cache dir), SYSLET_KSRC_TAR (source tarball),
# SYSLET_KARCHES ("x86_64 i386"), SYSLET_KVM (auto|yes|no),
# SYSLET_KTIMEOUT (seconds per boot), SYSLET_KBENCH (extra bench args).
# Prints TAP on stdout; logs go to kernel-check.log in the current dir.
set -u
top=$(cd "${1:-.}" && pwd)
kp=$top/kernel-patch
tar=${SYSLET_KSRC_TAR:-/usr/src/linux-source-6.12.tar.xz}
arches=${SYSLET_KARCHES:-x86_64 i386}
timeout_s=${SYSLET_KTIMEOUT:-900}
log=$PWD/kernel-check.log
: >"$log"
n=0
failed=0

say() { echo "# $*"; echo "# $*" >>"$log"; }
tap() { # tap ok|not-ok DESCRIPTION [DIRECTIVE]
	n=$((n + 1))
	if [ "$1" = ok ]; then echo "ok $n - $2${3:+ # $3}"
	else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}
skip_all() { echo "1..0 # SKIP $*"; exit 77; }

[ -r "$tar" ] || skip_all "no kernel source package ($tar): apt-get install linux-source-6.12"
for t in qemu-system-x86_64 gcc make git; do
	command -v "$t" >/dev/null || skip_all "$t not installed"
done

if [ -n "${SYSLET_KCACHE:-}" ]; then cache=$SYSLET_KCACHE
elif mkdir -p /var/cache/syslet-kernel 2>/dev/null && [ -w /var/cache/syslet-kernel ]; then
	cache=/var/cache/syslet-kernel
else cache=${XDG_CACHE_HOME:-$HOME/.cache}/syslet-kernel; fi
mkdir -p "$cache/kernels" || skip_all "cannot create $cache"

# The key covers everything that changes the kernel binary.
key=$( (cat "$kp/patches/series"; while read -r p; do [ -n "$p" ] && cat "$kp/patches/$p"; done <"$kp/patches/series"
	cat "$kp"/kconfig*.fragment; ls -l "$tar"; gcc --version | head -n 1
	cat "$top"/asm-i386/*.S "$top"/asm-i386/syslet-asm.h "$top"/asm-i386/install-kernel.sh 2>/dev/null) | sha256sum | cut -c1-16)
say "cache $cache, key $key"

# One source tree, reset to the baseline and patched again when the key
# changes, so make and ccache rebuild only what the patches touch.
prepare_src() {
	local src=$cache/src
	if [ ! -e "$src/.git/refs/tags/baseline" ]; then
		rm -rf "$src" && mkdir -p "$src" || return 1
		say "extracting $tar"
		tar -xf "$tar" -C "$src" --strip-components=1 || return 1
		git -C "$src" init -q && git -C "$src" add -f -A &&
		git -C "$src" -c user.name=syslet -c user.email=syslet@localhost \
			commit -q -m baseline && git -C "$src" tag baseline || return 1
	fi
	[ "$(cat "$cache/src.key" 2>/dev/null)" = "$key" ] && return 0
	git -C "$src" checkout -q -f baseline && git -C "$src" clean -q -fdx || return 1
	while read -r p; do
		[ -n "$p" ] || continue
		git -C "$src" apply -p1 "$kp/patches/$p" || { say "patch $p does not apply"; return 1; }
	done <"$kp/patches/series"
	# i386: asm-i386/'s copy_uatom and umem_add replace the weak C ones.
	if [ -f "$top/asm-i386/install-kernel.sh" ]; then
		sh "$top/asm-i386/install-kernel.sh" "$src" >>"$log" 2>&1 ||
			{ say "asm-i386/install-kernel.sh failed"; return 1; }
	fi
	echo "$key" >"$cache/src.key"
}

build_kernel() { # ARCH -> $cache/kernels/$key-ARCH/{bzImage,gen_init_cpio}
	local arch=$1 out=$cache/kernels/$key-$1 b=$cache/build-$1 cc=gcc
	[ -f "$out/bzImage" ] && { say "$arch kernel cached"; return 0; }
	prepare_src || return 1
	command -v ccache >/dev/null && cc="ccache gcc"
	export CCACHE_DIR=$cache/ccache CCACHE_BASEDIR=$cache
	mkdir -p "$b"
	say "building the $arch kernel (log in $log)"
	(cd "$cache/src" &&
	 make O="$b" ARCH="$arch" tinyconfig &&
	 scripts/kconfig/merge_config.sh -m -O "$b" "$b/.config" \
		"$kp/kconfig.fragment" "$kp/kconfig-$arch.fragment" &&
	 make O="$b" ARCH="$arch" olddefconfig &&
	 make O="$b" ARCH="$arch" CC="$cc" LOCALVERSION= \
		KBUILD_BUILD_TIMESTAMP=syslet KBUILD_BUILD_USER=syslet \
		KBUILD_BUILD_HOST=syslet -j"$(nproc)" bzImage) >>"$log" 2>&1 || return 1
	for opt in SYSLET IA32_EMULATION; do grep "^CONFIG_$opt=" "$b/.config" >>"$log"; done
	mkdir -p "$out.tmp" && cp "$b/arch/x86/boot/bzImage" "$b/usr/gen_init_cpio" "$out.tmp/" &&
		rm -rf "$out" && mv "$out.tmp" "$out"
}

kvm_ok() { # probe once per host: a nested KVM may hang before the kernel prints
	case ${SYSLET_KVM:-auto} in yes) return 0 ;; no) return 1 ;; esac
	[ -w /dev/kvm ] || return 1
	if [ ! -f "$cache/kvm-probe" ]; then
		timeout 40 qemu-system-x86_64 -enable-kvm -m 128 -nographic -no-reboot \
			-kernel "$1" -append "console=ttyS0 panic=-1 init=/nonexistent" \
			2>&1 | grep -q "Linux version" && echo yes >"$cache/kvm-probe" || echo no >"$cache/kvm-probe"
	fi
	[ "$(cat "$cache/kvm-probe")" = yes ]
}

# Guest programs, linked statically.
gdir=$(mktemp -d "${TMPDIR:-/tmp}/syslet-guest.XXXXXX")
trap 'rm -rf "$gdir"' EXIT
build_guest() { # BITS
	local m=-m$1 f ok=0
	for f in init ktest fuzz bench; do
		[ -f "$top/tests/kernel/$f.c" ] || continue
		gcc $m -O2 -static -Wall -I"$top/src/include" -o "$gdir/$f$1" \
			"$top/tests/kernel/$f.c" >>"$log" 2>&1 || ok=1
	done
	return $ok
}

run_guest() { # ARCH QEMU PROG...
	local arch=$1 qemu=$2 k=$cache/kernels/$key-$1 spec=$gdir/spec-$1 out=$gdir/out-$1 accel=""
	shift 2
	{ echo "dir /dev 0755 0 0"; echo "nod /dev/console 0600 0 0 c 5 1"
	  for d in proc sys tmp bin tests; do echo "dir /$d 0755 0 0"; done
	  echo "file /init $gdir/init$([ "$arch" = i386 ] && echo 32 || echo 64) 0755 0 0"
	  for p in "$@"; do echo "file /bin/${p%% *} $gdir/${p%% *} 0755 0 0"; done
	  echo "file /tests/list $gdir/list-$arch 0644 0 0"; } >"$spec"
	for p in "$@"; do echo "/bin/$p"; done >"$gdir/list-$arch"
	"$k/gen_init_cpio" "$spec" >"$gdir/initrd-$arch.cpio" 2>>"$log" || return 1
	if kvm_ok "$k/bzImage"; then accel="-enable-kvm -cpu host"; else accel="-cpu max"; fi
	say "booting the $arch kernel (${accel%% *})"
	timeout "$timeout_s" "$qemu" $accel -m 512 -smp 2 -nographic -no-reboot \
		-kernel "$k/bzImage" -initrd "$gdir/initrd-$arch.cpio" \
		-append "console=ttyS0 panic=-1 oops=panic quiet" >"$out" 2>&1 </dev/null
	tr -d '\r' <"$out" >"$out.txt"
	cat "$out.txt" >>"$log"
}

report() { # ARCH: turn the guest's per-program TAP into ours
	local arch=$1 txt=$gdir/out-$1.txt prog="" line st
	[ -f "$txt" ] || { tap not-ok "$arch: guest ran"; return; }
	while IFS= read -r line; do
		case $line in
		*"=== syslet-run-begin /bin/"*) prog=${line#*=== syslet-run-begin /bin/} ;;
		*"=== syslet-run-end "*) st=${line##* }
			if [ "$st" = 0 ]; then tap ok "$arch: $prog exits 0"
			elif [ "$st" = 77 ]; then tap ok "$arch: $prog" "SKIP"
			else tap not-ok "$arch: $prog exits $st"; fi
			prog="" ;;
		"ok "*|"not ok "*)
			[ -n "$prog" ] || continue
			local d=${line#*ok } ; d=${d#* } ; d=${d#- }
			case $line in
			*"# SKIP"*|*"# skip"*) tap ok "$arch: $prog: ${d%%#*}" SKIP ;;
			"ok "*) tap ok "$arch: $prog: $d" ;;
			*) tap not-ok "$arch: $prog: $d" ;;
			esac ;;
		"# "*) [ -n "$prog" ] && echo "$line" ;;
		esac
	done <"$txt"
	if grep -q "^=== syslet-guest-done" "$txt"; then tap ok "$arch: guest ran to the end"
	else tap not-ok "$arch: guest ran to the end (timeout or crash, see $log)"; fi
	if grep -Eq "BUG:|WARNING:|Oops|Kernel panic|general protection|Call Trace" "$txt"; then
		grep -E -m 5 "BUG:|WARNING:|Oops|Kernel panic|general protection" "$txt" | sed 's/^/# /'
		tap not-ok "$arch: kernel log has no BUG, WARNING or Oops"
	else tap ok "$arch: kernel log has no BUG, WARNING or Oops"; fi
}

exec 9>"$cache/lock"
flock 9
have32=yes
build_guest 64 || { say "64-bit guest programs do not build"; exit 99; }
build_guest 32 || have32=no
for arch in $arches; do
	if ! build_kernel "$arch"; then
		tail -n 30 "$log" | sed 's/^/# /'
		tap not-ok "$arch: kernel builds"
		continue
	fi
	tap ok "$arch: kernel builds with the syslet series"
	progs=""
	# The fuzz run is opt-in (SYSLET_KFUZZ=1) until the hang it found in
	# the compat run is understood; see kernel-patch/README.
	for f in ktest ${SYSLET_KFUZZ:+fuzz}; do
		case $arch in
		x86_64) [ -f "$gdir/${f}64" ] && progs="$progs ${f}64"
			[ "$have32" = yes ] && [ -f "$gdir/${f}32" ] && progs="$progs ${f}32" ;;
		i386) [ -f "$gdir/${f}32" ] && progs="$progs ${f}32" ;;
		esac
	done
	if [ "$arch" = i386 ]; then
		[ "$have32" = yes ] || { tap ok "$arch: guest" "SKIP no gcc -m32 -static"; continue; }
		command -v qemu-system-i386 >/dev/null || { tap ok "$arch: boot" "SKIP no qemu-system-i386"; continue; }
		run_guest i386 qemu-system-i386 $progs
	else
		run_guest x86_64 qemu-system-x86_64 $progs
	fi
	report "$arch"
done
echo "1..$n"
[ "$failed" = 0 ]
