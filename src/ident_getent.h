/* SPDX-License-Identifier: GPL-2.0 */
/* ident_getent: one look-up through getent(1); see ident_getent.c. */
#ifndef CREDBOX_IDENT_GETENT_H
#define CREDBOX_IDENT_GETENT_H

#include <stddef.h>

/* Where glibc's libc-bin installs it. */
#define IDENT_GETENT	"/usr/bin/getent"

/*
 * "getent -- DB KEY" run from path, with an empty environment; its output in *out (malloc'd,
 * len bytes, not NUL-terminated). 0; -ENOENT: not found; -ENOPKG: path cannot be run;
 * -EINVAL: a key with ':' or a newline; -EIO: getent failed otherwise; or another -errno.
 */
int ident_getent(const char *path, const char *db, const char *key, char **out, size_t *len);

#endif /* CREDBOX_IDENT_GETENT_H */
