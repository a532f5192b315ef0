/* main.c: the sysletc command: options, reading the source, writing image, listing, graph and header. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/outfile.h"
#include "common/quote.h"
#include "common/readfile.h"
#include "common/stack.h"
#include "common/stdfds.h"
#include "common/systab.h"
#include "compiler/compiler.h"

enum { EXIT_USAGE = 2 };
/* The short options (getopt_long()'s string without its ":"). */
#define SYSLETC_SHORT_OPTS	"o:SH:d:W:hV"

enum { OPT_DOT = 256, OPT_PREFIX, OPT_DUMP };

/* --dump=STAGE: the IR after the front end, or after layout. */
enum { DUMP_NONE, DUMP_IR, DUMP_LAYOUT };

struct args {
	const char	*output;
	const char	*header;
	const char	*image;		/* -d */
	const char	*input;
	const char	*prefix;	/* --prefix, or NULL: from the output */
	int		listing;	/* -S */
	int		dot;
	int		dump;		/* DUMP_* */
	struct sysletc_options opt;
	int		werror;
};

static const char *prog = "sysletc";

static int flush_stdout(void);

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [OPTION]... FILE.syslet\n"
		"       %s -d IMAGE.slo [--dot] [-H HEADER]\n"
		"Compile a syslet program into an ELF image of atoms (.slo).\n"
		"\n"
		"  -o, --output=FILE        write the image to FILE (default: the input's\n"
		"                           name with .slo for .syslet, a.slo for stdin)\n"
		"      --target=PROFILE     i386, i386-2007 or x86_64 (default: %s)\n"
		"  -S                       print the annotated listing instead of an image\n"
		"      --dot                print the atom graph for dot(1) instead\n"
		"      --dump=STAGE         print the IR instead: after the front end\n"
		"                           (ir) or after layout (layout)\n"
		"  -H, --header=FILE        also write a C header declaring the symbols\n"
		"      --prefix=NAME        name the image's symbols NAME_... (default: the\n"
		"                           output's name up to its first dot; empty: none)\n"
		"  -d, --disassemble=IMAGE  read IMAGE and print its listing (or, with\n"
		"                           --dot or -H, its graph or header)\n"
		"  -W WARNING               enable a warning: unused, unreachable,\n"
		"                           call-output, call-input, sizeof-str\n"
		"                           (call-output, call-input and\n"
		"                           sizeof-str on by default), all;\n"
		"                           -Wno-WARNING disables it, -Werror makes\n"
		"                           warnings errors\n"
		"  -h, --help               print this help and exit\n"
		"  -V, --version            print the version and exit\n"
		"\n"
		"FILE may be - for the standard input.  Exit status: 0 on success,\n"
		"1 when the program has errors or a file cannot be read or written,\n"
		"2 on a usage error.\n",
		prog, prog, systab_profile_name(systab_native_profile()));
}

static int __attribute__((format(printf, 1, 2)))
usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	common_try_help(prog);
	return EXIT_USAGE;
}

/* An option with its value, "--dump=bogus", quoted whole as
 * common_quote() quotes (a value with a control byte: "-Wa\33[2J"). */
static int usage_error_opt(const char *what, const char *opt,
			   const char *value, const char *hint)
{
	size_t n = strlen(opt) + strlen(value) + 1;
	char *both = malloc(n);
	int rc;

	if (both)
		snprintf(both, n, "%s%s", opt, value);
	rc = usage_error("%s %s%s", what, common_quote(both ? both : value, 1),
			 hint);
	free(both);
	return rc;
}

/* Whether @s ends with @a, or with @b when it is not NULL. */
static int ends_with(const char *s, const char *a, const char *b)
{
	size_t n = strlen(s), na = strlen(a), nb = b ? strlen(b) : 0;

	return (n > na && !strcmp(s + n - na, a)) ||
	       (b && n > nb && !strcmp(s + n - nb, b));
}

static int warning_option(struct args *a, const char *w)
{
	static const struct {
		const char	*name;
		unsigned int	bits;
	} table[] = {
		{ "unused", SYSLETC_W_UNUSED },
		{ "unreachable", SYSLETC_W_UNREACHABLE },
		{ "call-output", SYSLETC_W_CALL_OUTPUT },
		{ "call-input", SYSLETC_W_CALL_INPUT },
		{ "sizeof-str", SYSLETC_W_SIZEOF_STR },
		{ "all", SYSLETC_W_ALL },
	};
	int no = !strncmp(w, "no-", 3);

	if (!strcmp(w, "error")) {
		a->werror = 1;
		return 0;
	}
	if (!strcmp(w, "no-error")) {
		a->werror = 0;
		return 0;
	}
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if (strcmp(w + (no ? 3 : 0), table[i].name))
			continue;
		if (no) {
			a->opt.warnings &= ~table[i].bits;
			a->opt.no_warnings |= table[i].bits;
		} else {
			a->opt.warnings |= table[i].bits;
			a->opt.no_warnings &= ~table[i].bits;
		}
		return 0;
	}
	return -1;
}

