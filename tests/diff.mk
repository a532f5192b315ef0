# tests/diff.mk: the differential test (tests/diff/): random atom graphs through a reference written from the 2007 code and through every backend present.
# make check runs the default seed (tens of thousands of graphs); make
# check-long runs millions.  The program uses only libsyslet's public
# calls and no libelf, so that it also links statically for the guests.
diff_sources = tests/diff/diff.c tests/diff/diff.h tests/diff/ref.c \
	tests/diff/gen.c
check_PROGRAMS += tests/diff/difftest
TESTS += tests/diff/difftest
tests_diff_difftest_SOURCES = $(diff_sources)
tests_diff_difftest_LDADD = src/lib/libsyslet.la -lpthread
if HAVE_M32
check_PROGRAMS += tests/diff/difftest32
TESTS += tests/diff/difftest32
tests_diff_difftest32_SOURCES = $(diff_sources)
tests_diff_difftest32_CFLAGS = $(AM_CFLAGS) -m32 -pthread
tests_diff_difftest32_LDFLAGS = -m32 -pthread
tests_diff_difftest32_LDADD = tests/runtime/libsyslet32.la
diff_long32 = tests/diff/difftest32
else
diff_long32 =
endif

# observed.sh: the same graphs with a trace callback installed (the
# engines' observed loop, its events checked) and by syslet_step().
TESTS += tests/diff/observed.sh
EXTRA_DIST += tests/diff/observed.sh

DIFF_LONG_COUNT = 2000000
DIFF_OBSERVE_COUNT = 500000
.PHONY: check-long
check-long: tests/diff/difftest $(diff_long32) tests/diff/ringtest
	@for t in tests/diff/difftest $(diff_long32); do \
		echo "$$t --count=$(DIFF_LONG_COUNT) $(DIFF_FLAGS)"; \
		$$t --count=$(DIFF_LONG_COUNT) $(DIFF_FLAGS) || exit 1; \
		echo "$$t --count=$(DIFF_OBSERVE_COUNT) --observe $(DIFF_FLAGS)"; \
		$$t --count=$(DIFF_OBSERVE_COUNT) --observe $(DIFF_FLAGS) || \
			exit 1; \
	done
	tests/diff/ringtest --heads=8 --phases=3000
	tests/diff/ringtest --heads=8 --phases=1000 --observe

# ringtest: many syslets in flight on one head (ring slots, index,
# wrap-around, full slots, the thread limit, async_wait) against a model
# of the 2007 head, on random steps.
check_PROGRAMS += tests/diff/ringtest
TESTS += tests/diff/ringtest
# ringheads.sh: the same on four heads at once, one a thread each.
TESTS += tests/diff/ringheads.sh
EXTRA_DIST += tests/diff/ringheads.sh
tests_diff_ringtest_SOURCES = tests/diff/ringtest.c
tests_diff_ringtest_LDADD = src/lib/libsyslet.la -lpthread
if HAVE_M32
check_PROGRAMS += tests/diff/ringtest32
TESTS += tests/diff/ringtest32
tests_diff_ringtest32_SOURCES = tests/diff/ringtest.c
tests_diff_ringtest32_CFLAGS = $(AM_CFLAGS) -m32 -pthread
tests_diff_ringtest32_LDFLAGS = -m32 -pthread
tests_diff_ringtest32_LDADD = tests/runtime/libsyslet32.la
endif

# langtest: random programs of the language, compiled in memory by the
# compiler library (as syslet-run compiles a source) and run on emul and
# uring, against an evaluator written from syslet(5).
check_PROGRAMS += tests/diff/langtest
TESTS += tests/diff/langtest
# syslet-run's sources but main.c: the compiled side's exit status is
# srun_failed()'s, the rule syslet-run exits by.
tests_diff_langtest_SOURCES = tests/diff/langtest.c $(srun_sources)
tests_diff_langtest_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/src/run
tests_diff_langtest_LDADD = $(syslet_run_LDADD)
