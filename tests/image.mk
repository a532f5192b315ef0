# tests/image.mk: (empty so far)
