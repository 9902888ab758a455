// SPDX-License-Identifier: GPL-2.0
/*
 * t-idmap: grants through ID-mapped mounts (issue 23) on the host's kernel. Each case runs in
 * a child in a mount namespace of its own (idmap_private_ns), on a tmpfs mounted there at a
 * fresh directory of /tmp: the host sees none of it, which the cases check too. The trees:
 *
 *   T/o          0700 4242:4242 (closed above the drive: the cover goes here)
 *   T/o/drive    0700 4242:4242, file f       granted read-write
 *   T/o/ro       0700 4242:4242, file f       granted read-only
 *   T/o/m        a tmpfs of 4242 mounted there: a tree that is a mount point
 *   T/o/secret   a file the cover hides
 *   T/o/sub      0750 4242:4242, T/o/sub/deep 0700 4242:4242: a longer chain in the cover
 *   T/pub        0755 root, T/pub/tree 0700 4242:4242: nothing above it blocks S
 *
 * The program's side is played by a grandchild with uid and gid 4343 (S). TAP; needs root.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "idmap.h"
#include "tap.h"

#define O_ID	4242	/* the trees' owner */
#define S_ID	4343	/* the sandboxed program */

static char base[] = "/tmp/credbox-t-idmap-XXXXXX", peer[sizeof(base) + 5];
static const struct plan_ident run = { .uid = S_ID, .gid = S_ID };
static const struct idmap_ids ids = { .disk_uid = O_ID, .run_uid = S_ID,
				      .disk_gid = O_ID, .run_gid = S_ID };
static int outer_fd = -1;	/* opened before any private namespace */

/* What a case's processes found, in shared memory: the parent reports it in order. */
static struct {
	int n;
	struct { int ok, skip; char what[120]; char why[200]; } r[64];
} *res;

static int check(int ok, const char *what, const char *fmt, ...)
{
	va_list ap;

	if (res->n == 64)
		return ok;
	res->r[res->n].ok = ok;
	res->r[res->n].skip = 0;
	snprintf(res->r[res->n].what, sizeof(res->r[0].what), "%s", what);
	va_start(ap, fmt);
	vsnprintf(res->r[res->n].why, sizeof(res->r[0].why), fmt, ap);
	va_end(ap);
	res->n++;
	return ok;
}

static void skip(const char *what, const char *why)
{
	check(1, what, "%s", why);
	res->r[res->n - 1].skip = 1;
}

/* base/rel, from a ring of buffers (a few at once in one call). */
static const char *T(const char *rel)
{
	static char buf[8][256];
	static int i;

	i = (i + 1) % 8;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", base, rel);
	return buf[i];
}

static void mk(const char *rel, mode_t mode, uid_t uid, const char *text)
{
	int fd;

	if (text) {
		fd = open(T(rel), O_WRONLY | O_CREAT | O_EXCL, mode);
		if (fd < 0 || write(fd, text, strlen(text)) < 0)
			printf("# cannot make %s: %m\n", rel);
		close(fd);
	} else if (mkdir(T(rel), mode)) {
		printf("# cannot make %s: %m\n", rel);
	}
	if (chown(T(rel), uid, uid) || chmod(T(rel), mode))
		printf("# cannot chown %s: %m\n", rel);
}

/* The tmpfs at base and the trees, in this namespace. */
static int trees(void)
{
	/*
	 * A slave of the same tmpfs at peer, which plays the host: what is mounted there
	 * reaches T, as the host's mounts reach credbox's namespace (idmap_private_ns).
	 */
	if (mount("tmpfs", base, "tmpfs", 0, "mode=0755") ||
	    mount(NULL, base, NULL, MS_SHARED, NULL) || mount(base, peer, NULL, MS_BIND, NULL) ||
	    mount(NULL, base, NULL, MS_SLAVE, NULL))
		return -errno;
	mk("o", 0700, O_ID, NULL);
	mk("o/drive", 0700, O_ID, NULL);
	mk("o/drive/f", 0600, O_ID, "hello\n");
	mk("o/drive/x", 0700, O_ID, NULL);
	mk("o/ro", 0700, O_ID, NULL);
	mk("o/ro/f", 0600, O_ID, "hello\n");
	mk("o/m", 0700, O_ID, NULL);
	mk("o/secret", 0600, O_ID, "secret\n");
	mk("o/sub", 0750, O_ID, NULL);
	mk("o/sub/deep", 0700, O_ID, NULL);
	mk("pub", 0755, 0, NULL);
	mk("pub/other", 0644, 0, "other\n");
	mk("pub/tree", 0700, O_ID, NULL);
	if (mount("tmpfs", T("o/m"), "tmpfs", 0, "mode=0700,uid=4242,gid=4242"))
		return -errno;
	return 0;
}

