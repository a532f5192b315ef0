# tests/kernel.mk: programs that run inside the qemu guest of make kernel-check (not in make check).
EXTRA_DIST += tests/kernel/init.c tests/kernel/ktest.c tests/kernel/fuzz.c \
	tests/kernel/kt.h tests/kernel/ksafe.c tests/kernel/kexit.c \
	tests/kernel/kexamples.c tests/kernel/kbench.c tests/kernel/kstress.c \
	tests/kernel/kstate.c

# make kernel-guest: the runtime conformance programs (tests/runtime.mk,
# unchanged sources), the differential test (tests/diff.mk), the benchmark (kbench.c, which runs through
# libsyslet's kernel backend), syslet-run and the examples' images, linked
# statically for the guest's initramfs.  The guest has no dynamic loader
# and no shell.  A program that cannot be linked statically here is left
# out with a message, and kernel-check reports it missing.
#
# The 32-bit syslet-run is configured as a cross build (--host), so that
# configure runs none of what it builds: a host that cannot run 32-bit
# programs still makes it.  It needs a 32-bit libelf (Debian: dpkg
# --add-architecture i386; apt-get install libelf-dev:i386).  It is built
# by this package's own build system, -m32 and static, in a copy of the
# distributed sources (make distdir): the tree here is configured for
# 64 bits, and configure refuses a second build of a configured tree.
kguest_dir = tests/kernel/guest
kguest_rt = args fault stop async register umem deny wait signal sigloop \
	hello hello2007 load chains profile compat fifo parked forkhead procsig \
	fdlimit renice unblock closerange asyncmask selfcalls mthead threadexit \
	widelen asdirect waitall api printnovm eintr faultown nowait ringmem \
	sigkinds waitintr batch asyncfetch tmpmask workersig sendall \
	seedhead waitafter suspmask pendmove tidtimer futexpi \
	sighow workertimer pirace tidprio tidown tidrace tidpidfd tidself \
	waitchld pipesig waitkept tidclock sigfetch ringhead handlerexec \
	handlerwait ringshare waitmoved fsids vforkhead stopcont exechead procwide \
	caps headargs selfmod ringsem sigsem fileloop zerowait asyncfull
# Programs that need two CPUs: run only in the guests whose kernel
# finds a second one (kernel-patch/kconfig-smp.fragment).
kguest_smp = affinity
kguest_examples = hello cat copy countdown server
# The differential test (tests/diff.mk), run against the kernel backend;
# so is ringtest (many syslets on one head), built as the programs above.
kguest_diff = $(srcdir)/tests/diff/diff.c $(srcdir)/tests/diff/gen.c \
	$(srcdir)/tests/diff/ref.c
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
	for t in $(kguest_rt) $(kguest_smp) kbench ringtest; do \
		src=$(srcdir)/tests/runtime/$$t.c; \
		test $$t != kbench || src=$(srcdir)/tests/kernel/kbench.c; \
		test $$t != ringtest || src=$(srcdir)/tests/diff/ringtest.c; \
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
	$(kguest_link) $(kguest_cc) -all-static -o $(kguest_dir)/64/difftest \
		$(kguest_diff) src/lib/libsyslet.la -lpthread \
		>$(kguest_dir)/64/difftest.log 2>&1 || \
		echo "kernel-guest: difftest: no static 64-bit build" \
			"(see $(kguest_dir)/64/difftest.log)"; \
	test -z "$(kguest_m32)" || \
	$(kguest_link) $(kguest_cc) -m32 -pthread -all-static \
		-o $(kguest_dir)/32/difftest $(kguest_diff) $(kguest_m32) \
		-lpthread >$(kguest_dir)/32/difftest.log 2>&1 || \
		echo "kernel-guest: difftest: no static 32-bit build" \
			"(see $(kguest_dir)/32/difftest.log)"; \
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
	test -z "$(kguest_m32)" || $(MAKE) $(AM_MAKEFLAGS) kernel-guest-run32; \
	$(MKDIR_P) $(kguest_dir)/ex32 && \
	for e in $(kguest_examples); do \
		./sysletc --target=x86_64 -o $(kguest_dir)/ex/$$e.slo \
			$(srcdir)/examples/$$e.syslet || exit 1; \
		./sysletc --target=i386 -o $(kguest_dir)/ex32/$$e.slo \
			$(srcdir)/examples/$$e.syslet || exit 1; \
	done; \
	cp $(srcdir)/examples/hello.syslet $(kguest_dir)/ex/ && \
	cp $(srcdir)/examples/hello.syslet $(kguest_dir)/ex32/

kguest_src32 = $(kguest_dir)/src32
.PHONY: kernel-guest-run32
kernel-guest-run32:
	$(AM_V_GEN)log=$(abs_builddir)/$(kguest_dir)/32/syslet-run.log; \
	ma=`$(CC) -m32 -print-multiarch 2>/dev/null`; \
	pc=/usr/lib/$$ma/pkgconfig:/usr/share/pkgconfig; \
	if ! PKG_CONFIG_LIBDIR=$$pc $(PKG_CONFIG) --exists libelf; then \
		echo "kernel-guest: syslet-run: no 32-bit libelf" \
			"(apt-get install libelf-dev:i386)" | tee $$log; \
		exit 0; \
	fi; \
	rm -rf $(kguest_src32) && \
	{ $(MAKE) $(AM_MAKEFLAGS) distdir distdir=$(kguest_src32) && \
	  cd $(kguest_src32) && \
	  ./configure --host=i686-linux-gnu \
		--build=`$(CC) -dumpmachine` \
		CC="$(CC) -m32" PKG_CONFIG_LIBDIR=$$pc \
		LIBELF_LIBS="`PKG_CONFIG_LIBDIR=$$pc $(PKG_CONFIG) --static --libs libelf`" \
		--disable-shared --without-readline && \
	  $(MAKE) src/include/syslet-nr.h src/common/tables.c \
		grammar/parser.h && \
	  $(MAKE) syslet-run LDFLAGS=-all-static && \
	  cp syslet-run ../32/syslet-run; } >$$log 2>&1 || \
		echo "kernel-guest: syslet-run: no static 32-bit build" \
			"(see $$log)"

clean-local: kernel-guest-clean
.PHONY: kernel-guest-clean
kernel-guest-clean:
	-rm -rf $(kguest_dir)
