// SPDX-License-Identifier: GPL-2.0
/*
 * bench-kernel: the measurements behind property 7 of the kernel series, run
 * inside a guest (tests/vm/bench-kernel boots the kernels and compares them).
 *
 *   bench-kernel exec [NFDS [EXECS [ROUNDS]]]   execve() holding NFDS open fds
 *   bench-kernel open [OPENS [ROUNDS]]          openat2() with and without
 *                                               OA2_CRED_INHERIT, interleaved
 *   bench-kernel dirops [COUNT [ROUNDS]]        the directory operations with and
 *                                               without AT_CRED_INHERIT, interleaved
 *   bench-kernel all                            all three, with the defaults
 *
 * Output is one key=value pair per line, for scripts:
 *   exec_fds, exec_count, exec_rounds, exec_ns (median ns per execve), ref_ns
 *   (a fixed userspace loop timed around every exec round) and exec_norm
 *   (median of exec ns / ref ns per round: under TCG the guest's speed follows
 *   the host's load, which the reference loop measures; ratios of exec_norm
 *   between boots are steadier than ratios of exec_ns) and exec_min_ns (the
 *   fastest round: load on the host only ever adds time)
 *   open_supported, open_count, open_rounds, open_plain_ns, and with the series
 *   open_inherit_ns (median ns per open+close) and open_ratio (median of the
 *   per-round inherit/plain ratios)
 *   dirops_supported, and per operation OP (stat, access, mkdir, rmdir, unlink,
 *   rename, readlink, and where the kernel lends them chmod, utimes, link,
 *   symlink, fchmod and futimens: attrs_supported) dirops_OP_plain_ns,
 *   dirops_OP_inherit_ns and dirops_OP_ratio; dirops_readlink_direct_ns is
 *   readlinkat(dfd, path) itself, one call
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "../../src/uapi.h"

#define MAX_ROUNDS 64

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* ---- execve with many open fds ------------------------------------------ */

/*
 * One link of the chain: argv = self --chain LEFT START_NS PIPE_FD.  Each link
 * execs the next with the same fd table, so only execve() itself is timed;
 * the last link reports the mean ns per execve on the pipe.
 */
static int exec_chain(char **argv)
{
	long left = atol(argv[2]);
	long long start = atoll(argv[3]);
	int out = atoi(argv[4]);
	char next[32];

	if (left > 0) {
		snprintf(next, sizeof(next), "%ld", left - 1);
		argv[2] = next;
		execv("/proc/self/exe", argv);
		perror("bench-kernel: execv");
		return 1;
	}
	dprintf(out, "%lld\n", now_ns() - start);
	return 0;
}

