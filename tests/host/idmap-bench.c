// SPDX-License-Identifier: GPL-2.0
/*
 * idmap-bench: what a call costs through an ID-mapped grant (idmap.h) against the same call
 * through a plain bind mount of the same tree, batches of each alternating in one process
 * (make bench-idmap; README, "Benchmarks").
 *
 *   idmap-bench [PAIRS [CALLS]]     default 31 pairs of batches of 2000 calls
 *
 * On /tmp's file system, and on /dev/shm where it is tmpfs. The tree, of uid 4242, beneath its
 * owner's 0700 home (T/home/o/tree), is mounted as credbox mounts a grant (idmap_mount_all:
 * 4242 shows as 4343, a cover on T/home/o), and bound plainly at T/bind/o/tree; then, as uid
 * 4343, stat, open+close and create+unlink of files through each. Prints the median ns per
 * call of the batches of each view, and the median over the pairs of idmap / bind with its
 * quartiles (the spread the machine gives a ratio: compare it with the goal, 1.02). Needs root.
 *
 * What keeps it fair: both views are clones of the one mount, of the same inodes and dentries,
 * both nosuid, nodev and private; the bind view is attached as credbox attaches the grant, on a
 * directory of a small read-only tmpfs over T/bind/o, so that both paths have the same length,
 * depth and mount crossings, and only the ID map differs. 4343 reaches the bind view as
 * "other": the tree's directories are 0755 and its files 0644, where group and other bits are
 * alike so the kernel skips the group check (as for the owner). A file is made in w0 (4242 on
 * disk: 4343's through the map) by the idmap view, in w1 (4343 on disk) by the bind view: two
 * empty directories side by side, names of the same length.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../vm/bench.h"
#include "idmap.h"

#define O_ID	4242	/* the tree's owner on disk */
#define S_ID	4343	/* the program */
#define NFILES	400	/* 200 in each of d0 and d1: every call takes the next, round */
#define NOPS	3

static const char *const op_name[NOPS] = { "stat", "open+close", "create+unlink" };

/* One way to the tree: its files' paths, and the file made and removed. */
struct view {
	char file[NFILES][128];
	char made[128];
};

static struct view views[2];	/* 0: through the ID-mapped grant, 1: the plain bind mount */

