/* stopcont.c: SIGSTOP and SIGCONT of the process while a syslet that went async waits: the process stops and goes on, and so does the syslet, its call getting its data. */
#include "helpers.h"
#include <signal.h>
#include <sys/wait.h>

/*
 * In 2007 a stop made signal_pending() true for every task of the
 * process, the cachemiss thread waiting in the syslet's call too: the
 * call stored ERESTARTSYS (-512), the syslet ended, and the thread,
 * with a signal pending, exited (sys_async_exec()'s do_exit()).  Here,
 * as for the syslet in the caller (syslet(7) DIFFERENCES), the call is
 * restarted once the process is continued and the syslet goes on: its
 * read returns the byte written after the SIGCONT and its next atom
 * runs.  Another process stops and continues this one (/proc shows it
 * stopped between the two), with the caller waiting in async_wait() and
 * asleep.
 */

#define ENTRIES	8

/* The state letter of /proc/@pid/stat, or 0. */
static char proc_state(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/* The helper: once told, stop @pid, see it stopped, continue it, then
 * write the byte its syslet reads.  Exits 0, or 2 when /proc never
 * showed it stopped, 3 on an error. */
static void helper(pid_t pid, int go, int wfd)
{
	struct timespec ms = { 0, 1000 * 1000 };
	char c;
	int i;

	if (read(go, &c, 1) != 1)
		_exit(3);
	nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	if (kill(pid, SIGSTOP))
		_exit(3);
	for (i = 0; i < 5000 && proc_state(pid) != 'T'; i++)
		nanosleep(&ms, NULL);
	if (i == 5000) {
		kill(pid, SIGCONT);
		_exit(2);
	}
	nanosleep(&(struct timespec){ 0, 100 * 1000 * 1000 }, NULL);
	if (kill(pid, SIGCONT))
		_exit(3);
	nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	if (write(wfd, "s", 1) != 1)
		_exit(3);
	_exit(0);
}

int main(void)
{
	static struct syslet_uatom *ring[ENTRIES];
	struct async_head_user ahu;
	unsigned long idx = 0;

	rt_init();
	alarm(60);
	rt_register(&ahu, ring, ENTRIES, 2);
	for (int waits = 1; waits >= 0; waits--) {
		const char *how = waits ? "caller in async_wait" :
					  "caller asleep";
		struct syslet_uatom g, *done = NULL;
		struct rt_pipe_read pr;
		long r_pid = -12345;
		int go[2], st;
		pid_t h;

		rt_pipe_read_init(&pr);
		rt_atom(&g, __NR_getpid, &r_pid, 0, NULL, NULL, NULL, NULL);
		pr.atom.next = &g;
		if (pipe(go))
			rt_die("pipe: %s", strerror(errno));
		fflush(NULL);
		h = fork();
		if (h < 0)
			rt_die("fork: %s", strerror(errno));
		if (!h)
			helper(getppid(), go[0], pr.pfd[1]);
		close(go[0]);
		rt_pipe_read_exec(&pr);
		if (write(go[1], "g", 1) != 1)
			rt_die("write: %s", strerror(errno));
		close(go[1]);
		rt_wait_slot(&ring[idx], waits);
		if (waitpid(h, &st, 0) != h)
			rt_die("waitpid: %s", strerror(errno));
		if (WIFEXITED(st) && WEXITSTATUS(st) == 2) {
			fprintf(stderr, "SKIP: /proc never showed the process "
				"stopped\n");
			return RT_SKIP;
		}
		rt_check(WIFEXITED(st) && !WEXITSTATUS(st),
			 "%s: the helper: status %#x", how, st);
		rt_check(rt_drain(ring, ENTRIES, &idx, &done, 1) == 1 &&
			 done == &g, "%s: completion %p, want the getpid %p "
			 "after the read", how, (void *)done, (void *)&g);
		rt_check(pr.ret == 1 && pr.c == 's',
			 "%s: the read stored %ld ('%c'), want 1 and the byte "
			 "written after SIGCONT", how, pr.ret,
			 pr.ret == 1 ? pr.c : '?');
		rt_check(r_pid == getpid(), "%s: the getpid after it: %ld",
			 how, r_pid);
		rt_pipe_read_close(&pr);
	}
	rt_unregister(&ahu);
	alarm(0);
	return rt_done("stopcont");
}
