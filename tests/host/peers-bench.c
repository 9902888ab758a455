// SPDX-License-Identifier: GPL-2.0
/*
 * peers-bench: how long credbox and its peers take to start /bin/true, in one run.
 *
 *	peers-bench ROUNDS LABEL=COMMAND [LABEL=COMMAND...]
 *
 * The first command is the yardstick (/bin/true alone). COMMAND is split at blanks; each is
 * run once per round (fork, execv, waitpid), the order rotating from round to round so that
 * a slow moment of the machine falls on all of them alike. A command whose first run does not
 * exit 0 is dropped with its status (a peer that cannot run here), the others go on. Prints a
 * table: the median and fastest wall time of each, and the median over the rounds of its time
 * divided by the yardstick's time in the same round; then the same ratio of CPU time (user and
 * system, of the command and the children it waited for: wait4()), which a machine busy with
 * other work disturbs less than wall time.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../vm/bench.h"

#define PB_MAX_CMDS 8
#define PB_MAX_ARGS 32

struct pb_cmd {
	char *label;
	char *line;
	char *argv[PB_MAX_ARGS];
	double *us;
	double *cpu;
	double *ratio;
	int dead;
};

/*
 * Runs @c once, its stdout on @null (what a command prints, credbox --version, is not the
 * table's); its wall and CPU time in round @r. Returns the wait status, or -1.
 */
static int pb_run(struct pb_cmd *c, int r, int null)
{
	double t0 = bench_now_ns();
	struct rusage ru;
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (dup2(null, STDOUT_FILENO) < 0)
			_exit(127);
		execv(c->argv[0], c->argv);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) != pid)
		return -1;
	c->us[r] = (bench_now_ns() - t0) / 1e3;
	c->cpu[r] = ru.ru_utime.tv_sec * 1e6 + ru.ru_utime.tv_usec +
		    ru.ru_stime.tv_sec * 1e6 + ru.ru_stime.tv_usec;
	return status;
}

static int pb_parse(struct pb_cmd *c, char *arg, int rounds)
{
	char *eq = strchr(arg, '='), *tok;
	int k = 0;

	if (!eq)
		return -1;
	*eq = '\0';
	c->label = arg;
	c->line = strdup(eq + 1);
	for (tok = strtok(eq + 1, " "); tok && k < PB_MAX_ARGS - 1; tok = strtok(NULL, " "))
		c->argv[k++] = tok;
	c->argv[k] = NULL;
	c->us = calloc(rounds, sizeof(double));
	c->cpu = calloc(rounds, sizeof(double));
	c->ratio = calloc(rounds, sizeof(double));
	c->dead = 0;
	return k && c->line && c->us && c->cpu && c->ratio ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct pb_cmd cmds[PB_MAX_CMDS];
	int rounds, n = 0, r, i, k, st, null;

	if (argc < 3 || argc - 2 > PB_MAX_CMDS || (rounds = atoi(argv[1])) < 1) {
		fprintf(stderr, "usage: peers-bench ROUNDS LABEL=COMMAND... (at most %d)\n",
			PB_MAX_CMDS);
		return 2;
	}
	for (i = 2; i < argc; i++, n++)
		if (pb_parse(&cmds[n], argv[i], rounds)) {
			fprintf(stderr, "peers-bench: %s: want LABEL=COMMAND\n", argv[i]);
			return 2;
		}
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null < 0) {
		perror("peers-bench: /dev/null");
		return 1;
	}
	for (r = 0; r < rounds; r++)
		for (i = 0; i < n; i++) {
			struct pb_cmd *c = &cmds[(i + r) % n];

			if (c->dead)
				continue;
			st = pb_run(c, r, null);
			if (st == 0)
				continue;
			if (c == &cmds[0] || r > 0) {
				fprintf(stderr, "peers-bench: %s: status 0x%x in round %d\n",
					c->label, st, r + 1);
				return 1;
			}
			printf("skip %s: it does not run here (status 0x%x): %s\n", c->label, st,
			       c->line);
			c->dead = 1;
		}
	printf("%-9s %9s %8s %6s %9s %6s  %s\n", "who", "median us", "min us", "ratio",
	       "cpu us", "cpu r.", "command");
	for (i = 0; i < n; i++) {
		double mn, med, ratio, cpu;

		if (cmds[i].dead)
			continue;
		mn = cmds[i].us[0];
		for (r = 0; r < rounds; r++) {
			cmds[i].ratio[r] = cmds[i].us[r] / cmds[0].us[r];
			mn = cmds[i].us[r] < mn ? cmds[i].us[r] : mn;
		}
		med = bench_median(cmds[i].us, rounds);
		ratio = bench_median(cmds[i].ratio, rounds);
		for (r = 0; r < rounds; r++)
			cmds[i].ratio[r] = cmds[i].cpu[r] / (cmds[0].cpu[r] > 0 ? cmds[0].cpu[r] : 1);
		cpu = bench_median(cmds[i].cpu, rounds);
		k = printf("%-9s %9.0f %8.0f %6.2f %9.0f %6.2f  %s\n", cmds[i].label, med, mn, ratio,
			   cpu, bench_median(cmds[i].ratio, rounds), cmds[i].line);
		if (k < 0)
			return 1;
	}
	printf("(%d rounds, order rotating; ratio: median over the rounds of the time / the time "
	       "of %s in that round; cpu: user + system time, the same way)\n", rounds,
	       cmds[0].label);
	return 0;
}