/* Lines of a mountinfo, and how many name base. */
static int mounts(const char *file, int *ours)
{
	char line[4096];
	FILE *f = fopen(file, "re");
	int n = 0;

	*ours = 0;
	while (f && fgets(line, sizeof(line), f)) {
		n++;
		*ours += strstr(line, base) != NULL;
	}
	if (f)
		fclose(f);
	return f ? n : -1;
}

/* The optional fields of the mountinfo line of the mount at path ("" if none). */
static void propagation(const char *path, char *out, size_t size)
{
	char line[4096], point[4096], tags[4096];
	FILE *f = fopen("/proc/self/mountinfo", "re");

	snprintf(out, size, "(no mount at %s)", path);
	while (f && fgets(line, sizeof(line), f)) {
		/* id parent major:minor root point options [tags...] - type source super */
		tags[0] = '\0';
		if (sscanf(line, "%*d %*d %*s %*s %4095s %*s %4095[^-]", point, tags) >= 1 &&
		    !strcmp(point, path))
			snprintf(out, size, "%s", tags);
	}
	if (f)
		fclose(f);
}

/* Run fn in a child in its own namespace with the trees; report what it found. */
static void run_case(const char *name, void (*fn)(void))
{
	int status, i, ours;
	pid_t pid;

	res->n = 0;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int e = idmap_private_ns();

		umask(077);	/* what the cover makes must not depend on it */
		if (!check(e == 0, "idmap_private_ns", "%s", strerror(-e)))
			_exit(0);
		e = trees();
		if (check(e == 0, "the trees on a tmpfs", "%s", strerror(-e)))
			fn();
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	printf("# %s\n", name);
	for (i = 0; i < res->n; i++)
		if (res->r[i].skip)
			tap_skip(res->r[i].what, res->r[i].why);
		else if (!tap_ok(res->r[i].ok, res->r[i].what) && res->r[i].why[0])
			printf("# %s\n", res->r[i].why);
	tap_ok(WIFEXITED(status) && !WEXITSTATUS(status), "the case's child ended normally");
	mounts("/proc/self/mountinfo", &ours);
	tap_ok(ours == 0, "the host's mount table has nothing of it");
}

/* Run fn as S (uid, gid 4343, no groups) in a grandchild. */
static void as_sandbox(void (*fn)(void))
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (setgroups(0, NULL) || setresgid(S_ID, S_ID, S_ID) ||
		    setresuid(S_ID, S_ID, S_ID))
			_exit(check(0, "becoming uid 4343", "%m"));
		fn();
		_exit(0);
	}
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && !WEXITSTATUS(status), "the sandbox's process ended normally",
	      "status %#x", status);
}

static int opendir_fd(const char *rel)
{
	return open(T(rel), O_PATH | O_DIRECTORY | O_CLOEXEC);
}

static void case_probe(void)
{
	int ns = -1, fd = opendir_fd("o/drive"), e;

	e = idmap_userns(&ids, &ns, NULL);
	check(e == 0 && ns >= 0, "idmap_userns makes a namespace", "%s", strerror(-e));
	check(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD, "and reaps its child", "");
	e = idmap_probe(fd, ns);
	check(e == 0, "idmap_probe: tmpfs takes idmapped mounts", "%s", strerror(-e));
	close(fd);
	fd = open("/proc", O_PATH | O_DIRECTORY);
	e = idmap_probe(fd, ns);
	check(e == -EINVAL, "idmap_probe: /proc refuses them, EINVAL", "%s", strerror(-e));
	close(fd);
	fd = open("/sys", O_PATH | O_DIRECTORY);
	e = idmap_probe(fd, ns);
	check(e == -EINVAL, "idmap_probe: sysfs refuses them, EINVAL", "%s", strerror(-e));
	close(fd);
	e = idmap_probe(outer_fd, ns);
	check(e == -EXDEV, "idmap_probe: an fd from before the namespace is EXDEV", "%s",
	      strerror(-e));
	close(ns);
}

