# tests/compiler.mk: unit and golden tests of the front end (grammar, lowering, diagnostics, fuzz replay).
if HAVE_CMOCKA
check_PROGRAMS += tests/grammar/diag
TESTS += tests/grammar/diag
tests_grammar_diag_SOURCES = tests/grammar/diag.c
tests_grammar_diag_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_grammar_diag_LDADD = grammar/libgrammar.la $(CMOCKA_LIBS)
check_PROGRAMS += tests/grammar/parse
TESTS += tests/grammar/parse
tests_grammar_parse_SOURCES = tests/grammar/parse.c
tests_grammar_parse_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_grammar_parse_LDADD = grammar/libgrammar.la $(CMOCKA_LIBS)
endif

# front-dump: sysletc_front() on one file -> diagnostics or an IR dump.
check_PROGRAMS += tests/compiler/front-dump
tests_compiler_front_dump_SOURCES = tests/compiler/front-dump.c
tests_compiler_front_dump_LDADD = src/compiler/libfront.la

# pipeline: front end, then layout, emit and verify on every target.
check_PROGRAMS += tests/compiler/pipeline
tests_compiler_pipeline_SOURCES = tests/compiler/pipeline.c
tests_compiler_pipeline_LDADD = src/compiler/libfront.la \
	src/compiler/libback.la src/image/libimage.la src/common/libcommon.la \
	$(LIBELF_LIBS)

# ir-run: the IR on an interpreter with the kernel's atom semantics.
check_PROGRAMS += tests/compiler/ir-run
tests_compiler_ir_run_SOURCES = tests/compiler/ir-run.c
tests_compiler_ir_run_LDADD = src/compiler/libfront.la

# drop-check: lowering never loses atoms that no lower_drop() accounts for.
check_PROGRAMS += tests/compiler/drop-check
tests_compiler_drop_check_SOURCES = tests/compiler/drop-check.c
tests_compiler_drop_check_LDADD = src/compiler/libfront.la
TESTS += tests/compiler/drop-check

# check: the check pass (sysletc_check) alone, on parsed sources.
check_PROGRAMS += tests/compiler/check
tests_compiler_check_SOURCES = tests/compiler/check.c tests/compiler/pass-test.h
tests_compiler_check_LDADD = src/compiler/libfront.la
TESTS += tests/compiler/check

# resolve: the resolve pass (sysletc_resolve) alone, on parsed sources.
check_PROGRAMS += tests/compiler/resolve
tests_compiler_resolve_SOURCES = tests/compiler/resolve.c tests/compiler/pass-test.h
tests_compiler_resolve_LDADD = src/compiler/libfront.la
TESTS += tests/compiler/resolve

TESTS += tests/compiler/examples.sh tests/compiler/pipeline.sh
EXTRA_DIST += tests/compiler/examples.sh tests/compiler/pipeline.sh

# Golden cases (tests/local.mk): diagnostics (diag.sh: NAME.syslet against
# NAME.err), the IR (lower.sh: NAME.ir), and traces of the IR on the
# interpreter (run.sh: NAME.syslet, or example-NAME.args for
# examples/NAME.syslet, against NAME.trace).
GOLDEN_GLOBS += tests/compiler/diag/*.syslet tests/compiler/lower/*.syslet \
	tests/compiler/run/*.syslet tests/compiler/run/*.args
EXTRA_DIST += tests/compiler/diag.sh tests/compiler/lower.sh \
	tests/compiler/run.sh \
	$(wildcard $(srcdir)/tests/compiler/run/*.trace) \
	$(wildcard $(srcdir)/tests/compiler/diag/*.err) \
	$(wildcard $(srcdir)/tests/compiler/lower/*.ir)

# The fuzz target, built normally as a replay/mutation driver for make check.
check_PROGRAMS += tests/fuzz/front-fuzz
tests_fuzz_front_fuzz_SOURCES = tests/fuzz/front-fuzz.c
tests_fuzz_front_fuzz_LDADD = src/compiler/libfront.la \
	src/compiler/libback.la src/image/libimage.la src/common/libcommon.la \
	$(LIBELF_LIBS)
TESTS += tests/fuzz/replay.sh
EXTRA_DIST += tests/fuzz/replay.sh tests/fuzz/README \
	$(wildcard $(srcdir)/tests/fuzz/corpus/*)

# `make fuzz [FUZZ_SECONDS=N]`: the real libFuzzer run (clang, with ASan
# and UBSan) over a working copy of the corpus; new finds land in
# tests/fuzz/corpus-run/.  The target is front-fuzz.c linked with the
# replay program's libraries, built in the fuzz build (tests/local.mk).
tests/fuzz/front-fuzz-libfuzzer: tests/fuzz/front-fuzz.c \
		$(tests_fuzz_front_fuzz_DEPENDENCIES)
	$(AM_V_CCLD)$(fuzz_link) -o $@ $< $(tests_fuzz_front_fuzz_LDADD) $(LIBS)
fuzz:
	$(fuzz_build) tests/fuzz/front-fuzz-libfuzzer
	$(MKDIR_P) tests/fuzz/corpus-run
	$(FUZZ_DIR)/build/tests/fuzz/front-fuzz-libfuzzer \
		-max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 \
		tests/fuzz/corpus-run $(srcdir)/tests/fuzz/corpus
.PHONY: fuzz
CLEANFILES += tests/fuzz/front-fuzz-libfuzzer
