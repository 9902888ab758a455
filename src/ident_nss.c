// SPDX-License-Identifier: GPL-2.0
/*
 * ident_nss: the system's name service in process (getpwnam_r, getpwuid_r, getgrnam_r,
 * getgrgid_r, getgrouplist), for what the passwd and group files cannot answer (ident.c).
 *
 * Linked into credbox-nss alone, the dynamic build: glibc's NSS modules (systemd's userdb,
 * sssd, LDAP) are shared libraries of the installed glibc, which only a dynamically linked
 * program may load. credbox itself is static and has none (ident_nss_none.c): it runs
 * credbox-nss in its place when a profile needs one (main.c).
 */
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

static const struct ident_db nss_db = {
	.user_by_name = sys_user_by_name,
	.user_by_uid = sys_user_by_uid,
	.group_by_name = sys_group_by_name,
	.member_of = sys_member_of,
	.group_name = sys_group_name,
};

const struct ident_db *ident_nss_db(void)
{
	return &nss_db;
}
