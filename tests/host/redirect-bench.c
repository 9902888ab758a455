// SPDX-License-Identifier: GPL-2.0
/*
 * redirect-bench: what the redirect runtime's filter costs the calls it does not redirect, on
 * the host's own kernel (its BPF JIT and seccomp cache), as ratios of pairs of processes run
 * one after the other, in alternating order (make bench-redirect). Each child arms the runtime
 * for a plan with one transparent "grant" (a plain directory: nothing here opens through it)
 * or compiles today's filter for the same profile, loads it, and times getppid (a constant
 * verdict: the kernel's per-call cache answers it) and glibc's fstat (newfstatat with
 * AT_EMPTY_PATH: a verdict that depends on an argument once the runtime is armed). And the
 * program's own execve of /bin/true: done in place by the runtime under the transparent
 * grant, by the kernel under today's filter (from the call to the end of /bin/true).
 *
 *   redirect-bench [ROUNDS [CALLS]]      default 31 rounds of 200000 calls
 *
 * Prints the median ratio, armed / today, with its quartiles.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../vm/bench.h"
#include "plan.h"
#include "profile.h"
#include "redirect.h"

static const char profile[] =
	"[program]\npath = /x\n[identity]\nuser = nobody\n[seccomp]\npolicy = deny-list\n"
	"deny = @mount, @module, @reboot, @swap, @raw-io, @clock, @keyring, @privileged\n"
	"action = kill\n";

/* In a child: the filters of plan, then the per-call times of getppid and fstat. */
static void child(struct plan *plan, int transparent, int out, long calls)
{
	struct redirect rd;
	struct filter_bpf bpf;
	struct failure err;
	struct stat st;
	double t[2], t0;
	long i;
	int dfd = open("/tmp", O_RDONLY | O_DIRECTORY);

	plan->dirs[0].transparent = transparent;
	if (dfd < 0 || dup2(dfd, 10) < 0 || redirect_prepare(plan, &rd, &bpf, &err) ||
	    redirect_arm(&rd) || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || filter_install(&bpf))
		_exit(1);
	t0 = bench_now_ns();
	for (i = 0; i < calls; i++)
		syscall(SYS_getppid);
	t[0] = (bench_now_ns() - t0) / calls;
	t0 = bench_now_ns();
	for (i = 0; i < calls; i++)
		fstat(1, &st);
	t[1] = (bench_now_ns() - t0) / calls;
	_exit(write(out, t, sizeof(t)) == sizeof(t) ? 0 : 1);
}

/* An execve of /bin/true from a child under the filters of plan: ns from the call to its end. */
static double run_exec(struct plan *plan, int transparent, volatile double *t0)
{
	char *argv[] = { "true", NULL }, *envp[] = { NULL };
	struct redirect rd;
	struct filter_bpf bpf;
	struct failure err;
	int status;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		int dfd = open("/tmp", O_RDONLY | O_DIRECTORY);

		plan->dirs[0].transparent = transparent;
		if (dfd < 0 || dup2(dfd, 10) < 0 || redirect_prepare(plan, &rd, &bpf, &err) ||
		    redirect_arm(&rd) || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    filter_install(&bpf))
			_exit(1);
		*t0 = bench_now_ns();
		execve("/bin/true", argv, envp);
		_exit(2);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return bench_now_ns() - *t0;
}

static int run(struct plan *plan, int transparent, long calls, double t[2])
{
	int p[2], status;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0)
		child(plan, transparent, p[1], calls);
	close(p[1]);
	waitpid(pid, &status, 0);
	status = read(p[0], t, 2 * sizeof(double)) == 2 * sizeof(double) ? 0 : -1;
	close(p[0]);
	return status;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 31, r, k;
	long calls = argc > 2 ? atol(argv[2]) : 200000;
	static struct policy pol;
	static struct plan plan;
	double g[128], f[128], x[128], t[2][2], e[2];
	volatile double *t0 = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
				   -1, 0);
	struct diag d;
	int i;

	if (rounds < 3 || rounds > 128 || calls < 1)
		return 2;
	diag_init(&d, "redirect-bench");
	if (profile_parse_buffer(profile, strlen(profile), &pol, &d) ||
	    filter_resolve(&pol.seccomp, &plan.filter, &d))
		return 1;
	plan.pol = &pol;
	plan.program = "redirect-bench";
	plan.ndirs = 1;
	plan.dirs[0].name = "tmp";
	plan.dirs[0].path = "/tmp";
	plan.dirs[0].fd = 10;
	for (r = 0; r < rounds; r++) {
		for (k = 0; k < 2; k++) {
			int armed = (r % 2) ? !k : k;

			if (run(&plan, armed, calls, t[armed]))
				return 1;
		}
		g[r] = t[1][0] / t[0][0];
		f[r] = t[1][1] / t[0][1];
		e[0] = e[1] = 0;
		for (i = 0; i < 20; i++) {
			for (k = 0; k < 2; k++) {
				int armed = (i % 2) ? !k : k;
				double ns = t0 == MAP_FAILED ? -1 : run_exec(&plan, armed, t0);

				if (ns < 0)
					return 1;
				e[armed] += ns;
			}
		}
		x[r] = e[1] / e[0];
	}
	bench_median(g, rounds);
	bench_median(f, rounds);
	printf("armed / today, median of %d rounds of %ld calls (quartiles):\n", rounds, calls);
	printf("  getppid  %.3f (%.3f-%.3f)\n", g[rounds / 2], g[rounds / 4], g[3 * rounds / 4]);
	printf("  fstat    %.3f (%.3f-%.3f)\n", f[rounds / 2], f[rounds / 4], f[3 * rounds / 4]);
	bench_median(x, rounds);
	printf("execve of /bin/true, in place by the runtime / by the kernel, median of %d rounds "
	       "of 20 (quartiles):\n  execve   %.3f (%.3f-%.3f), %.0f us / %.0f us in the last\n",
	       rounds, x[rounds / 2], x[rounds / 4], x[3 * rounds / 4], e[1] / 20e3, e[0] / 20e3);
	return 0;
}
