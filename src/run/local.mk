# src/run/local.mk: (empty so far)
