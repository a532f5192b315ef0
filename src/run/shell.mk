# src/run/shell.mk: syslet-run -i, the interactive shell (built only with GNU readline).
noinst_HEADERS += src/run/shell.h
