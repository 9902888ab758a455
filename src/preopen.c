// SPDX-License-Identifier: GPL-2.0
/* preopen: see preopen.h for what is checked. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "preopen.h"
#include "uapi.h"
#include "util.h"

#ifndef STATX_MNT_ID
#define STATX_MNT_ID 0x00001000U
#endif

/* File systems whose "files" are kernel objects: a credential fd there means nothing good. */
static const struct {
	unsigned long magic;
	const char *name;
} pseudo_fs[] = {
	{ 0x9fa0, "proc" }, { 0x62656572, "sysfs" }, { 0x27e0eb, "cgroup" },
	{ 0x63677270, "cgroup2" }, { 0x64626720, "debugfs" }, { 0x74726163, "tracefs" },
	{ 0x73636673, "securityfs" }, { 0xcafe4a11, "bpf" }, { 0x62656570, "configfs" },
	{ 0x1cd1, "devpts" }, { 0xde5e81e4, "efivarfs" }, { 0x6165676c, "pstore" },
	{ 0x6e736673, "nsfs" }, { 0xf97cff8c, "selinuxfs" }, { 0x43415d53, "smackfs" },
	{ 0x65735543, "fusectl" }, { 0x42494e4d, "binfmt_misc" }, { 0x19800202, "mqueue" },
	{ 0x0187, "autofs" }, { 0x67596969, "rpc_pipefs" }, { 0x6e667364, "nfsd" },
};

int preopen_probe(void)
{
	/* openat2 refuses unknown flags with EINVAL where open(2) would ignore them. */
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_CRED_ALLOW,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, AT_FDCWD, "/", &how, sizeof(how));

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno == EINVAL ? -EOPNOTSUPP : -errno;
}

int preopen_probe_dirops(void)
{
	/*
	 * unlinkat refuses an unknown flag with EINVAL before it looks at the fd; a kernel with
	 * AT_CRED_INHERIT looks the fd up first and finds -1 closed: EBADF. Nothing is removed.
	 */
	if (unlinkat(-1, "", AT_CRED_INHERIT) == 0)
		return -EIO;
	if (errno == EBADF)
		return 0;
	return errno == EINVAL ? -EOPNOTSUPP : -errno;
}

int preopen_probe_rdonly(void)
{
	/* As preopen_probe: a kernel without read-only loans refuses the unknown bit (EINVAL). */
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_CRED_ALLOW | OA2_CRED_RDONLY,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, AT_FDCWD, "/", &how, sizeof(how));

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno == EINVAL ? -EOPNOTSUPP : -errno;
}

/*
 * Each call with AT_CRED_INHERIT on fd -1: a kernel without the opt-in refuses the flag
 * (EINVAL) or the call (ENOSYS) before it looks at the fd; one with it finds -1 closed (EBADF).
 * The paths are never walked: nothing is changed.
 */
static long probe_fchmodat2(void)
{
	return syscall(SYS_fchmodat2, -1, "x", 0, AT_CRED_INHERIT);
}

static long probe_utimensat(void)
{
	return syscall(SYS_utimensat, -1, "x", NULL, AT_CRED_INHERIT);
}

static long probe_linkat(void)
{
	return syscall(SYS_linkat, -1, "x", -1, "y", AT_CRED_INHERIT);
}

static long probe_symlinkat2(void)
{
	return syscall(SYS_symlinkat2, "x", -1, "y", AT_CRED_INHERIT);
}

static const struct {
	const char *name;
	long (*probe)(void);
} tree_calls[] = {
	{ "fchmodat2", probe_fchmodat2 },
	{ "utimensat", probe_utimensat },
	{ "linkat", probe_linkat },
	{ "symlinkat2", probe_symlinkat2 },
};

int preopen_probe_treeops(const char **missing)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tree_calls); i++) {
		*missing = tree_calls[i].name;
		if (tree_calls[i].probe() == 0)
			return -EIO;
		if (errno == EINVAL || errno == ENOSYS)
			return -EOPNOTSUPP;
		if (errno != EBADF)
			return -errno;
	}
	*missing = NULL;
	return 0;
}

