/* shell-line.c: the shell's input: readline with history and completion on a terminal, plain lines otherwise. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/outfile.h"
#include "common/readfile.h"
#include "compiler/sysletc.h"
#include "run/shell-int.h"
#include "run/shell-rl.h"

#define SHL_PROMPT	"syslet> "
#define SHL_PROMPT_MORE	"   ...> "
#define SHL_HISTORY_MAX	1000

volatile sig_atomic_t shl_interrupted;

/*
 * readline's callbacks (line handler, completion) take no context
 * argument, so the session they work for is kept here while it reads.
 */
static struct shell *shl_rl_shell;

static void shl_on_sigint(int sig)
{
	(void)sig;
	shl_interrupted = 1;
}

/* How much of the history's name must exist already: $HOME is the
 * user's, never made here (as root, HOME=/nonexistent made /nonexistent);
 * $XDG_DATA_HOME may be made, as the XDG spec says. */
static size_t shl_hist_base;

static int shl_mkdirs(char *path, size_t from)
{
	char *p;

	for (p = path + from + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0700) < 0 && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return 0;
}

char *shl_history_path(void)
{
	const char *base = getenv("XDG_DATA_HOME");
	const char *home;
	struct text_buf b = { 0 };

	/* The XDG spec says to ignore a relative $XDG_DATA_HOME. */
	if (base && base[0] == '/') {
		shl_hist_base = 0;
		shl_buf_printf(&b, "%s/syslet/history", base);
		return b.s;
	}
	home = getenv("HOME");
	if (!home || home[0] != '/') {
		struct passwd *pw = getpwuid(getuid());

		home = pw ? pw->pw_dir : NULL;
	}
	if (!home || home[0] != '/')
		return NULL;
	shl_hist_base = strlen(home);
	shl_buf_printf(&b, "%s/.local/share/syslet/history", home);
	return b.s;
}

/* ---- Completion --------------------------------------------------------- */

struct shl_matches {
	const char	*prefix;
	size_t		plen;
	char		**v;
	size_t		n, cap, next;
};

static void shl_match_add(void *ctx, const char *name)
{
	struct shl_matches *m = ctx;

	/* Names that come twice (a syscall and a constant) are dropped
	 * once all are in (shl_matches_unique()). */
	if (strncmp(name, m->prefix, m->plen) != 0)
		return;
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 32;
		char **v = realloc(m->v, cap * sizeof(*v));

		if (!v)
			return;
		m->v = v;
		m->cap = cap;
	}
	m->v[m->n] = strdup(name);
	if (m->v[m->n])
		m->n++;
}

