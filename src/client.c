// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * client.c - the client API of credbox.h: what a program started by credbox
 * calls to open files beneath the directories it was granted.
 *
 * The environment is the program's own and may have been edited by it, so
 * nothing read from it is trusted: an entry is only used if its fd really is
 * an O_CRED_ALLOW directory, or the root of an ID-mapped mount (such a grant,
 * credbox.ini(5) method = idmap), and the kernel decides everything else.
 *
 * On an ID-mapped grant the mount is the grant: the program's own calls are
 * the owner's there. Each call is made with the flag first; where the kernel
 * refuses it and the directory is such a mount, it is made again without it
 * (no walk is then held beneath the directory: outside the mount the
 * program's own rights apply, as to any path of its own).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "credbox.h"
#include "uapi.h"
#include "util.h"

/* Parse a decimal fd of at most 9 digits; -1 if END is not reached cleanly. */
static int client_parse_fd(const char *s, const char *end)
{
	int fd = 0;

	if (s == end || end - s > 9)
		return -1;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		fd = fd * 10 + (*s - '0');
	}
	return fd;
}

/*
 * Look NAME up in LIST ("name=fd,name=fd"). Returns the fd, -ENOENT if no
 * entry has that name, -EINVAL if LIST is malformed before a match.
 */
static int client_lookup(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p = list;

	if (len == 0 || strpbrk(name, "=,"))
		return -ENOENT;
	while (*p) {
		const char *comma = strchrnul(p, ',');
		const char *eq = memchr(p, '=', comma - p);
		int fd;

		if (!eq || eq == p)
			return -EINVAL;
		fd = client_parse_fd(eq + 1, comma);
		if (fd < 0)
			return -EINVAL;
		if ((size_t)(eq - p) == len && memcmp(p, name, len) == 0)
			return fd;
		p = *comma ? comma + 1 : comma;
	}
	return -ENOENT;
}

/* Whether line (of /proc/self/mountinfo) is mount id's and has the option idmapped. */
static int client_line_idmapped(const char *line, const char *end, unsigned long id)
{
	const char *f = line, *opt;
	unsigned long n = 0;
	int field;

	for (; f < end && *f >= '0' && *f <= '9'; f++)
		n = n * 10 + (unsigned long)(*f - '0');
	if (n != id || f == line)
		return 0;
	for (field = 1; f < end && field < 6; f++)	/* to the mount's own options */
		field += *f == ' ';
	for (opt = f; f <= end; f++) {
		if (f == end || *f == ',' || *f == ' ') {
			if (f - opt == 8 && !memcmp(opt, "idmapped", 8))
				return 1;
			if (f == end || *f == ' ')
				return 0;
			opt = f + 1;
		}
	}
	return 0;
}

/*
 * Whether fd lies on an ID-mapped mount (credbox.ini(5), method = idmap), at its root if
 * root: the mount's options in /proc/self/mountinfo say "idmapped". Read through a buffer on
 * the stack (no memory allocated); an overlong line is skipped, and counts as not mapped.
 */
static int client_on_idmap(int fd, int root)
{
	char buf[4096];
	struct statx stx;
	size_t have = 0;
	ssize_t n;
	int mi, found = 0;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) || !(stx.stx_mask & STATX_MNT_ID) ||
	    (root && !(stx.stx_attributes_mask & stx.stx_attributes & STATX_ATTR_MOUNT_ROOT)))
		return 0;
	mi = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	if (mi < 0)
		return 0;
	while (!found && (n = read(mi, buf + have, sizeof(buf) - have)) > 0) {
		char *line = buf, *nl, *end = buf + have + n;

		while (!found && (nl = memchr(line, '\n', (size_t)(end - line))) != NULL) {
			found = client_line_idmapped(line, nl, (unsigned long)stx.stx_mnt_id);
			line = nl + 1;
		}
		have = (size_t)(end - line);
		if (have == sizeof(buf))
			have = 0;	/* a line longer than the buffer: skipped */
		memmove(buf, line, have);
	}
	close(mi);
	return found;
}

