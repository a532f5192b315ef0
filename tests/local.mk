# tests/local.mk: the test suite; each part of the project adds its own fragment.
EXTRA_DIST += tests/lib/harness.sh

# Every test runs through run-prog.sh, which skips (77, with the reason) a
# 32-bit program where 32-bit programs do not run: a kernel without ia32
# emulation refuses them even though -m32 builds them.  Whether they run
# is probed once per make check, into tests/lib/m32.status (m32.sh).
LOG_COMPILER = $(SHELL) $(top_srcdir)/tests/lib/run-prog.sh
EXTRA_DIST += tests/lib/run-prog.sh tests/lib/m32.sh tests/lib/m32-probe.sh

# Golden cases: each case file is a test of its own, run by case.sh
# through its folder's driver (tests/compiler/diag/X.syslet by
# tests/compiler/diag.sh); a mismatch fails that case alone and keeps the
# actual output beside the golden, as GOLDEN.actual, in the build tree.
# The fragments add the patterns of their case files to GOLDEN_GLOBS;
# every file that matches in the source tree is a case, so a new case
# needs no makefile edit.
TEST_EXTENSIONS = .syslet .args .session
SYSLET_LOG_COMPILER = $(SHELL) $(top_srcdir)/tests/lib/case.sh
ARGS_LOG_COMPILER = $(SYSLET_LOG_COMPILER)
SESSION_LOG_COMPILER = $(SYSLET_LOG_COMPILER)
GOLDEN_GLOBS =
GOLDEN_CASES = $(patsubst $(srcdir)/%,%,$(wildcard $(GOLDEN_GLOBS:%=$(srcdir)/%)))
# (GOLDEN_TESTS is $(GOLDEN_CASES), hidden from automake: configure.ac.)
TESTS += @GOLDEN_TESTS@
EXTRA_DIST += tests/lib/case.sh $(GOLDEN_CASES)
CLEANFILES += $(wildcard tests/*/*.actual tests/*/*/*.actual)
if HAVE_M32
check_PROGRAMS += tests/lib/m32-probe
tests_lib_m32_probe_SOURCES = tests/lib/m32-probe.c
tests_lib_m32_probe_CFLAGS = $(AM_CFLAGS) -m32 -pthread
tests_lib_m32_probe_LDFLAGS = -m32 -pthread
m32_probe = tests/lib/m32-probe$(EXEEXT)
else
EXTRA_DIST += tests/lib/m32-probe.c
endif
check_DATA = tests/lib/m32.status tests/lib/tests.list tests/lib/cases.list
CLEANFILES += tests/lib/m32.status tests/lib/tests.list tests/lib/cases.list
# Test programs that a fragment builds with a rule of its own rather than
# through automake (the -m32 runtime tests, tests/runtime.mk): built
# before the tests, as check_PROGRAMS are, and listed with them.
extra_check_programs =
check_DATA += $(extra_check_programs)
CLEANFILES += $(extra_check_programs)
.PHONY: tests/lib/m32.status
tests/lib/m32.status: $(m32_probe)
	$(AM_V_GEN)$(MKDIR_P) tests/lib && HAVE_M32=$(HAVE_M32_VALUE) \
		CC='$(CC)' $(SHELL) $(srcdir)/tests/lib/m32-probe.sh \
		./tests/lib/m32-probe$(EXEEXT) >$@
# The test programs, one a line, for tests/common/m32-off.sh (not
# $(TESTS), which make check TESTS=... narrows).
tests/lib/tests.list: Makefile
	$(AM_V_GEN)$(MKDIR_P) tests/lib && \
		for t in $(check_PROGRAMS) $(extra_check_programs); do \
			echo $$t; done >$@
# The golden cases, one a line, for tests/common/goldens.sh: made anew
# each time, as a new case file changes the list but not the Makefile.
.PHONY: tests/lib/cases.list
tests/lib/cases.list:
	$(AM_V_GEN)$(MKDIR_P) tests/lib && \
		for t in $(GOLDEN_CASES); do echo $$t; done >$@
TESTS += tests/common/goldens.sh
EXTRA_DIST += tests/common/goldens.sh
TESTS += tests/common/m32-off.sh
EXTRA_DIST += tests/common/m32-off.sh
noinst_HEADERS += tests/lib/slurp.h
TESTS += tests/common/systab.sh tests/common/cplusplus.sh
EXTRA_DIST += tests/common/cplusplus.sh
EXTRA_DIST += tests/common/systab.sh
check_PROGRAMS += tests/common/systab-dump
tests_common_systab_dump_SOURCES = tests/common/systab-dump.c
tests_common_systab_dump_LDADD = src/common/libcommon.la

include tests/compiler.mk
include tests/image.mk
include tests/sysletc.mk
include tests/runtime.mk
include tests/diff.mk
include tests/kernel.mk
include tests/shell.mk
include tests/asm.mk
include tests/run.mk

# The ABI's layout, checked at compile time for both word sizes.
TESTS += tests/common/abi-layout.sh
EXTRA_DIST += tests/common/abi-layout.sh tests/common/abi-layout.c
include tests/man.mk

# The whole-file reader shared by sysletc, the image reader and syslet-run.
if HAVE_CMOCKA
check_PROGRAMS += tests/common/readfile
TESTS += tests/common/readfile
tests_common_readfile_SOURCES = tests/common/readfile.c
tests_common_readfile_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_common_readfile_LDADD = src/common/libcommon.la $(CMOCKA_LIBS)
# The text buffer of the printers and the shell, realloc failing on demand.
check_PROGRAMS += tests/common/textbuf
TESTS += tests/common/textbuf
tests_common_textbuf_SOURCES = tests/common/textbuf.c
tests_common_textbuf_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_common_textbuf_LDFLAGS = -Wl,--wrap=realloc
tests_common_textbuf_LDADD = src/common/libcommon.la $(CMOCKA_LIBS)
endif

# `make check-sanitize`: the whole suite built with ASan and UBSan
# (configure --enable-sanitize) in sanitize/, leaving the build here
# alone.  Automake refuses a second build out of a source tree that is
# configured in place (its objects would be taken for the new build's), so
# sanitize/tree is a copy of the distributed files (make distdir; mtimes
# kept, so a rerun rebuilds only what changed), built in sanitize/build.
# Our programs handle a failed allocation (an absurd --ring=N, say): under
# ASan too, malloc returns NULL then, as libc's does, rather than abort.
# ASan keeps its SIGSEGV/SIGBUS handlers (no handle_segv=0): libsyslet's,
# installed after them, takes the faults of its own loads (the EFAULT
# promise) and passes every other fault on, so a program's own bad access
# still gets ASan's report, or the handler the program set (faultown).
AM_TESTS_ENVIRONMENT += SYSLET_SANITIZE='$(SYSLET_SANITIZE)'; \
	export SYSLET_SANITIZE; \
	if test -n "$$SYSLET_SANITIZE"; then \
		ASAN_OPTIONS="allocator_may_return_null=1:$${ASAN_OPTIONS:-}"; \
		export ASAN_OPTIONS; \
	fi;
SANITIZE_DIR = sanitize
SANITIZE_CONFIGURE_FLAGS =
check-sanitize:
	$(MKDIR_P) $(SANITIZE_DIR)/build
	$(MAKE) $(AM_MAKEFLAGS) distdir distdir=$(SANITIZE_DIR)/tree
	cd $(SANITIZE_DIR)/build && \
	{ test -f config.status || ../tree/configure --enable-sanitize \
		$(SANITIZE_CONFIGURE_FLAGS); } && \
	UBSAN_OPTIONS="$${UBSAN_OPTIONS:-print_stacktrace=1}" \
	$(MAKE) $(AM_MAKEFLAGS) check
.PHONY: check-sanitize

# `make fuzz` and `make fuzz-image` (tests/compiler.mk, tests/image.mk):
# each libFuzzer target is its replay program's source linked with the
# same libraries, which the fuzzer's coverage must see into; so they are
# built with clang and its instrumentation in fuzz/build, a configured
# copy of the distributed files in fuzz/tree, as for check-sanitize.
FUZZ_CC = clang
FUZZ_SECONDS = 60
FUZZ_CFLAGS = -g -O1 -fsanitize=fuzzer-no-link,address,undefined \
	-fno-sanitize-recover=undefined
FUZZ_DIR = fuzz
# $(fuzz_build) TARGET: make TARGET in the fuzz build, set up on first use.
fuzz_build = $(MKDIR_P) $(FUZZ_DIR)/build && \
	$(MAKE) $(AM_MAKEFLAGS) distdir distdir=$(FUZZ_DIR)/tree && \
	cd $(FUZZ_DIR)/build && \
	{ test -f config.status || ../tree/configure CC='$(FUZZ_CC)' \
		CFLAGS='$(FUZZ_CFLAGS)' --disable-shared --without-readline; } && \
	$(MAKE) $(AM_MAKEFLAGS) $(BUILT_SOURCES) && $(MAKE) $(AM_MAKEFLAGS)
# The link of a target, in the fuzz build: libFuzzer brings main().
fuzz_link = $(LIBTOOL) $(AM_V_lt) --tag=CC $(AM_LIBTOOLFLAGS) \
	$(LIBTOOLFLAGS) --mode=link $(CCLD) $(DEFS) $(DEFAULT_INCLUDES) \
	$(INCLUDES) $(AM_CPPFLAGS) $(CPPFLAGS) $(LIBELF_CFLAGS) $(AM_CFLAGS) \
	$(CFLAGS) -fsanitize=fuzzer -DSYSLET_LIBFUZZER $(LDFLAGS)

# `make analyze`: gcc -fanalyzer over src/ (tests/analyze.sh); it fails
# on a finding that tests/analyze-known.txt does not accept with a reason.
# -O2 whatever CFLAGS say: what the analyzer finds depends on inlining.
ANALYZE_FILES = $(filter-out %/tables.c,$(wildcard $(srcdir)/src/*/*.c))
EXTRA_DIST += tests/analyze.sh tests/analyze-known.txt
analyze: $(BUILT_SOURCES)
	$(AM_V_GEN)ANALYZE_CC='$(CC) $(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) $(CPPFLAGS) $(LIBELF_CFLAGS) $(AM_CFLAGS) $(CFLAGS) -O2' \
		srcdir='$(srcdir)' $(SHELL) $(srcdir)/tests/analyze.sh \
		$(srcdir)/tests/analyze-known.txt $(ANALYZE_FILES)
.PHONY: analyze
