# kernel-patch/local.mk: the kernel patch series and its boot test (make kernel-check).
EXTRA_DIST += kernel-patch/README kernel-patch/patches/series \
	kernel-patch/kconfig.fragment kernel-patch/kconfig-x86_64.fragment \
	kernel-patch/kconfig-i386.fragment kernel-patch/kconfig-debug.fragment \
	kernel-patch/kconfig-smp.fragment \
	kernel-patch/scripts/kernel-check.sh kernel-patch/scripts/series.sh \
	kernel-patch/patches/0001-syslet-user-ABI-header-kernel-hooks-header-Kconfig-a.patch \
	kernel-patch/patches/0002-syslet-the-engine-the-scheduler-hook-and-sys-kernel-.patch \
	kernel-patch/patches/0003-x86-syslet-system-calls-user-context-hand-off-FPU-im.patch \
	kernel-patch/patches/0004-syslet-never-hand-a-user-context-to-a-thread-that-is.patch \
	kernel-patch/patches/0005-syslet-no-atoms-for-a-task-that-is-filtered-traced-o.patch \
	kernel-patch/patches/0006-syslet-deny-the-calls-that-change-the-calling-task-a.patch \
	kernel-patch/patches/0007-syslet-bound-the-completion-backlog-and-charge-it-to.patch \
	kernel-patch/patches/0008-syslet-hand-over-the-program-s-signal-mask-block-a-w.patch \
	kernel-patch/patches/0009-syslet-move-sigaltstack-and-rseq-run-task_work-refus.patch \
	kernel-patch/patches/0010-syslet-pool-threads-take-part-in-group-stop-ptrace-a.patch \
	kernel-patch/patches/0011-syslet-test-for-the-scheduler-hook-with-the-task-fla.patch \
	kernel-patch/patches/0012-syslet-default-to-n.patch \
	kernel-patch/patches/0013-syslet-deny-prctl-PR_SET_SECCOMP-in-atoms-as-user-sp.patch \
	kernel-patch/patches/0014-syslet-a-restart-code-is-one-only-with-a-signal-pend.patch \
	kernel-patch/patches/0015-syslet-the-TID-goes-with-the-user-context.patch \
	kernel-patch/patches/0016-syslet-deny-prctl-s-operations-on-the-task-s-securit.patch \
	kernel-patch/patches/0017-syslet-async_wait-counts-the-completions-since-the-c.patch \
	kernel-patch/patches/0018-syslet-a-worker-settles-after-every-atom-also-one-pa.patch \
	kernel-patch/patches/0019-syslet-a-worker-stops-counting-as-busy-when-it-is-re.patch \
	kernel-patch/patches/0020-syslet-a-pool-thread-whose-scheduling-class-or-nice-.patch \
	kernel-patch/patches/0021-syslet-a-worker-s-signal-mask-atoms-act-on-its-chain.patch \
	kernel-patch/patches/0022-syslet-deny-close_range-CLOSE_RANGE_UNSHARE-in-atoms.patch \
	kernel-patch/patches/0023-syslet-async_register-checks-the-ring-s-range-before.patch \
	kernel-patch/patches/0024-syslet-a-thread-that-ends-with-its-head-waits-for-it.patch \
	kernel-patch/patches/0025-syslet-a-completion-kept-behind-a-taken-slot-is-deli.patch \
	kernel-patch/patches/0026-syslet-a-worker-s-temporary-signal-masks-let-nothing.patch \
	kernel-patch/patches/0027-syslet-a-hand-off-keeps-the-TSC-and-CPUID-modes-the-.patch \
	kernel-patch/patches/0028-syslet-a-worker-goes-on-with-the-program-s-chain-onl.patch \
	kernel-patch/patches/0029-syslet-a-signal-for-a-worker-alone-is-the-program-s.patch \
	kernel-patch/patches/0030-syslet-an-atom-whose-last-words-lie-past-the-end-of-.patch \
	kernel-patch/patches/0031-syslet-the-program-keeps-its-own-mask-when-its-rt_si.patch \
	kernel-patch/patches/0032-syslet-a-signal-pending-for-the-program-s-thread-alo.patch \
	kernel-patch/patches/0033-syslet-a-pool-thread-whose-CPU-affinity-differs-is-s.patch \
	kernel-patch/patches/0034-syslet-a-SIGEV_THREAD_ID-timer-signals-the-task-that.patch \
	kernel-patch/patches/0035-syslet-an-atom-s-FUTEX_LOCK_PI-that-waits-hands-the-.patch \
	kernel-patch/patches/0036-syslet-async_register-and-async_unregister-take-an-u.patch \
	kernel-patch/patches/0037-syslet-a-worker-s-sigprocmask-atoms-read-how-as-an-i.patch \
	kernel-patch/patches/0038-syslet-a-timer-naming-a-worker-s-own-TID-signals-the.patch \
	kernel-patch/patches/0039-syslet-a-PI-futex-attaches-to-a-pool-thread-by-its-o.patch \
	kernel-patch/patches/0040-syslet-setpriority-getpriority-ioprio_set-ioprio_get.patch \
	kernel-patch/patches/0041-syslet-a-pool-thread-found-by-its-own-TID-answers-to.patch \
	kernel-patch/patches/0042-syslet-a-nice-value-scheduling-class-or-CPU-mask-set.patch \
	kernel-patch/patches/0043-syslet-get_robust_list-by-TID-reads-the-program-s-li.patch \
	kernel-patch/patches/0044-syslet-an-I-O-priority-set-by-TID-during-a-hand-off-.patch \
	kernel-patch/patches/0045-syslet-not-with-PREEMPT_RT-setpriority-by-TID-stops-.patch \
	kernel-patch/patches/0046-syslet-a-signal-through-a-thread-s-pidfd-reaches-the.patch \
	kernel-patch/patches/0047-syslet-a-file-s-SIGIO-and-SIGURG-for-F_OWNER_TID-rea.patch \
	kernel-patch/patches/0048-syslet-capset-takes-the-TID-of-the-context-its-calle.patch \
	kernel-patch/patches/0049-syslet-the-thread-s-name-timer-slack-parent-death-si.patch \
	kernel-patch/patches/0050-syslet-the-thread-s-CPU-time-goes-with-its-context.patch \
	kernel-patch/patches/0051-syslet-a-thread-s-CPU-time-timers-go-with-its-CPU-cl.patch \
	kernel-patch/patches/0052-syslet-async_wait-counts-a-kept-completion-that-its-.patch \
	kernel-patch/patches/0053-syslet-a-thread-that-ends-with-its-head-waits-for-it.patch \
	kernel-patch/patches/0054-syslet-a-worker-s-old-sigprocmask-SIG_SETMASK-atom-o.patch \
	kernel-patch/patches/0055-syslet-a-chain-that-runs-in-the-caller-runs-the-call.patch \
	kernel-patch/patches/0056-syslet-async_unregister-is-0-once-the-head-is-gone-w.patch \
	kernel-patch/patches/0057-syslet-the-ring-s-lock-is-waited-for-interruptibly-b.patch \
	kernel-patch/patches/0058-syslet-a-pool-thread-being-picked-waits-for-the-pick.patch \
	kernel-patch/patches/0059-syslet-I-O-port-permissions-are-part-of-who-a-pool-t.patch \
	kernel-patch/patches/0060-syslet-io_uring-s-task-work-neither-ends-a-chain-in-.patch \
	kernel-patch/patches/0061-syslet-a-memory-error-kill-policy-set-with-PR_MCE_KI.patch \
	kernel-patch/patches/0062-syslet-a-program-with-a-single-issuer-io_uring-keeps.patch

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
