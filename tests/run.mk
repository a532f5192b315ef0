# tests/run.mk: libsyslet's image API, syslet-run end to end, and the benchmark (make bench).
if HAVE_CMOCKA
check_PROGRAMS += tests/run/image-api
TESTS += tests/run/image-api
tests_run_image_api_SOURCES = tests/run/image-api.c
tests_run_image_api_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_run_image_api_LDADD = src/lib/libsyslet.la src/image/libimage.la \
	src/common/libcommon.la $(CMOCKA_LIBS)
endif
# A thread mapping a new slab for its instance holds up no other thread
# making one (syslet-run --each --jobs: issue 13).
check_PROGRAMS += tests/run/slab-lock
TESTS += tests/run/slab-lock
tests_run_slab_lock_SOURCES = tests/run/slab-lock.c
tests_run_slab_lock_LDADD = src/lib/libsyslet.la src/image/libimage.la \
	src/common/libcommon.la $(LIBELF_LIBS) -lpthread
# Every exported function given NULL, empty and over-long arguments.
check_PROGRAMS += tests/run/api-null
TESTS += tests/run/api-null
tests_run_api_null_SOURCES = tests/run/api-null.c
tests_run_api_null_LDADD = src/lib/libsyslet.la src/image/libimage.la \
	src/common/libcommon.la $(LIBELF_LIBS)

# syslet-run end to end: the examples, errors, --each, --trace, --stats.
# syslet(5)'s addresses (buf + 4) and joined strings, run.
TESTS += tests/run/addresses.sh
EXTRA_DIST += tests/run/addresses.sh
TESTS += tests/run/thin.sh
EXTRA_DIST += tests/run/thin.sh
# A file that is no syslet program: a few errors and what syslet-run wants.
TESTS += tests/run/not-syslet.sh
EXTRA_DIST += tests/run/not-syslet.sh
# The trace names a copy atom's word as the listing does.
TESTS += tests/run/trace-copy.sh
EXTRA_DIST += tests/run/trace-copy.sh
# The trace names a widened narrow element as the listing does (&c[0]).
TESTS += tests/run/trace-widened.sh
# A stop that --inject chose says (INJECTED).
TESTS += tests/run/inject-report.sh
EXTRA_DIST += tests/run/inject-report.sh
EXTRA_DIST += tests/run/trace-widened.sh
TESTS += tests/run/trace-scratch.sh
EXTRA_DIST += tests/run/trace-scratch.sh
# A trace, counters or reports that cannot be written are a failure.
TESTS += tests/run/lost-report.sh
EXTRA_DIST += tests/run/lost-report.sh
# One value, one spelling in every printer (--trace, --stats, the stop
# report, sysletc -d, the shell).
TESTS += tests/run/results-same.sh
EXTRA_DIST += tests/run/results-same.sh
# Every status of the EXIT STATUS sections of sysletc(1) and
# syslet-run(1), and one error worded alike by every program.
TESTS += tests/run/exit-status.sh
EXTRA_DIST += tests/run/exit-status.sh
# Names from the command line in messages: no control byte reaches the
# terminal (sysletc's: tests/sysletc/names-quoted.sh).
TESTS += tests/run/names-quoted.sh
EXTRA_DIST += tests/run/names-quoted.sh
# ... and one of 120 KB is cut as strace -s cuts a string.
TESTS += tests/run/each-longarg.sh tests/run/each-failmem.sh
EXTRA_DIST += tests/run/each-longarg.sh tests/run/each-failmem.sh
TESTS += tests/run/examples.sh tests/run/errors.sh tests/run/each.sh \
	tests/run/status.sh \
	tests/run/trace-stats.sh tests/run/shebang.sh tests/run/readme.sh \
	tests/run/signal.sh tests/run/overflow.sh tests/run/linear.sh
# Element access and sockaddr_in parameters end to end; elements32.sh
# runs the i386 image in a 32-bit process (skips without -m32).
TESTS += tests/run/elements.sh tests/run/elements32.sh tests/run/params.sh
EXTRA_DIST += tests/run/elements.sh tests/run/elements32.sh \
	tests/run/params.sh tests/run/elements.syslet tests/run/params.syslet
