# man/local.mk: (empty so far)
