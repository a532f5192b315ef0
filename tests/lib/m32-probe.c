/* m32-probe.c: the smallest -m32 program; if it runs, the kernel runs the 32-bit tests here. */
#include <stdio.h>

int main(void)
{
	/* Built like the 32-bit tests (libc, -pthread): what runs here is
	 * what they need, whatever flags (a sanitizer) the build adds. */
	return puts("32-bit programs run") == EOF;
}
