// SPDX-License-Identifier: GPL-2.0
/*
 * t-preopen: what can be tested of the pre-open step on a stock kernel: the feature probe,
 * the checks on a directory (pseudo file systems, writable or owned trees, mount points),
 * switching fs credentials and back, and placing fds. The O_CRED_ALLOW open itself is tested
 * in the VM. TAP; needs root.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "preopen.h"
#include "tap.h"

static char base[] = "/tmp/credbox-pre-XXXXXX";
static const struct plan_ident sandbox = { .uid = 65534, .gid = 65534 };

/* The checks on path; *err says why it was refused (what, hint, path). */
static int check(const char *path, struct failure *err)
{
	struct plan_dir dir = { .name = "t", .path = path };
	int fd = open(path, O_RDONLY | O_CLOEXEC), e;

	memset(err, 0, sizeof(*err));
	if (fd < 0)
		return -errno;
	e = preopen_check(&dir, &sandbox, fd, err);
	close(fd);
	return e;
}

/* Refused with e, the exact words "path: what", a hint starting with hint. */
static int refused(int got, const struct failure *err, int e, const char *what,
		   const char *hint, const char *path)
{
	char want[sizeof(err->msg)];
	int ok;

	snprintf(want, sizeof(want), "%s: %s", path, what);
	ok = got == e && !strcmp(err->msg, want) &&
	     (hint ? err->hint && !strncmp(err->hint, hint, strlen(hint)) : !err->hint);
	if (!ok)
		printf("# got %d \"%s\", hint %s\n", got, err->msg,
		       err->hint ? err->hint : "(none)");
	return ok;
}

static void sh(const char *fmt, const char *arg)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), fmt, arg, arg, arg);
	if (system(cmd))
		printf("# command failed: %s\n", cmd);
}

