#!/usr/bin/env bash
# kernel-check.sh: build the patched linux-source-6.12 (cached), boot it under qemu, report the guest's tests as TAP.
#
# Usage: kernel-check.sh SRCDIR   (make kernel-check passes the top source dir)
# Environment: SYSLET_KCACHE (cache dir), SYSLET_KSRC_TAR (source tarball),
# SYSLET_KVARIANTS ("x86_64 i386 x86_64-debug": the kernels to build and
# boot; ARCH-debug adds kconfig-debug.fragment), SYSLET_KVM (auto|yes|no),
# SYSLET_KTIMEOUT (seconds per boot), SYSLET_KBENCH (benchmark rounds, 0: none),
# SYSLET_KFUZZ (random-atom fuzz runs per ABI, 0: none), SYSLET_KSEED,
# SYSLET_KDIFF (differential-test graphs per ABI, 0: none), SYSLET_KRING
# (0: without tests/diff/ringtest on the kernel backend);
# for debugging, SYSLET_KONLY ("sigloop32 load64": only these runtime
# programs) and SYSLET_KEXTRA (paths of more static programs to run);
# SYSLET_KUSER=0 leaves out the 32-bit programs' runs on the emul
# engine in the plain kernels' guests; SYSLET_KSMP=0 builds the x86_64
# kernel without ACPI, and so its guest sees one CPU (default 1: two
# CPUs, and kguest_smp runs there).
# Prints TAP on stdout; logs go to kernel-check.log in the current dir.
set -u
top=$(cd "${1:-.}" && pwd)
kp=$top/kernel-patch
tar=${SYSLET_KSRC_TAR:-/usr/src/linux-source-6.12.tar.xz}
variants=${SYSLET_KVARIANTS:-${SYSLET_KARCHES:-x86_64 i386 x86_64-debug}}
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

