/* handmade.c: build the cat syslet as IR by hand, lay it out, emit it; write image, listing and header. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "irb.h"

/*
 * const BUFSZ = 4096; buffer buf[BUFSZ]; data greeting = "hello\n";
 * var total;
 * syslet cat(str path) { var fd, n;
 *   fd = open(path, O_RDONLY); if (fd < 0) stop;
 *   again: while ((n = read(fd, buf, BUFSZ)) > 0) { write(1, buf, n); total += n; }
 *   close(fd); write(1, greeting, 6); write(1, "bye\n", 4); }
 */
static struct ir_program *cat(int profile)
{
	struct ir_program *p = irb_new(profile);
	int e = 0;
	int path = irb_param(p, "cat.path", e, 0, SLO_PARAM_STR);
	int fd = irb_cell(p, IR_CELL_VAR, "cat.fd", -1);
	int n = irb_cell(p, IR_CELL_VAR, "cat.n", 0);
	int total = irb_cell(p, IR_CELL_VAR, "total", 0);
	int c0 = irb_cell(p, IR_CELL_CONST, NULL, 0);
	int c1 = irb_cell(p, IR_CELL_CONST, NULL, 1);
	int c4 = irb_cell(p, IR_CELL_CONST, NULL, 4);
	int c6 = irb_cell(p, IR_CELL_CONST, NULL, 6);
	int cbuf = irb_cell(p, IR_CELL_CONST, NULL, 4096);
	int buf = irb_object(p, IR_OBJ_BUFFER, "buf", NULL, 4096);
	int greet = irb_object(p, IR_OBJ_DATA, "greeting", "hello\n", 7);
	int bye = irb_object(p, IR_OBJ_STRING, NULL, "bye\n", 5);
	int abuf = irb_addr(p, buf, IR_NONE);
	int agreet = irb_addr(p, greet, IR_NONE);
	int abye = irb_addr(p, bye, IR_NONE);
	int atotal = irb_addr(p, IR_NONE, total);
	int scratch = irb_cell(p, IR_CELL_SCRATCH, NULL, 0);

	/* 0 */ irb_atom(p, SYSLET_STOP_ON_NEGATIVE, "open", fd, ARGS(path, c0),
			 1, IR_NONE, "fd = open(path, O_RDONLY);");
	/* 1 */ irb_atom(p, SYSLET_STOP_ON_NON_POSITIVE | SKIP, "read", n,
			 ARGS(fd, abuf, cbuf), 2, 4,
			 "while ((n = read(fd, buf, BUFSZ)) > 0)");
	/* 2 */ irb_atom(p, 0, "write", IR_NONE, ARGS(c1, abuf, n), 3, IR_NONE,
			 "write(1, buf, n);");
	/* 3 */ irb_atom(p, 0, "umem_add", scratch, ARGS(atotal, n), 1, IR_NONE,
			 "total += n;");
	p->atoms[3].role = SLO_ROLE_ARITH;
	/* 4 */ irb_atom(p, 0, "close", IR_NONE, ARGS(fd), 5, IR_NONE,
			 "close(fd);");
	/* 5 */ irb_atom(p, 0, "write", IR_NONE, ARGS(c1, agreet, c6), 6,
			 IR_NONE, "write(1, greeting, 6);");
	/* 6 */ irb_atom(p, 0, "write", IR_NONE, ARGS(c1, abye, c4), IR_NONE,
			 IR_NONE, "write(1, \"bye\\n\", 4);");
	irb_entry(p, "cat", 0);
	irb_label(p, "cat.again", 1);
	return p;
}

static char *listing(const struct slo_image *img)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	slo_image_list(img, f);
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	struct ir_program *p;
	struct slo_image *img, *back;
	struct diag d;
	char err[256], *a, *b;
	int profile, fd;
	FILE *h, *dot;

	if (argc != 5) {
		fprintf(stderr, "usage: handmade PROFILE OUT.slo OUT.h OUT.dot\n");
		return 2;
	}
	profile = systab_profile_parse(argv[1]);
	if (profile < 0) {
		fprintf(stderr, "handmade: unknown profile %s\n", argv[1]);
		return 2;
	}
	diag_init(&d, "hand.syslet", "", 0, stderr);
	p = cat(profile);
	if (ir_layout(p, &d) || !(img = ir_emit(p, &d))) {
		diag_flush(&d);
		return 1;
	}
	fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || slo_image_write(img, fd, err, sizeof(err))) {
		fprintf(stderr, "handmade: %s\n", fd < 0 ? "cannot open" : err);
		return 1;
	}
	close(fd);
	/* What the image says must be what the compiler meant. */
	back = slo_image_read_file(argv[2], err, sizeof(err));
	if (!back) {
		fprintf(stderr, "handmade: reading back: %s\n", err);
		return 1;
	}
	a = listing(img);
	b = listing(back);
	if (strcmp(a, b)) {
		fprintf(stderr, "handmade: listing of the image differs:\n%s\n---\n%s",
			a, b);
		return 1;
	}
	fputs(a, stdout);
	h = fopen(argv[3], "w");
	dot = fopen(argv[4], "w");
	if (!h || !dot)
		return 1;
	slo_image_header(back, "CAT_SLO_H", h);
	slo_image_dot(back, dot);
	fclose(h);
	fclose(dot);
	free(a);
	free(b);
	slo_image_free(back);
	slo_image_free(img);
	irb_free(p);
	return 0;
}
