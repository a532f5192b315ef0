/* fsids.c: a syslet that went async opens files with the file-system user and group IDs of the thread that called async_exec(), which setfsuid() and setfsgid() set for that thread alone. */
#include "helpers.h"
#include <fcntl.h>
#include <sys/fsuid.h>
#include <sys/stat.h>

/*
 * In 2007 the task that went on with a syslet after a cachemiss was the
 * caller's own, with its credentials: a file server that took on a
 * client's IDs with setfsuid() and setfsgid() (which the C library
 * makes for the calling thread alone, unlike setresuid()) opened the
 * client's files as the client, whether the open ran in place or after
 * a hand-off.  A worker made before the caller changed its IDs, or one
 * that last ran another caller's syslet, must not open them with its
 * own.  Each case runs with the caller waiting in async_wait() and
 * asleep (on uring: the caller, then the progress thread, drive the
 * ring), once as an ASYNC open and once as an open after a read that
 * blocks; the kernel backend, whose pool threads must share the
 * caller's credentials, runs such an open in place.  Needs root (the
 * IDs taken are not the process's own).
 */

#define NOBODY	65534
#define GROUP	54321

static struct rt_ring8 ring;

/* Open @path read-only from a syslet, either as one ASYNC atom or after
 * a pipe read that blocks until a thread writes it; returns the open's
 * result (a descriptor, closed here, or -errno). */
static long async_open(const char *path, int blocked, int waits)
{
	unsigned long dirfd = (unsigned long)AT_FDCWD;
	unsigned long p = (unsigned long)path, fl = O_RDONLY | O_CLOEXEC;
	struct syslet_uatom a, *done;
	long r = -12345;

	rt_atom(&a, __NR_openat, &r, blocked ? 0 : SYSLET_ASYNC, NULL, &dirfd,
		&p, &fl);
	done = rt_exec_behind(&ring, &a, blocked, waits);
	if (done != &a)
		rt_die("completion %p, want the open %p", (void *)done,
		       (void *)&a);
	if (r >= 0)
		close((int)r);
	return r;
}

static void fsids(uid_t u, gid_t g)
{
	setfsgid(g);
	setfsuid(u);
	if ((uid_t)setfsuid((uid_t)-1) != u || (gid_t)setfsgid((gid_t)-1) != g)
		rt_die("setfsuid(%u) and setfsgid(%u) did not take",
		       (unsigned)u, (unsigned)g);
}

int main(void)
{
	char dir[] = "/tmp/fsids.XXXXXX", own[64], grp[64];
	struct async_head_user ahu;
	int fd, skip = 0;

	rt_init();
	if (geteuid() != 0) {
		fprintf(stderr, "SKIP: needs root to take other IDs\n");
		return RT_SKIP;
	}
	if (!mkdtemp(dir))
		rt_die("mkdtemp: %s", strerror(errno));
	chmod(dir, 0755);
	snprintf(own, sizeof(own), "%s/own", dir);
	snprintf(grp, sizeof(grp), "%s/grp", dir);
	/* own: root's alone; grp: readable by GROUP alone. */
	fd = open(own, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0 || close(fd))
		rt_die("%s: %s", own, strerror(errno));
	fd = open(grp, O_CREAT | O_WRONLY | O_CLOEXEC, 0040);
	if (fd < 0 || close(fd) || chown(grp, 0, GROUP) || chmod(grp, 0040))
		rt_die("%s: %s", grp, strerror(errno));
	fsids(NOBODY, 0);
	fd = open(own, O_RDONLY | O_CLOEXEC);
	fsids(0, 0);
	if (fd >= 0 || errno != EACCES) {
		fprintf(stderr, "SKIP: setfsuid() does not keep root out "
			"(open gave %d, %s)\n", fd, strerror(errno));
		skip = 1;
		goto out;
	}
	rt_register(&ahu, ring.slot, 8, 2);
	/* Workers made with root's IDs, before the caller changed its. */
	if (async_open(own, 0, 1) < 0 || async_open(own, 1, 1) < 0)
		rt_die("root's open from a syslet failed");
	for (int waits = 1; waits >= 0; waits--) {
		for (int blocked = 0; blocked <= 1; blocked++) {
			const char *how = blocked ? "after a blocked read" :
						    "ASYNC";
			const char *w = waits ? "caller in async_wait" :
						"caller asleep";
			long r;

			fsids(NOBODY, 0);
			r = async_open(own, blocked, waits);
			rt_check(r == -EACCES, "%s, %s: fsuid %d opened a 0600 "
				 "file of root's: %ld, expected %d (EACCES)",
				 w, how, NOBODY, r, -EACCES);
			r = async_open(grp, blocked, waits);
			rt_check(r == -EACCES, "%s, %s: fsgid 0 opened a 0040 "
				 "file of group %d: %ld, expected %d (EACCES)",
				 w, how, GROUP, r, -EACCES);
			fsids(NOBODY, GROUP);
			r = async_open(grp, blocked, waits);
			rt_check(r >= 0, "%s, %s: fsgid %d could not open a "
				 "0040 file of its group: %ld", w, how, GROUP,
				 r);
			fsids(0, 0);
			r = async_open(own, blocked, waits);
			rt_check(r >= 0, "%s, %s: root's IDs back, the open "
				 "of its 0600 file gave %ld", w, how, r);
		}
	}
	rt_unregister(&ahu);
out:
	fsids(0, 0);
	unlink(own);
	unlink(grp);
	rmdir(dir);
	return skip ? RT_SKIP : rt_done("fsids");
}
