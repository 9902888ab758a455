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

/*
 * The system's database: /etc/passwd and /etc/group read directly where /etc/nsswitch.conf
 * makes them the answer (a local account, with "files" first), the name service for
 * everything else, so that the answer is always the one getpwnam(3), getgrnam(3) and
 * getgrouplist(3) would give. The name service is the program's own where it has one
 * (ident_nss_db(): credbox-nss, dynamically linked); credbox, static, has none, and a question
 * only the name service can answer fails with -ENOMEDIUM and sets need_nss. The files are
 * read at their first need and kept until release.
 */
enum { IDENT_ETC_PASSWD, IDENT_ETC_GROUP, IDENT_NSSWITCH, IDENT_NPATHS };

struct ident_system {
	const char *path[IDENT_NPATHS];	/* set by init; a test may point them elsewhere */
	const struct ident_db *nss;	/* the name service in process, or NULL */
	int need_nss;			/* a question was left for a name service */
	char *text[2];			/* passwd, group */
	size_t len[2];
	int err[2], read[2];
	unsigned char how[3];		/* ident_files.h: IDENT_FILES_ONLY ... per database */
	int how_read;
};

void ident_system_init(struct ident_system *s);
void ident_system_db(struct ident_db *db, struct ident_system *s);
void ident_system_release(struct ident_system *s);
/* Whether "no such user" comes from the passwd file alone (nsswitch.conf: files only). */
int ident_system_absence_exact(struct ident_system *s);

/* The name service in process: ident_nss.c in credbox-nss, NULL elsewhere (ident_nss_none.c). */
const struct ident_db *ident_nss_db(void);

/* A hint for a look-up that failed with err, or NULL. */
const char *ident_hint(int err);

/* "name" or "1234". A number without a passwd entry resolves with gid IDENT_NO_GID. */
int ident_user(const struct ident_db *db, const char *spec, struct ident_user *out);
int ident_group(const struct ident_db *db, const char *spec, gid_t *out);

#endif /* CREDBOX_IDENT_H */