int preopen_become(const struct plan_ident *id, struct preopen_fscred *saved)
{
	saved->fsuid = setfsuid(-1);
	saved->fsgid = setfsgid(-1);
	saved->ngroups = getgroups(ARRAY_SIZE(saved->groups),
				   saved->groups);
	if (saved->ngroups < 0)
		return -errno;
	if (setgroups(id->ngroups, id->groups) < 0)
		return -errno;
	setfsgid(id->gid);
	setfsuid(id->uid);
	if ((gid_t)setfsgid(-1) != id->gid || (uid_t)setfsuid(-1) != id->uid) {
		preopen_leave(saved);
		return -EPERM;
	}
	return 0;
}

int preopen_leave(const struct preopen_fscred *saved)
{
	setfsuid(saved->fsuid);
	setfsgid(saved->fsgid);
	if (setgroups(saved->ngroups, saved->groups) < 0)
		return -errno;
	if ((uid_t)setfsuid(-1) != saved->fsuid || (gid_t)setfsgid(-1) != saved->fsgid)
		return -EPERM;
	return 0;
}

int preopen_hardlinks_protected(void)
{
	char buf[8] = "";
	int fd = open("/proc/sys/fs/protected_hardlinks", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	return buf[0] == '1' ? 0 : -EPERM;
}

/* Hints for the refusals an admin can fix. */
#define HINT_NOT_DIR	"a [dir] grants a directory: name the one that holds the file"
#define HINT_PSEUDO	"grant a directory on a disk file system; /proc, /sys and the like " \
			"would hand out far more than files"
#define HINT_OWNED	"the tree must be writable only by its owner: chown its directories " \
			"to the [dir] owner"
#define HINT_WRITABLE	"the tree must be writable only by its owner: chmod go-w, and check " \
			"its group and ACLs (getfacl)"
#define HINT_MOUNT	"grant each file system as its own [dir], or unmount it"
#define HINT_DEVICE	"remove it, or mount the file system with nodev"
#define HINT_SPECIAL	"a granted tree holds files and directories: remove it"
#define HINT_SETID	"chmod u-s,g-s, or mount the file system with nosuid"
#define HINT_SMALLER	"grant a smaller tree"
#define HINT_SYMLINK	"give the real path, or set trust_symlinks = yes (see credbox.ini(5))"

/* What a failed open of the granted path, as its owner, means to the admin. */
static const struct {
	int e;
	int trusted;		/* the trust_symlinks it applies to; -1: either */
	const char *what;
	const char *hint;
} open_errors[] = {
	{ ENOENT, -1, "does not exist", NULL },
	{ ENOTDIR, -1, "not a directory", HINT_NOT_DIR },
	{ ELOOP, 0, "a symbolic link in the path", HINT_SYMLINK },
	{ ELOOP, 1, "too many symbolic links, or a magic link (/proc/PID/fd/...), in the path",
	  "give the real path" },
	{ EACCES, -1, "permission denied to its owner",
	  "the [dir] owner needs search permission on each directory of the path and read "
	  "permission on the last" },
};

/* Refused, with the path at fault in front of the words: "/srv/a/dev: a device node". */
static int refuse(struct failure *err, int e, const char *hint, const char *path,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int refuse(struct failure *err, int e, const char *hint, const char *path,
		  const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return failure_set(err, e, hint, "%s: %s", path, what);
}

/* A call failed for a reason that its error says best. */
static int failed(struct failure *err, const char *call, const char *path, int e)
{
	return refuse(err, e, NULL, path, "%s: %s", call, strerror(-e));
}

/*
 * A directory's type, mode and owner (*st: st_mode, st_uid, st_gid) and its mount (*mnt), in
 * one statx: a granted tree's every directory is asked, at every start.
 */
static int dir_stat(int fd, struct stat *st, unsigned long long *mnt)
{
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW,
		  STATX_TYPE | STATX_MODE | STATX_UID | STATX_GID | STATX_MNT_ID, &stx) < 0)
		return -errno;
	if (!(stx.stx_mask & STATX_MNT_ID))
		return -EOPNOTSUPP;
	memset(st, 0, sizeof(*st));
	st->st_mode = stx.stx_mode;
	st->st_uid = stx.stx_uid;
	st->st_gid = stx.stx_gid;
	*mnt = stx.stx_mnt_id;
	return 0;
}

