/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench.h: what the benchmark programs under tests/vm/ share: a monotonic
 * clock and the median of a sample (which sorts it).
 */
#ifndef CREDBOX_BENCH_H
#define CREDBOX_BENCH_H

#include <stdlib.h>
#include <time.h>

static inline double bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static inline double bench_median(double *v, int n)
{
	qsort(v, n, sizeof(*v), bench_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif /* CREDBOX_BENCH_H */
