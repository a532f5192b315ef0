# tests/runtime.mk: conformance tests of libsyslet's runtime (tests/runtime/), one program per group of rules.
# They use only the public API and libc, so the same programs run in a guest
# against the kernel backend; $SYSLET_BACKEND picks the backend (default auto).
runtime_tests = tests/runtime/args tests/runtime/fault tests/runtime/stop \
	tests/runtime/async tests/runtime/register tests/runtime/umem \
	tests/runtime/deny tests/runtime/wait tests/runtime/signal \
	tests/runtime/sigloop tests/runtime/hello tests/runtime/hello2007 \
	tests/runtime/load tests/runtime/chains tests/runtime/observe \
	tests/runtime/stats-handoff tests/runtime/poolwait tests/runtime/profile \
	tests/runtime/eintr tests/runtime/sigkinds tests/runtime/faultown \
	tests/runtime/nowait tests/runtime/inject \
	tests/runtime/waitintr tests/runtime/batch tests/runtime/fifo \
	tests/runtime/ringmem tests/runtime/parked tests/runtime/renice tests/runtime/unblock \
	tests/runtime/forkhead tests/runtime/selfcalls \
	tests/runtime/nothreads tests/runtime/fdlimit tests/runtime/procsig \
	tests/runtime/asyncmask tests/runtime/closerange tests/runtime/keyctl \
	tests/runtime/mthead tests/runtime/threadexit tests/runtime/sigshare \
	tests/runtime/bnames tests/runtime/widelen tests/runtime/asdirect \
	tests/runtime/waitall tests/runtime/sendall tests/runtime/tmpmask \
	tests/runtime/asyncfetch tests/runtime/bigring tests/runtime/workersig \
	tests/runtime/seedhead tests/runtime/waitafter tests/runtime/suspmask \
	tests/runtime/pendmove tests/runtime/affinity tests/runtime/tidtimer \
	tests/runtime/futexpi tests/runtime/sighow tests/runtime/workertimer \
	tests/runtime/pirace tests/runtime/tidprio tests/runtime/tidown \
	tests/runtime/tidrace tests/runtime/tidpidfd tests/runtime/ttyread \
	tests/runtime/tidself tests/runtime/waitchld tests/runtime/pipesig \
	tests/runtime/waitkept tests/runtime/tidclock tests/runtime/sigfetch \
	tests/runtime/ringhead tests/runtime/handlerexec \
	tests/runtime/handlerwait tests/runtime/ringshare tests/runtime/waitmoved \
	tests/runtime/fsids tests/runtime/vforkhead tests/runtime/stopcont \
	tests/runtime/exechead tests/runtime/procwide tests/runtime/caps \
	tests/runtime/headargs tests/runtime/selfmod tests/runtime/ringsem \
	tests/runtime/sigsem tests/runtime/fileloop tests/runtime/drivesig \
	tests/runtime/drivealone tests/runtime/asyncfull tests/runtime/efdident \
	tests/runtime/zerowait tests/runtime/asyncloop
