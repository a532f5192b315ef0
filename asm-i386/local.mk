# asm-i386/local.mk: (empty so far)
