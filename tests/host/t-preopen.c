// SPDX-License-Identifier: GPL-2.0
/*
 * t-preopen: what can be tested of the pre-open step on a stock kernel: the feature probe,
 * the checks on a tree (pseudo file systems; directories another user could change: group or
 * other write, another owner, ACLs, default ACLs; mount points; device nodes unless nodev,
 * FIFOs, sockets, set-ID programs unless nosuid; the bound on its size), switching fs
 * credentials and back, and placing fds. The O_CRED_ALLOW open itself is tested
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
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/xattr.h>
#include <sys/wait.h>
#include <unistd.h>

#include "preopen.h"
#include "tap.h"
#include "uapi.h"

static char base[] = "/tmp/credbox-pre-XXXXXX";
static const struct plan_ident sandbox = { .uid = 65534, .gid = 65534 };

/* The checks on path; *err says why it was refused (what, hint, path). */
static int check(const char *path, struct failure *err)
{
	struct plan_dir dir = { .name = "t", .path = path, .id = { .uid = 1001, .gid = 1001 } };
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
	if (preopen_place(&plan, fds, NULL))
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

/*
 * A fd to keep (a dynamic user's lock) sitting on a target's number: it moves off it, still
 * the same open file, and is not closed with the rest.
 */
static int place_keep_child(void)
{
	struct stat k, lock;
	struct plan plan;
	int fds[1], keep, fd;

	memset(&plan, 0, sizeof(plan));
	plan.ndirs = 1;
	plan.dirs[0].fd = 3;
	plan.max_fd = 3;
	keep = open("/dev/null", O_RDONLY);		/* lands on 3, the target */
	fds[0] = open("/", O_RDONLY | O_DIRECTORY);
	open("/tmp", O_RDONLY | O_DIRECTORY);		/* a stray fd: must be closed */
	if (keep != 3 || preopen_place(&plan, fds, &keep))
		return 1;
	if (keep == 3 || fstat(keep, &k) || stat("/dev/null", &lock) || k.st_rdev != lock.st_rdev)
		return 2;
	for (fd = 4; fd < 1024; fd++)
		if (fd != keep && fcntl(fd, F_GETFD) >= 0)
			return 3;
	return 0;
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
	if (preopen_place(&plan, fds, NULL))
		return 2;
	if (fstat(1023, &a) || fstat(3, &b) || stat("/", &root) || stat("/tmp", &tmp))
		return 3;
	return a.st_ino == root.st_ino && b.st_ino == tmp.st_ino ? 0 : 4;
}

/* The posix_acl xattr format (linux/posix_acl_xattr.h): a header, then tag/perm/id entries. */
static int set_acl(const char *path, const char *name, uid_t user)
{
	struct { unsigned short tag, perm; unsigned int id; } e[5] = {
		{ 0x01, 7, -1 },	/* ACL_USER_OBJ rwx */
		{ 0x02, 7, user },	/* ACL_USER user rwx */
		{ 0x04, 5, -1 },	/* ACL_GROUP_OBJ r-x */
		{ 0x10, 7, -1 },	/* ACL_MASK rwx */
		{ 0x20, 5, -1 },	/* ACL_OTHER r-x */
	};
	char buf[4 + sizeof(e)];
	unsigned int version = 2;

	memcpy(buf, &version, 4);
	memcpy(buf + 4, e, sizeof(e));
	return setxattr(path, name, buf, sizeof(buf), 0);
}

/* The rules for the directories of a tree: only its owner (or root) may change them. */
static void test_dirs(const char *path, const char *deep)
{
	struct failure err;
	int e;

	e = check(path, &err);
	tap_ok(e == 0, "a tree owned by its [dir] owner, writable by nobody else: accepted");
	if (e)
		printf("# %d %s\n", e, err.msg);
	sh("chmod 777 %s/tree/a/b", base);
	e = check(path, &err);
	tap_ok(refused(e, &err, -EPERM, "writable by others (mode 0777)",
		       "the tree must be writable only by its owner: chmod go-w", deep),
	       "a world-writable directory deep in the tree: refused, named, with a hint");
	sh("chmod 775 %s/tree/a/b && chgrp 65534 %s/tree/a/b", base);
	e = check(path, &err);
	tap_ok(refused(e, &err, -EPERM, "writable by its group, gid 65534 (mode 0775)",
		       "the tree must be writable only by its owner", deep),
	       "a directory writable by the sandbox's group: refused");
	sh("chgrp 4000 %s/tree/a/b", base);
	e = check(path, &err);
	tap_ok(refused(e, &err, -EPERM, "writable by its group, gid 4000 (mode 0775)",
		       "the tree must be writable only by its owner", deep),
	       "a directory writable by a third group: refused (its members could plant links)");
	sh("chmod 755 %s/tree/a/b && chown 65534 %s/tree/a/b", base);
	e = check(path, &err);
	tap_ok(refused(e, &err, -EPERM, "owned by the sandboxed user, who could make it writable",
		       "the tree must be writable only by its owner: chown", deep),
	       "a directory owned by the sandbox: refused, with a hint");
	sh("chown 4321 %s/tree/a/b", base);
	e = check(path, &err);
	tap_ok(refused(e, &err, -EPERM, "owned by uid 4321, not by the [dir] owner (uid 1001) or "
		       "root: uid 4321 could make it writable",
		       "the tree must be writable only by its owner: chown", deep),
	       "a directory owned by a third user: refused");
	sh("chown 0:0 %s/tree/a/b", base);
	e = check(path, &err);
	tap_ok(e == 0, "a directory owned by root, not writable by others: accepted");
	sh("chown 1001:1001 %s/tree/a/b", base);
	if (set_acl(deep, "system.posix_acl_access", 4321) == 0) {
		e = check(path, &err);
		tap_ok(refused(e, &err, -EPERM, "an ACL lets another user or group write (mode "
			       "0775, whose group bits are the ACL's mask)",
			       "the tree must be writable only by its owner", deep),
		       "an ACL entry giving a third user write: refused");
		removexattr(deep, "system.posix_acl_access");
		sh("chmod 755 %s/tree/a/b", base);
	} else {
		tap_skip("an ACL entry giving a third user write", "no POSIX ACLs on /tmp");
	}
	if (set_acl(deep, "system.posix_acl_default", 4321) == 0) {
		e = check(path, &err);
		tap_ok(refused(e, &err, -EPERM, "its default ACL lets another user or group write "
			       "in what is created there", "remove the default ACL", deep),
		       "a default ACL giving a third user write in new directories: refused");
		removexattr(deep, "system.posix_acl_default");
	} else {
		tap_skip("a default ACL", "no POSIX ACLs on /tmp");
	}
	if (mount("none", deep, "tmpfs", 0, "mode=755,uid=1001") == 0) {
		e = check(path, &err);
		tap_ok(refused(e, &err, -EXDEV, "a mount point inside the granted tree",
			       "grant each file system as its own [dir]", deep),
		       "a mount point inside the tree: refused");
		umount(deep);
	} else {
		tap_skip("a mount point inside the tree", "cannot mount tmpfs here");
	}
}

/* An AF_UNIX socket bound at path. */
static int make_socket(const char *path)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0), e;

	if (strlen(path) < sizeof(sun.sun_path))
		memcpy(sun.sun_path, path, strlen(path) + 1);
	e = fd < 0 || !sun.sun_path[0] ? -1 : bind(fd, (struct sockaddr *)&sun, sizeof(sun));
	if (fd >= 0)
		close(fd);
	return e;
}