# The source key covers everything that changes the patched tree; each
# kernel's key adds the configuration fragments that variant builds
# with, so that a change to one fragment rebuilds those kernels only.
# A variant is an arch (x86_64, i386), or an arch with -debug: lockdep,
# atomic-sleep checks and a preemptible kernel (kconfig-debug.fragment).
key=$( (cat "$kp/patches/series"; while read -r p; do [ -n "$p" ] && cat "$kp/patches/$p"; done <"$kp/patches/series"
	ls -l "$tar"; gcc --version | head -n 1
	cat "$top"/asm-i386/*.S "$top"/asm-i386/syslet-asm.h "$top"/asm-i386/syslet_kunit.c \
	"$top"/asm-i386/install-kernel.sh 2>/dev/null) | sha256sum | cut -c1-16)
v_arch() { echo "${1%%-*}"; }
v_frags() { # VARIANT -> its configuration fragments
	echo "$kp/kconfig.fragment $kp/kconfig-$(v_arch "$1").fragment"
	case $1 in *-debug) echo "$kp/kconfig-debug.fragment" ;; esac
	# The plain x86_64 kernel with ACPI, so two CPUs; SYSLET_KSMP=0:
	# without, one CPU.
	case ${SYSLET_KSMP:-1}:$1 in 1:x86_64) echo "$kp/kconfig-smp.fragment" ;; esac
}
kkey() { # VARIANT -> the key of its kernel
	# shellcheck disable=SC2046
	(echo "$key"; cat $(v_frags "$1")) | sha256sum | cut -c1-16
}
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

build_kernel() { # VARIANT -> $cache/kernels/KKEY-VARIANT/{bzImage,gen_init_cpio}
	local v=$1 arch out=$cache/kernels/$(kkey "$1")-$1 b=$cache/build-$1 cc=gcc t0=$SECONDS
	arch=$(v_arch "$v")
	[ -f "$out/bzImage" ] && { say "$v kernel cached"; return 0; }
	prepare_src || return 1
	command -v ccache >/dev/null && cc="ccache gcc"
	export CCACHE_DIR=$cache/ccache CCACHE_BASEDIR=$cache
	mkdir -p "$b"
	say "building the $v kernel (log in $log)"
	# shellcheck disable=SC2046
	(cd "$cache/src" &&
	 make O="$b" ARCH="$arch" tinyconfig &&
	 scripts/kconfig/merge_config.sh -m -O "$b" "$b/.config" $(v_frags "$v") &&
	 make O="$b" ARCH="$arch" olddefconfig &&
	 make O="$b" ARCH="$arch" CC="$cc" LOCALVERSION= \
		KBUILD_BUILD_TIMESTAMP=syslet KBUILD_BUILD_USER=syslet \
		KBUILD_BUILD_HOST=syslet -j"$(nproc)" bzImage) >>"$log" 2>&1 || return 1
	# What the fragments ask for and olddefconfig dropped (a missing
	# dependency) is a broken configuration, not a kernel to test.
	# shellcheck disable=SC2046
	sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=y$/\1/p' $(v_frags "$v") | sort -u | while read -r opt; do
		grep -q "^$opt=y" "$b/.config" || { say "$v: $opt=y did not survive olddefconfig"; return 1; }
	done || return 1
	say "$v kernel built in $((SECONDS - t0)) s"
	mkdir -p "$out.tmp" && cp "$b/arch/x86/boot/bzImage" "$b/usr/gen_init_cpio" "$out.tmp/" &&
		rm -rf "$out" && mv "$out.tmp" "$out" || return 1
	# Every change to the series is a new key: keep the three newest
	# kernels of this arch, so that going back a change or two is free.
	ls -dt "$cache/kernels/"*-"$v" | tail -n +4 | xargs -r rm -rf
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

# Guest programs, linked statically: tests/kernel/*.c built here, and
# what make kernel-guest linked (SYSLET_KGUEST: 64/ and 32/ hold the
# runtime conformance programs and syslet-run, ex/ the examples' images).
gdir=$(mktemp -d "${TMPDIR:-/tmp}/syslet-guest.XXXXXX")
trap 'rm -rf "$gdir"' EXIT
kguest=${SYSLET_KGUEST:-}
fuzz_runs=${SYSLET_KFUZZ:-2000}
fuzz_seed=${SYSLET_KSEED:-0x5eed5ee1}
diff_graphs=${SYSLET_KDIFF:-20000}
# The guest test programs of tests/kernel/ run in each ABI, without
# arguments, TAP on stdout; a new one is added here.
kt_progs="ktest ksafe kexit kstress kstate"
# The runtime conformance programs: kguest_rt of tests/kernel.mk, which
# builds them for the guest (one list: a program added there runs).
rt_progs=$(sed -n '/^kguest_rt = /,/[^\\]$/p' "$top/tests/kernel.mk" |
	sed 's/^kguest_rt = //; s/\\$//' | tr -s ' \t\n' '  ')
[ -n "$rt_progs" ] || { echo "kernel-check.sh: no kguest_rt in $top/tests/kernel.mk" >&2; exit 2; }
# kguest_smp: programs that need two CPUs, in the guests of the
# variants whose kernel has ACPI (kconfig-smp.fragment) and so sees both.
smp_progs=$(sed -n 's/^kguest_smp = //p' "$top/tests/kernel.mk")
v_progs() { # VARIANT -> the runtime programs its guest runs
	# shellcheck disable=SC2046
	if grep -qx 'CONFIG_ACPI=y' $(v_frags "$1"); then echo "$rt_progs $smp_progs"
	else echo "$rt_progs"; fi
}
build_guest() { # BITS
	local m=-m$1 f ok=0
	for f in init $kt_progs fuzz kexamples; do
		[ -f "$top/tests/kernel/$f.c" ] || continue
		gcc $m -O2 -static -Wall -I"$top/src/include" -o "$gdir/$f$1" \
			"$top/tests/kernel/$f.c" >>"$log" 2>&1 || ok=1
	done
	return $ok
}

# The benchmark's 1000 small files (64..4063 bytes) on an ext2 image
# that the guest sees as a virtio disk, so that uncached reads really
# wait for a device.  Made with mke2fs -d: no root, no loop mount.
bench_rounds=${SYSLET_KBENCH:-5}
bench_img=""
make_bench_img() {
	[ "$bench_rounds" != 0 ] && command -v mke2fs >/dev/null || return 0
	mkdir -p "$gdir/benchfs/f" &&
	awk -v d="$gdir/benchfs/f" 'BEGIN {
		for (i = 0; i < 64; i++) line = line "syslet benchmark data, line " i "\n"
		for (i = 0; i < 1000; i++) {
			f = sprintf("%s/%04d", d, i)
			printf "%s", substr(line, 1, (i * 7919) % 4000 + 64) > f
			close(f)
		} }' &&
	mke2fs -q -F -t ext2 -d "$gdir/benchfs" "$gdir/bench.img" 16M >>"$log" 2>&1 &&
	bench_img=$gdir/bench.img
}

# guest_add SRC DST: pack SRC as DST; guest_cmd LINE: /init runs LINE.
guest_add() { echo "file $2 $1 0755 0 0" >>"$gdir/spec-$v"; }
guest_cmd() { echo "$*" >>"$gdir/list-$v"; }

run_guest() { # VARIANT QEMU (files and commands from guest_add/guest_cmd)
	local v=$1 qemu=$2 k=$cache/kernels/$(kkey "$1")-$1 spec=$gdir/spec-$1 out=$gdir/out-$1 accel="" t0=$SECONDS
	{ echo "file /init $gdir/init$([ "$(v_arch "$v")" = i386 ] && echo 32 || echo 64) 0755 0 0"
	  echo "file /tests/list $gdir/list-$v 0644 0 0"; } >>"$spec"
	"$k/gen_init_cpio" "$spec" >"$gdir/initrd-$v.cpio" 2>>"$log" || return 1
	if kvm_ok "$k/bzImage"; then accel="-enable-kvm -cpu host"; else accel="-cpu max"; fi
	[ -z "$bench_img" ] || accel="$accel -drive file=$bench_img,format=raw,if=virtio,snapshot=on"
	say "booting the $v kernel (${accel%% *})"
	# Not "quiet": that keeps KERN_WARNING, and so every WARN_ON and
	# lockdep report, off the console this check reads.  loglevel=5
	# shows warnings and worse only; /init also copies them from the
	# kernel log after each program (=== kmsg lines).  no_timer_check:
	# on a loaded host TCG can miss the IO-APIC timer test's few ticks
	# and the boot panics ("IO-APIC + timer doesn't work!"); KVM guests
	# skip that test the same way.  768 MB: the initramfs (every static
	# test program of both ABIs, with debug info, ~170 MB) is unpacked
	# from a copy of itself, and 512 MB no longer held both ("Initramfs
	# unpacking failed: write error", then no root: ci55).
	timeout "$timeout_s" "$qemu" $accel -m 768 -smp 2 -nographic -no-reboot \
		-kernel "$k/bzImage" -initrd "$gdir/initrd-$v.cpio" \
		-append "console=ttyS0 panic=-1 oops=panic loglevel=5 no_timer_check" \
		>"$out" 2>&1 </dev/null
	tr -d '\r' <"$out" >"$out.txt"
	cat "$out.txt" >>"$log"
	say "$v guest ran in $((SECONDS - t0)) s"
}

# add_guest_progs ARCH: what the ARCH guest packs and runs.
add_guest_progs() { # VARIANT
	local v=$1 arch bits f t p args
	arch=$(v_arch "$v")
	: >"$gdir/list-$v"
	{ echo "dir /dev 0755 0 0"; echo "nod /dev/console 0600 0 0 c 5 1"
	  for d in proc sys tmp bin tests mnt; do echo "dir /$d 0755 0 0"; done
	} >"$gdir/spec-$v"
	case $arch in x86_64) bits="64 32" ;; *) bits=32 ;; esac
	[ "$have32" = yes ] || bits=${bits% 32}
	for b in $bits; do
		for p in $kt_progs; do
			[ -f "$gdir/$p$b" ] || { tap not-ok "$v: $p$b builds (see $log)"; continue; }
			guest_add "$gdir/$p$b" "/bin/$p$b"; guest_cmd "/bin/$p$b"
		done
	done
	# The random-atom fuzz: a fixed seed and count, so a failure can be
	# replayed (SYSLET_KFUZZ=RUNS, 0 to leave it out; SYSLET_KSEED).
	for b in $bits; do
		[ "$fuzz_runs" != 0 ] && [ -f "$gdir/fuzz$b" ] || continue
		guest_add "$gdir/fuzz$b" "/bin/fuzz$b"
		guest_cmd "/bin/fuzz$b $fuzz_seed $fuzz_runs"
	done
	for b in $bits; do
		for t in $(v_progs "$v"); do
			case " ${SYSLET_KONLY:-$t$b} " in *" $t$b "*) ;; *) continue ;; esac
			if [ -n "$kguest" ] && [ -f "$kguest/$b/$t" ]; then
				guest_add "$kguest/$b/$t" "/bin/$t$b"; guest_cmd "/bin/$t$b"
			elif [ -n "$kguest" ]; then
				tap not-ok "$v: $t$b: linked statically (see $kguest/$b/$t.log)"
			fi
		done
	done
	# The 32-bit programs again on the emul engine, in the guests of
	# the plain kernels: the host may not run 32-bit programs at all,
	# and here they meet a 32-bit TASK_SIZE (0xffffe000 under the
	# x86_64 kernel, 3 GiB under the i386 one).  Not on uring: the
	# kernels have io_uring (for kstate), but its runs here were never
	# tried.  SYSLET_KUSER=0: not.  Named
	# "PROG on ENGINE".
	if [ "$v" = "$arch" ] && [ "${SYSLET_KUSER:-1}" != 0 ] && [ -n "$kguest" ]; then
		for e in emul; do
			for t in $(v_progs "$v"); do
				case " ${SYSLET_KONLY:-${t}32} " in *" ${t}32 "*) ;; *) continue ;; esac
				[ ! -f "$kguest/32/$t" ] || guest_cmd "SYSLET_BACKEND=$e /bin/${t}32"
			done
		done
		# difftest32 on it, fewer graphs than the kernel's run.
		case " ${SYSLET_KONLY:-difftest32} " in *" difftest32 "*)
			[ "$diff_graphs" = 0 ] || [ ! -f "$kguest/32/difftest" ] ||
			guest_cmd "SYSLET_BACKEND=emul /bin/difftest32 --backend=emul --count=$((diff_graphs / 10 + 1))" ;;
		esac
	fi
	# The differential test (tests/diff) against the kernel backend
	# alone, the default seed: 0 mismatches, and absent is a failure.
	# Then many syslets on one head (tests/diff/ringtest) against its
	# model of the 2007 head (SYSLET_KRING=0: not).  Its gated chains
	# rely on a parked pool thread: it was opt-in while the port lowered
	# busy before its thread parked (the debug kernel under TCG failed
	# it in 2 runs of 2); with patch 0019 it passed in 3 runs of 3.
	for t in difftest ringtest; do
		case $t in
		difftest) [ "$diff_graphs" != 0 ] || continue
			args="--backend=kernel --count=$diff_graphs" ;;
		ringtest) [ "${SYSLET_KRING:-1}" != 0 ] || continue
			args="--backend=kernel --phases=100" ;;
		esac
		for b in $bits; do
			case " ${SYSLET_KONLY:-$t$b} " in *" $t$b "*) ;; *) continue ;; esac
			if [ -n "$kguest" ] && [ -f "$kguest/$b/$t" ]; then
				guest_add "$kguest/$b/$t" "/bin/$t$b"
				guest_cmd "/bin/$t$b $args"
			elif [ -n "$kguest" ]; then
				tap not-ok "$v: $t$b: linked statically (see $kguest/$b/$t.log)"
			fi
		done
	done
	# SYSLET_KEXTRA: more static programs to run, for debugging.
	for f in ${SYSLET_KEXTRA:-}; do
		case $arch:$f in i386:*64) continue ;; esac
		guest_add "$f" "/bin/${f##*/}"; guest_cmd "/bin/${f##*/}"
	done
	[ -n "$kguest" ] || tap ok "$v: runtime conformance programs" \
		"SKIP run through make kernel-check (SYSLET_KGUEST unset)"
	# The benchmark, in the guest's native ABI.
	b=${bits%% *}
	if [ "$v" != "$arch" ]; then
		: # the benchmark means nothing on a debug kernel
	elif [ -n "$bench_img" ] && [ -n "$kguest" ] && [ -f "$kguest/$b/kbench" ]; then
		guest_add "$kguest/$b/kbench" "/bin/kbench$b"
		guest_cmd "/bin/kbench$b /dev/vda /mnt f $bench_rounds"
	elif [ "$bench_rounds" != 0 ]; then
		tap ok "$v: benchmark" "SKIP no mke2fs or no static kbench"
	fi
	# syslet-run and the examples, in each ABI the guest runs: the
	# x86_64 kernel also runs the 32-bit syslet-run and i386 images
	# (compat).  The 32-bit syslet-run needs a 32-bit libelf on the host.
	for b in $bits; do
		if [ -n "$kguest" ] && [ -f "$kguest/$b/syslet-run" ] && [ -f "$gdir/kexamples$b" ]; then
			ex=/ex$b
			echo "dir $ex 0755 0 0" >>"$gdir/spec-$v"
			guest_add "$kguest/$b/syslet-run" "/bin/syslet-run$b"
			for f in "$kguest/$([ "$b" = 64 ] && echo ex || echo ex32)"/*; do
				guest_add "$f" "$ex/${f##*/}"
			done
			guest_add "$gdir/kexamples$b" "/bin/kexamples$b"
			guest_cmd "/bin/kexamples$b $ex /bin/syslet-run$b --backend=kernel"
		elif [ "$b" = 64 ]; then
			tap not-ok "$v: syslet-run linked statically for the guest"
		else
			# The cause, as make kernel-guest wrote it down.
			local why="no static 32-bit syslet-run"
			if [ -z "$kguest" ]; then why="$why (SYSLET_KGUEST unset)"
			elif head -n 1 "$kguest/32/syslet-run.log" 2>/dev/null | grep -q '^kernel-guest: '; then
				why=$(head -n 1 "$kguest/32/syslet-run.log" | sed 's/^kernel-guest: syslet-run: //')
			elif [ -f "$kguest/32/syslet-run.log" ]; then
				why="$why: its build failed (see $kguest/32/syslet-run.log)"
			elif [ "$have32" != yes ]; then why="$why: no gcc -m32 -static"
			fi
			tap ok "$v: 32-bit syslet-run and the examples" "SKIP $why"
		fi
	done
}

