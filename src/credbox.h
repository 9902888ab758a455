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

#include <sys/types.h>

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

/* A sentence describing an error returned by the functions above. */
const char *credbox_strerror(int err);

#ifdef __cplusplus
}
#endif

#endif /* CREDBOX_H */