/* ns per call of calls of op through v; -1 if a call failed. */
static double batch(const struct view *v, int op, long calls)
{
	double t0 = bench_now_ns();
	struct stat st;
	long i;
	int fd;

	for (i = 0; i < calls; i++) {
		const char *f = v->file[i % NFILES];

		if (op == 0) {
			if (stat(f, &st))
				return -1;
		} else if (op == 1) {
			if ((fd = open(f, O_RDONLY | O_CLOEXEC)) < 0)
				return -1;
			close(fd);
		} else {
			fd = open(v->made, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
			if (fd < 0)
				return -1;
			close(fd);
			if (unlink(v->made))
				return -1;
		}
	}
	return (bench_now_ns() - t0) / calls;
}

static int fail(const char *what)
{
	fprintf(stderr, "idmap-bench: %s: %m\n", what);
	return 1;
}

/* The tree, and the bind view's place, under t (a fresh directory), as root. */
static int build(const char *t)
{
	static const struct { const char *path; uid_t uid; mode_t mode; } dirs[] = {
		{ "home", 0, 0755 }, { "home/o", O_ID, 0700 }, { "home/o/tree", O_ID, 0755 },
		{ "home/o/tree/d0", O_ID, 0755 }, { "home/o/tree/d1", O_ID, 0755 },
		{ "home/o/tree/w0", O_ID, 0755 }, { "home/o/tree/w1", S_ID, 0755 },
		{ "bind", 0, 0755 }, { "bind/o", 0, 0755 },
	};
	int tfd = open(t, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd, e;
	char p[64];
	size_t i;

	e = tfd < 0 || fchmod(tfd, 0755);	/* S_ID must search t (mkdtemp makes it 0700) */
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && !e; i++)
		e = mkdirat(tfd, dirs[i].path, 0700) ||
		    fchmodat(tfd, dirs[i].path, dirs[i].mode, 0) ||
		    fchownat(tfd, dirs[i].path, dirs[i].uid, dirs[i].uid, 0);
	for (i = 0; i < NFILES && !e; i++) {
		snprintf(p, sizeof(p), "home/o/tree/d%zu/f%03zu", i % 2, i / 2);
		fd = openat(tfd, p, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		e = fd < 0 || write(fd, "data\n", 5) != 5 || fchown(fd, O_ID, O_ID) ||
		    fchmod(fd, 0644);
		if (fd >= 0)
			close(fd);
	}
	if (tfd >= 0)
		close(tfd);
	return e;
}

/* The bind view at t/bind/o/tree (path q): the clone of dirfd's mount, on a cover of bind/o. */
static int mount_bind(const char *t, int dirfd, const char *q)
{
	struct mount_attr attr = { .attr_set = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
				   .propagation = MS_PRIVATE };	/* as the grant's clone */
	char cover[128];
	int fd;

	/* The cover as credbox makes it: 0755 root, small, nosuid, nodev, noexec, read-only. */
	snprintf(cover, sizeof(cover), "%s/bind/o", t);
	if (mount("tmpfs", cover, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  "mode=0755,size=64k") ||
	    mkdir(q, 0755) || chmod(q, 0755) ||
	    mount(NULL, cover, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV |
		  MS_NOEXEC, NULL))
		return fail("the bind view's cover");
	/* dirfd is still the tree on its own mount, under the grant that now has its path */
	fd = open_tree(dirfd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
	if (fd < 0 || mount_setattr(fd, "", AT_EMPTY_PATH, &attr, sizeof(attr)) ||
	    move_mount(fd, "", AT_FDCWD, q, MOVE_MOUNT_F_EMPTY_PATH))
		return fail("the bind mount");
	close(fd);
	return 0;
}

/* In a child of its own mount namespace: both views mounted, then timed as S_ID. */
static int measure(const char *t, const char *fs, int pairs, long calls)
{
	static const struct plan_ident run = { .uid = S_ID, .gid = S_ID };
	struct idmap_tree tree = { .ids = { O_ID, S_ID, O_ID, S_ID }, .userns_fd = -1 };
	double ns[2][NOPS][pairs], ratio[NOPS][pairs];
	char p[96], q[96];
	struct stat a, b;
	int op, i, k, e;
	size_t at;

	snprintf(p, sizeof(p), "%s/home/o/tree", t);
	snprintf(q, sizeof(q), "%s/bind/o/tree", t);	/* as long as p, as deep */
	if ((e = idmap_private_ns())) {
		errno = -e;
		return fail("a mount namespace");
	}
	if ((tree.dirfd = open(p, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return fail(p);
	if ((e = idmap_userns(&tree.ids, &tree.userns_fd, NULL)) ||
	    (e = idmap_mount_all(&tree, 1, &run, &at))) {
		printf("skip %s: the ID-mapped grant: %s\n", fs, strerror(-e));
		return e != -EINVAL;	/* EINVAL: a file system without ID-mapped mounts */
	}
	if (mount_bind(t, tree.dirfd, q))
		return 1;

	/* The program's identity, nothing else of root's. */
	if (setgroups(0, NULL) || setresgid(S_ID, S_ID, S_ID) || setresuid(S_ID, S_ID, S_ID))
		return fail("dropping to uid 4343");
	umask(022);
	/* Each view is what it says: the same tree, its owner mapped in one, not in the other. */
	if (stat(p, &a) || stat(q, &b) || a.st_uid != S_ID || b.st_uid != O_ID ||
	    a.st_ino != b.st_ino || a.st_dev != b.st_dev) {
		fprintf(stderr, "idmap-bench: %s: not the one tree, mapped and not\n", fs);
		return 1;
	}
	for (k = 0; k < 2; k++) {
		for (i = 0; i < NFILES; i++)
			snprintf(views[k].file[i], sizeof(views[k].file[i]), "%s/d%d/f%03d",
				 k ? q : p, i % 2, i / 2);
		snprintf(views[k].made, sizeof(views[k].made), "%s/w%d/new", k ? q : p, k);
	}
	/*
	 * Call by call, pairs of batches, the first view alternating; one untimed batch of each
	 * before (caches warm). The call is the outer loop: a batch right after a batch of
	 * another call runs some 10% slower (stat), which with the order alternating made the
	 * ratios of even and odd pairs two groups, and their median either.
	 */
	for (op = 0; op < NOPS; op++) {
		for (k = 0; k < 2; k++)
			if (batch(&views[k], op, calls) < 0)
				return fail(op_name[op]);
		for (i = 0; i < pairs; i++) {
			for (k = 0; k < 2; k++)
				ns[(i + k) % 2][op][i] = batch(&views[(i + k) % 2], op, calls);
			ratio[op][i] = ns[0][op][i] / ns[1][op][i];
		}
	}
	for (op = 0; op < NOPS; op++) {
		double m = bench_median(ratio[op], pairs);	/* sorts: the quartiles follow */

		printf("%-6s %-14s %9.1f %9.1f %7.3f  %5.3f-%5.3f\n", fs, op_name[op],
		       bench_median(ns[0][op], pairs), bench_median(ns[1][op], pairs), m,
		       ratio[op][pairs / 4], ratio[op][(3 * pairs) / 4]);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct { const char *dir, *fs; long magic; } where[] = {
		{ "/tmp", NULL, 0 }, { "/dev/shm", "tmpfs", TMPFS_MAGIC },
	};
	int pairs = argc > 1 ? atoi(argv[1]) : 31, status, e = 0;
	long calls = argc > 2 ? atol(argv[2]) : 2000;
	char t[64], cmd[96];
	struct statfs sf;
	size_t w;
	pid_t pid;

	if (pairs < 1 || calls < 1 || geteuid() != 0) {
		fprintf(stderr, "usage: idmap-bench [PAIRS [CALLS]], as root\n");
		return 2;
	}
	printf("%-6s %-14s %9s %9s %7s  %s\n", "fs", "call", "idmap ns", "bind ns", "ratio",
	       "quartiles");
	for (w = 0; w < sizeof(where) / sizeof(where[0]); w++) {
		const char *fs = where[w].fs;

		if (statfs(where[w].dir, &sf) || (fs && sf.f_type != where[w].magic)) {
			printf("skip %s: not %s\n", where[w].dir, fs ? fs : "there");
			continue;
		}
		if (!fs)
			fs = sf.f_type == EXT4_SUPER_MAGIC ? "ext4" :
			     sf.f_type == TMPFS_MAGIC ? "tmpfs" : "other";
		snprintf(t, sizeof(t), "%s/credbox-idmap-bench-XXXXXX", where[w].dir);
		if (!mkdtemp(t))
			return 1;
		if (build(t)) {
			perror(t);
			e = 1;
		} else {
			fflush(stdout);
			pid = fork();
			if (pid == 0) {
				status = measure(t, fs, pairs, calls);
				fflush(stdout);
				_exit(status);
			}
			/* The namespace, its mounts and the process of S_ID end with the child. */
			e |= pid < 0 || waitpid(pid, &status, 0) != pid || status;
		}
		snprintf(cmd, sizeof(cmd), "rm -rf %s", t);
		e |= system(cmd) != 0;
	}
	printf("(%d pairs of batches of %ld calls, the order alternating; ns: median of the "
	       "batches; ratio: median over the pairs of idmap / bind, and its quartiles)\n", pairs,
	       calls);
	return e;
}
