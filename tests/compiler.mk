# tests/compiler.mk: (empty so far)