/*
 * Would writing b replace the regular file a (through any link)?  Two
 * names that do not exist yet are the same file when they are the same
 * name.  Devices and "-" are written through, never replaced: -o
 * /dev/null -H /dev/null is fine.
 */
/* The directory part of a name, "." for none; the caller frees it. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

/*
 * Two names of files that do not exist yet: the same when, through every
 * symlink, they end in the same name in the same directory (-o x.slo -H
 * link, link -> x.slo: the header was written over the new image).
 */
static int same_new_file(const char *a, const char *b)
{
	struct stat sa, sb, da, db;
	char *fa, *fb, *pa = NULL, *pb = NULL;
	int ea = 0, eb = 0, same = 0;

	fa = common_path_follow(a, &sa, &ea);
	fb = common_path_follow(b, &sb, &eb);
	if (!fa || !fb || ea || eb) {
		same = !fa || !fb ? !strcmp(a, b) : 0;
		goto out;
	}
	pa = dir_of(fa);
	pb = dir_of(fb);
	if (!pa || !pb) {
		same = !strcmp(fa, fb);
		goto out;
	}
	same = !strcmp(strrchr(fa, '/') ? strrchr(fa, '/') + 1 : fa,
		       strrchr(fb, '/') ? strrchr(fb, '/') + 1 : fb) &&
	       !stat(pa, &da) && !stat(pb, &db) &&
	       da.st_dev == db.st_dev && da.st_ino == db.st_ino;
out:
	free(fa);
	free(fb);
	free(pa);
	free(pb);
	return same;
}

static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	int ea, eb;

	if (!strcmp(a, "-") || !strcmp(b, "-"))
		return 0;
	ea = !stat(a, &sa);
	eb = !stat(b, &sb);
	if (ea && eb)
		return S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev &&
		       sa.st_ino == sb.st_ino;
	return !ea && !eb && same_new_file(a, b);
}

