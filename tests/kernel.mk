# tests/kernel.mk: (empty so far)
