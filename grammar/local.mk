# grammar/local.mk: (empty so far)