struct walk {
	const struct plan_dir *dir;		/* its owner may change the tree, nobody else */
	const struct plan_ident *sandbox;
	unsigned long long top_mnt;
	unsigned long mnt_flags;		/* the tree's mount: ST_NODEV, ST_NOSUID */
	size_t entries, max_entries;
	struct failure *err;
	char path[PATH_MAX];
};

/* POSIX ACL xattrs (linux/posix_acl_xattr.h): a version word, then these entries. */
struct acl_entry {
	uint16_t tag;
	uint16_t perm;
	uint32_t id;
};
#define ACL_XATTR_VERSION	2
#define ACL_USER_OBJ		0x01
#define ACL_GROUP_OBJ		0x04
#define ACL_MASK		0x10
#define ACL_OTHER		0x20
#define ACL_WRITE		0x02

/*
 * Whether the directory's default ACL would let anyone but the owner write in what is
 * created there: an entry other than the owner's with write, through the mask if there is
 * one. 1, 0, or -errno.
 */
static int default_acl_writable(int fd)
{
	char buf[4 + 64 * sizeof(struct acl_entry)];
	struct acl_entry e;
	uint16_t mask = ACL_WRITE;
	int writable = 0;
	ssize_t n = fgetxattr(fd, "system.posix_acl_default", buf, sizeof(buf));
	size_t off;

	if (n < 0)
		return errno == ENODATA || errno == EOPNOTSUPP ? 0 : errno == ERANGE ? 1 : -errno;
	for (off = 4; off + sizeof(e) <= (size_t)n; off += sizeof(e)) {
		memcpy(&e, buf + off, sizeof(e));
		if (e.tag == ACL_MASK)
			mask = e.perm & ACL_WRITE;
	}
	for (off = 4; off + sizeof(e) <= (size_t)n; off += sizeof(e)) {
		memcpy(&e, buf + off, sizeof(e));
		if (e.tag == ACL_OTHER)
			writable |= e.perm & ACL_WRITE;
		else if (e.tag != ACL_USER_OBJ && e.tag != ACL_MASK)
			writable |= e.perm & mask;
	}
	return !!writable;
}

/* A directory of the tree: only its owner, or root, may change it. */
static int check_dir(struct walk *w, int fd)
{
	uid_t owner = w->dir->id.uid;
	unsigned long long mnt;
	struct stat st;
	int e;

	e = dir_stat(fd, &st, &mnt);
	if (e)
		return failed(w->err, "statx", w->path, e);
	if (st.st_uid == w->sandbox->uid)
		return refuse(w->err, -EPERM, HINT_OWNED, w->path,
			      "owned by the sandboxed user, who could make it writable");
	if (st.st_uid != owner && st.st_uid != 0)
		return refuse(w->err, -EPERM, HINT_OWNED, w->path,
			      "owned by uid %u, not by the [dir] owner (uid %u) or root: uid %u "
			      "could make it writable", (unsigned)st.st_uid, (unsigned)owner,
			      (unsigned)st.st_uid);
	if (mnt != w->top_mnt)
		return refuse(w->err, -EXDEV, HINT_MOUNT, w->path,
			      "a mount point inside the granted tree");
	if (st.st_mode & S_IWOTH)
		return refuse(w->err, -EPERM, HINT_WRITABLE, w->path, "writable by others (mode %04o)",
			      (unsigned)(st.st_mode & 07777));
	/* With an access ACL the group bits are its mask: no group write, no named writer. */
	if ((st.st_mode & S_IWGRP) &&
	    fgetxattr(fd, "system.posix_acl_access", NULL, 0) > 0)
		return refuse(w->err, -EPERM, HINT_WRITABLE, w->path,
			      "an ACL lets another user or group write (mode %04o, whose group bits "
			      "are the ACL's mask)", (unsigned)(st.st_mode & 07777));
	if (st.st_mode & S_IWGRP)
		return refuse(w->err, -EPERM, HINT_WRITABLE, w->path,
			      "writable by its group, gid %u (mode %04o)", (unsigned)st.st_gid,
			      (unsigned)(st.st_mode & 07777));
	e = default_acl_writable(fd);
	if (e < 0)
		return failed(w->err, "reading its default ACL", w->path, e);
	if (e)
		return refuse(w->err, -EPERM, "remove the default ACL (setfacl -k), or its write "
			      "entries", w->path, "its default ACL lets another user or group write "
			      "in what is created there");
	return 0;
}