static int shl_match_order(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted, each name once: a walk over the matches for each new one made
 * a Tab after 40,000 cells take 6 s of CPU (20,000: 1.3 s). */
static void shl_matches_unique(struct shl_matches *m)
{
	size_t i, k = 0;

	qsort(m->v, m->n, sizeof(*m->v), shl_match_order);
	for (i = 0; i < m->n; i++) {
		if (k && strcmp(m->v[k - 1], m->v[i]) == 0) {
			free(m->v[i]);
			continue;
		}
		m->v[k++] = m->v[i];
	}
	m->n = k;
}

static struct shl_matches shl_rl_matches;

static char *shl_rl_generate(const char *text, int state)
{
	struct shl_matches *m = &shl_rl_matches;

	(void)text;
	if (m->next < m->n) {
		char *s = m->v[m->next];

		m->v[m->next++] = NULL;
		return s;	/* readline frees it */
	}
	return NULL;
}

static void shl_matches_reset(struct shl_matches *m)
{
	size_t i;

	for (i = m->next; i < m->n; i++)
		free(m->v[i]);
	free(m->v);
	memset(m, 0, sizeof(*m));
}

static char **shl_rl_complete(const char *text, int start, int end)
{
	unsigned int kinds = shl_complete_kinds(rl_line_buffer, start);
	struct shl_matches *m = &shl_rl_matches;

	(void)end;
	if (kinds & SHL_N_FILE)
		return NULL;	/* readline completes file names */
	rl_attempted_completion_over = 1;
	shl_matches_reset(m);
	m->prefix = text;
	m->plen = strlen(text);
	shl_complete_names(shl_rl_shell, kinds, text, shl_match_add, m);
	if (m->n == 0)
		return NULL;
	shl_matches_unique(m);
	return rl_completion_matches(text, shl_rl_generate);
}

/* ---- Reading lines ------------------------------------------------------ */

/* Readline has had the terminal (its handler installed at least once):
 * shl_line_release() gives it back. */
static bool shl_rl_installed;

void shl_line_release(void)
{
	/* Idempotent in readline: the terminal is restored only when the
	 * handler still holds it. */
	if (shl_rl_installed)
		rl_callback_handler_remove();
}

static void shl_rl_on_line(char *line)
{
	struct shl_input *in = &shl_rl_shell->in;

	in->rl_got = true;
	in->rl_line = line;
	in->rl_eof = line == NULL;
	rl_callback_handler_remove();
}

/*
 * Ctrl-Z at the prompt.  With rl_catch_signals off (Ctrl-C is the
 * shell's own), nobody gave the terminal back before the stop, nor took
 * it again after fg: the job-control shell's modes stayed, so what was
 * typed was echoed twice, Tab inserted a tab, and there was no prompt
 * until Enter.  The handler only notes the signal; shl_rl_read() stops
 * the process itself, between the terminal's release and its retaking,
 * as less and vi do.  Only while a line is read, and only where the
 * signal was left to its default action (a stop).
 *
 * The same for the signals that end a process from outside (kill, a
 * hangup, Ctrl-\): they ended it with the terminal raw, which bash puts
 * right after its job but dash, a script or a program that ran the
 * shell does not (-icanon -echo left behind).  The terminal is given
 * back, then the signal at its default action ends the process as it
 * would have (status 128+N).
 *
 * Not SIGTTIN and SIGTTOU: they come to a shell in the background
 * (syslet-run -i &, bg at the prompt, timeout(1)'s own process group),
 * which cannot give the terminal back anyway, from readline's own
 * tcsetattr() or read().  Caught, each became an EINTR that readline
 * retried at once (its set_tty_settings() loops on EINTR), spinning at
 * 100% CPU; left at their default action they stop the shell until fg,
 * and the call is then restarted.
 */
static volatile sig_atomic_t shl_stop_sig;

static void shl_on_stop(int sig)
{
	shl_stop_sig = sig;
}

static const int shl_stop_signals[] = {
	SIGTSTP, SIGTERM, SIGHUP, SIGQUIT,
};
#define SHL_NR_STOP (sizeof(shl_stop_signals) / sizeof(shl_stop_signals[0]))

static void shl_stop_hook(bool on, struct sigaction *saved, bool *hooked)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = shl_on_stop;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < SHL_NR_STOP; i++) {
		if (!on) {
			if (hooked[i])
				sigaction(shl_stop_signals[i], &saved[i], NULL);
			hooked[i] = false;
			continue;
		}
		hooked[i] = !sigaction(shl_stop_signals[i], NULL, &saved[i]) &&
			    saved[i].sa_handler == SIG_DFL &&
			    !(saved[i].sa_flags & SA_SIGINFO) &&
			    !sigaction(shl_stop_signals[i], &sa, NULL);
	}
}

/*
 * In the background the terminal's modes are the job-control shell's
 * own (its line editor's: no echo), which readline would take for the
 * user's: it drew no prompt after fg, and would leave them behind at
 * the end.  So wait for fg first, as a background job that sets the
 * modes does: tcsetpgrp() of our own group takes SIGTTOU and stops the
 * process until then, and in the foreground changes nothing.  Only with
 * SIGTTOU at its default action (ignored or blocked, the call would take
 * the terminal from the job-control shell); an orphaned group gets EIO,
 * as readline's own calls do.
 */
static void shl_wait_foreground(int fd)
{
	struct sigaction sa;
	sigset_t cur;
	pid_t me = getpgrp(), fg;

	if (sigaction(SIGTTOU, NULL, &sa) || sa.sa_handler != SIG_DFL ||
	    sigprocmask(SIG_BLOCK, NULL, &cur) || sigismember(&cur, SIGTTOU))
		return;
	while ((fg = tcgetpgrp(fd)) >= 0 && fg != me)
		if (tcsetpgrp(fd, me) && errno != EINTR)
			return;
}

/* Release the terminal, stop as the signal would have, retake it and
 * draw the prompt and the line again. */