static int parse_args(struct args *a, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "target", required_argument, NULL, 't' },
		{ "header", required_argument, NULL, 'H' },
		{ "disassemble", required_argument, NULL, 'd' },
		{ "dot", no_argument, NULL, OPT_DOT },
		{ "prefix", required_argument, NULL, OPT_PREFIX },
		{ "dump", required_argument, NULL, OPT_DUMP },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	a->opt.profile = systab_native_profile();
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":" SYSLETC_SHORT_OPTS, longopts,
				NULL)) != -1) {
		switch (c) {
		case 'o':
			a->output = optarg;
			break;
		case 't':
			a->opt.profile = systab_profile_parse(optarg);
			if (a->opt.profile < 0)
				return usage_error("unknown target %s (expected i386, i386-2007 or x86_64)",
						   common_quote(optarg, 1));
			break;
		case 'S':
			a->listing = 1;
			break;
		case 'H':
			a->header = optarg;
			break;
		case 'd':
			/* A second image is refused as a second source is,
			 * not dropped (the same name twice is one image). */
			if (a->image && strcmp(a->image, optarg))
				return usage_error("-d reads one image at a time (%s is extra)",
						   common_quote(optarg, 1));
			a->image = optarg;
			break;
		case OPT_DOT:
			a->dot = 1;
			break;
		case OPT_DUMP:
			if (!strcmp(optarg, "ir"))
				a->dump = DUMP_IR;
			else if (!strcmp(optarg, "layout"))
				a->dump = DUMP_LAYOUT;
			else
				return usage_error_opt("unknown stage",
						       "--dump=", optarg,
						       " (expected ir or layout)");
			break;
		case OPT_PREFIX:
			if (!slo_prefix_valid(optarg))
				return usage_error("--prefix %s: not a C identifier of at most %d characters",
						   common_quote(optarg, 1), SLO_PREFIX_MAX);
			a->prefix = optarg;
			break;
		case 'W':
			if (warning_option(a, optarg))
				return usage_error_opt("unknown warning",
						       "-W", optarg,
						       " (expected unused, "
						       "unreachable, call-output, "
						       "call-input, sizeof-str, "
						       "all or error, "
						       "each also as no-NAME)");
			break;
		case 'h':
			usage(stdout);
			exit(flush_stdout());
		case 'V':
			printf("sysletc (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
			exit(flush_stdout());
		default:
			common_bad_option(prog, c, optopt, argv[optind - 1],
					  SYSLETC_SHORT_OPTS, "");
			common_try_help(prog);
			return EXIT_USAGE;
		}
	}
	if (a->dump && (a->listing || a->dot || a->output || a->header ||
			a->image))
		return usage_error("%s", "--dump prints the IR and makes no image; it goes with no -S, --dot, -o, -H or -d");
	if (a->listing && a->dot)
		return usage_error("%s", "-S and --dot both print on the standard output; choose one");
	if (a->output && a->header && same_file(a->output, a->header))
		return usage_error("-o and -H name the same file %s",
				   common_quote(a->header, 1));
	if (a->header && !strcmp(a->header, "-") &&
	    (a->listing || a->dot || (a->output && !strcmp(a->output, "-"))))
		return usage_error("-H - would write the header into the %s on the standard output; name a file",
				   a->listing ? "listing" : a->dot ? "graph" :
				   "image");
	if ((a->listing || a->dot) && a->output && !strcmp(a->output, "-"))
		return usage_error("%s", "-o - would write the image into the listing on the standard output; name a file");
	/* 'sysletc --dot -o g.dot', as 'gcc -S -o f.s' names the listing:
	 * here -o names the image, so g.dot would be an ELF file. */
	if ((a->listing || a->dot) && a->output &&
	    ends_with(a->output, a->dot ? ".dot" : ".S", a->dot ? NULL : ".s"))
		return usage_error("-o %s names the image's file; %s prints the %s on the standard output (%s %s > %s)",
				   common_quote(a->output, 1),
				   a->dot ? "--dot" : "-S",
				   a->dot ? "graph" : "listing",
				   a->dot ? "sysletc --dot" : "sysletc -S",
				   common_quote(optind < argc ? argv[optind] :
						"FILE.syslet", 1),
				   common_quote(a->output, 1));
	if (a->image) {
		if (optind < argc)
			return usage_error("-d reads an image; %s is one file too many",
					   common_quote(argv[optind], 1));
		if (a->listing)
			return usage_error("%s", "-d already prints the listing; -S is not needed");
		if (a->output)
			return usage_error("%s", "-d writes no image; -o has no use with it");
		if (a->prefix)
			return usage_error("%s", "-d takes the prefix the image records; --prefix has no use with it");
		return 0;
	}
	if (optind == argc)
		return usage_error("%s", "no input file");
	if (optind + 1 < argc) {
		const char *x = argv[optind + 1];
		size_t n = strlen(x);

		/* 'sysletc cat.syslet cat.slo': -o forgotten, as cc's is. */
		if (optind + 2 == argc && !a->output && n > 4 &&
		    !strcmp(x + n - 4, ".slo"))
			return usage_error("one input file at a time (%s is "
					   "extra; to write the image there: "
					   "-o %s)", common_quote(x, 1),
					   common_quote(x, 1));
		return usage_error("one input file at a time (%s is extra)",
				   common_quote(x, 1));
	}
	a->input = argv[optind];
	return 0;
}

/* cat.syslet -> cat.slo in the current directory; stdin -> a.slo. */
static char *default_output(const char *input)
{
	const char *base = strrchr(input, '/');
	size_t n;
	char *out;

	if (!strcmp(input, "-"))
		return strdup("a.slo");
	base = base ? base + 1 : input;
	n = strlen(base);
	if (n > 7 && !strcmp(base + n - 7, ".syslet"))
		n -= 7;
	out = malloc(n + 5);
	if (out) {
		memcpy(out, base, n);
		strcpy(out + n, ".slo");
	}
	return out;
}

/*
 * As gcc: an output never replaces the input it is made from.  The input
 * "-" is the standard input, which may be a regular file too (sysletc -
 * -o x.syslet <x.syslet): that file is the input by another name, as
 * /dev/stdin is.
 */
