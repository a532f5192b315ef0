#!/bin/sh
# trace-watch.sh: an inotify watcher and a signalfd loop as a newcomer writes them: the IN_* names compile (they were undeclared), and --trace shows the calls as strace does: inotify_add_watch(4, "wd", IN_CREATE|IN_DELETE|IN_ONESHOT), inotify_init1(IN_NONBLOCK|IN_CLOEXEC), the signal sets of rt_sigprocmask() and signalfd4() ([USR1 TERM]; the old set once the call returned), not pointers and decimal masks; a mask whose names do not fit is shown whole (IN_ALL_EVENTS: twelve names), in the listing too, not cut mid-name.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
cd "$tmpdir" || exit 99
mkdir wd || exit 99
cat >w.syslet <<'SRC'
data mask = u64((1 << (SIGUSR1 - 1)) | (1 << (SIGTERM - 1)));
buffer old[8];
buffer ev[4096];
syslet w(str dir) {
	var fd, s, n;
	rt_sigprocmask(SIG_BLOCK, mask, old, 8);
	rt_sigprocmask(SIG_BLOCK, NULL, old, 8);
	s = signalfd4(-1, mask, 8, SFD_CLOEXEC);
	fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	inotify_add_watch(fd, dir, IN_CREATE | IN_DELETE | IN_ONESHOT);
	inotify_add_watch(fd, dir, IN_ALL_EVENTS);
	n = read(fd, ev, sizeof(ev));
}
SRC
$SYSLETC -S -o w.slo w.syslet >listing 2>err ||
	{ cat err >&2; fail "the watcher does not compile"; }
all='IN_ACCESS|IN_MODIFY|IN_ATTRIB|IN_CLOSE_WRITE|IN_CLOSE_NOWRITE|IN_OPEN|IN_MOVED_FROM|IN_MOVED_TO|IN_CREATE|IN_DELETE|IN_DELETE_SELF|IN_MOVE_SELF'
grep -qF "inotify_add_watch(fd, dir, $all)" listing ||
	fail "listing: $(grep 'ALL_EVENTS' listing)"
for b in $backends; do
	$SYSLET_RUN --backend="$b" --trace w.syslet wd 2>err
	want_lines err "$b" \
		'rt_sigprocmask(SIG_BLOCK, [USR1 TERM], [], 8) = 0 ' \
		'rt_sigprocmask(SIG_BLOCK, NULL, [USR1 TERM], 8) = 0 ' \
		'signalfd4(-1, [USR1 TERM], 8, SFD_CLOEXEC) = 3 ' \
		'inotify_init1(IN_NONBLOCK|IN_CLOEXEC) = 4 ' \
		'inotify_add_watch(4, "wd", IN_CREATE|IN_DELETE|IN_ONESHOT) = 1 ' \
		"inotify_add_watch(4, \"wd\", $all) = 1 " \
		'read(4, 0x'
done
exit 0
