// SPDX-License-Identifier: GPL-2.0
/*
 * loader-bench PROGRAM [N]: start PROGRAM (no arguments) N times with fork+execve and N times
 * with fork+loader (loader_prepare, loader_build_stack, loader_enter in the child, as
 * credbox does), interleaved so that both see the same machine state, and print the mean
 * cost of each and their ratio.
 */
#include <stdio.h>
#include <stdlib.h>
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

static double run_once(char *path, int use_loader)
{
	char *argv[] = { path, NULL };
	double t = now();
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (use_loader)
			child_loader(path);
		execve(path, argv, environ);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "loader-bench: %s failed (status 0x%x)\n",
			use_loader ? "loader" : "execve", status);
		exit(1);
	}
	return now() - t;
}

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) : 1000, i;
	double t_exec = 0, t_load = 0;

	if (argc < 2 || n < 1) {
		fprintf(stderr, "usage: loader-bench PROGRAM [N]\n");
		return 2;
	}
	for (i = 0; i < 20; i++) {		/* warm the page cache and the allocator */
		run_once(argv[1], 0);
		run_once(argv[1], 1);
	}
	for (i = 0; i < n; i++) {
		/* Alternate the order too, so that neither always runs second. */
		if (i & 1) {
			t_load += run_once(argv[1], 1);
			t_exec += run_once(argv[1], 0);
		} else {
			t_exec += run_once(argv[1], 0);
			t_load += run_once(argv[1], 1);
		}
	}
	printf("command: loader-bench %s %d (fork + start + wait, paired, one run)\n", argv[1], n);
	printf("execve: %.1f us per start\n", t_exec / n * 1e6);
	printf("loader: %.1f us per start\n", t_load / n * 1e6);
	printf("ratio loader/execve: %.3f (goal <= 1.2)\n", t_load / t_exec);
	return 0;
}
