# src/lib/local.mk: (empty so far)
