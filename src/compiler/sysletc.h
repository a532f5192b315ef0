/* sysletc.h: the compiler library as programs that compile sources use it (syslet-run and its shell): source text in, the bytes of an image out. */
#ifndef SYSLET_SYSLETC_H
#define SYSLET_SYSLETC_H

/*
 * Nothing of the compiler's model shows here: the image comes back as
 * the bytes of a .slo file, which libsyslet opens
 * (syslet_obj__open_mem()) as it would a file from disk, through the
 * same checks.  compiler.h is the library's inside, for sysletc and the
 * compiler's tests.
 */

#include <stddef.h>
#include <stdio.h>

/*
 * Compile the source src of len bytes, named file in diagnostics, for
 * the machine this runs on, with sysletc's default warnings.  The
 * diagnostics go to diags as sysletc prints them.  Returns 0 with the
 * image in *elf (free() it) of *elf_len bytes; the number of errors
 * reported on diags (> 0); or -errno when the image could not be turned
 * into bytes, with a line in err.  Only the first SYSLETC_MEM_MAX_ERRORS
 * errors are printed, then how many more there were, as nft and gcc's
 * -fmax-errors do: a file that is no syslet program at all would give
 * one per line (sysletc prints them all).
 */
#define SYSLETC_MEM_MAX_ERRORS	10
int sysletc_compile_mem(const char *file, const char *src, size_t len,
			FILE *diags, void **elf, size_t *elf_len, char *err,
			size_t errlen);

/* Every name the language gives a meaning before any declaration:
 * keywords, built-ins and predefined constants (O_RDONLY ...), some
 * more than once, for completion. */
void sysletc_words(void (*add)(void *ctx, const char *word), void *ctx);

/*
 * ---- What a shell asks of a piece of input -------------------------
 *
 * A shell reads a line at a time and must know, before it compiles,
 * whether the input is complete and what it declares and names.  These
 * answer with the compiler's own parser and scanner, so that the shell
 * never disagrees with the compile that follows.  None of them prints.
 */

/* What the input is read as: a file (declarations and syslets), or
 * statements as in a syslet's body (what a shell runs at once). */
enum sysletc_unit { SYSLETC_UNIT_FILE, SYSLETC_UNIT_STMTS };

/* How the parse of the input ended (struct sysletc_probe.status). */
enum sysletc_probe_status {
	SYSLETC_PROBE_OK,	/* it parses */
	SYSLETC_PROBE_EOF,	/* the first error is at the end of the
				 * input ("unexpected end of input", or an
				 * open comment): more text may complete it */
	SYSLETC_PROBE_ERROR,	/* the first error is before the end */
};

/* The kinds of name sysletc_probe() passes to its name callback. */
enum sysletc_name_kind {
	SYSLETC_NAME_CONST,	/* a file-scope declaration defines it: */
	SYSLETC_NAME_VAR,	/* var */
	SYSLETC_NAME_BUFFER,	/* buffer, or TYPE name[size] */
	SYSLETC_NAME_DATA,	/* data */
	SYSLETC_NAME_SYSLET,	/* syslet */
	SYSLETC_NAME_ASSIGNED,	/* the first statement is `name = expr;` */
};

/*
 * Filled by sysletc_probe().  Like libsyslet's structs (libsyslet.h) it
 * starts with `size_t sz`, the caller's sizeof(struct sysletc_probe), so
 * that fields can be added at its end: declare it as
 *
 *	struct sysletc_probe r = { .sz = sizeof(r), .name = fn, .ctx = c };
 */
struct sysletc_probe {
	size_t	sz;
	/* Set by the caller (or NULL): called with each name the input's
	 * file-scope declarations define and the name its first statement
	 * assigns with '=', as the parser read them (also from input that
	 * does not parse: what it read up to the error). */
	void	(*name)(void *ctx, const char *name, int kind);
	void	*ctx;
	/* Set by sysletc_probe(). */
	int	status;		/* enum sysletc_probe_status */
	int	depth;		/* '{' minus '}' scanned */
	int	in_comment;	/* the input ended inside a comment */
	int	wants_stmt;	/* the input ended where a statement
				 * could have come next ("if (x)") */
	int	else_may_follow; /* it parses and its last statement is an
				  * if without an else: an else on the next
				  * line would continue it */
};

/*
 * Parse len bytes of src as unit, quietly, and fill r (see above).
 * Returns 0, or -EINVAL when r's sz is not set, or is larger than this
 * library's struct with bytes past it that are not zero.
 */
int sysletc_probe(const char *src, size_t len, enum sysletc_unit unit,
		  struct sysletc_probe *r);

/*
 * '{' minus '}' tokens in src (len bytes), scanned on its own, starting
 * inside a comment if *in_comment, which says on return whether it
 * ends in one.  Lets a shell count the lines of an open block without
 * parsing the whole unit again for each.
 */
int sysletc_brace_balance(const char *src, size_t len, int *in_comment);

/* Call fn with each name of src (identifiers that are not keywords
 * where they stand), as the scanner reads them: what a line refers to. */
void sysletc_scan_names(const char *src, size_t len,
			void (*fn)(void *ctx, const char *name), void *ctx);

/* What a word is to the grammar (sysletc_word_class()). */
enum sysletc_word_class {
	SYSLETC_WORD_NAME,	/* no keyword: a plain name */
	SYSLETC_WORD_DECL,	/* starts a declaration (const, var ...) */
	SYSLETC_WORD_PTYPE,	/* a parameter type (str, int) */
	SYSLETC_WORD_STMT,	/* starts a statement (if, while ...) */
	SYSLETC_WORD_CLAUSE,	/* continues one (else) */
	SYSLETC_WORD_MOD,	/* a modifier before a statement */
	SYSLETC_WORD_EXPR,	/* sizeof, len */
	SYSLETC_WORD_ELEM,	/* a type before a name (u32 fds[2];), a
				 * plain name elsewhere */
};

/* The class of the word spelled s[0..n) (enum sysletc_word_class). */
int sysletc_word_class(const char *s, size_t n);
/* The class of the keyword that s[0..n), no word itself, misspells by
 * one edit (a letter changed, added or dropped, or two swapped: what
 * the compiler's "did you mean" names), or SYSLETC_WORD_NAME. */
int sysletc_word_near_class(const char *s, size_t n);

#endif /* SYSLET_SYSLETC_H */