static void shl_stop_now(int sig)
{
	struct sigaction dfl, old;
	sigset_t set, prev;

	rl_cleanup_after_signal();
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, &old);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, &prev);
	raise(sig);
	sigprocmask(SIG_SETMASK, &prev, NULL);
	sigaction(sig, &old, NULL);
	/* Continued by bg: stopped again until fg. */
	shl_wait_foreground(fileno(rl_instream ? rl_instream : stdin));
	rl_reset_after_signal();
	rl_forced_update_display();
}

/* One line from readline's callback interface, so that Ctrl-C can drop
 * the line being typed and give a fresh prompt.  *intr is set then. */
static char *shl_rl_read_line(struct shell *sh, const char *prompt,
			      bool *intr)
{
	struct shl_input *in = &sh->in;
	int fd = fileno(rl_instream ? rl_instream : stdin);

	shl_rl_shell = sh;
	in->rl_got = false;
	in->rl_eof = false;
	in->rl_line = NULL;
	shl_interrupted = 0;
	shl_stop_sig = 0;
	/* Started in the background (syslet-run -i &). */
	shl_wait_foreground(fd);
	rl_callback_handler_install(prompt, shl_rl_on_line);
	shl_rl_installed = true;
	while (!in->rl_got) {
		fd_set fds;
		int r;

		/* Also before select(): a Ctrl-Z that came while readline
		 * handled a key would otherwise wait for the next one. */
		if (shl_stop_sig && !shl_interrupted) {
			int sig = shl_stop_sig;

			shl_stop_sig = 0;
			shl_stop_now(sig);
			continue;
		}
		FD_ZERO(&fds);
		FD_SET(fd, &fds);
		r = select(fd + 1, &fds, NULL, NULL, NULL);
		if (r < 0 && errno == EINTR && shl_stop_sig &&
		    !shl_interrupted)
			continue;
		if (shl_interrupted) {
			FILE *o = rl_outstream ? rl_outstream : stdout;

			shl_interrupted = 0;
			/* Echo ^C where the cursor is, at the end of what was
			 * typed, before readline gives the terminal back. */
			rl_point = rl_end;
			rl_redisplay();
			fputs("^C", o);
			fflush(o);
			rl_free_line_state();
			rl_callback_sigcleanup();
			rl_callback_handler_remove();
			fputs("\n", o);
			fflush(o);
			*intr = true;
			return NULL;
		}
		if (r < 0) {
			if (errno == EINTR) {
				rl_check_signals();	/* SIGWINCH */
				continue;
			}
			rl_callback_handler_remove();
			return NULL;
		}
		if (FD_ISSET(fd, &fds))
			rl_callback_read_char();
	}
	return in->rl_line;
}

static char *shl_rl_read(struct shell *sh, const char *prompt, bool *intr)
{
	struct sigaction saved[SHL_NR_STOP];
	bool hooked[SHL_NR_STOP];
	char *line;

	shl_stop_hook(true, saved, hooked);
	line = shl_rl_read_line(sh, prompt, intr);
	shl_stop_hook(false, saved, hooked);
	return line;
}

/*
 * A line, or a unit of lines, is at most what a syslet source may hold:
 * an endless line (a script that is /dev/zero, a binary piped in) took
 * memory without bound, and where that ran out getline()'s ENOMEM ended
 * the session as the end of the input, status 0, the rest of the script
 * unread.
 */
#define SHL_MAX_TEXT	COMMON_MAX_SOURCE

/* The bytes of a line beyond the bound, or after a NUL, are read and
 * dropped: the line is refused whole, and the next one runs.  A line
 * that holds a NUL and runs past the bound is binary data with no end
 * in sight (/dev/zero as the script was read and dropped for ever): the
 * session ends there. */