/* With a holder asked for, the child is the caller's to reap, and the namespace works first. */
static void case_holder(void)
{
	struct idmap_holder h = { 0, NULL };
	int ns = -1, fd = opendir_fd("o/drive"), e;
	siginfo_t si;
	pid_t pid;

	e = idmap_userns(&ids, &ns, &h);
	pid = h.pid;
	check(e == 0 && pid > 0 && h.stack, "idmap_userns leaves its holder to the caller",
	      "%s, pid %d", strerror(-e), (int)pid);
	e = idmap_probe(fd, ns);
	check(e == 0, "its namespace maps before the holder is reaped", "%s", strerror(-e));
	check(!waitid(P_PID, pid, &si, WEXITED | WNOHANG | WNOWAIT), "the holder is not reaped yet",
	      "%m");
	idmap_reap(&h);
	check(waitpid(pid, NULL, WNOHANG) < 0 && errno == ECHILD && !h.pid && !h.stack,
	      "idmap_reap reaps it and frees its stack", "pid %d", (int)h.pid);
	close(fd);
	close(ns);
}

/* The posix_acl xattr (linux/posix_acl_xattr.h): user::rwx user:S:r-x group::--- mask::r-x. */
static int acl_lets_in(const char *path, uid_t user)
{
	struct { unsigned short tag, perm; unsigned int id; } e[5] = {
		{ 0x01, 7, -1 }, { 0x02, 5, user }, { 0x04, 0, -1 },	/* user::rwx user:S:r-x */
		{ 0x10, 5, -1 }, { 0x20, 0, -1 },			/* mask::r-x other::--- */
	};
	char buf[4 + sizeof(e)];
	unsigned int version = 2;

	memcpy(buf, &version, 4);
	memcpy(buf + 4, e, sizeof(e));
	return setxattr(path, "system.posix_acl_access", buf, sizeof(buf), 0);
}

static void case_closed(void)
{
	char where[4096] = "";
	int fd = opendir_fd("o/drive"), e;

	e = idmap_closed_above(fd, O_ID, where, sizeof(where));
	check(e == 1 && !strcmp(where, T("o")), "idmap_closed_above finds T/o (0700, the owner's)",
	      "%d %s", e, where);
	close(fd);
	fd = opendir_fd("pub/tree");
	e = idmap_closed_above(fd, O_ID, where, sizeof(where));
	check(e == 0, "nothing closed above T/pub/tree (0755 to the root)", "%d %s", e, where);
	close(fd);
	mk("other", 0700, 4444, NULL);
	mk("other/tree", 0700, O_ID, NULL);
	fd = opendir_fd("other/tree");
	e = idmap_closed_above(fd, O_ID, where, sizeof(where));
	check(e == 0, "a 0700 directory of a third user does not count", "%d %s", e, where);
	close(fd);
	mk("acl", 0700, O_ID, NULL);
	mk("acl/tree", 0700, O_ID, NULL);
	if (acl_lets_in(T("acl"), S_ID)) {
		skip("a 0700 directory whose ACL lets S search does not count", "no POSIX ACLs");
		return;
	}
	fd = opendir_fd("acl/tree");
	e = idmap_closed_above(fd, O_ID, where, sizeof(where));
	check(e == 0, "a 0700 directory whose ACL lets S search does not count", "%d %s", e, where);
	close(fd);
}

/* Open fds of this process. */
static int nfds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n;
}

/* idmap_mount_all on the trees named, expecting e; nothing may be attached or left open. */
static void refused(const char *what, const char *const *rel, size_t n, int userns, int closed,
		    int want)
{
	int before, after, ours, e, fds = nfds();
	struct idmap_tree t[4];
	size_t i, at = 99;

	before = mounts("/proc/self/mountinfo", &ours);
	for (i = 0; i < n; i++)
		t[i] = (struct idmap_tree){ .dirfd = open(rel[i], O_PATH | O_DIRECTORY), .ids = ids,
					    .userns_fd = userns, .grant_fd = 77, .closed = closed };
	e = idmap_mount_all(t, n, &run, &at);
	after = mounts("/proc/self/mountinfo", &ours);
	check(e == want && at == n - 1 && t[n - 1].grant_fd == -1 && before == after, what,
	      "got %s at %zu, %d mounts before, %d after", strerror(-e), at, before, after);
	for (i = 0; i < n; i++)
		close(t[i].dirfd);
	check(nfds() == fds, "... and leaves no fd open", "%d fds, %d before", nfds(), fds);
}

