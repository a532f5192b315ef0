/* systab-dump.c: print lookups of the syscall tables, for tests/common/systab.sh. */
#include <stdio.h>
#include <stdlib.h>
#include "common/systab.h"

int main(int argc, char **argv)
{
	int p;

	if (argc < 3 || (p = systab_profile_parse(argv[1])) < 0) {
		fprintf(stderr, "usage: systab-dump PROFILE NAME|NUMBER...\n");
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