static char *shl_plain_read(struct shell *sh, bool *intr)
{
	FILE *in = sh->in.in;
	size_t n = 0, cap = 0, total = 0;
	bool any = false, nul = false, over = false;
	char *line = NULL;
	int c, e = 0;

	flockfile(in);
	for (;;) {
		errno = 0;
		c = getc_unlocked(in);
		if (c == EOF) {
			e = errno;
			if (!ferror(in))
				break;
			clearerr_unlocked(in);
			if (e == EINTR && !shl_interrupted)
				continue;
			if (e == EINTR)
				e = 0;
			break;
		}
		any = true;
		if (c == '\n')
			break;
		if (++total > SHL_MAX_TEXT && (nul || c == '\0')) {
			funlockfile(in);
			free(line);
			shl_error(sh, "<input>:%lu: a line of more than %zu MiB holding NUL bytes: binary data, not a script; the session ends",
				  sh->in.lineno + 1,
				  (size_t)SHL_MAX_TEXT >> 20);
			sh->status = 2;
			return NULL;
		}
		if (nul || over)
			continue;
		if (c == '\0') {
			nul = true;
			continue;
		}
		if (n == SHL_MAX_TEXT) {
			over = true;
			continue;
		}
		if (n + 1 >= cap) {
			size_t ncap = cap ? 2 * cap : 256;
			char *nl;

			if (ncap > SHL_MAX_TEXT + 1)
				ncap = SHL_MAX_TEXT + 1;
			nl = realloc(line, ncap);
			if (!nl) {
				e = ENOMEM;
				break;
			}
			line = nl;
			cap = ncap;
		}
		line[n++] = (char)c;
	}
	funlockfile(in);
	if (e && e != EINTR) {
		/* Not the end of the input: the script cannot be read on
		 * (a directory, EIO, no memory).  Status 2, as a run whose
		 * file cannot be read. */
		free(line);
		shl_error(sh, "standard input: %s; the session ends",
			  strerror(e));
		sh->status = 2;
		return NULL;
	}
	if (!any) {
		/* End of input, or Ctrl-C while a script waits for input:
		 * then the session ends as a killed script does, so that
		 * what runs it sees the signal. */
		*intr = shl_interrupted;
		if (shl_interrupted)
			sh->signo = SIGINT;
		shl_interrupted = 0;
		free(line);
		return NULL;
	}
	if (!line) {
		line = malloc(1);
		if (!line) {
			shl_error(sh, "standard input: %s; the session ends",
				  strerror(ENOMEM));
			sh->status = 2;
			return NULL;
		}
	}
	line[n] = '\0';
	if (n > 0 && line[n - 1] == '\r')
		line[--n] = '\0';
	/* C strings would end the line at the byte, silently: say so. */
	if (nul) {
		shl_error(sh, "<input>:%lu: a NUL byte in the line; the line is ignored",
			  sh->in.lineno + 1);
		line[0] = '\0';
	} else if (over) {
		shl_error(sh, "<input>:%lu: a line longer than %zu MiB; the line is ignored",
			  sh->in.lineno + 1, (size_t)SHL_MAX_TEXT >> 20);
		line[0] = '\0';
	}
	return line;
}

static bool shl_blank_or_comment(const char *s)
{
	s += strspn(s, " \t");
	return *s == '\0' || *s == '#';
}

/*
 * One line onto the history file, whole or not at all: readline's
 * append_history() counts only write() < 0 as failure, so on a full
 * file system the file kept the start of a line, which the next session
 * read joined to the line after.  The file is cut back to where it was
 * and the shell says so, once a session.
 */
static void shl_history_append(struct shell *sh, const char *line)
{
	static bool warned;
	size_t len = strlen(line), at = 0;
	struct stat st;
	char *buf;
	int fd, e = 0;

	buf = malloc(len + 1);
	if (!buf)
		return;
	memcpy(buf, line, len);
	buf[len++] = '\n';
	fd = open(sh->in.histfile, O_WRONLY | O_APPEND | O_NOFOLLOW |
		  O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode))
		e = fd < 0 ? errno : EINVAL;
	while (!e && at < len) {
		ssize_t n = write(fd, buf + at, len - at);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			e = n < 0 ? errno : ENOSPC;
		else
			at += (size_t)n;
	}
	if (e && at)
		(void)ftruncate(fd, st.st_size);
	if (fd >= 0)
		close(fd);
	free(buf);
	if (e && !warned) {
		warned = true;
		fprintf(sh->err, "%s: history: line not kept: %s: %s\n",
			sh->prog, sh->in.histfile, strerror(e));
	}
}

