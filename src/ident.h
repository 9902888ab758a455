/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ident: users and groups given by name or number, looked up through a small database
 * interface so that the plan can be unit-tested with a fake one.
 */
#ifndef CREDBOX_IDENT_H
#define CREDBOX_IDENT_H

#include <stddef.h>
#include <sys/types.h>

#define IDENT_MAX_GROUPS	64
#define IDENT_NO_GID		((gid_t)-1)

struct ident_user {
	uid_t uid;
	gid_t gid;		/* primary group; IDENT_NO_GID: no passwd entry */
	char name[64];
	char home[256];
};

struct ident_db {
	/* each returns 0, -ENOENT, or another -errno */
	int (*user_by_name)(void *ctx, const char *name, struct ident_user *out);
	int (*user_by_uid)(void *ctx, uid_t uid, struct ident_user *out);
	int (*group_by_name)(void *ctx, const char *name, gid_t *out);
	/* the groups `user` belongs to in the group database, primary included */
	int (*member_of)(void *ctx, const char *user, gid_t primary, gid_t *out, size_t max,
			 size_t *n);
	/* the name of a group, for the messages and the privileged-group rule */
	int (*group_name)(void *ctx, gid_t gid, char *out, size_t size);
	void *ctx;
};

/* The system's databases (getpwnam_r, getgrnam_r, getgrgid_r, getgrouplist). */
void ident_system_db(struct ident_db *db);

/* "name" or "1234". A number without a passwd entry resolves with gid IDENT_NO_GID. */
int ident_user(const struct ident_db *db, const char *spec, struct ident_user *out);
int ident_group(const struct ident_db *db, const char *spec, gid_t *out);

#endif /* CREDBOX_IDENT_H */
