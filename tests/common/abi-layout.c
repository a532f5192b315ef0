/* abi-layout.c: struct syslet_uatom and async_head_user have the seeds' layout. */
#include <stddef.h>
#include <stdio.h>
#include "syslet.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "FAIL: %s\n", #c); bad++; } } while (0)

int main(void)
{
	const size_t w = sizeof(long);
	int bad = 0;

	CHECK(sizeof(struct syslet_uatom) == 11 * w);
	CHECK(offsetof(struct syslet_uatom, flags) == 0);
	CHECK(offsetof(struct syslet_uatom, nr) == w);
	CHECK(offsetof(struct syslet_uatom, ret_ptr) == 2 * w);
	CHECK(offsetof(struct syslet_uatom, next) == 3 * w);
	CHECK(offsetof(struct syslet_uatom, arg_ptr) == 4 * w);
	CHECK(offsetof(struct syslet_uatom, private) == 10 * w);
	CHECK(sizeof(struct async_head_user) == 3 * w);
	CHECK(SYSLET_STOP_MASK == 0x78);
	CHECK(SYSLET_SKIP_TO_NEXT_ON_STOP == 0x80);
	return bad ? 1 : 0;
}