/* What else a tree may not hold: device nodes (unless nodev), FIFOs, sockets, set-ID programs. */
static void test_entries(const char *path, const char *deep)
{
	char file[512], mnt[256];
	struct failure err;
	int e;

	snprintf(file, sizeof(file), "%s/null", deep);
	mknod(file, S_IFCHR | 0666, makedev(1, 3));
	e = check(path, &err);
	tap_ok(refused(e, &err, -EPERM, "a device node (character device 1:3), which the fd "
		       "would open with the owner's groups", "remove it, or mount the file system "
		       "with nodev", file), "a device node: refused");
	unlink(file);
	snprintf(file, sizeof(file), "%s/fifo", deep);
	mkfifo(file, 0600);
	e = check(path, &err);
	tap_ok(refused(e, &err, -EPERM, "a FIFO, on which the program could block or talk to "
		       "another process", "a granted tree holds files and directories", file),
	       "a FIFO: refused");
	unlink(file);
	snprintf(file, sizeof(file), "%s/sock", deep);
	tap_ok(make_socket(file) == 0, "(a socket bound in the tree)");
	e = check(path, &err);
	tap_ok(refused(e, &err, -EPERM, "a socket, an endpoint of another process",
		       "a granted tree holds files and directories", file), "a socket: refused");
	unlink(file);
	snprintf(file, sizeof(file), "%s/prog", deep);
	sh("cp /bin/true %s/tree/a/b/prog && chown 1001:1001 %s/tree/a/b/prog && "
	   "chmod 4755 %s/tree/a/b/prog", base);
	e = check(path, &err);
	tap_ok(refused(e, &err, -EPERM, "a set-user-ID program (mode 4755), which runs with its "
		       "owner's rights for whoever starts it", "chmod u-s,g-s, or mount the file "
		       "system with nosuid", file), "a set-user-ID program: refused");
	sh("chmod 2755 %s/tree/a/b/prog", base);
	e = check(path, &err);
	tap_ok(refused(e, &err, -EPERM, "a set-group-ID program (mode 2755), which runs with its "
		       "group's rights for whoever starts it", "chmod u-s,g-s", file),
	       "a set-group-ID program: refused");
	sh("chmod 755 %s/tree/a/b/prog", base);
	e = check(path, &err);
	tap_ok(e == 0, "... the same program without the set-ID bits: accepted");

	/* On a nodev, nosuid mount, device nodes and set-ID bits are inert. */
	snprintf(mnt, sizeof(mnt), "%s/mnt", base);
	mkdir(mnt, 0755);
	if (mount("none", mnt, "tmpfs", MS_NODEV | MS_NOSUID, "mode=755,uid=1001,gid=1001")) {
		tap_skip("a nodev, nosuid mount", "cannot mount tmpfs here");
		return;
	}
	snprintf(file, sizeof(file), "%s/null", mnt);
	mknod(file, S_IFCHR | 0666, makedev(1, 3));
	sh("cp /bin/true %s/mnt/prog && chmod 4755 %s/mnt/prog", base);
	e = check(mnt, &err);
	tap_ok(e == 0, "on a nodev, nosuid mount: a device node and a set-user-ID file accepted");
	if (e)
		printf("# %d %s\n", e, err.msg);
	umount(mnt);
}

