/* shell-cmd.c: the shell's command table, its parser and the help texts. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "run/qualify.h"
#include "run/shell-int.h"
#include "run/shell-exec.h"
#include "run/trace.h"

static int shl_cmd_help(struct shell *sh, int argc, char **argv,
			const char *rest);

static int shl_cmd_quit(struct shell *sh, int argc, char **argv,
			const char *rest)
{
	long v = 0;

	/* An exit status is 8 bits: 256 or 4294967296 would leave with 0,
	 * success, and -1 with 255. */
	if (argc > 2 || (argc == 2 && !shl_parse_long(argv[1], &v)) ||
	    v < 0 || v > 255) {
		shl_error(sh, "quit: expected an exit status from 0 to 255, "
			  "got '%s'", rest);
		return -1;
	}
	sh->quit = true;
	sh->status = (int)v;
	return 0;
}

bool shl_traced(const struct shell *sh, const struct syslet_event *ev)
{
	return sh->trace && (ev->end == SYSLET_END_FAULT ||
			     srun_set_has(&sh->trace_set, ev->nr));
}

/* trace on|off|SET: SET as --trace=SET takes it, for runs alike. */
static int shl_cmd_trace(struct shell *sh, int argc, char **argv,
			 const char *rest)
{
	struct srun_set set = { NULL, 0 };
	char err[256];

	if (argc == 1) {
		fprintf(sh->out, "trace is %s%s%s\n", sh->trace ? "on" : "off",
			sh->trace_set.bits ? ", only " : "",
			sh->trace_set.bits ? sh->trace_spec : "");
		return 0;
	}
	if (argc != 2) {
		shl_error(sh, "trace: expected 'on', 'off' or a set of calls "
			  "(read,write), got '%s'", rest);
		return -1;
	}
	if (strcmp(argv[1], "on") == 0) {
		sh->trace = true;
		return 0;
	}
	if (strcmp(argv[1], "off") == 0) {
		sh->trace = false;
		return 0;
	}
	if (strcmp(argv[1], "all") == 0) {
		srun_set_free(&sh->trace_set);
		sh->trace = true;
		return 0;
	}
	if (srun_set_parse(&set, argv[1], err, sizeof(err))) {
		shl_error(sh, "trace: '%s' is not on, off or a set of calls: "
			  "%s", argv[1], err);
		return -1;
	}
	srun_set_free(&sh->trace_set);
	sh->trace_set = set;
	snprintf(sh->trace_spec, sizeof(sh->trace_spec), "%s", argv[1]);
	sh->trace = true;
	return 0;
}

/*
 * stats [reset]: the engine's counters, as --stats prints them after a
 * run, from the session's start or the last reset: runs, continues and
 * statements typed at the prompt alike.
 */
static int shl_cmd_stats(struct shell *sh, int argc, char **argv,
			 const char *rest)
{
	SYSLET_OPTS(syslet_stats, st);

	if (argc == 2 && strcmp(argv[1], "reset") == 0) {
		syslet_reset_stats();
		shl_exec_trampolines(true);
		return 0;
	}
	if (argc != 1) {
		shl_error(sh, "stats: expected nothing or 'reset', got '%s'",
			  rest);
		return -1;
	}
	if (syslet_get_stats(&st)) {
		shl_error(sh, "stats: %s", strerror(errno));
		return -1;
	}
	fprintf(sh->out, "stats (backend %s):\n", syslet_backend_name());
	srun_stats_rows(sh->out, &st, shl_exec_trampolines(false));
	return 0;
}

/*
 * inject: the fault injection rules, as --inject sets them, kept by the
 * library: listed with their counts, one added, or all removed.
 */
