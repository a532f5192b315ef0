/* main.c: syslet-run's command line: options, then load, pick the entry and run (or hand over to -i). */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stdint.h>
#include <link.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include "qualify.h"
#include "run.h"
#include "shell.h"
#include "common/stack.h"
#include "common/stdfds.h"
#include "common/quote.h"

static const char *progname = "syslet-run";

static void usage(FILE *out)
{
	const char *const *b = syslet_backend_list();

	fprintf(out,
"Usage: %s [OPTION]... IMAGE|SOURCE [ARG]...\n"
"  or:  %s -i [OPTION]... [IMAGE|SOURCE [ARG]...]\n"
"Run a syslet image (.slo) or a syslet source, compiled in memory, or\n"
"work on one in the interactive shell (-i).\n"
"ARGs bind the entry's parameters in order.\n"
"\n"
"  --backend=NAME  ", progname, progname);
	/* The library's list, in the order auto tries them. */
	fputs("auto (default: the first of", out);
	for (size_t i = 0, n = 0; b[i]; i++)
		if (strcmp(b[i], "auto"))
			fprintf(out, "%s %s", n++ ? "," : "", b[i]);
	fputs(" that runs\n"
"                  here), or one of those by name\n"
"  --threads=N     at most N cachemiss threads\n"
"  --ring=N        a completion ring of N entries\n"
"  --entry=NAME    run syslet NAME (needed when the image has several)\n"
"  --each          one instance per ARG, all in flight at once\n"
"  --jobs=N        --each: N submitting threads, each with its own ring\n"
"                  (default: the CPUs online)\n"
"  --trace[=SET]   print one line per atom on standard error (SET: only\n"
"                  those calls, in strace's syntax: read,write or !read,\n"
"                  %file, %desc, %network, /REGEX)\n"
"  -T, --syscall-times  --trace: the time of each atom, <0.000012>\n"
"  -t              --trace: the time of day first; -tt with microseconds,\n"
"                  -ttt as seconds since the epoch\n"
"  -r, --relative-timestamps  --trace: the time since the previous line\n"
"  -c, --stats     print strace -c's table of the calls, the engine's\n"
"                  counters and the wall time on standard error (also\n"
"                  when SIGINT, SIGTERM or SIGHUP ends the run)\n"
"  --inject=SET:error=ERRNO|retval=N[:when=EXPR]\n"
"                  fail the calls of SET (strace's -e inject=): EXPR is\n"
"                  N, N+, N+STEP, N..M or N..M+STEP, counted per call\n"
"  -i, --interactive  the interactive shell (load, run, step, cells)\n"
"  -h, --help      print this help and exit\n"
"  -V, --version   print the version and exit\n"
"\n"
"Exit status: 1 when a system call failed and ended the syslet (the stop\n"
"is reported), 0 when it ended otherwise (a test's or umem_add's value is\n"
"no error), 2 for usage errors and images that cannot run here.  A run\n"
"that SIGINT, SIGTERM or SIGHUP ends with --trace or --stats prints them,\n"
"then dies of the same signal.\n", out);
}

/* A positive number of at most @max, said as "@pre @max@post". */
static int parse_count(const char *opt, const char *s, unsigned long max,
		       const char *pre, const char *post, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	if (*s && !*end && *out > 0 &&
	    (errno == ERANGE || (unsigned long)*out > max)) {
		fprintf(stderr, "%s: --%s=%s is out of range: %s %lu%s\n",
			progname, opt, s, pre, max, post);
		common_try_help(progname);
		return -1;
	}
	if (!*s || *end || errno || *out <= 0) {
		fprintf(stderr, "%s: --%s wants a positive number, got %s\n",
			progname, opt, common_quote(s, 1));
		common_try_help(progname);
		return -1;
	}
	return 0;
}

/* What --help and --version printed must have got out (>/dev/full). */
static int stdout_status(void)
{
	return common_flush_stdout(progname) ? SRUN_USAGE : 0;
}

/* The short options (getopt_long()'s string without its "+:"). */
#define SRUN_SHORT_OPTS	"hiVTrtc"

enum { OPT_BACKEND = 256, OPT_THREADS, OPT_RING, OPT_TRACE, OPT_STATS,
       OPT_ENTRY, OPT_EACH, OPT_JOBS, OPT_INJECT };

