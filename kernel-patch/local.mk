# kernel-patch/local.mk: (empty so far)