/* A tree whose path leads elsewhere now: mounted over since its fd was opened. */
static void hidden(void)
{
	struct idmap_tree t = { .dirfd = opendir_fd("o/drive"), .ids = ids };
	int before, after, ours, e;
	size_t at;

	if (idmap_userns(&ids, &t.userns_fd, NULL) ||
	    mount("tmpfs", T("o/drive"), "tmpfs", 0, NULL)) {
		check(0, "a tree mounted over", "%m");
		return;
	}
	before = mounts("/proc/self/mountinfo", &ours);
	e = idmap_mount_all(&t, 1, &run, &at);
	after = mounts("/proc/self/mountinfo", &ours);
	check(e == -ESTALE && before == after, "a tree mounted over since it was opened: ESTALE",
	      "got %s, %d mounts before, %d after", strerror(-e), before, after);
	umount(T("o/drive"));
}

static void case_refused(void)
{
	const char *drive[] = { T("o/drive") }, *proc[] = { T("o/drive"), "/proc" };
	const char *twice[] = { T("o/drive"), T("o/drive") }, *nested[] = { T("o"), T("o/drive") };
	const char *open_above[] = { T("pub/tree") };
	const struct idmap_ids swapped = { .disk_uid = S_ID, .run_uid = O_ID,
					   .disk_gid = S_ID, .run_gid = O_ID };
	int ns, wrong;

	if (idmap_userns(&ids, &ns, NULL) || idmap_userns(&swapped, &wrong, NULL)) {
		check(0, "idmap_userns", "%m");
		return;
	}
	refused("a map the wrong way round: EPROTO, nothing attached", drive, 1, wrong, 0,
		-EPROTO);
	refused("a file system that refuses idmapping: EINVAL, nothing attached", proc, 2, ns, 0,
		-EINVAL);
	refused("the same tree twice: EINVAL", twice, 2, ns, 0, -EINVAL);
	refused("a tree inside another: EINVAL", nested, 2, ns, 0, -EINVAL);
	refused("closed asked of a tree with nothing closed above it: ESTALE", open_above, 1, ns,
		1, -ESTALE);
	hidden();
}

static struct idmap_tree granted[5];
static int orig_drive, orig_m;

static int eq(int got, int want, const char *what)
{
	return check(got == want, what, "got %d (%s), expected %d", got, strerror(errno), want);
}

static void sandbox_before(void)
{
	eq(open(T("o/drive/f"), O_RDONLY), -1, "before: S cannot open T/o/drive/f");
	check(errno == EACCES, "... EACCES", "%m");
}

/* fstatat's result, called before its fields are read; st_uid and st_gid -1 if it failed. */
static struct stat st_of(int dirfd, const char *path, int flags)
{
	struct stat st;

	memset(&st, 0, sizeof(st));
	if (fstatat(dirfd, path, &st, flags | (*path ? 0 : AT_EMPTY_PATH)))
		st.st_uid = st.st_gid = -1;
	return st;
}

/* statvfs's f_flag, 0 if it failed. */
static unsigned long vfs_flags(const char *path)
{
	struct statvfs sv;

	return statvfs(path, &sv) ? 0 : sv.f_flag;
}

/* S creates rel: the new file as S sees it (st_uid -1 if it could not). */
static struct stat create(const char *rel)
{
	int fd = open(T(rel), O_WRONLY | O_CREAT | O_EXCL, 0600);
	struct stat st = st_of(fd, "", 0);

	close(fd);
	return st;
}