static const struct option long_opts[] = {
	{ "backend", required_argument, NULL, OPT_BACKEND },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "ring", required_argument, NULL, OPT_RING },
	{ "trace", optional_argument, NULL, OPT_TRACE },
	{ "syscall-times", no_argument, NULL, 'T' },
	{ "relative-timestamps", no_argument, NULL, 'r' },
	{ "inject", required_argument, NULL, OPT_INJECT },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ "entry", required_argument, NULL, OPT_ENTRY },
	{ "each", no_argument, NULL, OPT_EACH },
	{ "jobs", required_argument, NULL, OPT_JOBS },
	{ "interactive", no_argument, NULL, 'i' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* strace's letters that a user of strace types here from habit: what
 * this program spells them (-T, -t and -r are the same). */
static const char *strace_hint(int letter)
{
	switch (letter) {
	case 'e':
		return " (strace's -e trace=SET and -e inject=RULE are "
		       "--trace=SET and --inject=RULE here)";
	case 'C':
		return " (strace's -C is --trace -c here)";
	case 'o':
		return " (the trace goes to the standard error: 2>FILE)";
	case 's':
		return " (the trace shows a string's first 32 bytes, as "
		       "strace's default -s 32 does; the shell's x BUFFER "
		       "LEN shows more)";
	case 'f':
		return " (a syslet makes no process or thread: fork and "
		       "clone are denied in atoms; --trace shows every "
		       "atom, a worker's too)";
	default:
		return "";
	}
}

#ifdef HAVE_READLINE
/* Weak, so that syslet-run links (and says -i is missing) in a tree
 * where the shell's files are not built. */
#pragma weak srun_shell
#endif

static int interactive(const struct srun_opts *o, int argc, char **argv)
{
#ifdef HAVE_READLINE
	struct srun_shell_opts so = {
		.backend = o->backend, .entry = o->entry,
		.threads = o->threads, .ring = o->ring,
		.trace = o->trace, .stats = o->stats, .progname = progname,
	};

	if (srun_shell)
		return srun_shell(&so, argc, argv);
	fprintf(stderr, "%s: built without the shell; -i is unavailable\n",
		progname);
	return SRUN_USAGE;
#else
	(void)o;
	(void)argc;
	(void)argv;
	fprintf(stderr, "%s: built without readline; -i is unavailable\n",
		progname);
	return SRUN_USAGE;
#endif
}

static int srun_main(int argc, char **argv)
{
	struct srun_opts o = { .progname = progname };
	struct syslet_obj *obj;
	struct srun_set trace_set = { NULL, 0 };
	struct srun_inject inject = { NULL, 0 };
	const char *entry, *trace_spec = NULL;
	const char **inject_specs = calloc((size_t)argc + 1, sizeof(char *));
	size_t nr_inject = 0;
	bool shell = false;
	char err[256];
	int c, status = SRUN_USAGE;

	/* Before the syslet can open anything: else with 2>&- its first
	 * file becomes standard error and gets the trace. */
	common_std_fds();
	if (!inject_specs) {
		fprintf(stderr, "%s: out of memory\n", progname);
		return SRUN_USAGE;
	}

	/* getopt's own messages name argv[0], which in a build tree is
	 * libtool's ".libs/syslet-run" or "lt-syslet-run": they must say
	 * the name the user typed, as every other message does. */
	if (argc > 0)
		argv[0] = (char *)progname;
	/* Options end at the image: what follows belongs to the syslet.
	 * getopt's own messages would quote the option raw: ours. */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:" SRUN_SHORT_OPTS, long_opts,
				NULL)) != -1) {
		switch (c) {
		case OPT_BACKEND:
			/* The library takes "" as auto (an empty
			 * SYSLET_BACKEND is an unset one); typed on the
			 * command line it is no name. */
			if (!*optarg) {
				const char *const *n = syslet_backend_list();

				fprintf(stderr, "%s: unknown syslet backend '' "
					"(expected", progname);
				for (size_t i = 0; n[i]; i++)
					fprintf(stderr, "%s %s", !i ? "" :
						n[i + 1] ? "," : " or", n[i]);
				fprintf(stderr, ")\n");
				common_try_help(progname);
				goto out;
			}
			o.backend = optarg;
			break;
		case OPT_THREADS:
			if (parse_count("threads", optarg, LONG_MAX,
					"at most", "", &o.threads))
				goto out;
			break;
		case OPT_RING:
			/* The ABI's ring_size_bytes is an unsigned long. */
			if (parse_count("ring", optarg,
					ULONG_MAX / sizeof(void *),
					"a ring holds at most", " entries",
					&o.ring))
				goto out;
			break;
		case OPT_TRACE:
			o.trace = true;
			/* As strace's -e trace=: the last one counts. */
			trace_spec = optarg;
			break;
		case 'T':
			o.trace = o.syscall_times = true;
			break;
		case 'r':
			o.trace = o.relative = true;
			break;
		case 't':
			o.trace = true;
			o.timestamps++;
			break;
		case OPT_INJECT:
			/* Parsed once the backend is known (umem_add's
			 * number is the backend's). */
			inject_specs[nr_inject++] = optarg;
			break;
		case 'c':
		case OPT_STATS:
			o.stats = true;
			break;
		case OPT_ENTRY:
			o.entry = optarg;
			break;
		case OPT_EACH:
			o.each = true;
			break;
		case OPT_JOBS:
			if (parse_count("jobs", optarg, LONG_MAX, "at most", "",
					&o.jobs))
				goto out;
			break;
		case 'i':
			shell = true;
			break;
		case 'h':
			usage(stdout);
			status = stdout_status();
			goto out;
		case 'V':
			printf("syslet-run (%s) %s\n", PACKAGE_NAME,
			       PACKAGE_VERSION);
			status = stdout_status();
			goto out;
		default:
			common_bad_option(progname, c, optopt,
					  argv[optind - 1], SRUN_SHORT_OPTS,
					  strace_hint(optopt));
			common_try_help(progname);
			goto out;
		}
	}
	/* The shell has no counters, stamps or instances per argument:
	 * an option it would ignore is refused, not dropped in silence. */
	if (shell) {
		const char *no = o.stats ? "--stats" : o.each ? "--each" :
				 o.jobs ? "--jobs" : o.syscall_times ? "-T" :
				 o.timestamps ? "-t" : o.relative ? "-r" :
				 trace_spec ? "--trace=SET" : NULL;

		/* What the shell has instead, where it has it. */
		const char *alt = o.stats ? "; its stats command shows the "
					    "counters" :
				  !no || strcmp(no, "--trace=SET") ? "" :
				  "; its trace command takes SET";

		if (no) {
			fprintf(stderr,
				"%s: %s does not apply to the shell (-i); "
				"it takes --backend, --entry, --inject, "
				"--ring, --threads and --trace%s\n", progname,
				no, alt);
			common_try_help(progname);
			goto out;
		}
	}
	/* --jobs shares out --each's instances; a single run has one:
	 * refused, not dropped in silence, as the shell's options are. */
	if (o.jobs && !o.each && !shell) {
		fprintf(stderr, "%s: --jobs applies to --each only (it shares "
			"the instances among threads); this runs one\n",
			progname);
		common_try_help(progname);
		goto out;
	}
	/* Choose now, so that a bad name or a missing kernel is reported
	 * before anything runs. */
	{
		int e = o.backend ? syslet_set_backend(o.backend) :
			syslet_backend_init();

		if (e) {
			const char *msg = syslet_backend_error();

			if (msg)
				fprintf(stderr, "%s: %s\n", progname, msg);
			else
				fprintf(stderr, "%s: backend %s: %s\n",
					progname, common_quote(o.backend ?
					o.backend : getenv("SYSLET_BACKEND"),
					1), strerror(-e));
			/* A name that is none is the command line's
			 * mistake; a backend that cannot run here is not. */
			if (e == -EINVAL)
				common_try_help(progname);
			goto out;
		}
	}
	if (trace_spec) {
		if (srun_set_parse(&trace_set, trace_spec, err, sizeof(err))) {
			fprintf(stderr, "%s: --trace=%s: %s\n", progname,
				common_quote(trace_spec, 0), err);
			common_try_help(progname);
			goto out;
		}
		o.trace_set = &trace_set;
	}
	for (size_t i = 0; i < nr_inject; i++)
		if (srun_inject_parse(&inject, inject_specs[i], err,
				      sizeof(err))) {
			fprintf(stderr, "%s: --inject=%s: %s\n", progname,
				common_quote(inject_specs[i], 0), err);
			common_try_help(progname);
			goto out;
		}
	/* Set before anything runs, for the shell as for a run. */
	if (nr_inject && srun_inject_apply(&inject, err, sizeof(err))) {
		fprintf(stderr, "%s: --inject: %s\n", progname, err);
		goto out;
	}
	o.inject = nr_inject ? &inject : NULL;
	/* Only --each has lanes: the count of CPUs online is a file in
	 * sysfs to open, read and parse (glibc), at every start else. */
	if (!o.jobs && o.each) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		o.jobs = cpus > 0 ? cpus : 1;
	}
	if (shell) {
		status = interactive(&o, argc - optind, argv + optind);
		/* A session's output or messages lost (>/dev/full,
		 * 2>/dev/full) are no success. */
		if (!status)
			status = stdout_status();
		/* Lost messages say more than the 1 of a script whose
		 * last line failed (what that line said is among them). */
		if (common_stderr_lost(progname) && status <= 1)
			status = SRUN_USAGE;
		goto out;
	}
	if (optind >= argc) {
		fprintf(stderr, "%s: no image or source given\n", progname);
		common_try_help(progname);
		goto out;
	}
	obj = srun_load(argv[optind], progname, &status);
	if (!obj)
		goto out;
	entry = srun_pick_entry(obj, o.entry, progname);
	status = entry ? srun_run(&o, obj, entry, argc - optind - 1,
				  argv + optind + 1) : SRUN_USAGE;
	syslet_obj__close(obj);
	/* The trace, the counters or a stop report lost (2>/dev/full, a
	 * closed pipe with SIGPIPE ignored): the run failed, as cat fails
	 * on a write error, whatever the syslet did. */
	if (common_stderr_lost(progname) && status == SRUN_OK)
		status = SRUN_STOPPED;
