# src/compiler/front.mk: (empty so far)
