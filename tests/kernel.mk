# tests/kernel.mk: programs that run inside the qemu guest of make kernel-check (not in make check).
EXTRA_DIST += tests/kernel/init.c tests/kernel/ktest.c tests/kernel/fuzz.c \
	tests/kernel/kexamples.c tests/kernel/kbench.c

# make kernel-guest: the runtime conformance programs (tests/runtime.mk,
# unchanged sources), the benchmark (kbench.c, which runs through
# libsyslet's kernel backend), syslet-run and the examples' images, linked
# statically for the guest's initramfs.  The guest has no dynamic loader
# and no shell.  A program that cannot be linked statically here is left
# out with a message, and kernel-check reports it missing.
kguest_dir = tests/kernel/guest
kguest_rt = args fault stop async register umem deny wait signal sigloop \
	hello hello2007 load chains
kguest_examples = hello cat copy countdown server
kguest_cc = $(CC) $(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) $(CPPFLAGS) \
	$(AM_CFLAGS) $(CFLAGS)
kguest_link = $(LIBTOOL) --quiet --tag=CC --mode=link
if HAVE_M32
kguest_m32 = tests/runtime/libsyslet32.la
else
kguest_m32 =
endif

.PHONY: kernel-guest
kernel-guest: src/lib/libsyslet.la $(kguest_m32) sysletc syslet-run \
		$(syslet_run_OBJECTS) $(syslet_run_DEPENDENCIES)
	$(AM_V_GEN)rm -rf $(kguest_dir) && \
	$(MKDIR_P) $(kguest_dir)/64 $(kguest_dir)/32 $(kguest_dir)/ex && \
	for t in $(kguest_rt) kbench; do \
		src=$(srcdir)/tests/runtime/$$t.c; \
		test $$t != kbench || src=$(srcdir)/tests/kernel/kbench.c; \
		$(kguest_link) $(kguest_cc) -all-static -o $(kguest_dir)/64/$$t \
			$$src src/lib/libsyslet.la \
			-lpthread >$(kguest_dir)/64/$$t.log 2>&1 || \
			echo "kernel-guest: $$t: no static 64-bit build" \
			"(see $(kguest_dir)/64/$$t.log)"; \
		test -z "$(kguest_m32)" || \
		$(kguest_link) $(kguest_cc) -m32 -pthread -all-static \
			-o $(kguest_dir)/32/$$t $$src \
			$(kguest_m32) -lpthread >$(kguest_dir)/32/$$t.log 2>&1 || \
			echo "kernel-guest: $$t: no static 32-bit build" \
			"(see $(kguest_dir)/32/$$t.log)"; \
	done; \
	$(kguest_link) $(CC) $(AM_CFLAGS) $(CFLAGS) -all-static \
		-o $(kguest_dir)/64/syslet-run $(syslet_run_OBJECTS) \
		$(syslet_run_LDADD) -lz -ltinfo \
		>$(kguest_dir)/64/syslet-run.log 2>&1 || \
	$(kguest_link) $(CC) $(AM_CFLAGS) $(CFLAGS) -all-static \
		-o $(kguest_dir)/64/syslet-run $(syslet_run_OBJECTS) \
		$(syslet_run_LDADD) -lz \
		>$(kguest_dir)/64/syslet-run.log 2>&1 || \
		echo "kernel-guest: syslet-run: no static build" \
			"(see $(kguest_dir)/64/syslet-run.log)"; \
	for e in $(kguest_examples); do \
		./sysletc --target=x86_64 -o $(kguest_dir)/ex/$$e.slo \
			$(srcdir)/examples/$$e.syslet || exit 1; \
	done; \
	cp $(srcdir)/examples/hello.syslet $(kguest_dir)/ex/

clean-local: kernel-guest-clean
.PHONY: kernel-guest-clean
kernel-guest-clean:
	-rm -rf $(kguest_dir)
