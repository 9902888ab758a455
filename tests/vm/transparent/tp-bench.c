// SPDX-License-Identifier: GPL-2.0
/*
 * tp-bench: the cost of transparent grants (tests/vm/bench-transparent), in one process
 * started by credbox. Prints "METHOD NS" with NS the median over ROUNDS batches of OPS calls.
 *
 *   tp-bench path ROUNDS OPS      open("/srv/bench/d0/d1/fNNN") + close: redirected when the
 *                                 grant is transparent
 *   tp-bench client ROUNDS OPS    credbox_openat("bench", "d0/d1/fNNN") + close: the same
 *                                 open made directly through the grant, by the grant's name
 *   tp-bench clientfd ROUNDS OPS  credbox_openat_fd(fd, ...) + close: openat2 alone
 *   tp-bench pair ROUNDS OPS      in one process (the grant transparent), batches of the two
 *                                 alternating: open(path) + close, redirected; and the same
 *                                 openat2(OA2_CRED_INHERIT) + close made from the runtime's own
 *                                 syscall instruction, which the filter does not trap: the
 *                                 same open through the grant without the SIGSYS round trip.
 *                                 Prints "pair REDIRECTED DIRECT RATIO" (medians)
 *   tp-bench pair-stat ROUNDS OPS the same for stat("/srv/bench/d0/d1/fNNN") against
 *                                 newfstatat(grant, "d0/d1/fNNN", AT_CRED_INHERIT)
 *   tp-bench pair-mkdir ROUNDS OPS the same for mkdir + rmdir of "/srv/bench/d0/nNNN" against
 *                                 openat2(O_CREAT | O_DIRECTORY | O_EXCL, OA2_CRED_INHERIT)
 *                                 + close + unlinkat(AT_REMOVEDIR | AT_CRED_INHERIT); an rw
 *                                 grant (bench-w.ini)
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
#include "uapi.h"
#include "../bench.h"
#include "tp-exempt.h"


enum { PAIR_OPEN, PAIR_STAT, PAIR_MKDIR };

/*
 * Call i of a batch: redirected (the program's path, trapped) or direct (the same call on the
 * grant's fd dfd, from the runtime's instruction sc, which the filter does not trap). 0: it
 * worked.
 */
static int pair_call(int kind, int direct, tp_rawsys_t sc, int dfd, int i)
{
	struct open_how how = { .flags = O_RDONLY | O_CLOEXEC | OA2_CRED_INHERIT,
				.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS };
	const char *top = direct ? "" : "/srv/bench/";
	char path[64];
	struct stat st;
	long fd, e;

	if (kind == PAIR_MKDIR) {
		snprintf(path, sizeof(path), "%sd0/n%03d", top, i % 100);
		if (!direct)
			return mkdir(path, 0700) || rmdir(path);
		how.flags = O_CREAT | O_DIRECTORY | O_EXCL | O_CLOEXEC | OA2_CRED_INHERIT;
		how.mode = 0700;
		fd = sc(SYS_openat2, dfd, (long)path, (long)&how, sizeof(how), 0, 0);
		if (fd >= 0)
			close((int)fd);
		e = sc(SYS_unlinkat, dfd, (long)path, AT_REMOVEDIR | AT_CRED_INHERIT, 0, 0, 0);
		return fd < 0 || e < 0;
	}
	snprintf(path, sizeof(path), "%sd0/d1/f%03d", top, i % 100);
	if (kind == PAIR_STAT)
		return direct ? sc(SYS_newfstatat, dfd, (long)path, (long)&st, AT_CRED_INHERIT, 0,
				   0) < 0 : stat(path, &st) < 0;
	fd = direct ? sc(SYS_openat2, dfd, (long)path, (long)&how, sizeof(how), 0, 0) :
	     open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		close((int)fd);
	return fd < 0;
}

/* Alternating batches in one process: the redirected call against the untrapped one. */
static int pair(const char *name, int kind, int rounds, int ops)
{
	tp_rawsys_t sc = tp_find_exempt();
	double a[64], b[64], q[64];
	int dfd = credbox_dir("bench"), r, i, bad = 0;

	if (!sc || dfd < 0) {
		fprintf(stderr, "tp-bench: no runtime (%p) or no grant (%d)\n", (void *)sc, dfd);
		return 1;
	}
	for (r = 0; r < rounds; r++) {
		double t0 = bench_now_ns(), t1, t2;

		for (i = 0; i < ops; i++)
			bad += pair_call(kind, 0, sc, dfd, i);
		t1 = bench_now_ns();
		for (i = 0; i < ops; i++)
			bad += pair_call(kind, 1, sc, dfd, i);
		t2 = bench_now_ns();
		a[r] = (t1 - t0) / ops;
		b[r] = (t2 - t1) / ops;
		q[r] = a[r] / b[r];
	}
	if (bad) {
		fprintf(stderr, "tp-bench: %d calls of %s failed\n", bad, name);
		return 1;
	}
	printf("%s %.0f %.0f %.3f\n", name, bench_median(a, rounds), bench_median(b, rounds),
	       bench_median(q, rounds));
	return 0;
}

int main(int argc, char **argv)
{
	int rounds = argc > 2 ? atoi(argv[2]) : 5, ops = argc > 3 ? atoi(argv[3]) : 1000;
	const char *m = argc > 1 ? argv[1] : "";
	double t[64];
	char path[64];
	struct stat st;
	int r, i, fd, bad = 0, dfd = credbox_dir("bench");

	if (rounds >= 1 && rounds <= 64 && ops >= 1) {
		if (!strcmp(m, "pair"))
			return pair(m, PAIR_OPEN, rounds, ops);
		if (!strcmp(m, "pair-stat"))
			return pair(m, PAIR_STAT, rounds, ops);
		if (!strcmp(m, "pair-mkdir"))
			return pair(m, PAIR_MKDIR, rounds, ops);
	}
	if (rounds < 1 || rounds > 64 || ops < 1) {
		fprintf(stderr, "usage: tp-bench path|client|clientfd|getppid|fstat|pair|pair-stat|pair-mkdir ROUNDS "
			"OPS\n");
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
			} else if (!strcmp(m, "clientfd")) {
				snprintf(path, sizeof(path), "d0/d1/f%03d", i % 100);
				fd = credbox_openat_fd(dfd, path, O_RDONLY | O_CLOEXEC, 0);
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