/* Whether fd is a directory at the root of an ID-mapped mount, lending nothing: such a grant. */
static int client_mapped(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	struct stat st;

	return fl >= 0 && !(fl & O_CRED_ALLOW) && !fstat(fd, &st) && S_ISDIR(st.st_mode) &&
	       client_on_idmap(fd, 1);
}

/*
 * The lent call's result, or, where the kernel refused the flag (stock kernels: EINVAL for an
 * unknown flag, ENOSYS for openat2 under an ID-mapped grant's filter and for symlinkat2; the
 * series: EBADF or EPERM for a directory that lends nothing) and mapped holds, the plain
 * call's. The plain call is made with the program's own rights: it can do nothing the
 * program could not do itself.
 */
#define CLIENT_LENT_OR(mapped, lent, plain)					\
	({									\
		long _r = (lent);						\
		if (_r < 0 && (errno == EINVAL || errno == ENOSYS || errno == EBADF ||	\
			       errno == EPERM) && (mapped))				\
			_r = (plain);						\
		_r < 0 ? -errno : _r;						\
	})

int credbox_dir(const char *name)
{
	const char *list = getenv(CREDBOX_DIRS_ENV);
	struct stat st;
	int fd, fl;

	if (!list)
		return -ENXIO;
	if (!name)
		return -EINVAL;
	fd = client_lookup(list, name);
	if (fd < 0)
		return fd;
	/* Only an fd that credbox could have made counts: a directory lending credentials. */
	fl = fcntl(fd, F_GETFL);
	if (client_mapped(fd))
		return fd;
	if (fl < 0 || !(fl & O_CRED_ALLOW) || fstat(fd, &st) < 0 || !S_ISDIR(st.st_mode))
		return -EBADF;
	return fd;
}

int credbox_openat_fd(int dirfd, const char *path, int flags, mode_t mode)
{
	struct open_how how = {
		.flags = (__u64)(unsigned int)flags | OA2_CRED_INHERIT,
		.mode = (flags & (O_CREAT | __O_TMPFILE)) ? mode : 0,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};
	long fd;

	if (!path)
		return -EINVAL;
	fd = CLIENT_LENT_OR(client_mapped(dirfd), syscall(SYS_openat2, dirfd, path, &how, sizeof(how)),
			    openat(dirfd, path, flags, how.mode));
	return (int)fd;
}

int credbox_openat(const char *name, const char *path, int flags, mode_t mode)
{
	int dirfd = credbox_dir(name);

	if (dirfd < 0)
		return dirfd;
	return credbox_openat_fd(dirfd, path, flags, mode);
}

/*
 * The directory operations.  Each _fd call is one system call with the opt-in
 * (AT_CRED_INHERIT, or OA2_CRED_INHERIT where the call has no flags), so the
 * kernel pins DIRFD, scopes the walk beneath it and refuses absolute paths,
 * "..", magic links and mounts; the library adds nothing to check.
 */

/*
 * mkdirat(2) takes no flags: openat2 O_CREAT | O_DIRECTORY | O_EXCL makes and opens it (on an
 * ID-mapped grant, mkdirat itself).
 */
int credbox_mkdirat_fd(int dirfd, const char *path, mode_t mode)
{
	struct open_how how = {
		.flags = O_CREAT | O_DIRECTORY | O_EXCL | O_CLOEXEC | OA2_CRED_INHERIT,
		.mode = mode,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};
	long fd;

	if (!path)
		return -EINVAL;
	fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
	if (fd >= 0) {
		close((int)fd);
		return 0;
	}
	return CLIENT_LENT_OR(client_mapped(dirfd), fd, mkdirat(dirfd, path, mode));
}

int credbox_unlinkat_fd(int dirfd, const char *path, int flags)
{
	if (!path || (flags & ~AT_REMOVEDIR))
		return -EINVAL;
	return CLIENT_LENT_OR(client_mapped(dirfd), unlinkat(dirfd, path, flags | AT_CRED_INHERIT),
			      unlinkat(dirfd, path, flags));
}