is_rt() { # PROG: one of the runtime conformance programs or difftest (on any engine)?
	local t
	for t in $rt_progs difftest ringtest; do case ${1%% *} in "$t"64|"$t"32) return 0 ;; esac; done
	return 1
}

report() { # VARIANT: turn the guest's per-program TAP into ours
	local arch=$1 txt=$gdir/out-$1.txt prog="" line st
	[ -f "$txt" ] || { tap not-ok "$arch: guest ran"; return; }
	while IFS= read -r line; do
		case $line in
		*"=== syslet-run-begin /bin/"*) prog=${line#*=== syslet-run-begin /bin/}
			prog=${prog// SYSLET_BACKEND=/ on } ;;
		*"=== syslet-run-timeout "*)
			tap not-ok "$arch: $prog: finished within ${line##* } s (killed)" ;;
		*"=== syslet-run-unkillable "*)
			tap not-ok "$arch: $prog: SIGKILL ended it" ;;
		*"=== syslet-run-end "*) st=${line##* }
			if [ "$st" = 0 ]; then tap ok "$arch: $prog exits 0"
			elif [ "$st" = 77 ] && is_rt "$prog" && [ "${prog% on *}" = "$prog" ]; then
				# On the kernel backend, which must be there.
				# "PROG on emul" may skip where the test does
				# not apply to that engine (workertimer).
				tap not-ok "$arch: $prog exits 77: skipped, so its backend is not there"
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
		"FAIL "*|"ERROR "*|"SKIP"*|*": ok (backend "*|*" check(s) failed"*|\
		"difftest: "*|"ringtest: "*|"  reproduce: "*)
			[ -n "$prog" ] && echo "# $prog: $line" ;;
		esac
	done <"$txt"
	# The i386 kernel has KUnit and asm-i386/syslet_kunit.c built in.
	if [ "$(v_arch "$arch")" = i386 ] && ! grep -q "^# Subtest: syslet_i386_asm" "$txt"; then
		tap not-ok "$arch: the KUnit suite syslet_i386_asm ran at boot"
	fi
	if grep -q "^=== syslet-guest-done" "$txt"; then tap ok "$arch: guest ran to the end"
	else tap not-ok "$arch: guest ran to the end (timeout or crash, see $log)"; fi
	if grep -Eq "BUG:|WARNING:|Oops|Kernel panic|general protection|Call Trace" "$txt"; then
		grep -E -m 5 "BUG:|WARNING:|Oops|Kernel panic|general protection" "$txt" | sed 's/^/# /'
		tap not-ok "$arch: kernel log has no BUG, WARNING or Oops"
	else tap ok "$arch: kernel log has no BUG, WARNING or Oops"; fi
}