static void shl_history_add(struct shell *sh, const char *text)
{
	HIST_ENTRY *last;
	struct text_buf b = { 0 };
	const char *p;

	/* A block typed over several lines comes back as one line. */
	for (p = text; *p; p++)
		shl_buf_add(&b, *p == '\n' ? " " : p, 1);
	/* Completion leaves a space after the word it completed. */
	while (b.len && (b.s[b.len - 1] == ' ' || b.s[b.len - 1] == '\t'))
		b.s[--b.len] = '\0';
	if (!b.len) {
		text_buf_free(&b);
		return;
	}
	last = history_length ? history_get(history_base + history_length - 1)
			      : NULL;
	if (!last || strcmp(last->line, b.s) != 0) {
		add_history(b.s);
		/* Appending at once keeps each line even if the shell is
		 * killed, and interleaves concurrent sessions sanely; a
		 * failure was reported when the file was opened. */
		if (sh->in.histfile)
			shl_history_append(sh, b.s);
	}
	text_buf_free(&b);
}

/*
 * An if statement is complete at its ';' or '}', yet an else may follow
 * on the next line.  A script can be read ahead to see; at a terminal
 * the else must be on the line that ends the if.  The parser says
 * whether the unit ends in an if without an else, the grammar's table
 * whether the next line starts with one.
 */
static bool shl_if_open(const char *text)
{
	struct sysletc_probe r = { .sz = sizeof(r) };

	shl_probe_stmts(text, &r);
	return r.else_may_follow;
}

static bool shl_else_follows(struct shell *sh, const char *text)
{
	bool intr = false;
	const char *p;
	char *line;
	size_t n = 0;

	if (sh->in.tty || shl_is_command(text) || shl_is_decl(text) ||
	    !shl_if_open(text))
		return false;
	line = shl_plain_read(sh, &intr);
	if (!line)
		return false;
	sh->in.pending = line;	/* the next unit's line, or this one's */
	p = line + strspn(line, " \t");
	while (p[n] == '_' || (p[n] >= 'a' && p[n] <= 'z') ||
	       (p[n] >= 'A' && p[n] <= 'Z') || (p[n] >= '0' && p[n] <= '9'))
		n++;
	return sysletc_word_class(p, n) == SYSLETC_WORD_CLAUSE;
}

/*
 * Where a unit stands after the lines read so far.  The parser decides
 * whether it is complete (sysletc_probe(): "unexpected end of input" means
 * more is needed).  While braces are open a unit cannot be complete, so
 * the lines that follow are only counted by the grammar's scanner, each
 * on its own, until as many close: a block of any length costs time in
 * proportion to it, not a parse per line.
 */
struct shl_scan {
	size_t	done;		/* bytes of the text counted or parsed */
	bool	counting;	/* braces or a comment open: count only */
	int	depth;		/* braces open, while counting */
	int	comment;	/* in a comment, while counting */
};

static bool shl_unit_open(struct shl_scan *sc, const char *text, size_t len);

char *shl_input_read(struct shell *sh)
{
	struct text_buf b = { 0 };
	struct shl_scan sc = { 0 };
	unsigned long start = 0;	/* line of the unit's first line */

	for (;;) {
		bool intr = false, more = false;
		char *line;
		size_t n;

		if (sh->in.pending) {
			line = sh->in.pending;
			sh->in.pending = NULL;
		} else if (sh->in.tty) {
			line = shl_rl_read(sh, b.len ? SHL_PROMPT_MORE
						    : SHL_PROMPT, &intr);
		} else {
			line = shl_plain_read(sh, &intr);
		}
		if (!line) {
			if (intr && sh->in.tty) {
				text_buf_free(&b);
				return strdup("");
			}
			/* Ctrl-D at the continuation prompt drops the unit
			 * typed so far, as bash and python do at theirs: at a
			 * terminal it is a change of mind, not the end of a
			 * script; at the main prompt it still leaves. */
			if (b.len && sh->in.tty && sh->in.rl_eof) {
				FILE *o = rl_outstream ? rl_outstream : stdout;

				fputs("\n", o);
				fflush(o);
				fflush(sh->out);
				fprintf(sh->err, "%s: the unfinished statement is dropped (Ctrl-D at the 'syslet>' prompt leaves)\n",
					sh->prog);
				fflush(sh->err);
				text_buf_free(&b);
				memset(&sc, 0, sizeof(sc));
				return strdup("");
			}
			if (b.len && shl_unit_open(&sc, b.s, b.len)) {
				/* The compiler would see the shell's own
				 * wrapper around the text: say it here. */
				size_t w = strcspn(b.s, "\n");

				shl_error(sh, "<input>:%lu: the input ended inside an unfinished statement or declaration: '%.*s%s'",
					  start, (int)(w > 60 ? 60 : w), b.s,
					  w > 60 || b.s[w] ? " ..." : "");
				text_buf_free(&b);
				/* Cut short: bad input, as a shell's
				 * unexpected end of file. */
				sh->status = 1;
				return NULL;
			}
			if (b.len)
				break;	/* let the compiler say what is missing */
			return NULL;
		}
		sh->in.lineno++;
		if (!b.len && shl_blank_or_comment(line)) {
			free(line);
			continue;
		}
		if (!b.len)
			start = sh->in.lineno;
		n = strlen(line);
		if (n && line[n - 1] == '\\') {
			line[--n] = '\0';
			more = true;
		}
		if (b.len + 1 + n > SHL_MAX_TEXT) {
			/* A unit whose braces never close, and lines that
			 * keep coming: bounded as a line is. */
			shl_error(sh, "<input>:%lu: a statement longer than %zu MiB (from line %lu); it is ignored",
				  sh->in.lineno, (size_t)SHL_MAX_TEXT >> 20,
				  start);
			free(line);
			text_buf_free(&b);
			memset(&sc, 0, sizeof(sc));
			return strdup("");
		}
		if (b.len)
			shl_buf_puts(&b, "\n");
		shl_buf_puts(&b, line);
		free(line);
		if (!more && !shl_unit_open(&sc, b.s, b.len) &&
		    !shl_else_follows(sh, b.s))
			break;
	}
	if (sh->in.tty)
		shl_history_add(sh, b.s);
	sh->in.unit_line = start;
	return b.s;
}

