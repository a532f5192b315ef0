/* stdfds.h: the standard descriptors: keep 0, 1 and 2 taken, so that nothing the process opens becomes its standard input, output or error, and tell whether the standard output got everything written to it. */
#ifndef SYSLET_COMMON_STDFDS_H
#define SYSLET_COMMON_STDFDS_H

#include <sys/types.h>

/*
 * A program started with 0, 1 or 2 closed (`prog 2>&-`) gets the lowest
 * free descriptor for the next file it opens, and everything it then
 * prints to that standard stream lands in the file: in syslet-run, the
 * trace and the stop message in a file the syslet opened for writing.
 * Each closed one is opened on /dev/null against its use (0 for
 * writing, 1 and 2 for reading, as gnulib's stdopen does), or failing
 * that as an O_PATH descriptor of "/": the slot is taken and a read of 0
 * or a write to 1 or 2 still fails with EBADF, as on a closed one, so
 * that a syslet's write(1, ...) is still reported as failing.  Call it
 * first in main(), before anything is opened.
 */
void common_std_fds(void);

/*
 * A standard output or error left non-blocking by whoever shares it gets
 * a stdio stream that waits for room (poll) where the pipe is full,
 * instead of dropping what it held with EAGAIN; common_std_fds() sets
 * that up.  common_write_wait() is its write(2): all of @len written to
 * @fd, waiting where it is full, or -1 with errno.
 */
ssize_t common_write_wait(int fd, const void *buf, size_t len);

/*
 * Flush the standard output and say whether everything written to it got
 * out (a full device, a closed pipe): 0, or -1 after a message on the
 * standard error, "PROG: standard output: REASON".
 */
int common_flush_stdout(const char *prog);

/*
 * Whether something written to the standard error was lost (a full
 * device, a closed pipe with SIGPIPE ignored): 0, or -1 after a try at
 * saying so there, "PROG: standard error: REASON", for a failure that
 * passed.  As gnulib's close_stdout() judges stderr: a report, a trace
 * or counters that did not get out make the command fail.
 */
int common_stderr_lost(const char *prog);

#endif
