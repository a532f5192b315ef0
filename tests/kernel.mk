# tests/kernel.mk: programs that run inside the qemu guest of make kernel-check (not in make check).
EXTRA_DIST += tests/kernel/init.c tests/kernel/ktest.c tests/kernel/fuzz.c
