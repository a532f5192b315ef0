/* tidpidfd.c: a signal sent through a pidfd of the program's thread (pidfd_open(gettid(), PIDFD_THREAD)), or a SIGIO for a file owned by its TID (F_SETOWN_EX, F_OWNER_TID), is that thread's, after its syslets went async as before. */
#define _GNU_SOURCE	/* struct f_owner_ex, F_SETOWN_EX */
#include "helpers.h"
#include <fcntl.h>
#include <signal.h>

/*
 * pidfd_open(TID, PIDFD_THREAD) and pidfd_send_signal() (Linux 6.9)
 * name a thread as tgkill() does: the signal is pending for that thread
 * alone, and a thread may send itself one with a siginfo of its own
 * making (si_code >= 0), which it may send no other.  On the kernel
 * backend the program's user context moves at a hand-off and keeps its
 * TID (kernel-patch/README): tgkill() finds the task that carries it,
 * and so must a pidfd, which holds the TID's struct pid, whose task is
 * the one the TID was born with, a worker that blocks every signal
 * after the first hand-off.  The user-space backends never move the
 * program's thread.
 *
 * So must fcntl(F_SETOWN_EX) with F_OWNER_TID: a file's SIGIO (and
 * SIGURG) then goes to that thread alone.
 *
 * The program blocks SIGUSR1 and SIGIO, sends SIGUSR1 to its own
 * thread's pidfd, and reads /proc/thread-self/status: SigPnd (the
 * thread's) must have it, ShdPnd (the process's) not; then takes it
 * with sigtimedwait().  Then the same for the SIGIO of a pipe, owned by
 * its TID, that it writes a byte to.
 */
#ifndef PIDFD_THREAD
#define PIDFD_THREAD	O_EXCL
#endif

static struct syslet_uatom *ring[4];
static unsigned long idx;

/* Bit @sig in the mask of /proc/thread-self/status's line @key. */
static int pending_in(const char *key, int sig)
{
	char line[256];
	unsigned long long mask;
	size_t klen = strlen(key);
	FILE *f = fopen("/proc/thread-self/status", "r");
	int found = -1;

	if (!f)
		rt_die("/proc/thread-self/status: %s", strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen) && line[klen] == ':' &&
		    sscanf(line + klen + 1, "%llx", &mask) == 1) {
			found = !!(mask & (1ULL << (sig - 1)));
			break;
		}
	fclose(f);
	if (found < 0)
		rt_die("/proc/thread-self/status has no %s line", key);
	return found;
}

/* Take a pending @sig at once: its si_code, or -1000 if none. */
static int take_sig(int sig)
{
	struct timespec zero = { 0, 0 };
	sigset_t set;
	siginfo_t si;

	sigemptyset(&set);
	sigaddset(&set, sig);
	if (sigtimedwait(&set, &si, &zero) != sig)
		return -1000;
	return si.si_code;
}

static int take(void)
{
	return take_sig(SIGUSR1);
}

/* The SIGIO of a pipe whose owner is the program's TID. */
static void check_sigio(int round, int went, pid_t tid)
{
	struct f_owner_ex own = { F_OWNER_TID, tid };
	int p[2];

	if (pipe(p))
		rt_die("pipe: %s", strerror(errno));
	if (fcntl(p[0], F_SETOWN_EX, &own) ||
	    fcntl(p[0], F_SETFL, O_ASYNC | O_NONBLOCK))
		rt_die("fcntl(F_SETOWN_EX, F_OWNER_TID %d): %s", (int)tid,
		       strerror(errno));
	if (write(p[1], "x", 1) != 1)
		rt_die("write: %s", strerror(errno));
	rt_check(pending_in("SigPnd", SIGIO) && !pending_in("ShdPnd", SIGIO),
		 "round %d (%d syslets went async): the SIGIO of a pipe owned "
		 "by the program's thread %d (F_OWNER_TID) is pending for %s",
		 round, went, (int)tid,
		 pending_in("ShdPnd", SIGIO) ? "the whole process, not "
		 "the thread" : "neither the thread nor the process");
	rt_check(take_sig(SIGIO) != -1000,
		 "round %d: sigtimedwait() took no SIGIO", round);
	close(p[0]);
	close(p[1]);
}

static void check_round(int round, int went)
{
	pid_t tid = (pid_t)syscall(SYS_gettid);
	siginfo_t si;
	int fd, code;

	fd = (int)syscall(SYS_pidfd_open, tid, PIDFD_THREAD);
	if (fd < 0 && (errno == EINVAL || errno == ENOSYS)) {
		printf("SKIP: pidfd_open(%d, PIDFD_THREAD): %s (Linux < 6.9)\n",
		       (int)tid, strerror(errno));
		exit(RT_SKIP);
	}
	if (fd < 0)
		rt_die("pidfd_open(%d, PIDFD_THREAD): %s", (int)tid,
		       strerror(errno));
	if (syscall(SYS_pidfd_send_signal, fd, SIGUSR1, NULL, 0))
		rt_die("pidfd_send_signal(SIGUSR1): %s", strerror(errno));
	rt_check(pending_in("SigPnd", SIGUSR1) &&
		 !pending_in("ShdPnd", SIGUSR1),
		 "round %d (%d syslets went async): SIGUSR1 sent to the "
		 "pidfd of the program's thread %d is pending for %s", round,
		 went, (int)tid,
		 pending_in("ShdPnd", SIGUSR1) ? "the whole process, not "
		 "the thread" : "neither the thread nor the process");
	rt_check(take() != -1000, "round %d: sigtimedwait() took no SIGUSR1",
		 round);

	/* A siginfo of its own making, to itself. */
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGUSR1;
	si.si_code = SI_USER;
	si.si_pid = getpid();
	si.si_uid = getuid();
	if (syscall(SYS_pidfd_send_signal, fd, SIGUSR1, &si, 0))
		rt_check(0, "round %d (%d syslets went async): "
			 "pidfd_send_signal() of the program's own thread %d "
			 "with its own siginfo: %s", round, went, (int)tid,
			 strerror(errno));
	else
		rt_check((code = take()) == SI_USER,
			 "round %d: own siginfo: si_code %d, want SI_USER",
			 round, code);
	close(fd);
	check_sigio(round, went, tid);
}

int main(void)
{
	struct async_head_user ahu;
	struct syslet_uatom a;
	sigset_t set;
	long ret = 0;
	int went = 0;

	rt_init();
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGIO);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		rt_die("sigprocmask: %s", strerror(errno));
	check_round(0, 0);
	rt_register(&ahu, ring, 4, 2);
	rt_atom(&a, __NR_getppid, &ret, SYSLET_ASYNC, NULL, NULL, NULL, NULL);
	for (int round = 1; round <= 3; round++) {
		for (int i = 0; i < 20 && went < 3 * round; i++) {
			went += rt_handoff(ring, 4, &idx, &a, &a);
			rt_check(ret == (long)getppid(), "getppid gave %ld",
				 ret);
		}
		check_round(round, went);
	}
	rt_unregister(&ahu);
	printf("tidpidfd: %d syslets went async\n", went);
	return rt_done("tidpidfd");
}
