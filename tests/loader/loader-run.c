// SPDX-License-Identifier: GPL-2.0
/*
 * loader-run: start a program through the in-process loader, using only its API (loader.h).
 *
 *   loader-run [OPTION]... PROGRAM [ARG...]
 *     --prepare-only   check and map, then report success (exit 0) without starting it
 *     --occupy ADDR    map a page at ADDR first (to provoke an address collision)
 *     --dirty-signals  leave a handled SIGUSR1, an ignored SIGUSR2, a blocked SIGINT and an
 *                      alternate signal stack behind, for the program to check they are reset
 *     --argv0 NAME     argv[0] for the program (default: PROGRAM)
 *     --late-stack     skip loader_build_stack (as a launcher that calls it after seccomp)
 *     --maps-before F  copy /proc/self/maps to F before loading anything
 * Failures print "loader-run: MESSAGE" and exit with the loader's status (126 or 127).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "loader.h"

extern char **environ;

static void on_usr1(int sig)
{
	(void)sig;
}

static void dirty_signals(void)
{
	static char altstack[1 << 16];
	struct sigaction sa = { .sa_handler = on_usr1 };
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	sigset_t set;

	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGUSR2, SIG_IGN);
	sigaltstack(&ss, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

static int copy_maps(const char *to)
{
	char buf[4096];
	ssize_t n;
	int in = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (in < 0 || out < 0)
		return perror("loader-run: --maps-before"), -1;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			return -1;
	close(in);
	close(out);
	return 0;
}

int main(int argc, char **argv)
{
	static struct loader_image img;
	struct failure err;
	int prepare_only = 0, late_stack = 0, i = 1, ret;
	const char *argv0 = NULL, *maps_before = NULL;

	for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
		if (!strcmp(argv[i], "--prepare-only")) {
			prepare_only = 1;
		} else if (!strcmp(argv[i], "--late-stack")) {
			late_stack = 1;
		} else if (!strcmp(argv[i], "--dirty-signals")) {
			dirty_signals();
		} else if (!strcmp(argv[i], "--occupy") && i + 1 < argc) {
			void *want = (void *)strtoul(argv[++i], NULL, 0);

			if (mmap(want, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS |
				 MAP_FIXED_NOREPLACE, -1, 0) != want)
				return perror("loader-run: --occupy"), 125;
		} else if (!strcmp(argv[i], "--maps-before") && i + 1 < argc) {
			maps_before = argv[++i];
		} else if (!strcmp(argv[i], "--argv0") && i + 1 < argc) {
			argv0 = argv[++i];
		} else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else {
			fprintf(stderr, "loader-run: unknown option %s\n", argv[i]);
			return 125;
		}
	}
	if (i >= argc) {
		fprintf(stderr, "usage: loader-run [OPTION]... PROGRAM [ARG...]\n");
		return 125;
	}
	if (maps_before && copy_maps(maps_before) != 0)
		return 125;
	ret = loader_prepare(&img, argv[i], &err);
	if (ret) {
		fprintf(stderr, "loader-run: %s\n", err.msg);
		return err.status;
	}
	if (prepare_only) {
		loader_release(&img);
		return 0;
	}
	if (argv0)
		argv[i] = (char *)argv0;
	/* credbox's order: build the stack after the privilege drop, before seccomp. */
	if (!late_stack && loader_build_stack(&img, argv + i, environ, &err) != 0) {
		fprintf(stderr, "loader-run: %s\n", err.msg);
		return err.status;
	}
	ret = loader_enter(&img, argv + i, environ, &err);
	fprintf(stderr, "loader-run: %s\n", err.msg);
	return err.status;
}