int credbox_renameat_fd(int dirfd, const char *oldpath, const char *newpath, unsigned int flags)
{
	if (!oldpath || !newpath || (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE)))
		return -EINVAL;
	return CLIENT_LENT_OR(client_mapped(dirfd), syscall(SYS_renameat2, dirfd, oldpath, dirfd, newpath,
					     flags | AT_CRED_INHERIT),
			      syscall(SYS_renameat2, dirfd, oldpath, dirfd, newpath, flags));
}

int credbox_fstatat_fd(int dirfd, const char *path, struct stat *st, int flags)
{
	if (!path || !st || (flags & ~AT_SYMLINK_NOFOLLOW))
		return -EINVAL;
	return CLIENT_LENT_OR(client_mapped(dirfd), fstatat(dirfd, path, st, flags | AT_CRED_INHERIT),
			      fstatat(dirfd, path, st, flags));
}

int credbox_faccessat_fd(int dirfd, const char *path, int mode, int flags)
{
	if (!path || (flags & ~AT_SYMLINK_NOFOLLOW))
		return -EINVAL;
	return CLIENT_LENT_OR(client_mapped(dirfd), syscall(SYS_faccessat2, dirfd, path, mode,
					     flags | AT_CRED_INHERIT),
			      syscall(SYS_faccessat2, dirfd, path, mode, flags));
}