# The series is not written for PREEMPT_RT (syslet_pass_tid() takes a
# task_lock, a sleeping lock there, in the scheduler hook): such a
# configuration must leave CONFIG_SYSLET out.  0 out, 1 kept, 2 error.
rt_config_drops_syslet() {
	local b=$cache/build-rtconfig
	prepare_src || return 2
	rm -rf "$b" && mkdir -p "$b" &&
		printf 'CONFIG_EXPERT=y\nCONFIG_PREEMPT_RT=y\n' >"$b/rt.fragment" || return 2
	# shellcheck disable=SC2046
	(cd "$cache/src" &&
	 make O="$b" ARCH=x86_64 tinyconfig &&
	 scripts/kconfig/merge_config.sh -m -O "$b" "$b/.config" $(v_frags x86_64) "$b/rt.fragment" &&
	 make O="$b" ARCH=x86_64 olddefconfig) >>"$log" 2>&1 || return 2
	grep -q '^CONFIG_PREEMPT_RT=y' "$b/.config" || { say "PREEMPT_RT=y did not survive olddefconfig"; return 2; }
	grep -q '^CONFIG_SYSLET=y' "$b/.config" && return 1
	rm -rf "$b"
}

exec 9>"$cache/lock"
flock 9
have32=yes
build_guest 64 || { say "64-bit guest programs do not build"; exit 99; }
build_guest 32 || have32=no
make_bench_img || say "no benchmark image (see $log)"
for v in $variants; do
	if ! build_kernel "$v"; then
		tail -n 30 "$log" | sed 's/^/# /'
		tap not-ok "$v: kernel builds"
		continue
	fi
	tap ok "$v: kernel builds with the syslet series"
	add_guest_progs "$v"
	if [ "$(v_arch "$v")" = i386 ]; then
		[ "$have32" = yes ] || { tap ok "$v: guest" "SKIP no gcc -m32 -static"; continue; }
		command -v qemu-system-i386 >/dev/null || { tap ok "$v: boot" "SKIP no qemu-system-i386"; continue; }
		run_guest "$v" qemu-system-i386
	else
		run_guest "$v" qemu-system-x86_64
	fi
	report "$v"
done
rt_config_drops_syslet
case $? in
0) tap ok "a PREEMPT_RT configuration leaves CONFIG_SYSLET out" ;;
1) tap not-ok "a PREEMPT_RT configuration leaves CONFIG_SYSLET out (it kept CONFIG_SYSLET=y)" ;;
*) tap not-ok "a PREEMPT_RT configuration leaves CONFIG_SYSLET out (see $log)" ;;
esac
echo "1..$n"
[ "$failed" = 0 ]
