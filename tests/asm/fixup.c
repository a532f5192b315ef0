/* fixup.c: the user-space exception table recovers listed faults only; any other fault still kills. */
#include <config.h>

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "syslet-asm.h"
#include "uasm.h"
#include "asm-test.h"

/* Every entry must be found again by the handler's lookup. */
static int entries_in_text(void)
{
	extern const struct uasm_extable __start___syslet_ex_table[]
		__attribute__((visibility("hidden")));
	size_t i, n = uasm_extable_size();
	int bad = 0;

	for (i = 0; i < n; i++) {
		const int32_t *f = &__start___syslet_ex_table[i].insn;
		uintptr_t insn = (uintptr_t)f + (uintptr_t)(intptr_t)*f;

		if (!uasm_fixup_lookup(insn))
			bad++;
		if (__start___syslet_ex_table[i].type !=
		    SYSLET_UASM_EX_TYPE_UACCESS)
			bad++;
	}
	return bad == 0;
}

/* The load is meant to fault, even of NULL: no sanitizer may catch it. */
__attribute__((no_sanitize("address", "undefined")))
static int child_dies_on(void *p)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		at_bail("fork failed");
	if (pid == 0) {
		/* a plain load, in no table: must not be fixed up */
		volatile uint32_t *q = p;

		alarm(10);
		(void)*q;
		_exit(0);
	}
	if (waitpid(pid, &st, 0) != pid)
		at_bail("waitpid failed");
	return WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV;
}

#define NR_THREADS	4
#define NR_FAULTS	5000

static char *none_page;

/* Faults in several threads at once: the handler keeps no shared state. */
static void *faulter(void *arg)
{
	unsigned long ok = 0, cell = 0;
	int i;

	(void)arg;
	for (i = 0; i < NR_FAULTS; i++) {
		ok += syslet_umem_add((void *)(none_page + 4 * (i % 64)), 1) ==
		      -SYSLET_UASM_EFAULT;
		ok += syslet_umem_add(&cell, 1) == i + 1;
	}
	return (void *)ok;
}

static int faults_in_threads(void)
{
	pthread_t th[NR_THREADS];
	unsigned long before = uasm_fault_count(), good = 0;
	int i, n = 0;

	for (i = 0; i < NR_THREADS; i++)
		n += pthread_create(&th[i], NULL, faulter, NULL) == 0;
	if (n != NR_THREADS)
		at_bail("only %d of %d threads started", n, NR_THREADS);
	for (i = 0; i < n; i++) {
		void *r;

		pthread_join(th[i], &r);
		good += (unsigned long)r;
	}
	return good == 2ul * NR_THREADS * NR_FAULTS &&
	       uasm_fault_count() - before == (unsigned long)NR_THREADS * NR_FAULTS;
}

int main(void)
{
	char *pg;
	unsigned long before;

	at_init("fixup");
	pg = at_pages(1);
	at_protect(pg, 1, PROT_NONE);

	at_ok(uasm_extable_size() > 0 && entries_in_text(),
	      "%zu table entries, each found by lookup, all EX_TYPE_UACCESS",
	      uasm_extable_size());
	at_ok(uasm_fixup_lookup((uintptr_t)main) == 0,
	      "an address outside the table has no fixup");

	before = uasm_fault_count();
	at_ok(syslet_umem_add((void *)pg, 0) == -SYSLET_UASM_EFAULT &&
	      uasm_fault_count() == before + 1,
	      "a listed fault resumes at its fixup with -EFAULT");
	/* the process is still sane after a recovered fault */
	at_ok(syslet_umem_add((void *)&before, 0) == (long)before,
	      "the routines work after a recovered fault");
	none_page = pg;
	at_ok(faults_in_threads(), "%d threads fault %d times each at once, all fixed up",
	      NR_THREADS, NR_FAULTS);
	at_ok(child_dies_on(pg), "a fault outside the table kills with SIGSEGV");
	at_ok(child_dies_on(NULL), "a NULL load outside the table kills too");

	at_pages_free(pg, 1);
	return at_done();
}