/* An O_PATH handle opened with the credentials, then readlinkat(fd, ""): nothing is opened. */
ssize_t credbox_readlinkat_fd(int dirfd, const char *path, char *buf, size_t size)
{
	int fd = credbox_openat_fd(dirfd, path, O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
	ssize_t n;

	if (fd < 0)
		return fd;
	n = readlinkat(fd, "", buf, size);
	if (n < 0)
		n = -errno;
	close(fd);
	return n;
}

int credbox_fchmodat_fd(int dirfd, const char *path, mode_t mode, int flags)
{
	if (!path || (flags & ~AT_SYMLINK_NOFOLLOW))
		return -EINVAL;
	return CLIENT_LENT_OR(client_mapped(dirfd), syscall(SYS_fchmodat2, dirfd, path, mode,
					     flags | AT_CRED_INHERIT),
			      syscall(SYS_fchmodat2, dirfd, path, mode, flags));
}

int credbox_utimensat_fd(int dirfd, const char *path, const struct timespec times[2],
			 int flags)
{
	/* NULL is futimens()'s form, which takes no flag: credbox_futimens */
	if (!path || (flags & ~AT_SYMLINK_NOFOLLOW))
		return -EINVAL;
	return CLIENT_LENT_OR(client_mapped(dirfd), syscall(SYS_utimensat, dirfd, path, times,
					     flags | AT_CRED_INHERIT),
			      syscall(SYS_utimensat, dirfd, path, times, flags));
}

int credbox_linkat_fd(int dirfd, const char *oldpath, const char *newpath, int flags)
{
	if (!oldpath || !newpath || (flags & ~AT_SYMLINK_FOLLOW))
		return -EINVAL;
	return CLIENT_LENT_OR(client_mapped(dirfd), syscall(SYS_linkat, dirfd, oldpath, dirfd, newpath,
					     flags | AT_CRED_INHERIT),
			      syscall(SYS_linkat, dirfd, oldpath, dirfd, newpath, flags));
}

int credbox_symlinkat_fd(const char *target, int dirfd, const char *linkpath)
{
	if (!target || !linkpath)
		return -EINVAL;
	return CLIENT_LENT_OR(client_mapped(dirfd), syscall(SYS_symlinkat2, target, dirfd, linkpath,
					     AT_CRED_INHERIT),
			      symlinkat(target, dirfd, linkpath));
}

/*
 * The fd forms: the kernel's "" with AT_EMPTY_PATH, on the file itself; a file on an
 * ID-mapped grant's mount is an ordinary file there, changed by the plain call.
 */
int credbox_fchmod(int fd, mode_t mode)
{
	return CLIENT_LENT_OR(client_on_idmap(fd, 0), syscall(SYS_fchmodat2, fd, "", mode,
							     AT_EMPTY_PATH | AT_CRED_INHERIT),
			      fchmod(fd, mode));
}

int credbox_futimens(int fd, const struct timespec times[2])
{
	return CLIENT_LENT_OR(client_on_idmap(fd, 0), syscall(SYS_utimensat, fd, "", times,
							     AT_EMPTY_PATH | AT_CRED_INHERIT),
			      futimens(fd, times));
}

/* The by-name calls: the grant's fd, then the _fd call. */
#define CLIENT_BY_NAME(call)				\
	do {						\
		int dirfd = credbox_dir(name);		\
							\
		if (dirfd < 0)				\
			return dirfd;			\
		return call;				\
	} while (0)

int credbox_mkdirat(const char *name, const char *path, mode_t mode)
{
	CLIENT_BY_NAME(credbox_mkdirat_fd(dirfd, path, mode));
}

int credbox_unlinkat(const char *name, const char *path, int flags)
{
	CLIENT_BY_NAME(credbox_unlinkat_fd(dirfd, path, flags));
}

int credbox_renameat(const char *name, const char *oldpath, const char *newpath,
		     unsigned int flags)
{
	CLIENT_BY_NAME(credbox_renameat_fd(dirfd, oldpath, newpath, flags));
}

int credbox_fstatat(const char *name, const char *path, struct stat *st, int flags)
{
	CLIENT_BY_NAME(credbox_fstatat_fd(dirfd, path, st, flags));
}

int credbox_faccessat(const char *name, const char *path, int mode, int flags)
{
	CLIENT_BY_NAME(credbox_faccessat_fd(dirfd, path, mode, flags));
}

ssize_t credbox_readlinkat(const char *name, const char *path, char *buf, size_t size)
{
	CLIENT_BY_NAME(credbox_readlinkat_fd(dirfd, path, buf, size));
}

int credbox_fchmodat(const char *name, const char *path, mode_t mode, int flags)
{
	CLIENT_BY_NAME(credbox_fchmodat_fd(dirfd, path, mode, flags));
}

int credbox_utimensat(const char *name, const char *path, const struct timespec times[2],
		      int flags)
{
	CLIENT_BY_NAME(credbox_utimensat_fd(dirfd, path, times, flags));
}

int credbox_linkat(const char *name, const char *oldpath, const char *newpath, int flags)
{
	CLIENT_BY_NAME(credbox_linkat_fd(dirfd, oldpath, newpath, flags));
}

int credbox_symlinkat(const char *target, const char *name, const char *linkpath)
{
	CLIENT_BY_NAME(credbox_symlinkat_fd(target, dirfd, linkpath));
}

static const struct {
	int err;
	const char *text;
} client_errors[] = {
	{ ENXIO, "not started by credbox: " CREDBOX_DIRS_ENV " is not set" },
	{ ENOENT, "no such file or directory, or no granted directory of that name" },
	{ EBADF, "the granted directory is not open as an O_CRED_ALLOW directory" },
	{ EINVAL, "invalid argument, a malformed " CREDBOX_DIRS_ENV
		  ", or a kernel without OA2_CRED_INHERIT" },
	{ EXDEV, "the path leads outside the granted directory or into a mount beneath it, "
		 "or a rename or a link would join two trees" },
	{ EPERM, "the directory fd does not lend credentials (open subdirectories with "
		 "O_CRED_ALLOW)" },
	{ ELOOP, "too many symbolic links, or a magic link" },
	{ EROFS, "the directory is granted for reading only (access = ro)" },
	{ ENOSYS, "a kernel without symlinkat2 (the credbox series' patches 15 and 16)" },
};

const char *credbox_strerror(int err)
{
	size_t i;

	if (err < 0)
		err = -err;
	for (i = 0; i < ARRAY_SIZE(client_errors); i++)
		if (client_errors[i].err == err)
			return client_errors[i].text;
	return strerror(err);
}