/* Runs one chain of @execs execve() calls; returns ns per execve, or -1. */
static double exec_round(long execs)
{
	char left[32], start[32], fdnum[16], buf[64] = "";
	char *argv[] = { "bench-kernel", "--chain", left, start, fdnum, NULL };
	int pfd[2], status;
	ssize_t n;
	pid_t pid;

	if (pipe(pfd))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		snprintf(left, sizeof(left), "%ld", execs);
		snprintf(start, sizeof(start), "%lld", now_ns());
		snprintf(fdnum, sizeof(fdnum), "%d", pfd[1]);
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	close(pfd[1]);
	n = read(pfd[0], buf, sizeof(buf) - 1);
	close(pfd[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || status || n <= 0)
		return -1;
	return atof(buf) / (execs + 1);
}

/* ns taken by a fixed amount of userspace work, independent of the kernel. */
static double ref_round(void)
{
	long long t0 = now_ns();
	volatile unsigned int x = 1;
	long i;

	for (i = 0; i < 4000000; i++)
		x = x * 1103515245u + 12345u;
	return (double)(now_ns() - t0);
}

/* Fills the fd table with @nfds plain fds (no FD_CLOEXEC: they stay open). */
static int open_many(int nfds)
{
	struct rlimit rl = { nfds + 64, nfds + 64 };
	int base, i;

	if (setrlimit(RLIMIT_NOFILE, &rl))
		return -errno;
	base = open("/dev/null", O_RDONLY);
	if (base < 0)
		return -errno;
	for (i = 1; i < nfds; i++)
		if (dup(base) < 0)
			return -errno;
	return 0;
}

static int bench_exec(int nfds, long execs, int rounds)
{
	double v[MAX_ROUNDS], ref[MAX_ROUNDS], norm[MAX_ROUNDS];
	int i, err;

	err = open_many(nfds);
	if (err) {
		fprintf(stderr, "bench-kernel: cannot open %d fds: %s\n", nfds, strerror(-err));
		return 1;
	}
	exec_round(execs / 10 + 1);	/* warm the page cache and the slabs */
	for (i = 0; i < rounds; i++) {
		ref[i] = ref_round();
		v[i] = exec_round(execs);
		ref[i] = (ref[i] + ref_round()) / 2;
		if (v[i] < 0) {
			fprintf(stderr, "bench-kernel: exec round failed\n");
			return 1;
		}
		norm[i] = v[i] / ref[i];
	}
	printf("exec_fds=%d\nexec_count=%ld\nexec_rounds=%d\nexec_ns=%.0f\nref_ns=%.0f\n"
	       "exec_norm=%.6f\n", nfds, execs, rounds, bench_median(v, rounds), bench_median(ref, rounds),
	       bench_median(norm, rounds));
	/* bench_median() sorted v: v[0] is the fastest round, the least disturbed */
	printf("exec_min_ns=%.0f\n", v[0]);
	return 0;
}

/* ---- openat2 with and without OA2_CRED_INHERIT ---------------------------- */

static int oa2(int dfd, const char *path, unsigned long long flags, unsigned long long mode)
{
	struct open_how how = { .flags = flags, .mode = mode, .resolve = RESOLVE_BENEATH };

	return syscall(SYS_openat2, dfd, path, &how, sizeof(how));
}

/* ns per open+close of @count opens of "a/b/c/f" below @dfd. */
static double open_loop(int dfd, unsigned long long flags, long count)
{
	long long t0 = now_ns();
	long i;

	for (i = 0; i < count; i++) {
		int fd = oa2(dfd, "a/b/c/f", O_RDONLY | flags, 0);

		if (fd < 0)
			return -1;
		close(fd);
	}
	return (double)(now_ns() - t0) / count;
}

static int make_tree(char *dir)
{
	char path[128];
	int fd;

	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/a", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/a/b", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/a/b/c", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/a/b/c/f", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

/* Without the series only the plain opens are timed (for the cross-kernel ratio). */
static int bench_open(long count, int rounds)
{
	double plain[MAX_ROUNDS], inherit[MAX_ROUNDS], ratio[MAX_ROUNDS];
	char dir[] = "/tmp/bench-open.XXXXXX";
	unsigned long long flag = OA2_CRED_INHERIT;
	int dfd, pfd, fd, i;

	if (make_tree(dir))
		return 1;
	/* the flag's opens through an O_CRED_ALLOW fd, the plain ones through a plain fd */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CRED_ALLOW);
	pfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (dfd < 0 || pfd < 0)
		return 1;
	fd = oa2(dfd, "a/b/c/f", O_RDONLY | flag, 0);
	printf("open_supported=%d\n", fd >= 0);
	if (fd >= 0)
		close(fd);
	else
		flag = 0;
	open_loop(pfd, 0, count / 10 + 1);
	open_loop(dfd, flag, count / 10 + 1);
	for (i = 0; i < rounds; i++) {
		/* Alternate the order so that drift favours neither. */
		if (i % 2) {
			inherit[i] = open_loop(dfd, flag, count);
			plain[i] = open_loop(pfd, 0, count);
		} else {
			plain[i] = open_loop(pfd, 0, count);
			inherit[i] = open_loop(dfd, flag, count);
		}
		if (plain[i] <= 0 || inherit[i] <= 0)
			return 1;
		ratio[i] = inherit[i] / plain[i];
	}
	printf("open_count=%ld\nopen_rounds=%d\nopen_plain_ns=%.0f\n", count, rounds,
	       bench_median(plain, rounds));
	if (flag)
		printf("open_inherit_ns=%.0f\nopen_ratio=%.4f\n", bench_median(inherit, rounds),
		       bench_median(ratio, rounds));
	return 0;
}

/* ---- the directory operations with and without AT_CRED_INHERIT -------------- */

#define DIROPS_N 13
#define DIROPS_OLD 7	/* the operations before modes, times and links */
static const char *const dirop_names[DIROPS_N] = {
	"stat", "access", "mkdir", "rmdir", "unlink", "rename", "readlink",
	"chmod", "utimes", "link", "symlink", "fchmod", "futimens",
};

/*
 * ns per operation of @count operations OP beneath the tree, with the opt-in
 * through @lent (its O_CRED_ALLOW fd) when @inherit, else through @plain (a
 * plain fd of it: a lent directory starts no call of its holder's own but an
 * open).  Root runs them, so its own rights suffice without the flag: the
 * pairs differ by the flag and the directory fd only.  mkdir with the opt-in is openat2(O_CREAT |
 * O_DIRECTORY | O_EXCL) and a close, so without it mkdirat() is followed by
 * the open and close that give the same result.  readlink with the opt-in is
 * an O_PATH open, readlinkat(fd, "") and a close; without it, the same calls.
 * chmod and utimes are fchmodat2() and utimensat() on a path; fchmod and
 * futimens the same calls with AT_EMPTY_PATH on an open file of the tree (one
 * borrowed through @lent, or one opened through @plain); link and symlink are
 * linkat() and symlinkat2() (symlinkat() without the opt-in), each new name
 * removed untimed.  Untimed set-up (making what rmdir and unlink remove, the
 * files the fd forms use) runs before the clock.
 */
static double dirop_loop(int lent, int plain, int op, int inherit, long count)
{
	const int dfd = inherit ? lent : plain;
	const int at = inherit ? AT_CRED_INHERIT : 0;
	const unsigned long long oa = inherit ? OA2_CRED_INHERIT : 0;
	struct timespec ts[2] = { { 1, 0 }, { 2, 0 } };
	char name[32], buf[64];
	struct stat st;
	long long t0;
	long i;
	int fd = -1;

	if (op == 3 || op == 4) {	/* rmdir, unlink: make the victims first */
		for (i = 0; i < count; i++) {
			snprintf(name, sizeof(name), "a/b/c/v%ld", i);
			if (op == 3 ? mkdirat(plain, name, 0700) :
			    (fd = openat(plain, name, O_CREAT | O_WRONLY | O_CLOEXEC, 0600)) < 0 ||
			    close(fd))
				return -1;
		}
	}
	if (op == 11 || op == 12) {	/* fchmod, futimens: the file they change */
		fd = oa2(dfd, "a/b/c/f", O_RDONLY | O_CLOEXEC | oa, 0);
		if (fd < 0)
			return -1;
	}
	t0 = now_ns();
	for (i = 0; i < count; i++) {
		int ret = 0;

		switch (op) {
		case 0:
			ret = fstatat(dfd, "a/b/c/f", &st, at);
			break;
		case 1:
			ret = syscall(SYS_faccessat2, dfd, "a/b/c/f", R_OK, AT_EACCESS | at);
			break;
		case 2:
			snprintf(name, sizeof(name), "a/b/c/m%ld", i);
			if (!inherit && mkdirat(dfd, name, 0700))
				return -1;
			fd = oa2(dfd, name, O_DIRECTORY | O_CLOEXEC |
				 (inherit ? O_CREAT | O_EXCL | oa : 0), inherit ? 0700 : 0);
			ret = fd < 0 ? fd : close(fd);
			break;
		case 3:
		case 4:
			snprintf(name, sizeof(name), "a/b/c/v%ld", i);
			ret = unlinkat(dfd, name, (op == 3 ? AT_REMOVEDIR : 0) | at);
			break;
		case 5:
			ret = syscall(SYS_renameat2, dfd, (i & 1) ? "a/b/c/g" : "a/b/c/f", dfd,
				      (i & 1) ? "a/b/c/f" : "a/b/c/g", at);
			break;
		case 6:
			fd = oa2(dfd, "a/b/c/l", O_PATH | O_NOFOLLOW | O_CLOEXEC | oa, 0);
			ret = fd < 0 ? fd : readlinkat(fd, "", buf, sizeof(buf)) < 0;
			if (fd >= 0)
				close(fd);
			break;
		case 7:
			ret = syscall(SYS_fchmodat2, dfd, "a/b/c/f", (i & 1) ? 0644 : 0600, at);
			break;
		case 8:
			ret = utimensat(dfd, "a/b/c/f", ts, at);
			break;
		case 9:
			snprintf(name, sizeof(name), "a/b/c/h%ld", i);
			ret = linkat(dfd, "a/b/c/f", dfd, name, at);
			break;
		case 10:
			snprintf(name, sizeof(name), "a/b/c/s%ld", i);
			ret = inherit ? syscall(SYS_symlinkat2, "f", dfd, name, at) :
					symlinkat("f", dfd, name);
			break;
		case 11:
			ret = syscall(SYS_fchmodat2, fd, "", (i & 1) ? 0644 : 0600,
				      AT_EMPTY_PATH | at);
			break;
		default:
			ret = utimensat(fd, "", ts, AT_EMPTY_PATH | at);
			break;
		}
		if (ret)
			return -1;
	}
	t0 = now_ns() - t0;
	if (fd >= 0)
		close(fd);
	for (i = 0; i < count && (op == 2 || op == 9 || op == 10); i++) {
		/* the directories and names made are removed untimed */
		snprintf(name, sizeof(name), "a/b/c/%c%ld", op == 2 ? 'm' : op == 9 ? 'h' : 's', i);
		unlinkat(plain, name, op == 2 ? AT_REMOVEDIR : 0);
	}
	return (double)t0 / count;
}

/* readlinkat(dfd, path): the single call the O_PATH route replaces. */
static double readlink_direct(int dfd, long count)
{
	long long t0 = now_ns();
	char buf[64];
	long i;

	for (i = 0; i < count; i++)
		if (readlinkat(dfd, "a/b/c/l", buf, sizeof(buf)) < 0)
			return -1;
	return (double)(now_ns() - t0) / count;
}

static int bench_dirops(long count, int rounds)
{
	double plain[DIROPS_N][MAX_ROUNDS], inherit[DIROPS_N][MAX_ROUNDS];
	double ratio[DIROPS_N][MAX_ROUNDS], direct[MAX_ROUNDS];
	char dir[] = "/tmp/bench-dirops.XXXXXX", path[96];
	int dfd, pfd, op, ops, i;

	if (make_tree(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/a/b/c/l", dir);
	if (symlink("f", path))
		return 1;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CRED_ALLOW);
	pfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (dfd < 0 || pfd < 0)
		return 1;
	/* Without the directory operations unlinkat refuses the flag: EINVAL. */
	i = unlinkat(dfd, "nothing", AT_CRED_INHERIT) ? errno : 0;
	printf("dirops_supported=%d\n", i == ENOENT);
	if (i != ENOENT)
		return 0;
	/* Without modes, times and links utimensat refuses the flag: EINVAL. */
	i = utimensat(dfd, "nothing", NULL, AT_CRED_INHERIT) ? errno : 0;
	printf("attrs_supported=%d\n", i == ENOENT);
	ops = i == ENOENT ? DIROPS_N : DIROPS_OLD;
	count &= ~1L;	/* renames go there and back */
	for (op = 0; op < ops; op++) {
		dirop_loop(dfd, pfd, op, 0, (count / 20 + 1) * 2);
		dirop_loop(dfd, pfd, op, 1, (count / 20 + 1) * 2);
	}
	for (i = 0; i < rounds; i++) {
		for (op = 0; op < ops; op++) {
			/* Alternate the order so that drift favours neither. */
			if (i % 2) {
				inherit[op][i] = dirop_loop(dfd, pfd, op, 1, count);
				plain[op][i] = dirop_loop(dfd, pfd, op, 0, count);
			} else {
				plain[op][i] = dirop_loop(dfd, pfd, op, 0, count);
				inherit[op][i] = dirop_loop(dfd, pfd, op, 1, count);
			}
			if (plain[op][i] <= 0 || inherit[op][i] <= 0) {
				fprintf(stderr, "bench-kernel: %s failed\n", dirop_names[op]);
				return 1;
			}
			ratio[op][i] = inherit[op][i] / plain[op][i];
		}
		direct[i] = readlink_direct(pfd, count);
	}
	printf("dirops_count=%ld\ndirops_rounds=%d\n", count, rounds);
	for (op = 0; op < ops; op++)
		printf("dirops_%s_plain_ns=%.0f\ndirops_%s_inherit_ns=%.0f\ndirops_%s_ratio=%.4f\n",
		       dirop_names[op], bench_median(plain[op], rounds), dirop_names[op],
		       bench_median(inherit[op], rounds), dirop_names[op],
		       bench_median(ratio[op], rounds));
	printf("dirops_readlink_direct_ns=%.0f\n", bench_median(direct, rounds));
	return 0;
}

static long arg(int argc, char **argv, int i, long def)
{
	return argc > i ? atol(argv[i]) : def;
}

static int clamp_rounds(long r)
{
	return r < 1 ? 1 : r > MAX_ROUNDS ? MAX_ROUNDS : (int)r;
}

int main(int argc, char **argv)
{
	int ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 5 && !strcmp(argv[1], "--chain"))
		return exec_chain(argv);
	if (argc > 1 && !strcmp(argv[1], "exec"))
		return bench_exec(arg(argc, argv, 2, 10000), arg(argc, argv, 3, 200),
				  clamp_rounds(arg(argc, argv, 4, 7)));
	if (argc > 1 && !strcmp(argv[1], "open"))
		return bench_open(arg(argc, argv, 2, 20000), clamp_rounds(arg(argc, argv, 3, 11)));
	if (argc > 1 && !strcmp(argv[1], "dirops"))
		return bench_dirops(arg(argc, argv, 2, 2000), clamp_rounds(arg(argc, argv, 3, 9)));
	if (argc > 1 && !strcmp(argv[1], "all")) {
		/* open first: exec fills the fd table for good */
		ret = bench_open(20000, 11);
		ret = ret ? ret : bench_dirops(2000, 9);
		return ret ? ret : bench_exec(10000, 200, 7);
	}
	fprintf(stderr, "usage: bench-kernel exec [NFDS [EXECS [ROUNDS]]] | open [OPENS [ROUNDS]] | "
		"dirops [COUNT [ROUNDS]] | all\n");
	return 2;
}