static int output_is_input(const char *input, const char *output)
{
	struct stat si, so;

	if (!output)
		return 0;
	if (strcmp(input, "-")) {
		if (!same_file(input, output))
			return 0;
		fprintf(stderr, "%s: input file %s is the same as output file\n",
			prog, common_quote(input, 1));
		return 1;
	}
	if (!strcmp(output, "-") || fstat(STDIN_FILENO, &si) ||
	    !S_ISREG(si.st_mode) || stat(output, &so) ||
	    si.st_dev != so.st_dev || si.st_ino != so.st_ino)
		return 0;
	fprintf(stderr, "%s: input file '-' (the standard input) is the same as output file %s\n",
		prog, common_quote(output, 1));
	return 1;
}

/*
 * As cat: what is printed onto a standard output that is the input's
 * regular file (sysletc -S x.syslet >>x.syslet: the shell did not empty
 * it) would be appended to the program or the image it came from.
 */
static int stdout_is_input(const char *input)
{
	struct stat si, so;
	int in_stdin = !strcmp(input, "-");

	if (fstat(STDOUT_FILENO, &so) || !S_ISREG(so.st_mode) ||
	    (in_stdin ? fstat(STDIN_FILENO, &si) : stat(input, &si)) ||
	    si.st_dev != so.st_dev || si.st_ino != so.st_ino)
		return 0;
	fprintf(stderr, "%s: input file %s is the same as the standard output\n",
		prog, in_stdin ? "'-' (the standard input)" :
		common_quote(input, 1));
	return 1;
}

/* The image compile() writes (-o, else the default unless -S or --dot
 * print instead) and the header, checked before anything is read. */
static int outputs_are_input(const struct args *a)
{
	char *image = NULL;
	int clash;

	/* -S, --dot, --dump, -o - or -H - print. */
	if ((a->listing || a->dot || a->dump ||
	     (a->output && !strcmp(a->output, "-")) ||
	     (a->header && !strcmp(a->header, "-"))) &&
	    stdout_is_input(a->input))
		return 1;

	if (a->output)
		image = strdup(a->output);
	else if (!a->listing && !a->dot && !a->dump)
		image = default_output(a->input);
	clash = output_is_input(a->input, image) ||
		output_is_input(a->input, a->header);
	free(image);
	return clash;
}

/*
 * Output files appear whole or not at all, and only ever replace a
 * regular file (src/common/outfile.h).  The image and the header are one
 * result: both are opened and written before either is committed, so
 * that a header that cannot be written (a missing directory, a full
 * disk) leaves the old image in place, not a new image beside an old
 * header or none under status 1 (a make rule would then take the new
 * image for up to date).
 */
struct output {
	struct common_out	o;
	const char		*path;
	bool			open;
};

/* "-" is the standard output, named as the listing's errors name it. */
static const char *output_name(const struct output *out)
{
	return strcmp(out->path, "-") ? common_quote(out->path, 0) :
	       "standard output";
}

static int output_fail(struct output *out, const char *err)
{
	fprintf(stderr, "%s: %s: %s\n", prog, output_name(out), err);
	if (out->open)
		common_out_close(&out->o, 0, NULL, 0);
	out->open = false;
	return -1;
}

static int output_open(struct output *out, const char *path)
{
	char err[256];

	out->path = path;
	out->open = false;
	if (common_out_open(&out->o, path, err, sizeof(err)))
		return output_fail(out, err);
	out->open = true;
	return 0;
}

/* Keep what was written, or throw it away (keep false: the other
 * output failed). */
static int output_close(struct output *out, bool keep)
{
	char err[256];

	if (!out->open)
		return 0;
	out->open = false;
	if (!keep) {
		common_out_close(&out->o, 0, NULL, 0);
		return 0;
	}
	if (common_out_close(&out->o, 1, err, sizeof(err))) {
		fprintf(stderr, "%s: %s: %s\n", prog, output_name(out), err);
		return -1;
	}
	return 0;
}

/* Commit both: one written through (a device, a FIFO, the standard
 * output, whose bytes go out only now and which /dev/full refuses) before
 * one renamed into place, so that its failure still keeps the other from
 * appearing. */
static int outputs_close(struct output *a, struct output *b, int rc)
{
	struct output *first = a, *second = b;

	if (b->open && b->o.dest >= 0 && !(a->open && a->o.dest >= 0)) {
		first = b;
		second = a;
	}
	if (output_close(first, !rc))
		rc = 1;
	if (output_close(second, !rc))
		rc = 1;
	return rc;
}

static int image_fill(const struct slo_image *img, struct output *out)
{
	char err[256];

	if (slo_image_write(img, out->o.fd, err, sizeof(err)))
		return output_fail(out, err);
	return 0;
}

