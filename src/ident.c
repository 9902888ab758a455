// SPDX-License-Identifier: GPL-2.0
/* ident: user and group resolution; see ident.h. */
#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ident.h"

static int from_passwd(const struct passwd *pw, struct ident_user *out)
{
	if (strlen(pw->pw_name) >= sizeof(out->name) || strlen(pw->pw_dir) >= sizeof(out->home))
		return -ENAMETOOLONG;
	out->uid = pw->pw_uid;
	out->gid = pw->pw_gid;
	strcpy(out->name, pw->pw_name);
	strcpy(out->home, pw->pw_dir);
	return 0;
}

static int sys_user_by_name(void *ctx, const char *name, struct ident_user *out)
{
	struct passwd pw, *res = NULL;
	char buf[4096];
	int err = getpwnam_r(name, &pw, buf, sizeof(buf), &res);

	if (err)
		return -err;
	return res ? from_passwd(res, out) : -ENOENT;
}

static int sys_user_by_uid(void *ctx, uid_t uid, struct ident_user *out)
{
	struct passwd pw, *res = NULL;
	char buf[4096];
	int err = getpwuid_r(uid, &pw, buf, sizeof(buf), &res);

	if (err)
		return -err;
	return res ? from_passwd(res, out) : -ENOENT;
}

/* getgr*_r with a buffer that grows for groups with many members. */
static int sys_getgr(const char *name, gid_t gid, struct group *gr, char **buf)
{
	struct group *res = NULL;
	size_t size = 4096;
	int err;

	for (;;) {
		*buf = malloc(size);
		if (!*buf)
			return -ENOMEM;
		err = name ? getgrnam_r(name, gr, *buf, size, &res) :
			     getgrgid_r(gid, gr, *buf, size, &res);
		if (err != ERANGE || size >= (1 << 20))
			break;
		free(*buf);
		size *= 4;
	}
	if (err)
		return -err;
	return res ? 0 : -ENOENT;
}

static int sys_group_name(void *ctx, gid_t gid, char *out, size_t size)
{
	struct group gr;
	char *buf;
	int err = sys_getgr(NULL, gid, &gr, &buf);

	if (!err && (size_t)snprintf(out, size, "%s", gr.gr_name) >= size)
		err = -ENAMETOOLONG;
	free(buf);
	return err;
}

static int sys_group_by_name(void *ctx, const char *name, gid_t *out)
{
	struct group gr;
	char *buf;
	int err = sys_getgr(name, 0, &gr, &buf);

	if (!err)
		*out = gr.gr_gid;
	free(buf);
	return err;
}

static int sys_member_of(void *ctx, const char *user, gid_t primary, gid_t *out, size_t max,
			 size_t *n)
{
	int count = (int)max;

	if (getgrouplist(user, primary, out, &count) < 0)
		return -E2BIG;
	*n = (size_t)count;
	return 0;
}

void ident_system_db(struct ident_db *db)
{
	db->user_by_name = sys_user_by_name;
	db->user_by_uid = sys_user_by_uid;
	db->group_by_name = sys_group_by_name;
	db->member_of = sys_member_of;
	db->group_name = sys_group_name;
	db->ctx = NULL;
}

static int parse_number(const char *spec, unsigned long *out)
{
	char *end;

	if (!isdigit((unsigned char)*spec))
		return 0;
	errno = 0;
	*out = strtoul(spec, &end, 10);
	return !*end && !errno && *out < 0xffffffffUL;
}

int ident_user(const struct ident_db *db, const char *spec, struct ident_user *out)
{
	unsigned long n;
	int err;

	memset(out, 0, sizeof(*out));
	if (!parse_number(spec, &n))
		return db->user_by_name(db->ctx, spec, out);
	err = db->user_by_uid(db->ctx, (uid_t)n, out);
	if (err != -ENOENT)
		return err;
	out->uid = (uid_t)n;
	out->gid = IDENT_NO_GID;
	snprintf(out->name, sizeof(out->name), "%lu", n);
	strcpy(out->home, "/");
	return 0;
}

int ident_group(const struct ident_db *db, const char *spec, gid_t *out)
{
	unsigned long n;

	if (parse_number(spec, &n)) {
		*out = (gid_t)n;
		return 0;
	}
	return db->group_by_name(db->ctx, spec, out);
}