static void sandbox_after(void)
{
	struct timespec times[2] = { { 1000000, 0 }, { 2000000, 0 } };
	char buf[16] = "", out[64];
	struct stat st;
	int fd;

	fd = open(T("o/drive/f"), O_RDONLY);
	check(fd >= 0 && read(fd, buf, sizeof(buf)) == 6 && !strcmp(buf, "hello\n"),
	      "S reads T/o/drive/f by its path", "%m");
	close(fd);
	st = st_of(AT_FDCWD, T("o/drive/f"), 0);
	check(st.st_uid == S_ID && st.st_gid == S_ID, "S sees it as its own (4343:4343)",
	      "%d:%d", (int)st.st_uid, (int)st.st_gid);
	fd = openat(granted[0].grant_fd, "f", O_RDONLY);
	check(fd >= 0, "S opens f beneath the grant fd", "%m");
	close(fd);
	st = create("o/drive/new");
	check(st.st_uid == S_ID, "S creates T/o/drive/new, as its own", "%m");
	eq(chmod(T("o/drive/new"), 0640), 0, "S chmods it");
	eq(utimensat(AT_FDCWD, T("o/drive/new"), times, 0), 0, "S sets its times");
	eq(symlink("f", T("o/drive/sl")), 0, "S makes a symlink");
	eq(link(T("o/drive/f"), T("o/drive/f2")), 0, "S makes a hard link");
	eq(rename(T("o/drive/f2"), T("o/drive/f3")), 0, "S renames it");
	eq(unlink(T("o/drive/f3")), 0, "S removes it");
	snprintf(out, sizeof(out), "%s.out", base);
	eq(link(T("o/drive/f"), out), -1, "a hard link out to /tmp fails");
	check(errno == EXDEV, "... EXDEV", "%m");
	eq(rename(T("o/drive/new"), out), -1, "a rename out to /tmp fails");
	check(errno == EXDEV, "... EXDEV", "%m");
	fd = open(T("o/ro/f"), O_RDONLY);
	check(fd >= 0, "S reads the read-only grant", "%m");
	close(fd);
	eq(open(T("o/ro/new"), O_WRONLY | O_CREAT, 0600), -1, "S cannot create in it");
	check(errno == EROFS, "... EROFS", "%m");
	st = create("o/m/new");
	check(st.st_uid == S_ID, "S creates in the tree that is a mount point, as its own", "%m");
	st = create("o/sub/deep/new");
	check(st.st_uid == S_ID, "S creates in T/o/sub/deep, through the cover's T/o/sub", "%m");
	st = create("pub/tree/new");
	check(st.st_uid == S_ID, "S creates in T/pub/tree (attached over itself), as its own",
	      "%m");
	eq(lstat(T("o/secret"), &st), -1, "T/o/secret is not there (the cover)");
}

/* The names in rel, sorted, joined by spaces. */
static void names(const char *rel, char *out, size_t size)
{
	struct dirent **v;
	int n = scandir(T(rel), &v, NULL, alphasort), i;

	out[0] = '\0';
	for (i = 0; i < n; i++) {
		if (v[i]->d_name[0] != '.')
			snprintf(out + strlen(out), size - strlen(out), "%s%s", *out ? " " : "",
				 v[i]->d_name);
		free(v[i]);
	}
	free(v);
}

