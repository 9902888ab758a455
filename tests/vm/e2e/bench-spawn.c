// SPDX-License-Identifier: GPL-2.0
/*
 * bench-spawn: how long commands take to start and finish, paired in one run.
 *
 *	bench-spawn ROUNDS LABEL=COMMAND... [LABEL=COMMAND...]
 *
 * COMMAND is split at blanks (no quoting). Each round runs every command once (fork, execv,
 * waitpid), in an order that rotates from round to round, so that a slow patch of the
 * machine hits all of them alike. Prints one line per command: LABEL, the median and the
 * minimum wall time in microseconds, and the median of the per-round ratios to the first
 * command. Any run that does not exit 0 stops the benchmark (exit 1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../bench.h"

#define MAX_CMDS 8
#define MAX_ARGS 32

struct cmd {
	char *label;
	char *argv[MAX_ARGS];
	double *us;
	double *ratio;
};

static int run_once(struct cmd *c, double *us)
{
	double t0 = bench_now_ns() / 1e3;
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		execv(c->argv[0], c->argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	*us = bench_now_ns() / 1e3 - t0;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "bench-spawn: %s: status 0x%x\n", c->label, status);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct cmd cmds[MAX_CMDS];
	int rounds, n = 0, r, i, k;

	if (argc < 3 || (rounds = atoi(argv[1])) < 1) {
		fprintf(stderr, "usage: bench-spawn ROUNDS LABEL=COMMAND...\n");
		return 2;
	}
	for (i = 2; i < argc && n < MAX_CMDS; i++, n++) {
		char *eq = strchr(argv[i], '='), *tok;

		if (!eq) {
			fprintf(stderr, "bench-spawn: %s: want LABEL=COMMAND\n", argv[i]);
			return 2;
		}
		*eq = '\0';
		cmds[n].label = argv[i];
		for (k = 0, tok = strtok(eq + 1, " "); tok && k < MAX_ARGS - 1;
		     tok = strtok(NULL, " "))
			cmds[n].argv[k++] = tok;
		cmds[n].argv[k] = NULL;
		cmds[n].us = calloc(rounds, sizeof(double));
		cmds[n].ratio = calloc(rounds, sizeof(double));
		if (!k || !cmds[n].us || !cmds[n].ratio)
			return 2;
	}
	for (r = 0; r < rounds; r++)
		for (i = 0; i < n; i++) {
			k = (i + r) % n;
			if (run_once(&cmds[k], &cmds[k].us[r]))
				return 1;
		}
	for (i = 0; i < n; i++) {
		double mn;

		for (r = 0; r < rounds; r++)
			cmds[i].ratio[r] = cmds[i].us[r] / cmds[0].us[r];
		mn = cmds[i].us[0];
		for (r = 1; r < rounds; r++)
			mn = cmds[i].us[r] < mn ? cmds[i].us[r] : mn;
		printf("%s %.1f %.1f %.3f\n", cmds[i].label, bench_median(cmds[i].us, rounds), mn,
		       bench_median(cmds[i].ratio, rounds));
	}
	return 0;
}