/* Anything but a directory: files and symbolic links only, set-ID programs only if inert. */
static int check_entry(struct walk *w, int dirfd, const char *name, unsigned char type)
{
	struct stat st;

	if (type == DT_LNK || (type == DT_REG && (w->mnt_flags & ST_NOSUID)))
		return 0;
	if ((type == DT_CHR || type == DT_BLK) && (w->mnt_flags & ST_NODEV))
		return 0;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return failed(w->err, "stat", w->path, -errno);
	if ((S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) && !(w->mnt_flags & ST_NODEV))
		return refuse(w->err, -EPERM, HINT_DEVICE, w->path,
			      "a device node (%s device %u:%u), which the fd would open with the "
			      "owner's groups", S_ISCHR(st.st_mode) ? "character" : "block",
			      major(st.st_rdev), minor(st.st_rdev));
	if (S_ISFIFO(st.st_mode))
		return refuse(w->err, -EPERM, HINT_SPECIAL, w->path,
			      "a FIFO, on which the program could block or talk to another process");
	if (S_ISSOCK(st.st_mode))
		return refuse(w->err, -EPERM, HINT_SPECIAL, w->path,
			      "a socket, an endpoint of another process");
	if (!S_ISREG(st.st_mode) || (w->mnt_flags & ST_NOSUID))
		return 0;
	if (st.st_mode & S_ISUID)
		return refuse(w->err, -EPERM, HINT_SETID, w->path,
			      "a set-user-ID program (mode %04o), which runs with its owner's rights "
			      "for whoever starts it", (unsigned)(st.st_mode & 07777));
	/* Set-group-ID without group execute marks mandatory locking, not a program. */
	if ((st.st_mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP))
		return refuse(w->err, -EPERM, HINT_SETID, w->path,
			      "a set-group-ID program (mode %04o), which runs with its group's "
			      "rights for whoever starts it", (unsigned)(st.st_mode & 07777));
	return 0;
}

static int walk_tree(struct walk *w, int fd, int depth);