check_PROGRAMS += $(runtime_tests)
TESTS += $(runtime_tests)
noinst_HEADERS += tests/runtime/helpers.h tests/runtime/usertop.h
runtime_ldadd = src/lib/libsyslet.la -lpthread
tests_runtime_args_LDADD = $(runtime_ldadd)
tests_runtime_ttyread_LDADD = $(runtime_ldadd)
tests_runtime_ringhead_LDADD = $(runtime_ldadd)
tests_runtime_handlerexec_LDADD = $(runtime_ldadd)
tests_runtime_handlerwait_LDADD = $(runtime_ldadd)
tests_runtime_ringshare_LDADD = $(runtime_ldadd)
tests_runtime_waitmoved_LDADD = $(runtime_ldadd)
tests_runtime_fsids_LDADD = $(runtime_ldadd)
tests_runtime_vforkhead_LDADD = $(runtime_ldadd)
tests_runtime_stopcont_LDADD = $(runtime_ldadd)
tests_runtime_exechead_LDADD = $(runtime_ldadd)
tests_runtime_procwide_LDADD = $(runtime_ldadd)
tests_runtime_caps_LDADD = $(runtime_ldadd)
tests_runtime_headargs_LDADD = $(runtime_ldadd)
tests_runtime_selfmod_LDADD = $(runtime_ldadd)
tests_runtime_ringsem_LDADD = $(runtime_ldadd)
tests_runtime_sigsem_LDADD = $(runtime_ldadd)
tests_runtime_fileloop_LDADD = $(runtime_ldadd)
tests_runtime_drivesig_LDADD = $(runtime_ldadd)
tests_runtime_drivealone_LDADD = $(runtime_ldadd)
tests_runtime_asyncfull_LDADD = $(runtime_ldadd)
tests_runtime_efdident_LDADD = $(runtime_ldadd)
tests_runtime_zerowait_LDADD = $(runtime_ldadd)
tests_runtime_asyncloop_LDADD = $(runtime_ldadd)
tests_runtime_bnames_LDADD = $(runtime_ldadd)
tests_runtime_fault_LDADD = $(runtime_ldadd)
tests_runtime_stop_LDADD = $(runtime_ldadd)
tests_runtime_async_LDADD = $(runtime_ldadd)
tests_runtime_register_LDADD = $(runtime_ldadd)
tests_runtime_umem_LDADD = $(runtime_ldadd)
tests_runtime_deny_LDADD = $(runtime_ldadd)
tests_runtime_wait_LDADD = $(runtime_ldadd)
tests_runtime_signal_LDADD = $(runtime_ldadd)
tests_runtime_sigloop_LDADD = $(runtime_ldadd)
tests_runtime_hello2007_LDADD = $(runtime_ldadd)
tests_runtime_hello_LDADD = $(runtime_ldadd)
tests_runtime_load_LDADD = $(runtime_ldadd)
tests_runtime_chains_LDADD = $(runtime_ldadd)
tests_runtime_observe_LDADD = $(runtime_ldadd)
tests_runtime_stats_handoff_LDADD = $(runtime_ldadd)
tests_runtime_poolwait_LDADD = $(runtime_ldadd)
tests_runtime_profile_LDADD = $(runtime_ldadd)
tests_runtime_eintr_LDADD = $(runtime_ldadd)
tests_runtime_sigkinds_LDADD = $(runtime_ldadd)
tests_runtime_faultown_LDADD = $(runtime_ldadd)
tests_runtime_nowait_LDADD = $(runtime_ldadd)
tests_runtime_inject_LDADD = $(runtime_ldadd)
tests_runtime_waitintr_LDADD = $(runtime_ldadd)
tests_runtime_fifo_LDADD = $(runtime_ldadd)
tests_runtime_batch_LDADD = $(runtime_ldadd)
tests_runtime_ringmem_LDADD = $(runtime_ldadd)
tests_runtime_parked_LDADD = $(runtime_ldadd)
tests_runtime_renice_LDADD = $(runtime_ldadd)
tests_runtime_unblock_LDADD = $(runtime_ldadd)
tests_runtime_forkhead_LDADD = $(runtime_ldadd)
tests_runtime_selfcalls_LDADD = $(runtime_ldadd)
tests_runtime_nothreads_LDADD = $(runtime_ldadd)
tests_runtime_fdlimit_LDADD = $(runtime_ldadd)
tests_runtime_procsig_LDADD = $(runtime_ldadd)
tests_runtime_asyncmask_LDADD = $(runtime_ldadd)
tests_runtime_closerange_LDADD = $(runtime_ldadd)
tests_runtime_keyctl_LDADD = $(runtime_ldadd)
tests_runtime_mthead_LDADD = $(runtime_ldadd)
tests_runtime_threadexit_LDADD = $(runtime_ldadd)
tests_runtime_sigshare_LDADD = $(runtime_ldadd)
tests_runtime_widelen_LDADD = $(runtime_ldadd)
tests_runtime_asdirect_LDADD = $(runtime_ldadd)
tests_runtime_waitall_LDADD = $(runtime_ldadd)
tests_runtime_sendall_LDADD = $(runtime_ldadd)
tests_runtime_tmpmask_LDADD = $(runtime_ldadd)
tests_runtime_asyncfetch_LDADD = $(runtime_ldadd)
tests_runtime_bigring_LDADD = $(runtime_ldadd)
tests_runtime_workersig_LDADD = $(runtime_ldadd)
tests_runtime_seedhead_LDADD = $(runtime_ldadd)
tests_runtime_waitafter_LDADD = $(runtime_ldadd)
tests_runtime_waitchld_LDADD = $(runtime_ldadd)
tests_runtime_pipesig_LDADD = $(runtime_ldadd)
tests_runtime_waitkept_LDADD = $(runtime_ldadd)
tests_runtime_sigfetch_LDADD = $(runtime_ldadd)
tests_runtime_suspmask_LDADD = $(runtime_ldadd)
tests_runtime_pendmove_LDADD = $(runtime_ldadd)
tests_runtime_affinity_LDADD = $(runtime_ldadd)
tests_runtime_tidtimer_LDADD = $(runtime_ldadd)
tests_runtime_futexpi_LDADD = $(runtime_ldadd)
tests_runtime_sighow_LDADD = $(runtime_ldadd)
tests_runtime_workertimer_LDADD = $(runtime_ldadd)
tests_runtime_pirace_LDADD = $(runtime_ldadd)
tests_runtime_tidprio_LDADD = $(runtime_ldadd)
tests_runtime_tidpidfd_LDADD = $(runtime_ldadd)
tests_runtime_tidown_LDADD = $(runtime_ldadd)
tests_runtime_tidrace_LDADD = $(runtime_ldadd)
tests_runtime_tidself_LDADD = $(runtime_ldadd)
tests_runtime_tidclock_LDADD = $(runtime_ldadd)
# The library's conventions (libsyslet(3) CONVENTIONS), on any backend.
check_PROGRAMS += tests/runtime/api
TESTS += tests/runtime/api
tests_runtime_api_LDADD = $(runtime_ldadd)
check_PROGRAMS += tests/runtime/printnovm
TESTS += tests/runtime/printnovm
tests_runtime_printnovm_LDADD = $(runtime_ldadd)
# syslet_print_result(3): a call's result as its page says, on any backend.
check_PROGRAMS += tests/runtime/printres
TESTS += tests/runtime/printres
tests_runtime_printres_LDADD = $(runtime_ldadd)
# On i386, the old select and mmap shown with their block's words.
check_PROGRAMS += tests/runtime/oldselect
TESTS += tests/runtime/oldselect
tests_runtime_oldselect_LDADD = $(runtime_ldadd)
# The uring backend's own promises (skips where io_uring cannot be set up).
check_PROGRAMS += tests/runtime/uring tests/runtime/noring \
	tests/runtime/uring-probe tests/runtime/uring-idle \
	tests/runtime/uring-fdtop
