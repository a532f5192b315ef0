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
	tests/runtime/waitintr
check_PROGRAMS += $(runtime_tests)
TESTS += $(runtime_tests)
noinst_HEADERS += tests/runtime/helpers.h
runtime_ldadd = src/lib/libsyslet.la -lpthread
tests_runtime_args_LDADD = $(runtime_ldadd)
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
# The uring backend's own promises (skips where io_uring cannot be set up).
check_PROGRAMS += tests/runtime/uring tests/runtime/noring
TESTS += tests/runtime/uring tests/runtime/noring
tests_runtime_uring_LDADD = $(runtime_ldadd)
tests_runtime_noring_LDADD = $(runtime_ldadd)

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
	src/common/systab.c src/common/systab.h
nodist_tests_runtime_libsyslet32_la_SOURCES = src/common/tables.c
tests_runtime_libsyslet32_la_CFLAGS = $(AM_CFLAGS) -m32 -pthread
tests_runtime_libsyslet32_la_LDFLAGS = -m32 -pthread
runtime32_tests = tests/runtime/args32 tests/runtime/fault32 \
	tests/runtime/stop32 tests/runtime/async32 tests/runtime/umem32 \
	tests/runtime/sigloop32 tests/runtime/load32 tests/runtime/register32 \
	tests/runtime/deny32 tests/runtime/wait32 tests/runtime/hello32 \
	tests/runtime/chains32 tests/runtime/observe32 tests/runtime/poolwait32 \
	tests/runtime/profile32 tests/runtime/compat32 tests/runtime/eintr32 \
	tests/runtime/sigkinds32 tests/runtime/faultown32 tests/runtime/inject32