# readme.sh runs examples/server.syslet on the README's port 8080, under
# flock(1) on this file (examples.sh picks a free port of its own).
CLEANFILES += tests/run/port-8080.lock
check_PROGRAMS += tests/run/tcp-client
tests_run_tcp_client_SOURCES = tests/run/tcp-client.c
# The name tables are not relocated at every start (page faults).
TESTS += tests/run/relro-tables.sh
EXTRA_DIST += tests/run/relro-tables.sh
# syslet-run's start: its text mapped whole, no CPU count without --each.
TESTS += tests/run/startup.sh
EXTRA_DIST += tests/run/startup.sh
# ... and looks its system call names up in a few instructions each.
TESTS += tests/run/name-lookups.sh
EXTRA_DIST += tests/run/name-lookups.sh
# ... and makes the uring backend's tables from emul's by a copy.
TESTS += tests/run/uring-tables.sh
EXTRA_DIST += tests/run/uring-tables.sh
# --each reuses the memory of instances that ended (issue 13): page
# faults counted by minflt.
check_PROGRAMS += tests/run/minflt
tests_run_minflt_SOURCES = tests/run/minflt.c
TESTS += tests/run/each-reuse.sh tests/run/trace-writes.sh tests/run/stdfds.sh \
	tests/run/rodata.sh tests/run/aslimit.sh tests/run/each-nofile.sh \
	tests/run/each-threads.sh tests/run/each-perfile.sh tests/run/each-claim.sh
EXTRA_DIST += tests/run/each-perfile.sh tests/run/each-claim.sh
EXTRA_DIST += tests/run/each-reuse.sh tests/run/trace-writes.sh \
	tests/run/stdfds.sh tests/run/rodata.sh tests/run/aslimit.sh \
	tests/run/each-nofile.sh tests/run/each-threads.sh
# A shim that fails pthread_create() of one start routine (LD_PRELOAD).
check_LTLIBRARIES += tests/run/libfailthread.la
tests_run_libfailthread_la_SOURCES = tests/run/failthread.c
tests_run_libfailthread_la_LDFLAGS = -module -avoid-version -shared \
	-rpath /nowhere
tests_run_libfailthread_la_LIBADD = -ldl
# Out of memory, threads or descriptors from the Nth call of a run on,
# through a shim failing libc's (LD_PRELOAD).
TESTS += tests/run/failnth.sh tests/run/probe-eintr.sh
EXTRA_DIST += tests/run/failnth.sh tests/run/probe-eintr.sh
# ... nor by the teardown of a probe ring too small for the first head.
TESTS += tests/run/kept-eintr.sh
EXTRA_DIST += tests/run/kept-eintr.sh
# --each stopped (SIGTSTP) in a batch and continued makes no instance twice.
TESTS += tests/run/tstp-each.sh
EXTRA_DIST += tests/run/tstp-each.sh
check_LTLIBRARIES += tests/run/libfailnth.la
tests_run_libfailnth_la_SOURCES = tests/run/failnth.c
tests_run_libfailnth_la_LDFLAGS = -module -avoid-version -shared \
	-rpath /nowhere
tests_run_libfailnth_la_LIBADD = -ldl
# No clock read where nothing shows the time (page faults of the vDSO's
# data), through a shim counting libc's clock calls (LD_PRELOAD).
TESTS += tests/run/noclock.sh
EXTRA_DIST += tests/run/noclock.sh
check_LTLIBRARIES += tests/run/libclockcalls.la
tests_run_libclockcalls_la_SOURCES = tests/run/clockcalls.c
tests_run_libclockcalls_la_LDFLAGS = -module -avoid-version -shared \
	-rpath /nowhere
tests_run_libclockcalls_la_LIBADD = -ldl
# --each allocates once an instance, through a shim counting libc's heap
# allocations (LD_PRELOAD).
TESTS += tests/run/each-heap.sh
EXTRA_DIST += tests/run/each-heap.sh
# --each populates its instances' new slots a few to a system call.
TESTS += tests/run/each-populate.sh
EXTRA_DIST += tests/run/each-populate.sh
# ... and with --jobs, about as many instances live at once as with one lane.
TESTS += tests/run/each-lanes-batch.sh
EXTRA_DIST += tests/run/each-lanes-batch.sh
# --each hands the engine 64 syslets a batch: fewer signal calls and
# io_uring_enter.
TESTS += tests/run/each-calls.sh
EXTRA_DIST += tests/run/each-calls.sh
check_LTLIBRARIES += tests/run/libheapcalls.la
tests_run_libheapcalls_la_SOURCES = tests/run/heapcalls.c
tests_run_libheapcalls_la_LDFLAGS = -module -avoid-version -shared \
	-rpath /nowhere