out:
	srun_set_free(&trace_set);
	srun_inject_clear(&inject);
	free(inject_specs);
	return status;
}

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ	22
#endif
/* include/uapi/linux/pidfd.h: the calling thread (its mm for
 * process_madvise). */
#define SRUN_PIDFD_SELF		(-10000)
/* mm/memory.c's fault_around_bytes, the default: a read fault of a
 * file's page maps the pages of its aligned 64 KiB window that are in
 * the page cache. */
#define SRUN_FAULT_AROUND	(64UL << 10)

/* The linker's: the start of the program's first segment, and of its
 * writable data, which follows its text and read-only data. */
extern const char __executable_start[], __init_array_start[];

#define SRUN_TEXT_WINDOWS	64

struct srun_windows {
	struct iovec	v[SRUN_TEXT_WINDOWS];
	unsigned int	n;
	bool		full;
};

/*
 * The pages whose faults map each of the program's read-only segments
 * whole: its first page, whose fault maps the 16 pages from there on (a
 * window starts no lower than its mapping), the page after those, whose
 * fault maps the aligned window it lies in, and each aligned window's
 * first page after that, the last window whole.  (The aligned windows'
 * first pages alone left pages unmapped: the first of them was mapped
 * already, so its populate made no fault and its window's rest was left
 * out.)
 */
