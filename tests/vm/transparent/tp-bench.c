// SPDX-License-Identifier: GPL-2.0
/*
 * tp-bench: the cost of transparent grants (tests/vm/bench-transparent), in one process
 * started by credbox. Prints "METHOD NS" with NS the median over ROUNDS batches of OPS calls.
 *
 *   tp-bench path ROUNDS OPS      open("/srv/bench/d0/d1/fNNN") + close: redirected when the
 *                                 grant is transparent
 *   tp-bench client ROUNDS OPS    credbox_openat("bench", "d0/d1/fNNN") + close: the same
 *                                 open made directly through the grant
 *   tp-bench getppid ROUNDS OPS   calls no redirection concerns
 *   tp-bench fstat ROUNDS OPS
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "credbox.h"
#include "../bench.h"

int main(int argc, char **argv)
{
	int rounds = argc > 2 ? atoi(argv[2]) : 5, ops = argc > 3 ? atoi(argv[3]) : 1000;
	const char *m = argc > 1 ? argv[1] : "";
	double t[64];
	char path[64];
	struct stat st;
	int r, i, fd, bad = 0;

	if (rounds < 1 || rounds > 64 || ops < 1) {
		fprintf(stderr, "usage: tp-bench path|client|getppid|fstat ROUNDS OPS\n");
		return 2;
	}
	for (r = 0; r < rounds; r++) {
		double start = bench_now_ns();

		for (i = 0; i < ops; i++) {
			if (!strcmp(m, "path")) {
				snprintf(path, sizeof(path), "/srv/bench/d0/d1/f%03d", i % 100);
				fd = open(path, O_RDONLY | O_CLOEXEC);
				bad += fd < 0;
				close(fd);
			} else if (!strcmp(m, "client")) {
				snprintf(path, sizeof(path), "d0/d1/f%03d", i % 100);
				fd = credbox_openat("bench", path, O_RDONLY | O_CLOEXEC, 0);
				bad += fd < 0;
				close(fd);
			} else if (!strcmp(m, "getppid")) {
				syscall(SYS_getppid);
			} else if (!strcmp(m, "fstat")) {
				bad += fstat(1, &st) < 0;
			} else {
				fprintf(stderr, "tp-bench: unknown method %s\n", m);
				return 2;
			}
		}
		t[r] = (bench_now_ns() - start) / ops;
	}
	if (bad) {
		fprintf(stderr, "tp-bench: %d calls failed\n", bad);
		return 1;
	}
	printf("%s %.0f\n", m, bench_median(t, rounds));
	return 0;
}
