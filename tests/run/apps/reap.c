/* reap.c: a C program of the kind libsyslet(3) describes: fork a child, then let a syslet wait4() for it on every backend that runs here, its pid patched into the instance's cell. */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <libsyslet.h>

int main(int argc, char **argv)
{
	const char *const *names = syslet_backend_list();
	char msg[256];
	struct syslet_obj *obj;
	int bad = 0;

	if (argc != 2)
		errx(2, "usage: %s reap.slo", argv[0]);
	obj = syslet_obj__open_file(argv[1], msg, sizeof(msg));
	if (!obj)
		errx(2, "%s", msg);
	for (; *names; names++) {
		struct syslet_inst *inst;
		struct syslet_uatom *done;
		SYSLET_OPTS(syslet_ring, ring);
		unsigned long *pidcell;
		unsigned int *status;
		long r = 0;
		pid_t pid;

		if (syslet_set_backend(*names)) {
			printf("%s: not here (%s)\n", *names, syslet_backend_error());
			continue;
		}
		inst = syslet_obj__instantiate(obj, msg, sizeof(msg));
		if (!inst)
			errx(2, "%s", msg);
		pidcell = syslet_inst__cell(inst, "pid");
		status = syslet_inst__object(inst, "status", NULL);
		if (!pidcell || !status)
			errx(2, "no pid cell or status array");
		pid = fork();
		if (pid < 0)
			err(2, "fork");
		if (!pid) {
			struct timespec ts = { 0, 50 * 1000 * 1000 };

			nanosleep(&ts, NULL);
			_exit(7);
		}
		*pidcell = (unsigned long)pid;	/* patch the argument */
		if (syslet_ring__init(&ring, 16, -1UL))
			errx(2, "%s: cannot register a ring: %s", *names, strerror(errno));
		done = sys_async_exec(syslet_inst__entry(inst, "reap"));
		if (!done && errno)
			err(2, "%s: async_exec", *names);
		printf("%s: async_exec returned %s\n", *names, done ? "the last atom" : "NULL (went async)");
		if (!done)
			done = syslet_ring__wait_pop(&ring, 1);
		if (!done || syslet_inst__result(inst, done, &r))
			errx(2, "%s: no completion", *names);
		printf("%s: wait4 = %s, status %#x, exit %u\n", *names,
		       r == pid ? "the child" : "something else", *status,
		       WIFEXITED(*status) ? WEXITSTATUS(*status) : -1U);
		bad |= r != pid || !WIFEXITED(*status) || WEXITSTATUS(*status) != 7;
		syslet_ring__exit(&ring);
		syslet_inst__free(inst);
	}
	syslet_obj__close(obj);
	return bad;
}