static void case_grant(void)
{
	const char *rel[] = { "o/drive", "o/ro", "o/m", "o/sub/deep", "pub/tree" };
	const unsigned long cover = ST_RDONLY | ST_NOSUID | ST_NODEV | ST_NOEXEC;
	unsigned long flags;
	char list[256], file[64];
	struct stat st, x;
	size_t i, at = 99;
	int ns, e, ours;

	orig_drive = opendir_fd("o/drive");
	orig_m = opendir_fd("o/m");
	as_sandbox(sandbox_before);
	if (idmap_userns(&ids, &ns, NULL)) {
		check(0, "idmap_userns", "%m");
		return;
	}
	for (i = 0; i < 5; i++)
		granted[i] = (struct idmap_tree){ .dirfd = opendir_fd(rel[i]), .ids = ids,
						  .userns_fd = ns, .rdonly = i == 1,
						  /* those beneath T/o, closed to all but O */
						  .closed = i < 4 };
	e = idmap_mount_all(granted, 5, &run, &at);
	if (!check(e == 0, "idmap_mount_all: five trees, one cover", "%s at %zu", strerror(-e), at))
		return;
	close(ns);
	flags = vfs_flags(T("o/drive"));
	check((flags & (ST_NOSUID | ST_NODEV | ST_RDONLY)) == (ST_NOSUID | ST_NODEV),
	      "the grant is nosuid, nodev", "%#lx", flags);
	check(fcntl(granted[0].grant_fd, F_GETFD) == FD_CLOEXEC, "the grant fd is O_CLOEXEC", "");
	propagation(T("o/drive"), list, sizeof(list));
	check(!strstr(list, "master:") && !strstr(list, "shared:"),
	      "the grant takes no part in mount propagation", "tags: %s", list);
	snprintf(file, sizeof(file), "%s/o/drive/x", peer);
	e = mount("tmpfs", file, "tmpfs", 0, "mode=0700") ? -errno : 0;
	st = st_of(AT_FDCWD, T("o/drive"), 0);
	x = st_of(AT_FDCWD, T("o/drive/x"), 0);
	check(!e && st.st_dev == x.st_dev,
	      "what the host mounts in the tree later stays out of the grant", "%s", strerror(-e));
	flags = vfs_flags(T("o/ro"));
	check(flags & ST_RDONLY, "the ro grant is read-only", "%#lx", flags);
	flags = vfs_flags(T("o"));
	check((flags & cover) == cover, "the cover is read-only, nosuid, nodev, noexec", "%#lx",
	      flags);
	st = st_of(AT_FDCWD, T("o"), 0);
	x = st_of(AT_FDCWD, T("o/sub"), 0);
	check(st.st_uid == 0 && (st.st_mode & 07777) == 0755 && x.st_uid == 0 &&
	      (x.st_mode & 07777) == 0755, "the cover's directories are root's, 0755 (umask 077)",
	      "%d %o, %d %o", (int)st.st_uid, st.st_mode, (int)x.st_uid, x.st_mode);
	names("o", list, sizeof(list));
	check(!strcmp(list, "drive m ro sub"), "T/o shows only the granted trees", "%s", list);
	names("o/sub", list, sizeof(list));
	check(!strcmp(list, "deep"), "and T/o/sub only the one below it", "%s", list);
	names("pub", list, sizeof(list));
	check(!strcmp(list, "other tree"), "T/pub is not covered", "%s", list);
	eq(mkdir(T("o/x"), 0755), -1, "root cannot add to the cover");
	check(errno == EROFS, "... EROFS", "%m");
	snprintf(file, sizeof(file), "/proc/%d/mountinfo", (int)getppid());
	mounts(file, &ours);
	check(ours == 0, "the mounts are in this namespace alone (the parent's table)", "%d", ours);
	as_sandbox(sandbox_after);
	st = st_of(orig_drive, "new", 0);
	check(st.st_uid == O_ID && st.st_gid == O_ID && (st.st_mode & 0777) == 0640 &&
	      st.st_mtime == 2000000, "on disk, S's file is 4242:4242, 0640, its mtime as S set it",
	      "%d:%d %o", (int)st.st_uid, (int)st.st_gid, st.st_mode);
	st = st_of(orig_drive, "sl", AT_SYMLINK_NOFOLLOW);
	check(st.st_uid == O_ID, "on disk, S's symlink is 4242's", "%d", (int)st.st_uid);
	st = st_of(orig_m, "new", 0);
	check(st.st_uid == O_ID, "on disk, S's file in the mounted tree is 4242's", "%d",
	      (int)st.st_uid);
	st = st_of(orig_drive, "f3", 0);
	check(st.st_uid == (uid_t)-1 && errno == ENOENT, "on disk, the link S removed is gone",
	      "%m");
}

int main(void)
{
	if (geteuid()) {
		tap_skip("ID-mapped grants", "needs root");
		return tap_done();
	}
	res = mmap(NULL, sizeof(*res), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED || !mkdtemp(base))
		return 1;
	chmod(base, 0755);
	snprintf(peer, sizeof(peer), "%s.peer", base);
	if (mkdir(peer, 0700))
		return 1;
	outer_fd = open("/tmp", O_PATH | O_DIRECTORY);
	run_case("idmap_userns, idmap_probe", case_probe);
	run_case("idmap_userns's holder, reaped by the caller", case_holder);
	run_case("idmap_closed_above", case_closed);
	run_case("refusals", case_refused);
	run_case("a grant", case_grant);
	tap_ok(rmdir(base) == 0 && rmdir(peer) == 0,
	       "the host's T is empty: everything was on the namespace's tmpfs");
	return tap_done();
}
