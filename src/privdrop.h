/* SPDX-License-Identifier: GPL-2.0 */
/*
 * privdrop: become the sandboxed identity for good, with libcap-ng, and prove it.
 */
#ifndef CREDBOX_PRIVDROP_H
#define CREDBOX_PRIVDROP_H

#include <stddef.h>
#include <sys/types.h>

#include "failure.h"

struct plan_ident;

/*
 * Set groups, gids, uids; clear every capability set (effective, permitted, inheritable,
 * ambient, bounding); lock the securebits that could bring root's powers back; set
 * no_new_privs and make the process non-dumpable. Then read everything back and fail if
 * anything privileged remains. 0 or -errno (err says which step, and why).
 */
int privdrop_apply(const struct plan_ident *id, struct failure *err);

/* The read-back alone (for tests): 0 if the process is exactly id and holds nothing. */
int privdrop_verify(const struct plan_ident *id, struct failure *err);

/* Whether cap is in the process's effective set, as capget reads it: 1, 0, or -errno. */
int privdrop_capable(int cap);

#endif /* CREDBOX_PRIVDROP_H */
