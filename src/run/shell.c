/* shell.c: syslet-run -i: the session and its read-dispatch loop. */
#include "config.h"

#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/quote.h"
#include "run/shell-int.h"

void shl_error(struct shell *sh, const char *fmt, ...)
{
	va_list ap;
	char *msg = NULL;
	int n;

	fflush(sh->out);
	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	/* Messages quote what was typed or read (a script, a pipe): as the
	 * compiler quotes a source line, no byte a terminal would take for
	 * a command reaches it, 8-bit ones included (common_unctrl()), but
	 * UTF-8 text does.  The line goes out in one write: byte by byte to
	 * the unbuffered stderr, quoting a name of a megabyte took a
	 * million writes. */
	if (n > 0)
		common_unctrl(msg, (size_t)n, 1);
	fprintf(sh->err, "%s: %s\n", sh->prog, n < 0 ? "out of memory" : msg);
	free(msg);
	fflush(sh->err);
	sh->errors++;
}

/* A line is a command, or else language text for immediate mode. */
static bool shl_dispatch(struct shell *sh, const char *text)
{
	unsigned int errors = sh->errors;
	bool failed = false;

	if (shl_is_command(text))
		failed = shl_cmd_run(sh, text) < 0;
	else
		shl_imm_eval(sh, text);
	fflush(sh->out);
	/* A line failed when it said an error, as gdb's commands do. */
	return failed || sh->errors != errors;
}

int srun_shell(const struct srun_shell_opts *opt, int argc, char **argv)
{
	struct shell sh;
	bool last_failed = false;
	char *text;

	memset(&sh, 0, sizeof(sh));
	sh.opt = opt;
	sh.prog = opt->progname ? opt->progname : "syslet-run";
	sh.out = stdout;
	sh.err = stderr;
	sh.trace = opt->trace;
	/* Results and messages interleave in the order they happen, also
	 * through a pipe. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (shl_input_open(&sh, false) < 0)
		return 1;
	if (shl_dbg_init(&sh) < 0 || shl_imm_init(&sh) < 0) {
		/* Its only failure: it ended with no word and status 1. */
		fprintf(stderr, "%s: out of memory\n", sh.prog);
		shl_input_close(&sh);
		return 2;
	}
	if (argc > 0 && shl_dbg_load_path(&sh, argv[0], argc - 1, argv + 1) < 0
	    && !sh.in.tty) {
		/* A script that cannot load its program would only pile
		 * errors on errors.  Status 2, as a run whose file cannot
		 * be read or compiled: 1 says a call failed. */
		sh.status = 2;
		goto out;
	}
	if (sh.in.tty)
		fprintf(sh.out, "syslet shell; type help for the commands, "
				"Ctrl-D to leave.\n");
	while (!sh.quit && (text = shl_input_read(&sh))) {
		if (*text)
			last_failed = shl_dispatch(&sh, text);
		free(text);
	}
	/* A script whose last line failed leaves with status 1, as gdb
	 * -batch does: a script ending in a check (x past a buffer, print
	 * of a missing cell) tells its caller.  quit and an input cut
	 * short set their own status. */
	if (!sh.in.tty && !sh.quit && !sh.status && last_failed)
		sh.status = 1;
	if (sh.in.tty && !sh.quit)
		fputc('\n', sh.out);	/* Ctrl-D leaves the cursor mid-line */
out:
	shl_imm_free(&sh);
	shl_dbg_free(&sh);
	shl_input_close(&sh);
	srun_set_free(&sh.trace_set);
	fflush(sh.out);
	if (sh.signo) {
		/* Ctrl-C ended a script: die of it, as a run does. */
		fflush(sh.err);
		signal(sh.signo, SIG_DFL);
		raise(sh.signo);
	}
	return sh.status;
}
