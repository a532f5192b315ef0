# src/run/local.mk: syslet-run, a thin client of libsyslet (plus the compiler, for sources).
bin_PROGRAMS += syslet-run
# All but main.c, which tests/shell/names links without.
srun_sources = src/run/run.h src/run/load.c \
	src/run/exec.c src/run/trace.c src/run/trace.h \
	src/run/input.c src/run/input.h \
	src/run/span.c src/run/qualify.c src/run/qualify.h
syslet_run_SOURCES = src/run/main.c $(srun_sources)
# libcompiler.la brings the grammar, image model and common helpers it
# is built from (its LIBADD), libsyslet.la its libelf and liburing.
syslet_run_LDADD = src/lib/libsyslet.la src/compiler/libcompiler.la
# libtool's -static: the uninstalled libraries are linked in from their
# archives, so that ./syslet-run in the build tree is the program itself,
# not a wrapper script that signals and timeout(1) would stop instead,
# and the installed program carries no run path into the build tree.
# STATIC_DEPS_LDFLAGS (configure): liburing and libelf from their
# archives too, where they exist.
syslet_run_LDFLAGS = -static $(STATIC_DEPS_LDFLAGS)
# A tree built before that holds the wrapper: relink when these rules change.
EXTRA_syslet_run_DEPENDENCIES = $(srcdir)/src/run/local.mk
