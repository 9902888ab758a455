/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * credbox.h - the client API: find the directories credbox granted and open
 * files beneath them with the credentials each one carries.
 *
 * credbox passes its grants in the environment, CREDBOX_DIRS=name=fd,...
 * Every function returns a non-negative result or a negative errno value;
 * none of them prints, allocates or keeps state.  See credbox_openat(3).
 */
#ifndef CREDBOX_H
#define CREDBOX_H

#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CREDBOX_DIRS_ENV "CREDBOX_DIRS"

/*
 * The fd of the granted directory NAME.
 * -ENXIO: the program was not started by credbox (CREDBOX_DIRS unset);
 * -ENOENT: no grant of that name; -EBADF: the entry names an fd that is not
 * an open O_CRED_ALLOW directory; -EINVAL: CREDBOX_DIRS is malformed.
 */
int credbox_dir(const char *name);

/*
 * Open PATH beneath the granted directory NAME with the directory's
 * credentials: openat2(fd, PATH, {FLAGS, MODE, RESOLVE_BENEATH},
 * OA2_CRED_INHERIT).  Returns the new fd or a negative errno value: those
 * of credbox_dir(), then those of openat2(2) (-EXDEV for a path leaving the
 * directory, -ELOOP for a magic link, -EACCES ...).
 */
int credbox_openat(const char *name, const char *path, int flags, mode_t mode);

/* The same, beneath a directory fd already in hand. */
int credbox_openat_fd(int dirfd, const char *path, int flags, mode_t mode);

/*
 * Directory operations beneath a granted directory, with its credentials:
 * the calls of credbox_mkdirat(3).  Each takes the grant's NAME, or a
 * directory fd in hand (_fd), and a path relative to it that must stay
 * beneath it.  They return 0 (the length for readlinkat) or a negative errno
 * value; -EINVAL from the kernel alone means a kernel without the directory
 * operations (credbox --check says which the running kernel has).
 */
int credbox_mkdirat(const char *name, const char *path, mode_t mode);
int credbox_mkdirat_fd(int dirfd, const char *path, mode_t mode);
/* flags: 0 or AT_REMOVEDIR */
int credbox_unlinkat(const char *name, const char *path, int flags);
int credbox_unlinkat_fd(int dirfd, const char *path, int flags);
/* Both paths beneath the one directory; flags: RENAME_NOREPLACE or RENAME_EXCHANGE
 * (<stdio.h> with _GNU_SOURCE, or <linux/fs.h>). */
int credbox_renameat(const char *name, const char *oldpath, const char *newpath,
		     unsigned int flags);
int credbox_renameat_fd(int dirfd, const char *oldpath, const char *newpath,
			unsigned int flags);
/* flags: 0 or AT_SYMLINK_NOFOLLOW */
int credbox_fstatat(const char *name, const char *path, struct stat *st, int flags);
int credbox_fstatat_fd(int dirfd, const char *path, struct stat *st, int flags);
/* mode: F_OK or R_OK | W_OK | X_OK, checked against the directory's credentials */
int credbox_faccessat(const char *name, const char *path, int mode, int flags);
int credbox_faccessat_fd(int dirfd, const char *path, int mode, int flags);
/* Like readlink(2): not NUL-terminated; the length, or a negative errno value. */
ssize_t credbox_readlinkat(const char *name, const char *path, char *buf, size_t size);
ssize_t credbox_readlinkat_fd(int dirfd, const char *path, char *buf, size_t size);

/*
 * Modes, times and links beneath a granted directory, with its credentials (a kernel with
 * the series' patches 13-16; on an older one they fail with -EINVAL, symlinkat with
 * -ENOSYS).  A grant with access = ro refuses each with -EROFS.
 * fchmodat: flags 0 or AT_SYMLINK_NOFOLLOW; a set-user-ID or set-group-ID bit is never set,
 * and the grant's own directory (".") never changes mode (-EPERM).
 */
int credbox_fchmodat(const char *name, const char *path, mode_t mode, int flags);
int credbox_fchmodat_fd(int dirfd, const char *path, mode_t mode, int flags);
/* times as for utimensat(2) (NULL: now); flags 0 or AT_SYMLINK_NOFOLLOW */
int credbox_utimensat(const char *name, const char *path, const struct timespec times[2],
		      int flags);
int credbox_utimensat_fd(int dirfd, const char *path, const struct timespec times[2],
			 int flags);
/* A hard link, both names beneath the one directory; flags 0 or AT_SYMLINK_FOLLOW. */
int credbox_linkat(const char *name, const char *oldpath, const char *newpath, int flags);
int credbox_linkat_fd(int dirfd, const char *oldpath, const char *newpath, int flags);
/* A symbolic link at LINKPATH; TARGET is stored as given (symlinkat2 with AT_CRED_INHERIT). */
int credbox_symlinkat(const char *target, const char *name, const char *linkpath);
int credbox_symlinkat_fd(const char *target, int dirfd, const char *linkpath);
/*
 * fchmod(2) and futimens(2) of a file opened through a grant (credbox_openat), with the
 * credentials it was opened with; -EPERM for an fd that was not, and for a directory's mode.
 */
int credbox_fchmod(int fd, mode_t mode);
int credbox_futimens(int fd, const struct timespec times[2]);

/* A sentence describing an error returned by the functions above. */
const char *credbox_strerror(int err);

#ifdef __cplusplus
}
#endif

#endif /* CREDBOX_H */
