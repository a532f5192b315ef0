# kernel-patch/local.mk: the kernel patch series and its boot test (make kernel-check).
EXTRA_DIST += kernel-patch/README kernel-patch/patches/series \
	kernel-patch/kconfig.fragment kernel-patch/kconfig-x86_64.fragment \
	kernel-patch/kconfig-i386.fragment kernel-patch/scripts/kernel-check.sh \
	kernel-patch/patches/0001-syslet-user-ABI-header-kernel-hooks-header-Kconfig-a.patch \
	kernel-patch/patches/0002-syslet-the-engine-the-scheduler-hook-and-sys-kernel-.patch \
	kernel-patch/patches/0003-x86-syslet-system-calls-user-context-hand-off-FPU-im.patch

# Not part of make check: it needs the kernel source package and qemu,
# and its first run builds two kernels.  TAP in kernel-check.tap; exit
# status 77 means skipped (no source package or no qemu).  The guest
# also runs what make kernel-guest (tests/kernel.mk) links statically.
.PHONY: kernel-check
kernel-check: kernel-guest
	@SYSLET_KGUEST=$(abs_builddir)/$(kguest_dir) \
	bash $(abs_srcdir)/kernel-patch/scripts/kernel-check.sh $(abs_srcdir) \
		>kernel-check.tap; st=$$?; cat kernel-check.tap; \
	if [ $$st = 77 ]; then echo "kernel-check: skipped"; st=0; fi; exit $$st
CLEANFILES += kernel-check.tap kernel-check.log