/* ---- Where a statement ends -------------------------------------------- */

/* Whether text, parsed as shell-imm.c will compile it, needs more. */
static bool shl_probe_open(struct shl_scan *sc, const char *text)
{
	enum sysletc_unit unit = shl_is_decl(text) ? SYSLETC_UNIT_FILE
						   : SYSLETC_UNIT_STMTS;
	struct sysletc_probe r = { .sz = sizeof(r) };

	if (sysletc_probe(text, strlen(text), unit, &r))
		abort();	/* sz is ours */
	sc->depth = r.depth;
	sc->comment = r.in_comment;
	sc->counting = r.depth > 0 || r.in_comment;
	if (sc->counting)
		return true;
	if (r.status != SYSLETC_PROBE_EOF)
		return false;	/* complete, or an error the compiler tells */
	/*
	 * At the prompt a lone statement needs no ';' (shell-imm.c adds
	 * it): "x = 1" is complete as typed, "if (x)" waits for its
	 * statement, and "f(" is an error, not a reason to wait.
	 */
	if (unit == SYSLETC_UNIT_FILE || r.wants_stmt || !shl_ends_open(text))
		return true;
	shl_probe_stmts(text, &r);
	return r.status == SYSLETC_PROBE_EOF;
}

/* Whether text (len bytes), of which sc has seen a beginning, needs
 * more lines. */
static bool shl_unit_open(struct shl_scan *sc, const char *text, size_t len)
{
	if (shl_is_command(text))
		return false;
	if (sc->counting) {
		sc->depth += sysletc_brace_balance(text + sc->done, len - sc->done,
						  &sc->comment);
		sc->done = len;
		if (sc->depth > 0 || sc->comment)
			return true;
	}
	sc->done = len;
	return shl_probe_open(sc, text);
}

/* ---- Setup -------------------------------------------------------------- */

/*
 * readline is given the final name of a regular file, or no history:
 * it follows a symlinked history file itself, but reads a relative
 * target from the current directory (and would rename its rewrite over
 * whatever that names there), and it blocks forever on a FIFO.  A link
 * to a character device (/dev/null) keeps no history, silently.  One
 * past what shl_history_trim() reads (a source's limit) is neither read
 * nor grown: read_history() takes a file whole into memory, so a 1 GiB
 * sparse file made a 1 GiB session that took 9 s to start.
 */
