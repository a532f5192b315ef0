# tests/shell.mk: (empty so far)
