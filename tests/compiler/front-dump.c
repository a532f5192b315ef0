/* front-dump.c: run sysletc_front() on a file and print its diagnostics, or a dump of the IR, for golden tests. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/systab.h"
#include "compiler/compiler.h"
#include "tests/lib/slurp.h"

int main(int argc, char **argv)
{
	struct sysletc_options opt = { .profile = systab_native_profile() };
	struct ir_program *p;
	struct diag d;
	const char *file = NULL;
	int ir = 0, werror = 0;
	size_t len;
	char *src;

	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--target=", 9)) {
			opt.profile = systab_profile_parse(argv[i] + 9);
			if (opt.profile < 0) {
				fprintf(stderr, "front-dump: unknown target '%s'\n",
					argv[i] + 9);
				return 2;
			}
		} else if (!strcmp(argv[i], "--ir")) {
			ir = 1;
		} else if (!strcmp(argv[i], "-Wall")) {
			opt.warnings = SYSLETC_W_ALL;
		} else if (!strcmp(argv[i], "-Wunused")) {
			opt.warnings |= SYSLETC_W_UNUSED;
		} else if (!strcmp(argv[i], "-Wunreachable")) {
			opt.warnings |= SYSLETC_W_UNREACHABLE;
		} else if (!strcmp(argv[i], "-Wno-call-output")) {
			opt.no_warnings |= SYSLETC_W_CALL_OUTPUT;
		} else if (!strcmp(argv[i], "-Wno-call-input")) {
			opt.no_warnings |= SYSLETC_W_CALL_INPUT;
		} else if (!strcmp(argv[i], "-Werror")) {
			werror = 1;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "usage: front-dump [--target=P] [--ir] "
				"[-Wall|-Wunused|-Wunreachable] "
				"[-Wno-call-output] [-Wno-call-input] [-Werror] FILE\n");
			return 2;
		} else {
			file = argv[i];
		}
	}
	if (!file) {
		fprintf(stderr, "front-dump: no input file\n");
		return 2;
	}
	src = slurp(file, &len);
	if (!src) {
		fprintf(stderr, "front-dump: %s: %s\n", file, strerror(errno));
		return 2;
	}
	diag_init(&d, file, src, len, stdout);
	d.werror = werror;
	p = sysletc_front(src, len, &opt, &d);
	diag_flush(&d);
	if (p && ir)
		ir_dump(stdout, p);
	ir_program_free(p);
	free(src);
	return d.errors ? 1 : 0;
}
