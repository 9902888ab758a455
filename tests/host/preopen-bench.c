// SPDX-License-Identifier: GPL-2.0
/*
 * preopen-bench: what credbox's check of a granted tree costs (preopen.c), against the least
 * any walk of the same tree costs (open and read every directory), paired in one run.
 *
 *   preopen-bench [FILES]     default 10000 files, 100 per directory
 *
 * The tree is built twice under /tmp: on /tmp's own file system, where credbox must stat every
 * regular file for set-ID bits, and on a nodev, nosuid tmpfs, where readdir's types suffice.
 * Warm cache (the tree was just written); the median of 21 runs of each. Needs root.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../vm/bench.h"
#include "preopen.h"

#define RUNS	21
#define PER_DIR	100

/* The floor: open and read every directory, nothing else. Returns the entries seen. */
static long bare_walk(int fd)
{
	DIR *d = fdopendir(openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
	struct dirent *de;
	long n = 0;

	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		n++;
		if (de->d_type == DT_DIR) {
			int sub = openat(fd, de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

			n += bare_walk(sub);
			close(sub);
		}
	}
	if (d)
		closedir(d);
	return n;
}

static void build(const char *top, int files)
{
	char p[512];
	int i, fd;

	mkdir(top, 0755);
	for (i = 0; i < files; i++) {
		if (i % PER_DIR == 0) {
			snprintf(p, sizeof(p), "%s/d%d", top, i / PER_DIR);
			mkdir(p, 0755);
		}
		snprintf(p, sizeof(p), "%s/d%d/f%d", top, i / PER_DIR, i);
		fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		if (fd >= 0)
			close(fd);
	}
}

static int measure(const char *label, const char *top, int files)
{
	struct plan_dir dir = { .name = "bench", .path = top, .id = { .uid = 0, .gid = 0 } };
	struct plan_ident sandbox = { .uid = 65534, .gid = 65534 };
	double check[RUNS], bare[RUNS], t;
	struct failure err;
	int fd = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC), i;

	for (i = 0; i < RUNS; i++) {
		t = bench_now_ns();
		if (preopen_check_bounded(&dir, &sandbox, fd, 10 * (size_t)files, &err)) {
			fprintf(stderr, "preopen-bench: %s\n", err.msg);
			return 1;
		}
		check[i] = bench_now_ns() - t;
		t = bench_now_ns();
		bare_walk(fd);
		bare[i] = bench_now_ns() - t;
	}
	close(fd);
	printf("%-36s %8.2f ms %8.2f ms %6.2fx\n", label, bench_median(check, RUNS) / 1e6,
	       bench_median(bare, RUNS) / 1e6, bench_median(check, RUNS) / bench_median(bare, RUNS));
	return 0;
}

int main(int argc, char **argv)
{
	int files = argc > 1 ? atoi(argv[1]) : 10000, e;
	char base[] = "/tmp/credbox-bench-XXXXXX", top[64], cmd[128], label[64];

	if (files <= 0 || !mkdtemp(base))
		return 1;
	printf("%-36s %11s %11s %7s\n", "tree", "credbox", "readdir", "ratio");
	snprintf(top, sizeof(top), "%s/disk", base);
	build(top, files);
	snprintf(label, sizeof(label), "%d files, /tmp's file system", files);
	e = measure(label, top, files);
	snprintf(top, sizeof(top), "%s/mnt", base);
	mkdir(top, 0755);
	if (!e && mount("none", top, "tmpfs", MS_NODEV | MS_NOSUID, "mode=755") == 0) {
		build(top, files);
		snprintf(label, sizeof(label), "%d files, tmpfs nodev,nosuid", files);
		e = measure(label, top, files);
		umount(top);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", base);
	return system(cmd) || e;
}