static int shl_cmd_inject(struct shell *sh, int argc, char **argv,
			  const char *rest)
{
	struct srun_inject inj = { NULL, 0 };
	char err[256], buf[160];
	int n = syslet_get_inject(NULL, 0);

	if (argc > 2) {
		shl_error(sh, "inject: expected one SET:error=ERRNO|retval=N"
			  "[:when=EXPR] or 'off', got '%s'", rest);
		return -1;
	}
	if (argc == 2 && strcmp(argv[1], "off") == 0) {
		syslet_set_inject(NULL, 0);
		fputs("no injection\n", sh->out);
		return 0;
	}
	if (n > 0) {
		inj.rules = calloc(n, sizeof(*inj.rules));
		if (!inj.rules) {
			shl_error(sh, "inject: out of memory");
			return -1;
		}
		inj.rules[0].sz = sizeof(*inj.rules);
		n = syslet_get_inject(inj.rules, n);
		inj.n = n > 0 ? (size_t)n : 0;
	}
	if (argc == 1) {
		if (!inj.n)
			fputs("no injection\n", sh->out);
		for (size_t i = 0; i < inj.n; i++) {
			srun_inject_format(buf, sizeof(buf), &inj.rules[i]);
			fprintf(sh->out, "%s (%llu of %llu calls injected)\n",
				buf, inj.rules[i].injected, inj.rules[i].calls);
		}
		srun_inject_clear(&inj);
		return 0;
	}
	/* Added to those in force; all count again from 0. */
	if (srun_inject_parse(&inj, argv[1], err, sizeof(err)) ||
	    srun_inject_apply(&inj, err, sizeof(err))) {
		shl_error(sh, "inject %s: %s", argv[1], err);
		srun_inject_clear(&inj);
		return -1;
	}
	srun_inject_clear(&inj);
	return 0;
}

/*
 * One entry per command, in the order `help` lists them.  The usage line
 * names the arguments as the man page does; completion offers the names
 * of the kinds in .complete for the first argument, .complete_more for
 * the others (none where the command takes one).
 */
