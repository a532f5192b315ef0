/* quote.h: a name taken from the command line or an input (a path, an option's value, an entry's name), quoted for a one-line message so that no control byte of it reaches the terminal. */
#ifndef SYSLET_COMMON_QUOTE_H
#include <stddef.h>
#define SYSLET_COMMON_QUOTE_H

/*
 * @s as a message shows it: as given (between single quotes when @single
 * is set) when it is non-empty and has no control byte, 8-bit ones and
 * bytes that are no UTF-8 included (common_utf8_text()); otherwise as
 * strace quotes a string, between double quotes with C escapes ("a\33[2Jb\nc",
 * "" for the empty one), as syslet-run's --each report and trace quote
 * one, since a file name may hold a newline, which split a one-line
 * message in two, or an escape, which the terminal ran.  The result lives
 * until the 8th call after this one in the same thread: enough for the
 * arguments of one message.
 */
const char *common_quote(const char *s, int single);

/*
 * The length of the UTF-8 character at @p (@n bytes left) that a terminal
 * shows as text, or 0: a byte that begins no well-formed character
 * (overlong, a surrogate, past U+10FFFF, cut short), or a C1 control
 * (U+0080..U+009F: U+009B is CSI to xterm).  A name with such a byte, or
 * with a raw 8-bit control (0x9b is CSI to a terminal that is not UTF-8),
 * is no plain name to common_quote().
 */
size_t common_utf8_text(const unsigned char *p, size_t n);

/* The @n bytes of @s with each control byte (C0, DEL, and what
 * common_utf8_text() refuses) made '?' in place, tabs and newlines kept
 * where @keep_tab_nl is set: for messages that show what they were
 * given between quotes rather than quote it strace style. */
void common_unctrl(char *s, size_t n, int keep_tab_nl);

/*
 * Byte @c of a string as strace writes it between double quotes, into @o
 * (at most 4 bytes, no NUL added): \n \t \r \" \\, printable ASCII as
 * is, any other byte in octal, with all three digits where @next, the
 * byte shown after it (-1: none), is an octal digit, so that the two do
 * not read as one escape.  Returns how many bytes it wrote.  The one rule
 * for common_quote() and for the strings that syslet_print_call(3) shows.
 */
size_t common_escape(char *o, unsigned char c, int next);

/* How many bytes of a string the trace shows before "...", as strace's
 * default -s 32 ... */
#define COMMON_STR_SHOWN 32
/* ... and of a file name, which strace shows whole (printpath()), as
 * the shell's print shows a str parameter. */
#define COMMON_PATH_SHOWN 4096

/*
 * As common_quote(@s, 0) when @s has at most @max bytes; a longer one is
 * cut, as strace -s cuts a string: its first @max bytes between double
 * quotes, "..." and its full length ("aaaa"... (120000 bytes)), so that
 * one argument of a megabyte is not a megabyte of message.  The result
 * lives as common_quote()'s does.
 */
const char *common_quote_max(const char *s, size_t max);

/*
 * getopt_long() (run with opterr 0 and a leading ':' in its short
 * options) returned @c, ':' or '?', on @arg, the last word it read
 * (argv[optind - 1]), with @opt its optopt: print "@prog: " and what was
 * wrong in glibc's own words (unrecognized option '--x', invalid option
 * -- 'x', option '--x' requires an argument, option requires an argument
 * -- 'x', option '--x' doesn't allow an argument), the word quoted as
 * common_quote() quotes it, then @hint (may be "") for an invalid short
 * option, so that sysletc and syslet-run say the same thing the same way.
 * @shorts is the command's short-option string: getopt reports an
 * unknown letter before it moves past its word when more letters follow
 * (-xyz), so @arg is then the word before, and the letter is named.
 */
void common_bad_option(const char *prog, int c, int opt, const char *arg,
		       const char *shorts, const char *hint);

/* The last line of every command-line mistake, a bad option or a bad
 * value alike, in sysletc and syslet-run: "Try 'PROG --help' for more
 * information.", as GNU programs end theirs. */
void common_try_help(const char *prog);

#endif /* SYSLET_COMMON_QUOTE_H */
