# src/run/shell.mk: syslet-run -i, the interactive shell (built only with GNU readline).
noinst_HEADERS += src/run/shell.h
# Until syslet-run itself is in the tree, the shell's sources are only
# shipped; they join syslet_run_SOURCES under HAVE_READLINE with it.
EXTRA_DIST += src/run/shell.c src/run/shell-int.h \
	src/run/shell-line.c src/run/shell-cmd.c src/run/shell-names.c \
	src/run/shell-util.c src/run/shell-prog.c src/run/shell-prog.h \
	src/run/shell-exec.c src/run/shell-exec.h src/run/shell-dbg.c \
	src/run/shell-imm.c