/* One entry of the directory open at fd; w->path names it. */
static int walk_entry(struct walk *w, int fd, const struct dirent *de, int depth)
{
	int child, e;

	if (++w->entries > w->max_entries)
		return refuse(w->err, -E2BIG, HINT_SMALLER, w->path,
			      "more than %zu entries in the tree (credbox checks each at start)",
			      w->max_entries);
	if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
		return check_entry(w, fd, de->d_name, de->d_type);
	child = openat(fd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (child < 0) {
		/* ENOTDIR, ELOOP: not a directory after all */
		return errno == ENOTDIR || errno == ELOOP ?
		       check_entry(w, fd, de->d_name, DT_UNKNOWN) :
		       failed(w->err, "open", w->path, -errno);
	}
	e = walk_tree(w, child, depth + 1);
	close(child);
	return e;
}

static int walk_tree(struct walk *w, int fd, int depth)
{
	size_t len = strlen(w->path);
	struct dirent *de;
	DIR *dir;
	int e = check_dir(w, fd), sub;

	if (e)
		return e;
	if (depth >= PREOPEN_MAX_DEPTH)
		return refuse(w->err, -E2BIG, HINT_SMALLER, w->path,
			      "more than %d levels deep (credbox checks each directory)",
			      PREOPEN_MAX_DEPTH);
	sub = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (sub < 0)
		return failed(w->err, "open", w->path, -errno);
	dir = fdopendir(sub);
	if (!dir) {
		close(sub);
		return failed(w->err, "opendir", w->path, -errno);
	}
	while (!e && (de = readdir(dir))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(w->path + len, sizeof(w->path) - len, "/%s", de->d_name);
		e = walk_entry(w, fd, de, depth);
		w->path[len] = '\0';
	}
	closedir(dir);
	return e;
}

int preopen_check_bounded(const struct plan_dir *dir, const struct plan_ident *sandbox, int fd,
			  size_t max_entries, struct failure *err)
{
	struct walk w = { .dir = dir, .sandbox = sandbox, .max_entries = max_entries,
			  .err = err };
	struct statfs sfs;
	struct stat st;
	size_t i;
	int e;

	e = dir_stat(fd, &st, &w.top_mnt);
	if (e)
		return failed(err, "statx", dir->path, e);
	if (!S_ISDIR(st.st_mode))
		return refuse(err, -ENOTDIR, HINT_NOT_DIR, dir->path, "not a directory");
	if (fstatfs(fd, &sfs) < 0)
		return failed(err, "statfs", dir->path, -errno);
	for (i = 0; i < ARRAY_SIZE(pseudo_fs); i++) {
		if ((unsigned long)sfs.f_type == pseudo_fs[i].magic)
			return refuse(err, -EMEDIUMTYPE, HINT_PSEUDO, dir->path,
				      "on a pseudo file system (%s)", pseudo_fs[i].name);
	}
	e = preopen_hardlinks_protected();
	if (e == -EPERM)
		return refuse(err, e, "sysctl fs.protected_hardlinks=1", dir->path,
			      "fs.protected_hardlinks is not 1, so links to other users' files "
			      "could be planted in the tree");
	if (e)
		return failed(err, "reading fs.protected_hardlinks", dir->path, e);
	/* the mount's flags, ST_* as statvfs gives them (its f_flag is this less ST_VALID) */
	w.mnt_flags = sfs.f_flags;
	snprintf(w.path, sizeof(w.path), "%s", dir->path);
	return walk_tree(&w, fd, 0);
}

int preopen_check(const struct plan_dir *dir, const struct plan_ident *sandbox, int fd,
		  struct failure *err)
{
	return preopen_check_bounded(dir, sandbox, fd, PREOPEN_MAX_TREE_ENTRIES, err);
}

/*
 * The lent descriptor of the directory @plain is. access = ro lends for reading only
 * (OA2_CRED_RDONLY): the kernel then refuses every change through it with EROFS, the modes and
 * times Landlock cannot forbid included. A kernel without the flag refuses it (EINVAL), and
 * the grant with it: never a writable loan for a read-only grant.
 */
static int reopen_lent(int plain, int rw)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_CRED_ALLOW |
			 (rw ? 0 : OA2_CRED_RDONLY),
	};

	return (int)syscall(SYS_openat2, plain, ".", &how, sizeof(how));
}

/*
 * As the owner: open the directory at @path, then the same directory again, by ".", with
 * O_CRED_ALLOW. The lent descriptor starts no walk of credbox's own but an open, and what that
 * opens is kept borrowed, so the tree is checked through the plain one; "." re-resolves no path,
 * so both are the one directory. Returns 0 with *@plain and *@lent, or -errno with the step that
 * failed in *@step. lent NULL: the plain descriptor alone (--check, on any kernel).
 */
static int open_as_owner(const struct plan_dir *dir, int *plain, int *lent, const char **step)
{
	/*
	 * No one may redirect the path while we open it with the owner's rights: symbolic links
	 * are refused unless trusted, magic links (/proc/PID/fd/...) always.
	 */
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_NO_MAGICLINKS | (dir->trust_symlinks ? 0 : RESOLVE_NO_SYMLINKS),
	};
	struct preopen_fscred saved;
	int e, unused = -1;

	if (!lent)
		lent = &unused;
	*lent = -1;
	*step = "taking on the owner's identity";
	e = preopen_become(&dir->id, &saved);
	if (e)
		return e;
	*step = "openat2";
	*plain = syscall(SYS_openat2, AT_FDCWD, dir->path, &how, sizeof(how));
	e = *plain < 0 ? -errno : 0;
	if (!e && lent != &unused) {
		*step = dir->rw ? "reopening it with O_CRED_ALLOW" :
			"reopening it with O_CRED_ALLOW | OA2_CRED_RDONLY";
		*lent = reopen_lent(*plain, dir->rw);
		e = *lent < 0 ? -errno : 0;
	}
	if (preopen_leave(&saved) && !e) {
		*step = "restoring credentials";
		e = -EPERM;
	}
	if (e) {
		if (*plain >= 0)
			close(*plain);
		if (*lent >= 0)
			close(*lent);
	}
	return e;
}

/*
 * Open as the owner, lending (lent) or not (NULL), and check the tree; see preopen_dir. plain:
 * the checked fd itself, kept (an ID-mapped grant mounts the very directory checked), or NULL.
 */