check_PROGRAMS += $(runtime32_tests)
TESTS += $(runtime32_tests)
runtime32_cflags = $(AM_CFLAGS) -m32 -pthread
runtime32_ldflags = -m32 -pthread
runtime32_ldadd = tests/runtime/libsyslet32.la
tests_runtime_inject32_SOURCES = tests/runtime/inject.c
tests_runtime_inject32_CFLAGS = $(runtime32_cflags)
tests_runtime_inject32_LDFLAGS = $(runtime32_ldflags)
tests_runtime_inject32_LDADD = $(runtime32_ldadd)
tests_runtime_faultown32_SOURCES = tests/runtime/faultown.c
tests_runtime_faultown32_CFLAGS = $(runtime32_cflags)
tests_runtime_faultown32_LDFLAGS = $(runtime32_ldflags)
tests_runtime_faultown32_LDADD = $(runtime32_ldadd)
tests_runtime_eintr32_SOURCES = tests/runtime/eintr.c
tests_runtime_eintr32_CFLAGS = $(runtime32_cflags)
tests_runtime_eintr32_LDFLAGS = $(runtime32_ldflags)
tests_runtime_eintr32_LDADD = $(runtime32_ldadd)
tests_runtime_sigkinds32_SOURCES = tests/runtime/sigkinds.c
tests_runtime_sigkinds32_CFLAGS = $(runtime32_cflags)
tests_runtime_sigkinds32_LDFLAGS = $(runtime32_ldflags)
tests_runtime_sigkinds32_LDADD = $(runtime32_ldadd)
tests_runtime_profile32_SOURCES = tests/runtime/profile.c
tests_runtime_profile32_CFLAGS = $(runtime32_cflags)
tests_runtime_profile32_LDFLAGS = $(runtime32_ldflags)
tests_runtime_profile32_LDADD = $(runtime32_ldadd)
tests_runtime_compat32_SOURCES = tests/runtime/compat.c
tests_runtime_compat32_CFLAGS = $(runtime32_cflags)
tests_runtime_compat32_LDFLAGS = $(runtime32_ldflags)
tests_runtime_compat32_LDADD = $(runtime32_ldadd)
tests_runtime_chains32_SOURCES = tests/runtime/chains.c
tests_runtime_chains32_CFLAGS = $(runtime32_cflags)
tests_runtime_chains32_LDFLAGS = $(runtime32_ldflags)
tests_runtime_chains32_LDADD = $(runtime32_ldadd)
tests_runtime_poolwait32_SOURCES = tests/runtime/poolwait.c
tests_runtime_poolwait32_CFLAGS = $(runtime32_cflags)
tests_runtime_poolwait32_LDFLAGS = $(runtime32_ldflags)
tests_runtime_poolwait32_LDADD = $(runtime32_ldadd)
tests_runtime_observe32_SOURCES = tests/runtime/observe.c
tests_runtime_observe32_CFLAGS = $(runtime32_cflags)
tests_runtime_observe32_LDFLAGS = $(runtime32_ldflags)
tests_runtime_observe32_LDADD = $(runtime32_ldadd)
tests_runtime_args32_SOURCES = tests/runtime/args.c
tests_runtime_args32_CFLAGS = $(runtime32_cflags)
tests_runtime_args32_LDFLAGS = $(runtime32_ldflags)
tests_runtime_args32_LDADD = $(runtime32_ldadd)
tests_runtime_fault32_SOURCES = tests/runtime/fault.c
tests_runtime_fault32_CFLAGS = $(runtime32_cflags)
tests_runtime_fault32_LDFLAGS = $(runtime32_ldflags)
tests_runtime_fault32_LDADD = $(runtime32_ldadd)
tests_runtime_stop32_SOURCES = tests/runtime/stop.c
tests_runtime_stop32_CFLAGS = $(runtime32_cflags)
tests_runtime_stop32_LDFLAGS = $(runtime32_ldflags)
tests_runtime_stop32_LDADD = $(runtime32_ldadd)
tests_runtime_async32_SOURCES = tests/runtime/async.c
tests_runtime_async32_CFLAGS = $(runtime32_cflags)
tests_runtime_async32_LDFLAGS = $(runtime32_ldflags)
tests_runtime_async32_LDADD = $(runtime32_ldadd)
tests_runtime_umem32_SOURCES = tests/runtime/umem.c
tests_runtime_umem32_CFLAGS = $(runtime32_cflags)
tests_runtime_umem32_LDFLAGS = $(runtime32_ldflags)
tests_runtime_umem32_LDADD = $(runtime32_ldadd)
tests_runtime_sigloop32_SOURCES = tests/runtime/sigloop.c
tests_runtime_sigloop32_CFLAGS = $(runtime32_cflags)
tests_runtime_sigloop32_LDFLAGS = $(runtime32_ldflags)
tests_runtime_sigloop32_LDADD = $(runtime32_ldadd)
tests_runtime_load32_SOURCES = tests/runtime/load.c
tests_runtime_load32_CFLAGS = $(runtime32_cflags)
tests_runtime_load32_LDFLAGS = $(runtime32_ldflags)
tests_runtime_load32_LDADD = $(runtime32_ldadd)
tests_runtime_register32_SOURCES = tests/runtime/register.c
tests_runtime_register32_CFLAGS = $(runtime32_cflags)
tests_runtime_register32_LDFLAGS = $(runtime32_ldflags)
tests_runtime_register32_LDADD = $(runtime32_ldadd)
tests_runtime_deny32_SOURCES = tests/runtime/deny.c
tests_runtime_deny32_CFLAGS = $(runtime32_cflags)
tests_runtime_deny32_LDFLAGS = $(runtime32_ldflags)
tests_runtime_deny32_LDADD = $(runtime32_ldadd)
tests_runtime_wait32_SOURCES = tests/runtime/wait.c
tests_runtime_wait32_CFLAGS = $(runtime32_cflags)
tests_runtime_wait32_LDFLAGS = $(runtime32_ldflags)
tests_runtime_wait32_LDADD = $(runtime32_ldadd)
tests_runtime_hello32_SOURCES = tests/runtime/hello.c
tests_runtime_hello32_CFLAGS = $(runtime32_cflags)
tests_runtime_hello32_LDFLAGS = $(runtime32_ldflags)
tests_runtime_hello32_LDADD = $(runtime32_ldadd)
endif
