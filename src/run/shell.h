/* shell.h: entry point of syslet-run -i, the interactive syslet shell and debugger. */
#ifndef SYSLET_RUN_SHELL_H
#define SYSLET_RUN_SHELL_H

/*
 * syslet-run's main() parses the command line as for a full run and, when
 * -i is given (and the build has GNU readline, HAVE_READLINE), hands the
 * options it parsed and its remaining operands to srun_shell().  The shell
 * applies the same options to everything it runs, so stepping through an
 * image behaves exactly as `syslet-run IMAGE` would.
 *
 * Fields left zero / NULL mean "the default of a full run".
 */
struct srun_shell_opts {
	const char	*backend;	/* --backend=NAME, or NULL */
	const char	*entry;		/* --entry=NAME, or NULL */
	long		threads;	/* --threads=N, or 0 */
	long		ring;		/* --ring=N (entries), or 0 */
	int		trace;		/* --trace given */
	int		stats;		/* --stats given */
	const char	*progname;	/* for messages; NULL: "syslet-run" */
};

/*
 * argv[0..argc-1] are the operands after the options: IMAGE|SOURCE
 * [ARG...], loaded (and its arguments remembered for `run`) before the
 * first prompt; argc may be 0.  Commands come from the terminal through
 * readline, or line by line without prompts when standard input is not
 * a terminal.  Errors never end the session.  Returns the process exit
 * status: that of `quit [STATUS]` (0 without one) or 0 at end of input;
 * 1 when the session could not start.
 */
int srun_shell(const struct srun_shell_opts *opt, int argc, char **argv);

#endif /* SYSLET_RUN_SHELL_H */
