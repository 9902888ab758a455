// SPDX-License-Identifier: GPL-2.0
/*
 * tp-floor: the least a transparent grant can cost, whatever the runtime does: the two
 * mechanisms it stands on, measured bare, with nothing of credbox (tests/vm/bench-transparent
 * prints these beside the runtime's own figures).
 *
 *   tp-floor stat PATH ROUNDS OPS
 *	stat(PATH) trapped by a filter of this program (SECCOMP_RET_TRAP for newfstatat from
 *	AT_FDCWD) to a handler that only makes the same call again from an instruction the
 *	filter lets through, against that call made directly from the same instruction, in
 *	alternating batches of OPS calls: the signal's delivery and return, with no work of the
 *	handler's own. Prints "floor-stat TRAPPED_NS DIRECT_NS RATIO" (median of the batches).
 *   tp-floor fstat ROUNDS OPS
 *	fstat(1) in a child under a one-rule filter whose verdict for newfstatat is constant
 *	(the kernel caches it and runs no filter), against a child under a filter of two
 *	instructions that loads an argument (so it runs at every call), the children
 *	alternating: what testing any argument of newfstatat costs, as stat and fstat are both
 *	newfstatat in glibc. Prints "floor-fstat ARGTEST_NS CACHED_NS RATIO".
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "../bench.h"

#define MAX_ROUNDS	101

/* The one instruction the filter exempts: a system call with six arguments, then ret. */
long floor_syscall(long nr, long a, long b, long c, long d, long e);
extern const char floor_exempt[];
__asm__(".text\n"
	".globl floor_syscall\n"
	".type floor_syscall, @function\n"
	"floor_syscall:\n"
	"	mov %rdi, %rax\n"
	"	mov %rsi, %rdi\n"
	"	mov %rdx, %rsi\n"
	"	mov %rcx, %rdx\n"
	"	mov %r8, %r10\n"
	"	mov %r9, %r8\n"
	"	syscall\n"
	".globl floor_exempt\n"
	"floor_exempt:\n"
	"	ret\n"
	".size floor_syscall, . - floor_syscall\n");

static void floor_handler(int sig, siginfo_t *si, void *ucv)
{
	greg_t *g = ((ucontext_t *)ucv)->uc_mcontext.gregs;

	g[REG_RAX] = floor_syscall(si->si_syscall, g[REG_RDI], g[REG_RSI], g[REG_RDX],
				   g[REG_R10], g[REG_R8]);
}

static int load(struct sock_filter *p, unsigned short n)
{
	struct sock_fprog f = { .len = n, .filter = p };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &f)) {
		perror("tp-floor: seccomp");
		return -1;
	}
	return 0;
}

#define LD(field)	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field))
#define LD_HI(field)	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field) + 4)
#define JEQ(k, t, f)	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), (t), (f))
#define RET(k)		BPF_STMT(BPF_RET | BPF_K, (k))

static int floor_stat(const char *path, int rounds, int ops)
{
	uint64_t ip = (uintptr_t)floor_exempt;
	struct sock_filter p[] = {
		LD(arch), JEQ(AUDIT_ARCH_X86_64, 1, 0), RET(SECCOMP_RET_KILL_PROCESS),
		LD(nr), JEQ(__NR_newfstatat, 0, 7),
		LD(args[0]), JEQ((uint32_t)AT_FDCWD, 0, 5),
		LD(instruction_pointer), JEQ((uint32_t)ip, 0, 2),
		LD_HI(instruction_pointer), JEQ((uint32_t)(ip >> 32), 1, 0),
		RET(SECCOMP_RET_TRAP),
		RET(SECCOMP_RET_ALLOW),
	};
	struct sigaction sa = { .sa_sigaction = floor_handler, .sa_flags = SA_SIGINFO };
	double trapped[MAX_ROUNDS], direct[MAX_ROUNDS], ratio[MAX_ROUNDS];
	struct stat st;
	int r, i;

	sigfillset(&sa.sa_mask);
	if (sigaction(SIGSYS, &sa, NULL) || load(p, sizeof(p) / sizeof(p[0])))
		return 1;
	if (stat(path, &st)) {
		perror(path);
		return 1;
	}
	for (r = 0; r < rounds; r++) {
		double t0 = bench_now_ns(), t1, t2;

		for (i = 0; i < ops; i++)
			stat(path, &st);
		t1 = bench_now_ns();
		for (i = 0; i < ops; i++)
			floor_syscall(__NR_newfstatat, AT_FDCWD, (long)path, (long)&st, 0, 0);
		t2 = bench_now_ns();
		trapped[r] = (t1 - t0) / ops;
		direct[r] = (t2 - t1) / ops;
		ratio[r] = trapped[r] / direct[r];
	}
	printf("floor-stat %.0f %.0f %.3f\n", bench_median(trapped, rounds),
	       bench_median(direct, rounds), bench_median(ratio, rounds));
	return 0;
}

/* One child's fstat(1), ns per call, under the filter argtest chooses. */
static double fstat_child(int argtest, int ops)
{
	struct sock_filter cached[] = { LD(nr), RET(SECCOMP_RET_ALLOW) };
	struct sock_filter runs[] = { LD(args[3]), RET(SECCOMP_RET_ALLOW) };
	double v = -1;
	int fds[2];
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		struct stat st;
		double t0;
		int i;

		if (argtest ? load(runs, 2) : load(cached, 2))
			_exit(1);
		fstat(1, &st);
		t0 = bench_now_ns();
		for (i = 0; i < ops; i++)
			fstat(1, &st);
		v = (bench_now_ns() - t0) / ops;
		_exit(write(fds[1], &v, sizeof(v)) != sizeof(v));
	}
	close(fds[1]);
	if (pid < 0 || read(fds[0], &v, sizeof(v)) != sizeof(v))
		v = -1;
	close(fds[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return v;
}

static int floor_fstat(int rounds, int ops)
{
	double arg[MAX_ROUNDS], cached[MAX_ROUNDS], ratio[MAX_ROUNDS];
	int r;

	for (r = 0; r < rounds; r++) {
		/* which runs first alternates too */
		if (r % 2) {
			cached[r] = fstat_child(0, ops);
			arg[r] = fstat_child(1, ops);
		} else {
			arg[r] = fstat_child(1, ops);
			cached[r] = fstat_child(0, ops);
		}
		if (arg[r] <= 0 || cached[r] <= 0)
			return 1;
		ratio[r] = arg[r] / cached[r];
	}
	printf("floor-fstat %.0f %.0f %.3f\n", bench_median(arg, rounds),
	       bench_median(cached, rounds), bench_median(ratio, rounds));
	return 0;
}

int main(int argc, char **argv)
{
	int stat_mode = argc == 5 && !strcmp(argv[1], "stat");
	int rounds, ops;

	if (!stat_mode && !(argc == 4 && !strcmp(argv[1], "fstat"))) {
		fprintf(stderr, "usage: tp-floor stat PATH ROUNDS OPS | fstat ROUNDS OPS\n");
		return 2;
	}
	rounds = atoi(argv[argc - 2]);
	ops = atoi(argv[argc - 1]);
	if (rounds < 1 || rounds > MAX_ROUNDS || ops < 1) {
		fprintf(stderr, "tp-floor: ROUNDS 1..%d, OPS at least 1\n", MAX_ROUNDS);
		return 2;
	}
	return stat_mode ? floor_stat(argv[2], rounds, ops) : floor_fstat(rounds, ops);
}