static int text_windows(struct dl_phdr_info *info, size_t size, void *data)
{
	struct srun_windows *w = data;

	(void)size;
	for (unsigned int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t at, end;

		if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W))
			continue;
		at = (info->dlpi_addr + ph->p_vaddr) & ~(uintptr_t)4095;
		end = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
		for (bool first = true; at < end;
		     at = first ? at + SRUN_FAULT_AROUND :
				  (at + SRUN_FAULT_AROUND) &
				  ~(SRUN_FAULT_AROUND - 1), first = false) {
			if (w->n == SRUN_TEXT_WINDOWS) {
				w->full = true;
				return 1;
			}
			/* The segment's last window is populated whole: the
			 * fault at its first page mapped none of the rest
			 * at times (its data's last pages, in a large folio
			 * fault-around skipped: 200 of 220 kB mapped). */
			w->v[w->n].iov_base = (void *)at;
			w->v[w->n++].iov_len = !first &&
				end - at <= SRUN_FAULT_AROUND ? end - at : 4096;
		}
	}
	return 1;	/* the program is the first object: no more */
}

/*
 * The program's text and read-only data (600-800 KB, in the page cache
 * once it ran) are mapped by one system call before anything runs, not
 * by a page fault at each 64 KB window that a run touches: a fault costs
 * 10-12 us of CPU on a VM that shadows page tables, a whole process
 * about 1 ms, and a one-atom run touched 9-10 such windows.  The call
 * populates one page of each window: the kernel's fault-around maps the
 * rest of the window with it, as a fault there would.  Populating every
 * page instead (one madvise of the whole range) walked each of its 190
 * pages: 47-107 us, where one page a window took 27 us and the windows'
 * faults 22-25 us, on a VM whose faults cost 2.4 us.  One
 * process_madvise() where the kernel takes PIDFD_SELF (6.14 and later),
 * else the madvise of the whole range.  A kernel without the advice
 * (before 5.14) or a range the linker laid out otherwise answers an
 * error, and the pages fault in as before.
 */
static void map_text(void)
{
	uintptr_t lo = (uintptr_t)__executable_start & ~(uintptr_t)4095;
	uintptr_t hi = (uintptr_t)__init_array_start;
	struct srun_windows w = { .n = 0 };

	if (hi <= lo || hi - lo >= (64UL << 20))
		return;
	dl_iterate_phdr(text_windows, &w);
	if (w.n && !w.full &&
	    syscall(SYS_process_madvise, SRUN_PIDFD_SELF, w.v, w.n,
		    MADV_POPULATE_READ, 0) >= 0)
		return;
	(void)madvise((void *)lo, hi - lo, MADV_POPULATE_READ);
}

int main(int argc, char **argv)
{
	map_text();
	return common_stack_main(srun_main, argc, argv);
}