static const struct shl_cmd shl_cmds[] = {
	{ "load", NULL, "load [IMAGE|SOURCE [ARG...]]",
	  "load a .slo image or compile a .syslet source",
	  "Opens IMAGE (a .slo) or compiles SOURCE (a .syslet) with the\n"
	  "compiler library, and makes it the program that list, break and\n"
	  "run work on.  ARGs are remembered as the default arguments of run.\n"
	  "The session's own declarations stay as they are.  Without a file,\n"
	  "the syslets declared in the session become the program.",
	  shl_dbg_load, SHL_N_FILE, SHL_N_FILE },
	{ "list", "l", "list [ENTRY|ATOM|LINE]",
	  "show the atom listing (as sysletc -S)",
	  "Prints the loaded program's annotated atom listing, the same text\n"
	  "as `sysletc -S`, marking breakpoints with 'b' and the next atom\n"
	  "to run with '>'.  With an argument, only the atoms of that entry,\n"
	  "from that atom ([N] or #N) or of that source line.",
	  shl_dbg_list, SHL_N_ENTRY | SHL_N_LABEL, 0 },
	{ "break", "b", "break [ATOM|LINE|NAME]",
	  "set a breakpoint, or list them",
	  "Stops run and continue before the atom runs.  An ATOM is written\n"
	  "[N] or #N, N its index in the listing; a plain number is a source\n"
	  "line (its first atom), a NAME an entry or a label, else a system\n"
	  "call: a breakpoint at every atom that makes it (break accept).\n"
	  "Without an argument, lists the breakpoints.  See also delete.",
	  shl_dbg_break, SHL_N_ENTRY | SHL_N_LABEL | SHL_N_CALLED, 0 },
	{ "watch", NULL, "watch CELL",
	  "stop when a cell changes",
	  "Makes run and continue stop after an atom that changed CELL (a\n"
	  "variable or parameter, named as print names it), saying its old\n"
	  "and new values: watchpoint 2: n: 3 -> 2.  Watchpoints are\n"
	  "numbered with the breakpoints; break lists both and delete N\n"
	  "removes either.",
	  shl_dbg_watch, SHL_N_CELL, 0 },
	{ "delete", "d", "delete [N]",
	  "delete breakpoint N, or all of them",
	  "N is the breakpoint's number in the list `break` prints.",
	  shl_dbg_delete, 0, 0 },
	{ "run", "r", "run [ENTRY] [ARG...]",
	  "start the program from an entry, with fresh cells",
	  "Instantiates the loaded program afresh (all cells and buffers\n"
	  "back to their initial values), binds the entry's parameters from\n"
	  "ARGs (or those given to load) and runs until a breakpoint, the\n"
	  "end of the syslet or Ctrl-C.  ENTRY defaults to --entry, else to\n"
	  "the only or first entry.",
	  shl_dbg_run, SHL_N_ENTRY, SHL_N_FILE },
	{ "step", "s", "step [N]",
	  "run one atom (or N), showing its call and result",
	  "Runs the next atom with the same engine as a full run and prints\n"
	  "the call with its arguments as the atom fetched them, the result\n"
	  "and where the syslet goes next.  Starts the program first when it\n"
	  "is not running, with the arguments given to load or on the command\n"
	  "line (for others: break [0], then run ARG..., then step).",
	  shl_dbg_step, 0, 0 },
	{ "next", "n", "next [N]",
	  "run one statement: an atom and the helper atoms after it",
	  "Like step, but also runs the atoms the compiler added for the same\n"
	  "statement (copies, tests, trampolines) so that it stops at the\n"
	  "next statement of the source.",
	  shl_dbg_next, 0, 0 },
	{ "continue", "c", "continue",
	  "run until a breakpoint or the end",
	  "Resumes a stopped program; Ctrl-C stops it again before its next\n"
	  "atom (a blocking call in it returns EINTR).",
	  shl_dbg_continue, 0, 0 },
	{ "print", "p", "print [CELL...]",
	  "show cells: variables, parameters, session variables",
	  "Prints each CELL's value, with its errno name when it holds one.\n"
	  "Without an argument, prints every named cell of the program and\n"
	  "of the session.  A local may be named without its syslet\n"
	  "(fd for cat.fd) where that is unambiguous.",
	  shl_dbg_print, SHL_N_CELL, SHL_N_CELL },
	{ "set", NULL, "set CELL = VALUE",
	  "change a cell",
	  "VALUE is a C integer literal that a word holds, or an errno\n"
	  "name (-ENOENT).  The next atoms that read CELL see the new value.",
	  shl_dbg_set, SHL_N_CELL, 0 },
	{ "x", NULL, "x BUFFER|DATA|CELL [LEN]",
	  "dump memory in hex and text",
	  "Dumps LEN bytes (default: the whole object, at most 256) of a\n"
	  "buffer or data object, or the word of a cell, as hexdump -C does\n"
	  "(LEN a number, or a variable: x buf n after n = read(fd, buf, 64)):\n"
	  "a run of lines equal to the one before is one line '*', and the\n"
	  "offset past the last byte ends the dump.",
	  shl_dbg_x, SHL_N_OBJECT | SHL_N_CELL, 0 },
	{ "ring", NULL, "ring [clear]",
	  "show the completion ring's slots, or empty them",
	  "Lists each slot of the ring the shell registered with\n"
	  "async_register: empty, or the atom that completed into it (index,\n"
	  "syscall and result).  ring clear empties every slot.",
	  shl_dbg_ring, 0, 0 },
	{ "wait", NULL, "wait [N]",
	  "async_wait for N completions (default 1)",
	  "Calls async_wait(N): returns once N syslets completed into the\n"
	  "ring after the call, or when none is in flight; then shows the\n"
	  "ring.  Before the first run has registered the ring, there is\n"
	  "nothing to wait for: an error, and no ring is registered.",
	  shl_dbg_wait, 0, 0 },
	{ "backend", NULL, "backend [NAME]",
	  "show or choose the backend, as --backend does",
	  "NAME is auto or one of the backends the library has (Tab\n"
	  "completes them).  Changing it unregisters the session's ring\n"
	  "first, as async_unregister does, and drops the program's\n"
	  "instance: the next run starts on the new backend.  A NAME that\n"
	  "cannot run here changes nothing.",
	  shl_dbg_backend, SHL_N_BACKEND, 0 },
	{ "trace", NULL, "trace [on|off|SET]",
	  "print every atom as it runs, as --trace does",
	  "With trace on, run, continue and statements typed at the prompt\n"
	  "print one strace-like line per atom.  trace SET turns it on for\n"
	  "the calls of SET only, as --trace=SET (read,write  !read  %file\n"
	  "/REGEX); trace on keeps the set, trace all shows every call.",
	  shl_cmd_trace, SHL_N_ONOFF | SHL_N_SYSCALL, 0 },
	{ "inject", NULL, "inject [RULE|off]",
	  "make calls fail on purpose, as --inject does, or list the rules",
	  "RULE is SET:error=ERRNO or SET:retval=N, then :when=W if wanted:\n"
	  "inject read:error=EIO:when=2+ makes the atoms that call read\n"
	  "fail with EIO from the second run of read on: the syslet sees\n"
	  "-5 as if read had returned it, and the call is not made.  SET\n"
	  "is strace's (read,write  !read  %file  %desc  %network  /REGEX),\n"
	  "retval=N returns N instead, and when=N, N+, N+STEP, N..M and\n"
	  "N..M+STEP choose the runs, counted per call from the moment a\n"
	  "rule is added (all the rules count again then).  Without an\n"
	  "argument, lists the rules with their counts; inject off\n"
	  "removes them.  The trace, and the variable a statement stores\n"
	  "it in, mark an injected result (INJECTED).",
	  shl_cmd_inject, SHL_N_SYSCALL | SHL_N_RULE | SHL_N_OFF, 0 },
	{ "stats", NULL, "stats [reset]",
	  "show the engine's counters, as --stats does, or zero them",
	  "Prints syslet_get_stats(3)'s counters from the start of the\n"
	  "session or the last stats reset: every atom the session ran,\n"
	  "statements typed at the prompt included.",
	  shl_cmd_stats, 0, 0 },
	{ "info", "i", "info",
	  "show the session: program, breakpoints, runs in flight, declarations",
	  "Prints the backend, what is loaded, the entries with their\n"
	  "parameters, the breakpoints, the runs still in flight (gone\n"
	  "async, not waited for) with the atom each is at, and the\n"
	  "declarations typed so far.",
	  shl_dbg_info, 0, 0 },
	{ "help", "h", "help [COMMAND]",
	  "list the commands, or explain one",
	  "Anything that is not a command is a statement or a declaration\n"
	  "of the syslet language (see syslet(5)): it is compiled against the\n"
	  "session's declarations and runs at once.  Declarations (var,\n"
	  "const, buffer, data, syslet) stay for the rest of the session.\n"
	  "A block may span several lines; Ctrl-C drops what was typed.",
	  shl_cmd_help, SHL_N_COMMAND, 0 },
	{ "quit", "q", "quit [STATUS]",
	  "leave the shell (as Ctrl-D does)",
	  "Exits with STATUS, 0 by default.  The history is in\n"
	  "$XDG_DATA_HOME/syslet/history.",
	  shl_cmd_quit, 0, 0 },
};