/* cat.h -> CAT_H */
static char *guard_of(const char *path)
{
	const char *base = strrchr(path, '/');
	char *g;

	base = base ? base + 1 : path;
	if (!strcmp(base, "-") || !*base)
		base = "syslet_image.h";
	g = malloc(strlen(base) + 2);
	if (!g)
		return NULL;
	/* A guard may not start with a digit. */
	snprintf(g, strlen(base) + 2, "%s%s",
		 *base >= '0' && *base <= '9' ? "_" : "", base);
	return g;
}

static void header_warn(const struct slo_image *img)
{
	if (!img->prefix && slo_image_find(img, "main", -1))
		fprintf(stderr, "%s: warning: the image defines the symbol 'main', "
			"which a C program linking it defines too; rename it or give the image a --prefix to link it\n",
			prog);
	/* stdin or printf with --prefix=, pthread_create from the prefix
	 * pthread: the program would get one of the two definitions, and
	 * the header leaves the name out. */
	for (size_t i = 0; i < img->nr_syms; i++) {
		char *name = slo_prefixed_name(img, img->syms[i].name);

		if (name && slo_libc_defines(name))
			fprintf(stderr, "%s: warning: the image defines the symbol '%s', "
				"which the C library defines too, so the header leaves it out; rename it or give the image another --prefix to link it\n",
				prog, name);
		free(name);
	}
}

static int header_fill(const struct slo_image *img, struct output *out)
{
	char *guard = guard_of(out->path);
	int fd, ok;
	FILE *f;

	if (!guard)
		return output_fail(out, strerror(errno));
	fd = dup(out->o.fd);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		free(guard);
		return output_fail(out, strerror(e));
	}
	slo_image_header(img, guard, f);
	ok = !ferror(f);
	ok = !fclose(f) && ok;
	free(guard);
	if (!ok)
		return output_fail(out, strerror(errno));
	return 0;
}

/* -d IMAGE -H HEADER: the header alone. */
static int write_header(const struct slo_image *img, const char *path)
{
	struct output out;

	header_warn(img);
	if (output_open(&out, path) || header_fill(img, &out))
		return -1;
	return output_close(&out, true);
}

static int flush_stdout(void)
{
	return common_flush_stdout(prog) ? 1 : 0;
}

/* Whether the file a name gives (not the standard input, which was
 * read already) reads as a source. */
static bool is_source(const char *path)
{
	enum common_content kind;
	size_t len;
	char *src;

	if (!strcmp(path, "-") ||
	    common_read_input(path, COMMON_TEXT_OR_ELF, &src, &len, &kind,
			      NULL, 0))
		return false;
	free(src);
	return kind != COMMON_ELF;
}

static int disassemble(const struct args *a)
{
	const char *name = strcmp(a->image, "-") ? a->image : "<stdin>";
	struct slo_image *img = NULL;
	char err[256];
	size_t len;
	char *buf;
	int rc = 0;

	if (output_is_input(a->image, a->header))
		return 1;
	/* The listing, the graph, or -H -. */
	if ((a->dot || !a->header || !strcmp(a->header, "-")) &&
	    stdout_is_input(a->image))
		return 1;
	if (!common_read_input(a->image, COMMON_ELF, &buf, &len, NULL, err,
			       sizeof(err))) {
		img = slo_image_read_mem(buf, len, err, sizeof(err));
		free(buf);
	} else if (errno == EILSEQ && is_source(a->image)) {
		/* As compile() says of an image given as a source. */
		fprintf(stderr, "%s: %s: this is a syslet source, not an image (to list a source: %s -S %s)\n",
			prog, common_quote(name, 0), prog,
			common_quote(name, 0));
		return 1;
	}
	if (!img) {
		fprintf(stderr, "%s: %s: %s\n", prog, common_quote(name, 0),
			err);
		return 1;
	}
	if (a->header && write_header(img, a->header))
		rc = 1;
	if (a->dot)
		slo_image_dot(img, stdout);
	else if (!a->header && slo_image_list(img, stdout)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		rc = 1;
	}
	slo_image_free(img);
	return rc | flush_stdout();
}

/* --prefix, else the name of the image written (or that would be), as
 * bpftool names skeletons; "" leaves the symbols as the source names them. */
static int set_prefix(struct slo_image *img, const struct args *a)
{
	char *path = NULL;

	if (a->prefix) {
		img->prefix = *a->prefix ? strdup(a->prefix) : NULL;
		return *a->prefix && !img->prefix ? -1 : 0;
	}
	if (!a->output || !strcmp(a->output, "-")) {
		path = default_output(a->input);
		if (!path)
			return -1;
	}
	img->prefix = slo_prefix_of_path(path ? path : a->output);
	free(path);
	return img->prefix ? 0 : -1;
}