# Resource limits at their smallest (ulimit -s); odd paths.
TESTS += tests/run/stacklimit.sh tests/run/paths.sh
EXTRA_DIST += tests/run/stacklimit.sh tests/run/paths.sh
# --stats counts the syscall of an atom that went async before its try.
TESTS += tests/run/stats-async.sh
EXTRA_DIST += tests/run/stats-async.sh
# --each lanes whose io_uring head cannot be set up give their jobs away.
TESTS += tests/run/each-heads.sh
EXTRA_DIST += tests/run/each-heads.sh
TESTS += tests/run/tty-eintr.sh
EXTRA_DIST += tests/run/tty-eintr.sh
# A standard output or error that is a non-blocking pipe and fills.
check_PROGRAMS += tests/run/nbpipe
tests_run_nbpipe_SOURCES = tests/run/nbpipe.c
TESTS += tests/run/nonblock-out.sh
EXTRA_DIST += tests/run/nonblock-out.sh
# io_uring's calls refused by a seccomp filter (deny-call).
check_PROGRAMS += tests/run/deny-call
tests_run_deny_call_SOURCES = tests/run/deny-call.c
TESTS += tests/run/uring-denied.sh
EXTRA_DIST += tests/run/uring-denied.sh
# process_vm_readv() missing or refused: the run and the shell still
# read atoms' arguments (deny-call).
TESTS += tests/run/novm.sh
EXTRA_DIST += tests/run/novm.sh
# A batch of syslets enters io_uring once per full SQ of their calls (issue 13).
check_PROGRAMS += tests/run/batchread
tests_run_batchread_SOURCES = tests/run/batchread.c
tests_run_batchread_LDADD = src/lib/libsyslet.la
TESTS += tests/run/uring-enters.sh
TESTS += tests/run/worker-sigcalls.sh
EXTRA_DIST += tests/run/worker-sigcalls.sh
EXTRA_DIST += tests/run/uring-enters.sh
# syslet_ring__wait_pop() and a completion that lands just before its
# wait, another syslet busy (wraps syslet_ring__pop: a shared build).
check_PROGRAMS += tests/run/waitpop
tests_run_waitpop_SOURCES = tests/run/waitpop.c
tests_run_waitpop_LDADD = src/lib/libsyslet.la -ldl
TESTS += tests/run/waitpop.sh
EXTRA_DIST += tests/run/waitpop.sh
# Comparisons with constants over the whole range of a word.
TESTS += tests/run/compare-range.sh
EXTRA_DIST += tests/run/compare-range.sh
EXTRA_DIST += tests/run/examples.sh tests/run/errors.sh tests/run/each.sh tests/run/trace-stats.sh \
	tests/run/status.sh \
	tests/run/shebang.sh tests/run/readme.sh tests/run/signal.sh tests/run/overflow.sh tests/run/linear.sh \
	tests/run/cat.syslet tests/run/two.syslet tests/run/over.syslet \
	tests/run/shebang.syslet tests/run/hello.txt
# strace's habits (issue 15): --trace=SET, --inject, <unfinished ...>,
# -T, -t and -r, and the tail printed when a signal ends the run.
TESTS += tests/run/filter.sh tests/run/inject.sh tests/run/unfinished.sh \
	tests/run/times.sh tests/run/interrupt.sh
EXTRA_DIST += tests/run/filter.sh tests/run/inject.sh tests/run/lib-backends.sh \
	tests/run/lib-server.sh \
	tests/run/unfinished.sh tests/run/times.sh tests/run/interrupt.sh