static int place_child(void)
{
	struct plan plan;
	int fds[2], fd;

	memset(&plan, 0, sizeof(plan));
	plan.ndirs = 2;
	plan.dirs[0].fd = 4;
	plan.dirs[1].fd = 3;
	plan.max_fd = 4;
	fds[0] = open("/", O_RDONLY | O_DIRECTORY);	/* lands on 3: must not be clobbered */
	fds[1] = open("/tmp", O_RDONLY | O_DIRECTORY);
	open("/dev/null", O_RDONLY);			/* a stray fd: must be closed */
	dup2(0, 77);
	if (preopen_place(&plan, fds))
		return 1;
	for (fd = 5; fd < 1024; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			return 2;
	{
		struct stat a, b, root, tmp;

		if (fstat(4, &a) || fstat(3, &b) || stat("/", &root) || stat("/tmp", &tmp))
			return 3;
		if (a.st_ino != root.st_ino || b.st_ino != tmp.st_ino)
			return 4;
	}
	return (fcntl(3, F_GETFD) & FD_CLOEXEC) && (fcntl(4, F_GETFD) & FD_CLOEXEC) ? 0 : 5;
}

/* A target right below the usual RLIMIT_NOFILE of 1024: no temporary copy may go above it. */
static int place_top_child(void)
{
	struct rlimit rl = { .rlim_cur = 1024, .rlim_max = 1024 };
	struct stat a, b, root, tmp;
	struct plan plan;
	int fds[2];

	if (setrlimit(RLIMIT_NOFILE, &rl))
		return 1;
	memset(&plan, 0, sizeof(plan));
	plan.ndirs = 2;
	plan.dirs[0].fd = 1023;
	plan.dirs[1].fd = 3;
	plan.max_fd = 1023;
	fds[0] = open("/", O_RDONLY | O_DIRECTORY);
	fds[1] = open("/tmp", O_RDONLY | O_DIRECTORY);
	if (preopen_place(&plan, fds))
		return 2;
	if (fstat(1023, &a) || fstat(3, &b) || stat("/", &root) || stat("/tmp", &tmp))
		return 3;
	return a.st_ino == root.st_ino && b.st_ino == tmp.st_ino ? 0 : 4;
}

int main(void)
{
	struct plan_ident other = { .uid = 4321, .gid = 4322, .groups = { 4323 }, .ngroups = 1 };
	struct preopen_fscred saved;
	struct failure err;
	int e, status, probe = preopen_probe();
	char path[256], deep[256];
	pid_t pid;

	if (geteuid() != 0) {
		tap_skip("pre-open checks", "needs root");
		return tap_done();
	}
	if (probe == -EOPNOTSUPP)
		tap_ok(1, "probe: this kernel refuses O_CRED_ALLOW (stock kernel)");
	else
		tap_ok(probe == 0, "probe: this kernel has O_CRED_ALLOW");
	if (!mkdtemp(base))
		return 1;
	sh("cd %s && mkdir -p tree/a/b && chown -R 1001:1001 tree && chmod -R 755 tree", base);
	snprintf(path, sizeof(path), "%s/tree", base);
	e = check(path, &err);
	tap_ok(e == 0, "a tree owned by another account, not writable by the sandbox: accepted");
	if (e)
		printf("# %d %s\n", e, err.msg);
	snprintf(deep, sizeof(deep), "%s/tree/a/b", base);
	sh("chmod 777 %s/tree/a/b", base);
	e = check(path, &err);
	tap_ok(refused(e, &err, -EPERM, "writable by the sandboxed user (through its uid, groups "
		       "or an ACL)", "the tree must be writable only by its owner: chmod", deep),
	       "a world-writable directory deep in the tree: refused, named, with a hint");
	sh("chmod 775 %s/tree/a/b && chgrp 65534 %s/tree/a/b", base);
	e = check(path, &err);
	tap_ok(refused(e, &err, -EPERM, "writable by the sandboxed user (through its uid, groups "
		       "or an ACL)", "the tree must be writable only by its owner", deep),
	       "a directory writable by the sandbox's group: refused");
	sh("chmod 755 %s/tree/a/b && chown 65534 %s/tree/a/b", base);
	e = check(path, &err);
	tap_ok(refused(e, &err, -EPERM, "owned by the sandboxed user, who could make it writable",
		       "the tree must be writable only by its owner: chown", deep),
	       "a directory owned by the sandbox: refused, with a hint");
	sh("chown 1001:1001 %s/tree/a/b", base);
	if (mount("none", deep, "tmpfs", 0, "mode=755,uid=1001") == 0) {
		e = check(path, &err);
		tap_ok(refused(e, &err, -EXDEV, "a mount point inside the granted tree",
			       "grant each file system as its own [dir]", deep),
		       "a mount point inside the tree: refused");
		umount(deep);
	} else {
		tap_skip("a mount point inside the tree", "cannot mount tmpfs here");
	}
	e = check("/proc", &err);
	tap_ok(refused(e, &err, -EMEDIUMTYPE, "on a pseudo file system (proc)",
		       "grant a directory on a disk file system; /proc, /sys and the like would "
		       "hand out far more than files", "/proc"), "procfs: refused, with a hint");
	e = check("/sys", &err);
	tap_ok(refused(e, &err, -EMEDIUMTYPE, "on a pseudo file system (sysfs)", "grant a",
		       "/sys"), "sysfs: refused");
	e = check("/etc/hostname", &err);
	tap_ok(refused(e, &err, -ENOTDIR, "not a directory", "a [dir] grants a directory",
		       "/etc/hostname"), "a file: refused");
	tap_ok(preopen_hardlinks_protected() == 0 ||
	       preopen_hardlinks_protected() == -EPERM, "fs.protected_hardlinks can be read");

	e = preopen_become(&other, &saved);
	tap_ok(!e && setfsuid(-1) == 4321 && setfsgid(-1) == 4322 && getgroups(0, NULL) == 1,
	       "become: fsuid, fsgid, groups of the owner");
	e = preopen_leave(&saved);
	tap_ok(!e && setfsuid(-1) == 0 && setfsgid(-1) == 0 && geteuid() == 0,
	       "leave: back to root's fs credentials");

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(place_child());
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "place: fds at their numbers, close-on-exec, every other fd closed");
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(place_top_child());
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "place: fd 1023 under RLIMIT_NOFILE 1024");
	sh("rm -rf %s", base);
	return tap_done();
}
