# tests/shell.mk: syslet-run -i: scripted sessions through a pipe against transcripts, and one terminal session under tmux.
# The scripted sessions, a test each (tests/local.mk; tests/shell.sh:
# NAME.session against the transcript NAME.out).
GOLDEN_GLOBS += tests/shell/*.session
EXTRA_DIST += tests/shell.sh $(wildcard $(srcdir)/tests/shell/*.out)
TESTS += tests/shell/tty.sh tests/shell/suspend.sh tests/shell/background.sh tests/shell/killed-prompt.sh tests/shell/history-trim.sh tests/shell/hostile.sh \
	tests/shell/inflight.sh tests/shell/linear.sh
TESTS += tests/shell/history.sh tests/shell/lazy-readline.sh \
	tests/shell/backends.sh tests/shell/info-flight.sh tests/shell/help-man.sh
EXTRA_DIST += tests/shell/history.sh tests/shell/lazy-readline.sh \
	tests/shell/backends.sh tests/shell/info-flight.sh tests/shell/help-man.sh
# The worked session of syslet-run(1) runs as printed.
TESTS += tests/shell/man-session.sh
EXTRA_DIST += tests/shell/man-session.sh
# An async statement interrupted with Ctrl-C works on its own cells.
TESTS += tests/shell/async-copy.sh
EXTRA_DIST += tests/shell/async-copy.sh
# So do syslet(5)'s program and session for getting results out.
TESTS += tests/shell/man-results.sh
EXTRA_DIST += tests/shell/man-results.sh
# A message is one write, however long the name it quotes.
TESTS += tests/shell/errwrites.sh tests/shell/failmem.sh
TESTS += tests/shell/deep-braces.sh
# ring counts the slots it lists while a worker fills one.
TESTS += tests/shell/ringshow.sh
# The shell's stats prints what --stats prints.
TESTS += tests/shell/stats-same.sh
# run keeps the terminal while its syslet runs.
TESTS += tests/shell/tty-run.sh
# Tab completes what each command's argument takes.
TESTS += tests/shell/tty-complete.sh
EXTRA_DIST += tests/shell/tty-complete.sh
EXTRA_DIST += tests/shell/tty-run.sh tests/shell/tmux.sh
EXTRA_DIST += tests/shell/stats-same.sh
EXTRA_DIST += tests/shell/ringshow.sh
EXTRA_DIST += tests/shell/errwrites.sh tests/shell/failmem.sh tests/shell/deep-braces.sh
EXTRA_DIST += tests/shell/lib.sh tests/shell/tty.sh tests/shell/suspend.sh tests/shell/background.sh tests/shell/killed-prompt.sh tests/shell/history-trim.sh tests/shell/hostile.sh tests/shell/hello.txt \
	tests/shell/inflight.sh tests/shell/linear.sh \
	tests/shell/async.syslet tests/shell/async-nc.syslet tests/shell/unfused.syslet \
	tests/shell/labels.syslet
# names: the words the shell completes are the grammar's and the
# compiler's tables (it links the shell's sources without main.c).
if HAVE_READLINE
check_PROGRAMS += tests/shell/names
TESTS += tests/shell/names
tests_shell_names_SOURCES = tests/shell/names.c $(shell_sources) \
	$(srun_sources)
tests_shell_names_LDADD = $(syslet_run_LDADD)
endif
# probe: what the shell asks the compiler library (sysletc_probe() ...).
check_PROGRAMS += tests/shell/probe
TESTS += tests/shell/probe
tests_shell_probe_SOURCES = tests/shell/probe.c
tests_shell_probe_LDADD = src/compiler/libcompiler.la
# A server run again after a run that left its socket open: the note
# says why bind() fails with EADDRINUSE.
TESTS += tests/shell/rerun-bound.sh
EXTRA_DIST += tests/shell/rerun-bound.sh