static int open_checked(const struct plan_dir *dir, const struct plan_ident *sandbox, int *lent,
			int *plain_out, struct failure *err)
{
	const char *step;
	int e, plain;
	size_t i;

	e = open_as_owner(dir, &plain, lent, &step);
	for (i = 0; e && !strcmp(step, "openat2") && i < ARRAY_SIZE(open_errors); i++) {
		if (open_errors[i].e == -e && (open_errors[i].trusted < 0 ||
					       open_errors[i].trusted == !!dir->trust_symlinks))
			return refuse(err, e, open_errors[i].hint, dir->path, "%s",
				      open_errors[i].what);
	}
	if (e)
		return failed(err, step, dir->path, e);
	e = preopen_check(dir, sandbox, plain, err);
	if (!e && plain_out)
		*plain_out = plain;
	else
		close(plain);
	if (e && lent) {
		close(*lent);
		*lent = -1;
	}
	return e;
}

int preopen_dir(const struct plan_dir *dir, const struct plan_ident *sandbox, int *fd,
		struct failure *err)
{
	*fd = -1;
	/* An ID-mapped grant lends nothing: the directory as its owner found it, for the mount. */
	return dir->idmap ? open_checked(dir, sandbox, NULL, fd, err) :
	       open_checked(dir, sandbox, fd, NULL, err);
}

int preopen_dir_check(const struct plan_dir *dir, const struct plan_ident *sandbox,
		      struct failure *err)
{
	return open_checked(dir, sandbox, NULL, NULL, err);
}

static int close_from(unsigned int lo, unsigned int hi)
{
	if (lo > hi)
		return 0;
	if (syscall(SYS_close_range, lo, hi, 0) == 0)
		return 0;
	if (errno != ENOSYS)
		return -errno;
	for (; lo <= hi && lo < 65536; lo++)
		close(lo);
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static bool is_target(const struct plan *plan, int fd)
{
	size_t i;

	for (i = 0; i < plan->ndirs; i++)
		if (plan->dirs[i].fd == fd)
			return true;
	return false;
}

/*
 * A copy of fd on the lowest number that no directory is placed at: numbers that are
 * targets are held busy while looking, at most one per directory. Low numbers, because a
 * target may sit right below RLIMIT_NOFILE (fd = 1023 under the usual 1024).
 */
static int park(const struct plan *plan, int fd)
{
	int held[PROFILE_MAX_DIRS + 1];
	size_t n = 0;
	int p;

	for (;;) {
		p = fcntl(fd, F_DUPFD_CLOEXEC, 3);
		if (p < 0) {
			p = -errno;
			break;
		}
		if (!is_target(plan, p) || n == PROFILE_MAX_DIRS)
			break;
		held[n++] = p;
	}
	while (n)
		close(held[--n]);
	return p;
}

int preopen_place(const struct plan *plan, int *fds, int *keep)
{
	int targets[PROFILE_MAX_DIRS + 1];
	unsigned int lo = 3;
	size_t i, n = 0;
	int e;

	/* First off every target number, so that no dup3 below overwrites a fd still needed. */
	for (i = 0; i < plan->ndirs; i++) {
		int parked = park(plan, fds[i]);

		if (parked < 0)
			return parked;
		close(fds[i]);
		fds[i] = parked;
	}
	/* the kept fd too, where no target will be */
	if (keep && *keep >= 0) {
		int parked = park(plan, *keep);

		if (parked < 0)
			return parked;
		close(*keep);
		*keep = parked;
		targets[n++] = parked;
	}
	for (i = 0; i < plan->ndirs; i++) {
		if (dup3(fds[i], plan->dirs[i].fd, O_CLOEXEC) < 0)
			return -errno;
		close(fds[i]);
		fds[i] = plan->dirs[i].fd;
		targets[n++] = plan->dirs[i].fd;
	}
	qsort(targets, n, sizeof(targets[0]), cmp_int);
	/* Every other fd goes: nothing credbox or its parent opened reaches the program. */
	for (i = 0; i < n; i++) {
		e = close_from(lo, targets[i] - 1);
		if (e)
			return e;
		lo = targets[i] + 1;
	}
	return close_from(lo, ~0U);
}
