// SPDX-License-Identifier: GPL-2.0
/*
 * hog: a memory hog (tests/vm/60-limits.t). Allocates and touches memory 8 MiB at a time
 * until an allocation fails or CAP MiB are taken, so that a credbox that set no limit fails
 * the test instead of running the guest out of memory. Prints how much it got and why it
 * stopped.
 *
 *   hog CAP
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	long cap = argc > 1 ? atol(argv[1]) : 512, got = 0;
	char *p;

	while (got < cap && (p = malloc(8 << 20))) {
		memset(p, 1, 8 << 20);
		got += 8;
	}
	printf("got %ld MiB, then %s\n", got, got < cap ? "an allocation failed" : "stopped");
	return 0;
}
