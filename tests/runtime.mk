# tests/runtime.mk: (empty so far)
