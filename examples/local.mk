# examples/local.mk: (empty so far)
