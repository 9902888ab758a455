/* SPDX-License-Identifier: GPL-2.0 */
/*
 * privdrop: become the sandboxed identity for good, with libcap-ng, and prove it.
 */
#ifndef CREDBOX_PRIVDROP_H
#define CREDBOX_PRIVDROP_H

#include <stddef.h>
#include <sys/types.h>

struct plan_ident;

/* Which check failed, for the message. */
struct privdrop_error {
	const char *step;	/* static: what failed, plainly */
	int call;		/* step names a system call: its errno says why */
};

/*
 * Set groups, gids, uids; clear every capability set (effective, permitted, inheritable,
 * ambient, bounding); lock the securebits that could bring root's powers back; set
 * no_new_privs and make the process non-dumpable. Then read everything back and fail if
 * anything privileged remains. 0 or -errno (err->step says what).
 */
int privdrop_apply(const struct plan_ident *id, struct privdrop_error *err);

/* The read-back alone (for tests): 0 if the process is exactly id and holds nothing. */
int privdrop_verify(const struct plan_ident *id, struct privdrop_error *err);

#endif /* CREDBOX_PRIVDROP_H */
