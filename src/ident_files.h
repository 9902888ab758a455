/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ident_files: /etc/passwd, /etc/group and /etc/nsswitch.conf read directly, so that the
 * local accounts most profiles name resolve without the name service's machinery; pure
 * functions over the files' text (ident.c reads them and asks the name service the rest).
 *
 * Each look-up answers 0 (found), -ENOENT (no such entry, and the file was clean) or -EAGAIN
 * (a line outside the strict grammar could change the answer: ask the name service).
 */
#ifndef CREDBOX_IDENT_FILES_H
#define CREDBOX_IDENT_FILES_H

#include <stddef.h>
#include <sys/types.h>

#include "ident.h"

enum { IDENT_PASSWD, IDENT_GROUP, IDENT_INITGROUPS, IDENT_NDB };

/* What nsswitch.conf says of a database. */
enum {
	IDENT_FILES_ONLY,	/* "files" alone: the file's answer is the answer */
	IDENT_FILES_FIRST,	/* "files" first, no action: an entry found there is the answer */
	IDENT_ASK_NSS,		/* anything else: only the name service knows */
};

/* how[IDENT_PASSWD..IDENT_INITGROUPS] from the file's text (len 0: no file). */
void ident_nsswitch(const char *text, size_t len, unsigned char how[IDENT_NDB]);

/* One line, without its '\n', pointing into it. 0, 1 (blank or comment), -EAGAIN. */
struct ident_pwent {
	uid_t uid;
	gid_t gid;
	const char *name, *home;
	size_t name_len, home_len;
};

struct ident_grent {
	gid_t gid;
	const char *name, *members;	/* members: "a,b,c" */
	size_t name_len, members_len;
};

int ident_passwd_line(const char *s, size_t len, struct ident_pwent *out);
int ident_group_line(const char *s, size_t len, struct ident_grent *out);
/* 0, or -ENAMETOOLONG for a name or home that does not fit struct ident_user */
int ident_pwent_user(const struct ident_pwent *pw, struct ident_user *out);
int ident_grent_has(const struct ident_grent *g, const char *user);

/* By name (name != NULL) or by number, the first entry, as the files service finds it. */
int ident_files_user(const char *text, size_t size, const char *name, uid_t uid,
		     struct ident_user *out);
int ident_files_group(const char *text, size_t size, const char *name, gid_t gid,
		      struct ident_grent *out);
/* As getgrouplist(3): primary first, then every group listing user, once; -E2BIG past max. */
int ident_files_member_of(const char *text, size_t size, const char *user, gid_t primary,
			  gid_t *out, size_t max, size_t *n);

#endif /* CREDBOX_IDENT_FILES_H */