# syslet-run --trace's goldens, a test each (tests/local.mk; trace.sh:
# NAME.args against NAME.trace and the output NAME.out).
GOLDEN_GLOBS += tests/run/trace/*.args
EXTRA_DIST += tests/run/trace.sh $(wildcard $(srcdir)/tests/run/trace/*.trace) \
	$(wildcard $(srcdir)/tests/run/trace/*.syslet) \
	$(wildcard $(srcdir)/tests/run/trace/*.out)

# The benchmark is built by make check, so that it cannot rot, but only
# run by make bench: its timings mean nothing on a loaded machine.
# libtool --mode=execute hands the real binaries, not their wrapper
# scripts, to the benchmark, so no shell start-up is timed.
check_PROGRAMS += tests/bench/bench tests/bench/plainloop
tests_bench_bench_SOURCES = tests/bench/bench.c tests/bench/bench.h \
	tests/bench/bench-io.c tests/bench/bench-atom.c
tests_bench_bench_CFLAGS = $(AM_CFLAGS) $(LIBURING_CFLAGS)
tests_bench_bench_LDADD = src/lib/libsyslet.la $(LIBURING_LIBS)
tests_bench_plainloop_SOURCES = tests/bench/plainloop.c
EXTRA_DIST += tests/bench/readfile.syslet
CLEANFILES += tests/bench/readfile.slo

BENCH_FLAGS =
.PHONY: bench
bench: sysletc syslet-run tests/bench/bench tests/bench/plainloop
	$(AM_V_GEN)./sysletc -o tests/bench/readfile.slo \
		$(srcdir)/tests/bench/readfile.syslet && \
	$(LIBTOOL) --mode=execute tests/bench/bench \
		--slo tests/bench/readfile.slo --syslet-run ./syslet-run \
		--plain tests/bench/plainloop $(BENCH_FLAGS)
# Programs a newcomer writes from the man pages, against real clients.
TESTS += tests/run/apps.sh
EXTRA_DIST += tests/run/apps.sh $(wildcard $(srcdir)/tests/run/apps/*.syslet)
# --trace decodes what calls wrote, as strace does.
TESTS += tests/run/trace-decode.sh tests/run/trace-oflags.sh
EXTRA_DIST += tests/run/trace-decode.sh tests/run/trace-oflags.sh
# ... every byte of a buffer that ends where its mapping ends.
TESTS += tests/run/trace-bufend.sh
EXTRA_DIST += tests/run/trace-bufend.sh
# ... the socket addresses of sendto(), recvfrom() and accept().
TESTS += tests/run/trace-sockaddr.sh
EXTRA_DIST += tests/run/trace-sockaddr.sh
# ... the iovecs of readv(), writev(), sendmsg() and recvmsg().
TESTS += tests/run/trace-iovec.sh
EXTRA_DIST += tests/run/trace-iovec.sh
# An ioctl that never waits runs in place, as fcntl does.
TESTS += tests/run/ioctl-inline.sh
EXTRA_DIST += tests/run/ioctl-inline.sh
# ... and a select with a zero timeout, as poll with one.
TESTS += tests/run/select-probe.sh
EXTRA_DIST += tests/run/select-probe.sh
# ... what statx, timerfd_settime, getsockname, wait4's rusage and an
# interrupted nanosleep wrote.
TESTS += tests/run/trace-outputs.sh
EXTRA_DIST += tests/run/trace-outputs.sh
# ... inotify's names and masks, and signal sets.
TESTS += tests/run/trace-watch.sh
EXTRA_DIST += tests/run/trace-watch.sh
# ... epoll_ctl()'s and epoll_wait()'s struct epoll_event.
TESTS += tests/run/trace-epoll.sh
EXTRA_DIST += tests/run/trace-epoll.sh
# ... '+++ exited with N +++' at the end, as strace.
TESTS += tests/run/trace-exited.sh
EXTRA_DIST += tests/run/trace-exited.sh
# --stats opens with strace -c's table; -c is --stats.
TESTS += tests/run/stats-table.sh
EXTRA_DIST += tests/run/stats-table.sh
check_PROGRAMS += tests/run/apps/reap
tests_run_apps_reap_SOURCES = tests/run/apps/reap.c
tests_run_apps_reap_LDADD = src/lib/libsyslet.la
# --each that fails part-way still reports the syslets that ran.
TESTS += tests/run/each-partial.sh
EXTRA_DIST += tests/run/each-partial.sh
# --stats of a killed run counts what a worker ran before its wait.
TESTS += tests/run/stats-killed.sh
EXTRA_DIST += tests/run/stats-killed.sh
# --each ended by a signal: the stops of the files that had ended, once.
TESTS += tests/run/each-killed.sh
EXTRA_DIST += tests/run/each-killed.sh
# ... and every stop the trace shows is reported, none it does not.
TESTS += tests/run/each-killed-ends.sh
EXTRA_DIST += tests/run/each-killed-ends.sh
# ... and a run killed by a signal its syslet raised ends as strace's.
TESTS += tests/run/trace-killed-self.sh
EXTRA_DIST += tests/run/trace-killed-self.sh
# --each: an async_exec() that fails does not lose its batch's stops.
TESTS += tests/run/each-execfail.sh
EXTRA_DIST += tests/run/each-execfail.sh
# ... nor what --stats counted.
TESTS += tests/run/each-partial-stats.sh
EXTRA_DIST += tests/run/each-partial-stats.sh
# --stats on uring says who ran the cachemiss atoms.
TESTS += tests/run/stats-who.sh
EXTRA_DIST += tests/run/stats-who.sh
# Several threads on one image, each with its instance and ring, the
# counters and trace callback from another (libsyslet(3), THREAD SAFETY).
check_PROGRAMS += tests/run/threads
tests_run_threads_SOURCES = tests/run/threads.c
tests_run_threads_LDADD = src/lib/libsyslet.la -lpthread
TESTS += tests/run/threads.sh
EXTRA_DIST += tests/run/threads.sh tests/run/mt.syslet
