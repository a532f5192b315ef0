/* systab-dump.c: print lookups of the syscall tables, and how far each name is from its hash slot, for tests/common/systab.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/systab.h"

/* gen-tables.sh's hash index, weak: a tree without one says so. */
#ifndef SYSTAB_HASH_SIZE
#define SYSTAB_HASH_SIZE	1
#endif
extern const unsigned short systab_x86_64_hash[] __attribute__((weak));
extern const unsigned short systab_i386_hash[] __attribute__((weak));
extern const unsigned short systab_i386_2007_hash[] __attribute__((weak));

/*
 * "--probes PROFILE": the most slots a lookup of one of the profile's
 * names visits, from the slot its hash names (h * 31 + each byte,
 * modulo 2^16, as gen-tables.sh and systab.c compute it) to the one
 * that holds it; -1 where a name is not reachable so (no empty slot
 * crossed), or the index is missing.
 */
static int probes(enum systab_profile p)
{
	const unsigned short *hash = p == SYSTAB_X86_64 ? systab_x86_64_hash :
				     p == SYSTAB_I386 ? systab_i386_hash :
				     systab_i386_2007_hash;
	unsigned int n;
	const struct systab_entry *t = systab_entries(p, &n);
	int most = 0;

	if (!hash)
		return -1;
	for (unsigned int k = 0; k < n; k++) {
		unsigned int h = 0, i;
		int seen = 1;

		for (const char *c = t[k].name; *c; c++)
			h = (h * 31 + (unsigned char)*c) & 0xffff;
		for (i = h & (SYSTAB_HASH_SIZE - 1); hash[i] && hash[i] != k + 1;
		     i = (i + 1) & (SYSTAB_HASH_SIZE - 1))
			seen++;
		if (!hash[i])
			return -1;
		if (seen > most)
			most = seen;
	}
	return most;
}

int main(int argc, char **argv)
{
	int p;

	if (argc == 3 && !strcmp(argv[1], "--probes") &&
	    (p = systab_profile_parse(argv[2])) >= 0) {
		printf("%d\n", probes(p));
		return 0;
	}
	if (argc < 3 || (p = systab_profile_parse(argv[1])) < 0) {
		fprintf(stderr, "usage: systab-dump PROFILE NAME|NUMBER...\n"
				"       systab-dump --probes PROFILE\n");
		return 2;
	}
	for (int i = 2; i < argc; i++) {
		char *end;
		long nr = strtol(argv[i], &end, 0);

		if (*end == 0) {
			const char *n = systab_name(p, nr);

			printf("%ld %s%s\n", nr, n ? n : "?",
			       systab_denied(p, nr) ? " denied" : "");
		} else {
			int nr2 = systab_lookup(p, argv[i]);
			const char *s = nr2 < 0 ? systab_suggest(p, argv[i]) : NULL;

			printf("%s %d%s%s\n", argv[i], nr2, s ? " suggest=" : "",
			       s ? s : "");
		}
	}
	return 0;
}