static int shl_history_open(struct shell *sh)
{
	const char *why = NULL;
	struct stat st;
	char *final = NULL;
	int exists, fd = -1;

	if (shl_mkdirs(sh->in.histfile, shl_hist_base) == 0)
		final = common_path_follow(sh->in.histfile, &st, &exists);
	if (final && exists && S_ISCHR(st.st_mode))
		goto off;
	if (final && exists && !S_ISREG(st.st_mode))
		why = "not a regular file";
	else if (final)
		fd = open(final, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW |
			  O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0600);
	if (fd >= 0 && (fstat(fd, &st) || !S_ISREG(st.st_mode)))
		why = "not a regular file";
	else if (fd >= 0 && (uint64_t)st.st_size > COMMON_MAX_SOURCE)
		why = "larger than the limit of 64 MiB";
	if (fd < 0 || why) {
		fprintf(sh->err, "%s: history not kept: %s: %s\n", sh->prog,
			sh->in.histfile, why ? why : strerror(errno));
		goto off;
	}
	close(fd);
	free(sh->in.histfile);
	sh->in.histfile = final;
	return 0;
off:
	if (fd >= 0)
		close(fd);
	free(final);
	free(sh->in.histfile);
	sh->in.histfile = NULL;
	return -1;
}

int shl_input_open(struct shell *sh, bool force_tty)
{
	struct sigaction sa;
	char err[256];

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = shl_on_sigint;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a blocking call in a running syslet, or the wait
	 * for input, must return with EINTR. */
	sigaction(SIGINT, &sa, NULL);

	sh->in.in = stdin;
	sh->in.tty = force_tty || isatty(STDIN_FILENO);
	if (!sh->in.tty)
		return 0;
	if (shl_rl_load(err, sizeof(err))) {
		fprintf(sh->err, "%s: %s\n", sh->prog, err);
		return -1;
	}

	shl_rl_shell = sh;
	rl_readline_name = "syslet";
	rl_catch_signals = 0;
	rl_persistent_signal_handlers = 1;
	rl_attempted_completion_function = shl_rl_complete;
	/* Not '.', '/' or '-': file names, and locals named SYSLET.NAME. */
	rl_basic_word_break_characters = " \t\n\"'`@$><=;|&{(,)}*+!%^~";
	using_history();
	stifle_history(SHL_HISTORY_MAX);
	sh->in.histfile = shl_history_path();
	if (sh->in.histfile && shl_history_open(sh) == 0)
		read_history(sh->in.histfile);
	return 0;
}

/*
 * The history file cut to its last SHL_HISTORY_MAX lines, written whole
 * or not at all (outfile.h) and kept private.  Not readline's
 * history_truncate_file(): it takes a short write for success and
 * renames what it wrote over the file, so on a nearly full file system
 * 1,200 lines (51,600 bytes) became the first 8,192 bytes of the last
 * 1,000, and the session ended with status 0 and no word of it.
 */
static void shl_history_trim(struct shell *sh)
{
	struct common_out o;
	char err[256], *buf = NULL;
	size_t len, start, lines = 0;
	int ok = 1;

	if (common_read_file(sh->in.histfile, COMMON_MAX_SOURCE, &buf, &len,
			     err, sizeof(err))) {
		if (errno == ENOENT)	/* removed meanwhile: nothing to cut */
			return;
		goto fail;
	}
	for (start = len; start > 0; start--)
		if (buf[start - 1] == '\n' && start != len &&
		    ++lines == SHL_HISTORY_MAX)
			break;
	if (!start) {
		free(buf);
		return;
	}
	if (common_out_open(&o, sh->in.histfile, err, sizeof(err)))
		goto fail;
	(void)fchmod(o.fd, 0600);
	for (size_t at = start; at < len && ok;) {
		ssize_t n = write(o.fd, buf + at, len - at);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			snprintf(err, sizeof(err), "%s",
				 strerror(n < 0 ? errno : ENOSPC));
			ok = 0;
		} else {
			at += (size_t)n;
		}
	}
	if (common_out_close(&o, ok, ok ? err : NULL, sizeof(err)) || !ok)
		goto fail;
	free(buf);
	return;
fail:
	fprintf(sh->err, "%s: history not trimmed (left as it was): %s: %s\n",
		sh->prog, sh->in.histfile, err);
	free(buf);
}

void shl_input_close(struct shell *sh)
{
	if (sh->in.tty) {
		if (sh->in.histfile)
			shl_history_trim(sh);
		rl_callback_handler_remove();
		shl_matches_reset(&shl_rl_matches);
		clear_history();
	}
	free(sh->in.histfile);
	sh->in.histfile = NULL;
	free(sh->in.pending);
	sh->in.pending = NULL;
	shl_rl_shell = NULL;
}