/* The walk is bounded: past the limit the tree is refused, not walked on. */
static void test_bound(const char *path)
{
	struct plan_dir dir = { .name = "t", .path = path, .id = { .uid = 1001, .gid = 1001 } };
	struct failure err;
	int fd, e;

	sh("cd %s/tree && for i in 1 2 3 4 5 6 7 8 9 10 11 12; do touch f$i; done && "
	   "chown 1001:1001 f*", base);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	e = preopen_check_bounded(&dir, &sandbox, fd, 10, &err);
	tap_ok(e == -E2BIG && strstr(err.msg, "more than 10 entries in the tree") &&
	       err.hint && !strcmp(err.hint, "grant a smaller tree"),
	       "more entries than the bound: refused, not walked on");
	if (e != -E2BIG)
		printf("# %d %s\n", e, err.msg);
	e = preopen_check_bounded(&dir, &sandbox, fd, 100, &err);
	tap_ok(e == 0, "... and within a larger bound: accepted");
	close(fd);
}

int main(void)
{
	struct plan_ident other = { .uid = 4321, .gid = 4322, .groups = { 4323 }, .ngroups = 1 };
	struct open_how how = { .flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_CRED_ALLOW };
	struct preopen_fscred saved;
	struct failure err;
	int e, probe = preopen_probe(), direct;
	char path[256], deep[256], sysctl[8] = "";
	long fd;
	FILE *f;

	if (geteuid() != 0) {
		tap_skip("pre-open checks", "needs root");
		return tap_done();
	}
	fd = syscall(SYS_openat2, AT_FDCWD, "/", &how, sizeof(how));
	direct = fd >= 0 ? 0 : errno;
	if (fd >= 0)
		close(fd);
	tap_ok((probe == 0 && direct == 0) || (probe == -EOPNOTSUPP && direct == EINVAL),
	       probe ? "probe: O_CRED_ALLOW missing, as openat2 itself says (EINVAL)" :
	       "probe: O_CRED_ALLOW present, as openat2 itself says");
	if (!mkdtemp(base))
		return 1;
	sh("cd %s && mkdir -p tree/a/b && chown -R 1001:1001 tree && chmod -R 755 tree", base);
	snprintf(path, sizeof(path), "%s/tree", base);
	snprintf(deep, sizeof(deep), "%s/tree/a/b", base);
	test_dirs(path, deep);
	test_entries(path, deep);
	test_bound(path);
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
	f = fopen("/proc/sys/fs/protected_hardlinks", "r");
	if (f && fgets(sysctl, sizeof(sysctl), f))
		tap_ok(preopen_hardlinks_protected() == (sysctl[0] == '1' ? 0 : -EPERM),
		       "fs.protected_hardlinks read as the sysctl says");
	else
		tap_skip("fs.protected_hardlinks", "cannot read the sysctl");
	if (f)
		fclose(f);

	e = preopen_become(&other, &saved);
	tap_ok(!e && setfsuid(-1) == 4321 && setfsgid(-1) == 4322 && getgroups(0, NULL) == 1,
	       "become: fsuid, fsgid, groups of the owner");
	e = preopen_leave(&saved);
	tap_ok(!e && setfsuid(-1) == 0 && setfsgid(-1) == 0 && geteuid() == 0,
	       "leave: back to root's fs credentials");

	/* each in a child of its own: they change the fd table */
	tap_ok(tap_child_ok(place_child),
	       "place: fds at their numbers, close-on-exec, every other fd closed");
	tap_ok(tap_child_ok(place_top_child), "place: fd 1023 under RLIMIT_NOFILE 1024");
	tap_ok(tap_child_ok(place_keep_child),
	       "place: a fd kept is moved off a target's number and stays open");
	sh("rm -rf %s", base);
	return tap_done();
}