/* --dump: the passes up to the stage asked for, then the IR as text. */
static int dump_ir(const struct args *a, const char *src, size_t len,
		   struct diag *d)
{
	struct ir_program *p = sysletc_front(src, len, &a->opt, d);
	int err = p && !d->errors ? 0 : -1;

	if (a->dump == DUMP_LAYOUT)
		err = err ?: ir_layout(p, d);
	diag_flush(d);
	if (!err && !d->errors)
		ir_dump(stdout, p);
	ir_program_free(p);
	return err || d->errors ? 1 : flush_stdout();
}

static int compile(const struct args *a)
{
	const char *name = strcmp(a->input, "-") ? a->input : "<stdin>";
	enum common_content kind;
	struct slo_image *img;
	struct output iout = { .open = false }, hout = { .open = false };
	struct diag d;
	char *out = NULL;
	char err[256];
	size_t len;
	char *src;
	int rc = 0;

	if (outputs_are_input(a))
		return 1;
	/* Text, refused at its first NUL byte; an image is read too, for
	 * the hint below (and bounded by its own headers). */
	if (common_read_input(a->input, COMMON_TEXT_OR_ELF, &src, &len, &kind,
			      err, sizeof(err))) {
		if (kind == COMMON_ELF && errno == EILSEQ)
			snprintf(err, sizeof(err), "not a syslet source");
		fprintf(stderr, "%s: %s: %s\n", prog, common_quote(name, 0),
			err);
		return 1;
	}
	if (kind == COMMON_ELF) {
		/* The hint is a command: the input as given ('-', not the
		 * '<stdin>' that messages call it). */
		fprintf(stderr, "%s: %s: this is an ELF file, not a syslet source ",
			prog, common_quote(name, 0));
		/* ...and keeps what was asked: --dot and -H take -d too. */
		if (a->dot)
			fprintf(stderr, "(to draw an image's graph: %s --dot -d %s)\n",
				prog, common_quote(a->input, 0));
		else if (a->header)
			fprintf(stderr, "(to write an image's header: %s -H %s -d %s)\n",
				prog, common_quote(a->header, 0),
				common_quote(a->input, 0));
		else
			fprintf(stderr, "(to list an image: %s -d %s)\n", prog,
				common_quote(a->input, 0));
		free(src);
		return 1;
	}
	diag_init(&d, name, src, len, stderr);
	d.werror = a->werror;
	if (a->dump) {
		rc = dump_ir(a, src, len, &d);
		free(src);
		return rc;
	}
	img = sysletc_compile(src, len, &a->opt, &d);
	diag_flush(&d);
	if (!img || d.errors) {
		slo_image_free(img);
		free(src);
		return 1;
	}
	if (set_prefix(img, a)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		slo_image_free(img);
		free(src);
		return 1;
	}
	if (a->listing && slo_image_list(img, stdout)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		rc = 1;
	}
	if (a->dot)
		slo_image_dot(img, stdout);
	/* -S and --dot print instead of writing, unless -o asks for both. */
	if (a->output || (!a->listing && !a->dot)) {
		out = a->output ? strdup(a->output) : default_output(a->input);
		if (!out)
			fprintf(stderr, "%s: out of memory\n", prog);
		if (!out || output_open(&iout, out))
			rc = 1;
	}
	if (!rc && a->header) {
		header_warn(img);
		if (output_open(&hout, a->header))
			rc = 1;
	}
	if (!rc && iout.open && image_fill(img, &iout))
		rc = 1;
	if (!rc && hout.open && header_fill(img, &hout))
		rc = 1;
	rc = outputs_close(&iout, &hout, rc);
	free(out);
	slo_image_free(img);
	free(src);
	return rc | flush_stdout();
}

static int sysletc_main(int argc, char **argv)
{
	struct args a = { 0 };
	int rc;

	/* Before anything is opened: else with 2>&- the source or the
	 * image's temporary file becomes standard error, and a warning
	 * printed after the output is open (-H's) goes into the image. */
	common_std_fds();
	rc = parse_args(&a, argc, argv);
	if (rc)
		return rc;
	return a.image ? disassemble(&a) : compile(&a);
}

int main(int argc, char **argv)
{
	return common_stack_main(sysletc_main, argc, argv);
}
