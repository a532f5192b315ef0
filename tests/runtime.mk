# tests/runtime.mk: conformance tests of libsyslet's runtime (tests/runtime/), one program per group of rules.
# They use only the public API and libc, so the same programs run in a guest
# against the kernel backend; $SYSLET_BACKEND picks the backend (default auto).
runtime_tests = tests/runtime/args tests/runtime/fault tests/runtime/stop \
	tests/runtime/async tests/runtime/register \
	tests/runtime/signal tests/runtime/hello2007
check_PROGRAMS += $(runtime_tests)
TESTS += $(runtime_tests)
noinst_HEADERS += tests/runtime/helpers.h
runtime_ldadd = src/lib/libsyslet.la -lpthread
tests_runtime_args_LDADD = $(runtime_ldadd)
tests_runtime_fault_LDADD = $(runtime_ldadd)
tests_runtime_stop_LDADD = $(runtime_ldadd)
tests_runtime_async_LDADD = $(runtime_ldadd)
tests_runtime_register_LDADD = $(runtime_ldadd)
tests_runtime_signal_LDADD = $(runtime_ldadd)
tests_runtime_hello2007_LDADD = $(runtime_ldadd)
