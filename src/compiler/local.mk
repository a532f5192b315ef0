# src/compiler/local.mk: (empty so far)
