# src/run/shell.mk: syslet-run -i, the interactive shell (built only with GNU readline).
noinst_HEADERS += src/run/shell.h
shell_sources = src/run/shell.c src/run/shell-int.h \
	src/run/shell-line.c src/run/shell-cmd.c src/run/shell-names.c \
	src/run/shell-util.c src/run/shell-prog.c src/run/shell-prog.h \
	src/run/shell-exec.c src/run/shell-exec.h src/run/shell-dbg.c \
	src/run/shell-imm.c src/run/shell-rl.c src/run/shell-rl.h
if HAVE_READLINE
syslet_run_SOURCES += $(shell_sources)
syslet_run_LDADD += $(READLINE_LIBS)
else
EXTRA_DIST += $(shell_sources)
endif
