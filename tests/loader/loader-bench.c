// SPDX-License-Identifier: GPL-2.0
/*
 * loader-bench PROGRAM [N [RUNS]]: start PROGRAM (no arguments) N times with fork+execve and
 * N times with fork+loader (loader_prepare, loader_build_stack, loader_enter in the child, as
 * credbox does), interleaved so that both see the same machine state; RUNS such paired runs
 * (default 5). Prints each run's mean cost of both and their ratio, in wall time and in CPU
 * time (user + system of the child, which other work on the machine disturbs less), then the
 * medians of the runs' ratios.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "loader.h"

extern char **environ;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void child_loader(char *path)
{
	static struct loader_image img;
	struct failure err;
	char *argv[] = { path, NULL };

	if (loader_prepare(&img, path, &err) != 0)
		_exit(126);
	if (loader_build_stack(&img, argv, environ, &err) != 0)
		_exit(126);
	loader_enter(&img, argv, environ, &err);
	_exit(126);
}

/* One start: its wall time; its CPU time added to *cpu. */
static double run_once(char *path, int use_loader, double *cpu)
{
	char *argv[] = { path, NULL };
	double t = now();
	struct rusage ru;
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (use_loader)
			child_loader(path);
		execve(path, argv, environ);
		_exit(127);
	}
	wait4(pid, &status, 0, &ru);
	*cpu += ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
		ru.ru_stime.tv_usec / 1e6;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "loader-bench: %s failed (status 0x%x)\n",
			use_loader ? "loader" : "execve", status);
		exit(1);
	}
	return now() - t;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) : 1000, runs = argc > 3 ? atoi(argv[3]) : 5, i, r;
	double wall[32], cpu[32], dummy = 0;

	if (argc < 2 || n < 1 || runs < 1 || runs > 32) {
		fprintf(stderr, "usage: loader-bench PROGRAM [N [RUNS (1-32)]]\n");
		return 2;
	}
	for (i = 0; i < 20; i++) {		/* warm the page cache and the allocator */
		run_once(argv[1], 0, &dummy);
		run_once(argv[1], 1, &dummy);
	}
	printf("command: loader-bench %s %d %d (fork + start + wait, %d paired runs of %d)\n",
	       argv[1], n, runs, runs, n);
	for (r = 0; r < runs; r++) {
		double t_exec = 0, t_load = 0, c_exec = 0, c_load = 0;

		for (i = 0; i < n; i++) {
			/* Alternate the order too, so that neither always runs second. */
			if (i & 1) {
				t_load += run_once(argv[1], 1, &c_load);
				t_exec += run_once(argv[1], 0, &c_exec);
			} else {
				t_exec += run_once(argv[1], 0, &c_exec);
				t_load += run_once(argv[1], 1, &c_load);
			}
		}
		wall[r] = t_load / t_exec;
		cpu[r] = c_load / c_exec;
		printf("run %d: execve %.1f us, loader %.1f us per start: %.3f; CPU %.1f / %.1f us: "
		       "%.3f\n", r + 1, t_exec / n * 1e6, t_load / n * 1e6, wall[r],
		       c_load / n * 1e6, c_exec / n * 1e6, cpu[r]);
	}
	printf("ratio loader/execve, median of %d runs: %.3f wall, %.3f CPU (goal <= 1.10)\n",
	       runs, median(wall, runs), median(cpu, runs));
	return 0;
}
