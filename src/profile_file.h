/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profile_file: find a profile, decide whether root may trust its files, and read them (the
 * profile, the files it includes, its drop-ins) into one policy with the parser.
 *
 * A profile decides what root hands out, so nobody but root may have been able to write it or
 * to swap it, as sshd's StrictModes decides for its own files. For each file:
 *  - the path is walked from / one component at a time (openat O_PATH|O_NOFOLLOW on the
 *    directory reached so far), so what is checked is what is read;
 *  - every directory on the way is owned by root and writable by nobody else, except one with
 *    the sticky bit (/tmp), where only root can rename or remove root's entries;
 *  - the file's own directory is writable by root alone, sticky or not (in /tmp anybody could
 *    have put a hard link to some root-owned file there);
 *  - a symbolic link on the way is followed only if root owns it, and its target is walked
 *    the same way (at most 40);
 *  - the file is a regular file, owned by root, not writable by group or others, at most
 *    PROFILE_MAX_SIZE bytes. Its type is decided on the O_PATH descriptor: a FIFO or a device
 *    is never opened, so nothing blocks.
 * The rules are the same whoever runs credbox: --check run by a user reports what root would
 * refuse.
 *
 * Composition (credbox.ini(5), INCLUDES AND DROP-INS): "include = FILE" lines before the first
 * section read FILE at that point (a relative FILE is taken from the including file's
 * directory); after the profile NAME.ini come the drop-ins: the .ini files of the directory
 * NAME.d beside it, in the C locale's order. Each file is read once; includes nest at most PROFILE_MAX_DEPTH deep.
 */
#ifndef CREDBOX_PROFILE_FILE_H
#define CREDBOX_PROFILE_FILE_H

#include <stddef.h>
#include <sys/stat.h>

#include "diag.h"
#include "policy.h"

#define PROFILE_MAX_FILES	64	/* files of one profile, includes and drop-ins */
#define PROFILE_MAX_DEPTH	8	/* includes within includes */
#define PROFILE_NAME_MAX	64

/*
 * Where --profile ARG leads: ARG itself if it has a '/', else SYSCONFDIR/credbox/ARG.ini for
 * a NAME of letters, digits, '_', '-' and '.' (not first); a NAME ending in ".ini" is the
 * file's name there. 0, -EINVAL (not a name) or -ENAMETOOLONG.
 */
int profile_file_locate(const char *arg, const char *sysconfdir, char *path, size_t size);

/* Why a file of the profile cannot be trusted or read. */
struct profile_file_error {
	char msg[4200];		/* the problem, naming the file or directory at fault */
	char hint[4200];	/* the fix; "" when none is known */
};

/*
 * Open path for reading if root may trust it (the rules above): an fd (O_RDONLY, O_CLOEXEC,
 * O_NONBLOCK), with its stat in *st and the path with symbolic links resolved in real (may be
 * NULL); or -errno with the reason in e: msg is the problem of the file ("group-writable (mode
 * 0664)") or of a directory on the way ("directory /srv: owned by uid 1000, not by root"),
 * to be put after the file's name.
 */
int profile_file_open(const char *path, struct stat *st, char *real, size_t size,
		      struct profile_file_error *e);

/*
 * Read the profile at path and the files it is composed of into pol; every file gets its
 * range of lines in d, whose file should be path. name: the NAME path was found by, or NULL
 * (for the hint when there is no such profile). trust: NULL, or where a file or directory root
 * may not trust is noted, and then read all the same (--check lints a draft of any owner; the
 * rules above are its messages). 0, -EINVAL (the reasons in d) or -ENOMEM. pol is freed with
 * profile_free() in every case.
 */
int profile_file_load(const char *path, const char *name, struct policy *pol, struct diag *d,
		      struct diag *trust);

#endif /* CREDBOX_PROFILE_FILE_H */