TESTS += tests/runtime/uring tests/runtime/noring tests/runtime/uring-probe \
	tests/runtime/uring-idle tests/runtime/uring-fdtop
tests_runtime_uring_LDADD = $(runtime_ldadd)
tests_runtime_uring_probe_LDADD = $(runtime_ldadd)
tests_runtime_uring_idle_LDADD = $(runtime_ldadd)
tests_runtime_uring_fdtop_LDADD = $(runtime_ldadd)
tests_runtime_noring_LDADD = $(runtime_ldadd)
# A ring whose descriptor the program closed or replaced: nothing lost.
check_PROGRAMS += tests/runtime/ringclosed
TESTS += tests/runtime/ringclosed
tests_runtime_ringclosed_LDADD = $(runtime_ldadd)
# Files of the program's at the numbers the engine's descriptors had
# (close_range(), then its own files): never written, read or closed.
check_PROGRAMS += tests/runtime/fdreuse
TESTS += tests/runtime/fdreuse
tests_runtime_fdreuse_LDADD = $(runtime_ldadd)
# A ring's delayed teardown cuts no call of the program's short.
check_PROGRAMS += tests/runtime/uring-eintr
TESTS += tests/runtime/uring-eintr
tests_runtime_uring_eintr_LDADD = $(runtime_ldadd)
# A submission the kernel refused for now (EAGAIN) is entered again.
check_PROGRAMS += tests/runtime/uring-eagain
TESTS += tests/runtime/uring-eagain
tests_runtime_uring_eagain_LDADD = $(runtime_ldadd)
# io_uring_enter refused by a seccomp filter once the ring is set up:
# nothing lost either.
check_PROGRAMS += tests/runtime/enterdenied
TESTS += tests/runtime/enterdenied
tests_runtime_enterdenied_LDADD = $(runtime_ldadd)

# syslet-compat.h: a program in the 2007 style, run on each backend by
# name (the kernel's run skips where no patched kernel answers).
check_PROGRAMS += tests/runtime/compat
tests_runtime_compat_LDADD = $(runtime_ldadd)
TESTS += tests/runtime/compat-emul.sh tests/runtime/compat-kernel.sh \
	tests/runtime/compat-uring.sh
# The programs above on each user-space backend by name.
TESTS += tests/runtime/backends.sh
EXTRA_DIST += tests/runtime/backends.sh
EXTRA_DIST += tests/runtime/compat-emul.sh tests/runtime/compat-kernel.sh \
	tests/runtime/compat-uring.sh

# auto picks uring where io_uring works: the engine's own rules are also
# checked on emul by name.
TESTS += tests/runtime/emul.sh
EXTRA_DIST += tests/runtime/emul.sh

# The same programs against an -m32 build of libsyslet's core, so that the
# i386 engine is tested too (its own convenience library: no libelf needed).
if HAVE_M32
check_LTLIBRARIES += tests/runtime/libsyslet32.la
tests_runtime_libsyslet32_la_SOURCES = $(libsyslet_core_sources) \
	src/common/systab.c src/common/systab.h \
	src/common/consts.c src/common/consts.h \
	src/common/callsig.c src/common/callsig.h \
	src/common/quote.c src/common/quote.h
