// SPDX-License-Identifier: GPL-2.0
/*
 * spin: a program that spins on a CPU (tests/vm/60-limits.t), for at most SECONDS of wall-clock
 * time, so that a credbox that set no CPU limit fails the test instead of hanging it. Prints
 * how long it spun if nothing stopped it.
 *
 *   spin SECONDS
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	time_t start = time(NULL), end = start + (argc > 1 ? atoi(argv[1]) : 20);
	volatile unsigned long n = 0;

	while (time(NULL) < end)
		n++;
	printf("spun %ld s\n", (long)(time(NULL) - start));
	return 0;
}