#define SHL_NR_CMDS (sizeof(shl_cmds) / sizeof(shl_cmds[0]))

const struct shl_cmd *shl_cmd_table(size_t *n)
{
	*n = SHL_NR_CMDS;
	return shl_cmds;
}

const struct shl_cmd *shl_cmd_find(const char *word)
{
	size_t i;

	for (i = 0; i < SHL_NR_CMDS; i++)
		if (strcmp(shl_cmds[i].name, word) == 0 ||
		    (shl_cmds[i].alias && strcmp(shl_cmds[i].alias, word) == 0))
			return &shl_cmds[i];
	return NULL;
}

static size_t shl_word_len(const char *s)
{
	size_t n = 0;

	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	return n;
}

bool shl_is_command(const char *line)
{
	char word[16];
	const char *p = line + strspn(line, " \t");
	size_t n = shl_word_len(p);

	if (n == 0 || n >= sizeof(word))
		return false;
	memcpy(word, p, n);
	word[n] = '\0';
	if (!shl_cmd_find(word))
		return false;
	/* The word must end there: `x.y` or `x(` is not the command x. */
	p += n;
	if (*p && *p != ' ' && *p != '\t' && *p != ';')
		return false;
	/* `x = 1;`, `n += 2;`, `s++;` are statements about a variable that
	 * happens to share a command's name. */
	p += strspn(p, " \t");
	if (p[0] == '=' && p[1] != '=')
		return false;
	if ((p[0] == '+' || p[0] == '-') && p[1] == '=')
		return false;
	/* `s++` ends there; `run --each a` is the command with an
	 * argument written as an option, not run-- and the words 'each a'. */
	if ((p[0] == '+' || p[0] == '-') && p[1] == p[0]) {
		p += 2;
		p += strspn(p, " \t");
		if (!*p || *p == ';' || *p == ')' || *p == '/')
			return false;
	}
	if (p[0] == '(')
		return false;
	return true;
}

