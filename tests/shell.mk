# tests/shell.mk: syslet-run -i: scripted sessions through a pipe against transcripts, and one terminal session under tmux.
# The scripted sessions, a test each (tests/local.mk; tests/shell.sh:
# NAME.session against the transcript NAME.out).
GOLDEN_GLOBS += tests/shell/*.session
EXTRA_DIST += tests/shell.sh $(wildcard $(srcdir)/tests/shell/*.out)
TESTS += tests/shell/tty.sh tests/shell/hostile.sh \
	tests/shell/inflight.sh tests/shell/linear.sh
TESTS += tests/shell/history.sh
EXTRA_DIST += tests/shell/history.sh
EXTRA_DIST += tests/shell/lib.sh tests/shell/tty.sh tests/shell/hostile.sh tests/shell/hello.txt \
	tests/shell/inflight.sh tests/shell/linear.sh \
	tests/shell/async.syslet tests/shell/async-nc.syslet \
	tests/shell/labels.syslet