nodist_tests_runtime_libsyslet32_la_SOURCES = src/common/tables.c
tests_runtime_libsyslet32_la_CFLAGS = $(AM_CFLAGS) -m32 -pthread
tests_runtime_libsyslet32_la_LDFLAGS = -m32 -pthread
runtime32_tests = tests/runtime/args32 tests/runtime/fault32 \
	tests/runtime/stop32 tests/runtime/async32 tests/runtime/umem32 \
	tests/runtime/sigloop32 tests/runtime/load32 tests/runtime/register32 \
	tests/runtime/deny32 tests/runtime/wait32 tests/runtime/hello32 \
	tests/runtime/chains32 tests/runtime/observe32 tests/runtime/poolwait32 \
	tests/runtime/profile32 tests/runtime/compat32 tests/runtime/eintr32 \
	tests/runtime/sigkinds32 tests/runtime/faultown32 tests/runtime/inject32 \
	tests/runtime/batch32 tests/runtime/fifo32 tests/runtime/ringmem32 \
	tests/runtime/forkhead32 tests/runtime/selfcalls32 \
	tests/runtime/nothreads32 tests/runtime/fdlimit32 \
	tests/runtime/procsig32 tests/runtime/asyncmask32 \
	tests/runtime/closerange32 tests/runtime/keyctl32 \
	tests/runtime/mthead32 tests/runtime/threadexit32 \
	tests/runtime/sigshare32 tests/runtime/bnames32 tests/runtime/widelen32 \
	tests/runtime/asdirect32 tests/runtime/waitall32 \
	tests/runtime/sendall32 tests/runtime/tmpmask32 \
	tests/runtime/asyncfetch32 tests/runtime/workersig32 \
	tests/runtime/seedhead32 tests/runtime/waitafter32 \
	tests/runtime/suspmask32 tests/runtime/pendmove32 \
	tests/runtime/affinity32 tests/runtime/tidtimer32 \
	tests/runtime/futexpi32 tests/runtime/sighow32 \
	tests/runtime/workertimer32 tests/runtime/pirace32 \
	tests/runtime/tidprio32 tests/runtime/tidown32 tests/runtime/tidrace32 \
	tests/runtime/tidpidfd32 tests/runtime/ttyread32 tests/runtime/tidself32 \
	tests/runtime/waitchld32 tests/runtime/pipesig32 tests/runtime/waitkept32 \
	tests/runtime/tidclock32 tests/runtime/waitintr32 tests/runtime/sigfetch32 \
	tests/runtime/ringhead32 tests/runtime/handlerexec32 \
	tests/runtime/handlerwait32 tests/runtime/ringshare32 \
	tests/runtime/waitmoved32 tests/runtime/fsids32 \
	tests/runtime/vforkhead32 tests/runtime/stopcont32 \
	tests/runtime/exechead32 tests/runtime/procwide32 tests/runtime/caps32 \
	tests/runtime/headargs32 tests/runtime/selfmod32 \
	tests/runtime/ringsem32 tests/runtime/sigsem32 tests/runtime/fileloop32 \
	tests/runtime/drivesig32 tests/runtime/drivealone32 \
	tests/runtime/asyncfull32 tests/runtime/efdident32 \
	tests/runtime/zerowait32 tests/runtime/asyncloop32 \
	tests/runtime/oldselect32
TESTS += $(runtime32_tests)
extra_check_programs += $(runtime32_tests)
# Each NAME32 above is tests/runtime/NAME.c compiled and linked -m32 in
# one step by this one rule, rather than by automake, which would want
# four variables for each.  The programs include only public headers,
# helpers.h, usertop.h and config.h, so these are all they depend on.
runtime32_cflags = $(AM_CFLAGS) -m32 -pthread
runtime32_ldflags = -m32 -pthread
runtime32_ldadd = tests/runtime/libsyslet32.la
$(runtime32_tests): tests/runtime/%32: tests/runtime/%.c \
		tests/runtime/helpers.h tests/runtime/usertop.h $(include_HEADERS) \
		$(nodist_include_HEADERS) $(CONFIG_HEADER) $(runtime32_ldadd)
	$(AM_V_CCLD)$(LIBTOOL) $(AM_V_lt) --tag=CC $(AM_LIBTOOLFLAGS) \
		$(LIBTOOLFLAGS) --mode=link $(CCLD) $(DEFS) \
		$(DEFAULT_INCLUDES) $(INCLUDES) $(AM_CPPFLAGS) $(CPPFLAGS) \
		$(runtime32_cflags) $(CFLAGS) $(runtime32_ldflags) $(LDFLAGS) \
		-o $@ $< $(runtime32_ldadd) $(LIBS)
endif
TESTS += tests/runtime/valgrind.sh
EXTRA_DIST += tests/runtime/valgrind.sh