/* Split line into words; "..." groups words and takes \" \\ escapes.
 * Returns the number of words, -1 on an unterminated quote. */
static int shl_split(const char *line, char ***argvp)
{
	char **argv = NULL;
	int argc = 0;
	const char *p = line;

	for (;;) {
		struct text_buf w = { 0 };
		char **v;

		p += strspn(p, " \t\n");
		if (!*p)
			break;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
			if (*p != '"') {
				shl_buf_add(&w, p++, 1);
				continue;
			}
			for (p++; *p && *p != '"'; p++) {
				if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
					p++;
				shl_buf_add(&w, p, 1);
			}
			if (*p != '"') {
				text_buf_free(&w);
				goto bad;
			}
			p++;
			shl_buf_add(&w, "", 0);	/* "" is a word too */
		}
		v = realloc(argv, (argc + 2) * sizeof(*argv));
		if (!v)
			shl_oom();	/* not an 'unterminated quote' */
		argv = v;
		argv[argc++] = w.s;
		argv[argc] = NULL;
	}
	*argvp = argv;
	return argc;
bad:
	while (argc > 0)
		free(argv[--argc]);
	free(argv);
	return -1;
}

int shl_cmd_run(struct shell *sh, const char *line)
{
	const struct shl_cmd *cmd;
	struct text_buf rest = { 0 };
	char **argv = NULL;
	const char *p;
	int argc, i, r;
	size_t n;

	p = line + strspn(line, " \t");
	n = shl_word_len(p);
	shl_buf_add(&rest, p + n, strlen(p + n));
	/* A ';' is tolerated after a command, as after a statement. */
	while (rest.len && (rest.s[rest.len - 1] == ';' ||
			    isspace((unsigned char)rest.s[rest.len - 1])))
		rest.s[--rest.len] = '\0';
	argc = shl_split(rest.s ? rest.s : "", &argv);
	if (argc < 0) {
		shl_error(sh, "unterminated quote in '%s'", line);
		text_buf_free(&rest);
		return -1;
	}
	/* argv[0] is the command's full name. */
	{
		char **v = realloc(argv, (argc + 2) * sizeof(*argv));
		char word[16];

		if (!v)
			shl_oom();
		argv = v;
		memmove(argv + 1, argv, (argc + 1) * sizeof(*argv));
		memcpy(word, p, n < sizeof(word) ? n : sizeof(word) - 1);
		word[n < sizeof(word) ? n : sizeof(word) - 1] = '\0';
		cmd = shl_cmd_find(word);
		argv[0] = strdup(cmd->name);
		if (!argv[0])
			shl_oom();
		argc++;
	}
	r = cmd->fn(sh, argc, argv,
		    text_buf_str(&rest) + strspn(text_buf_str(&rest), " \t"));
	for (i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
	text_buf_free(&rest);
	return r;
}

static int shl_cmd_help(struct shell *sh, int argc, char **argv,
			const char *rest)
{
	const struct shl_cmd *cmd;
	size_t i;

	if (argc > 2) {
		shl_error(sh, "help: expected one command name, got '%s'", rest);
		return -1;
	}
	if (argc == 2) {
		cmd = shl_cmd_find(argv[1]);
		if (!cmd) {
			shl_error(sh, "help: no command '%s' (help lists them)",
				  argv[1]);
			return -1;
		}
		fprintf(sh->out, "%s%s%s%s\n  %s.\n\n%s\n", cmd->usage,
			cmd->alias ? "  (or " : "",
			cmd->alias ? cmd->alias : "", cmd->alias ? ")" : "",
			cmd->brief, cmd->help);
		return 0;
	}
	fputs("Commands (help COMMAND for more):\n", sh->out);
	for (i = 0; i < SHL_NR_CMDS; i++)
		fprintf(sh->out, "  %-30s %s\n", shl_cmds[i].usage,
			shl_cmds[i].brief);
	fputs("Anything else is a statement or declaration of the syslet\n"
	      "language, compiled against the session's declarations and run\n"
	      "at once:  fd = open(\"/etc/hostname\", O_RDONLY);\n",
	      sh->out);
	return 0;
}
