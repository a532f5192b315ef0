# tests/shell.mk: syslet-run -i: scripted sessions through a pipe against transcripts, and one terminal session under tmux.
shell_sessions = immediate decls input step-cat breakpoints cells ring errors commands
TESTS += $(shell_sessions:%=tests/shell/%.sh) tests/shell/tty.sh
EXTRA_DIST += tests/shell/lib.sh tests/shell/tty.sh tests/shell/hello.txt \
	tests/shell/async.syslet \
	$(shell_sessions:%=tests/shell/%.sh) \
	$(shell_sessions:%=tests/shell/%.in) \
	$(shell_sessions:%=tests/shell/%.out)
