// SPDX-License-Identifier: GPL-2.0
/*
 * ident: user and group resolution; see ident.h. The system's database: the passwd and group
 * files where nsswitch.conf lets them answer (ident_files.c), the name service in process for
 * the rest where the program has one (ident_nss.c, credbox-nss).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ident.h"
#include "ident_files.h"

/* ---- the files, read once, at their first need ------------------------------------------ */

#define FILE_MAX	(16UL << 20)

/* The file's text; a missing file reads as empty, as glibc's files service finds nothing. */
static int slurp(const char *path, char **text, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY), e = 0;
	struct stat st;
	size_t n = 0;
	ssize_t r;

	*text = NULL;
	*len = 0;
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (fstat(fd, &st) < 0)
		e = -errno;
	else if (!S_ISREG(st.st_mode) || (size_t)st.st_size > FILE_MAX)
		e = -EAGAIN;	/* not what the files service expects: let it say */
	else if (!(*text = malloc((size_t)st.st_size + 1)))
		e = -ENOMEM;
	/* up to the size fstat gave: a file growing meanwhile is read as it was */
	while (!e && n < (size_t)st.st_size) {
		r = read(fd, *text + n, (size_t)st.st_size - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			e = r < 0 ? -errno : 0;
			break;
		}
		n += (size_t)r;
	}
	close(fd);
	if (e) {
		free(*text);
		*text = NULL;
		return e;
	}
	*len = n;
	return 0;
}

/*
 * The file of database db, if nsswitch.conf lets it answer: 0, -EAGAIN (the name service
 * answers), or the -errno of reading it.
 */
static int files(struct ident_system *s, int db, const char **text, size_t *len)
{
	int f = db == IDENT_PASSWD ? IDENT_ETC_PASSWD : IDENT_ETC_GROUP;
	char *conf;
	size_t n;
	int e;

	if (!s->how_read) {
		e = slurp(s->path[IDENT_NSSWITCH], &conf, &n);
		if (e == -EAGAIN)
			memset(s->how, IDENT_ASK_NSS, sizeof(s->how));
		else if (e)
			return e;
		else
			ident_nsswitch(conf, n, s->how);
		free(conf);
		s->how_read = 1;
	}
	if (s->how[db] == IDENT_ASK_NSS)
		return -EAGAIN;
	if (!s->read[f]) {
		s->err[f] = slurp(s->path[f], &s->text[f], &s->len[f]);
		s->read[f] = 1;
	}
	*text = s->text[f] ? s->text[f] : "";
	*len = s->len[f];
	return s->err[f];
}

/* The files' answer e under nsswitch.conf: "not in the file" is final only for files alone. */
static int settle(const struct ident_system *s, int db, int e)
{
	return e == -ENOENT && s->how[db] != IDENT_FILES_ONLY ? -EAGAIN : e;
}

/* ---- the name service ---------------------------------------------------------------------- */

/*
 * A question the files cannot answer, where this program has no name service (credbox,
 * static): noted, so that main runs credbox-nss, which has one, in its place.
 */
static int no_nss(struct ident_system *s)
{
	s->need_nss = 1;
	return -ENOMEDIUM;
}

/* ---- the database ------------------------------------------------------------------------- */

static int sys_user(struct ident_system *s, const char *name, uid_t uid, struct ident_user *out)
{
	const char *text;
	size_t len;
	int e = files(s, IDENT_PASSWD, &text, &len);

	if (!e)
		e = settle(s, IDENT_PASSWD, ident_files_user(text, len, name, uid, out));
	if (e != -EAGAIN)
		return e;
	if (!s->nss)
		return no_nss(s);
	return name ? s->nss->user_by_name(NULL, name, out) : s->nss->user_by_uid(NULL, uid, out);
}

static int sys_user_by_name(void *ctx, const char *name, struct ident_user *out)
{
	return sys_user(ctx, name, 0, out);
}

static int sys_user_by_uid(void *ctx, uid_t uid, struct ident_user *out)
{
	return sys_user(ctx, NULL, uid, out);
}

static int sys_group(struct ident_system *s, const char *name, gid_t gid, char *name_out,
		     size_t size, gid_t *gid_out)
{
	struct ident_grent gr;
	const char *text;
	size_t len;
	int e = files(s, IDENT_GROUP, &text, &len);

	if (!e)
		e = settle(s, IDENT_GROUP, ident_files_group(text, len, name, gid, &gr));
	if (e == -EAGAIN && !s->nss)
		return no_nss(s);
	if (e == -EAGAIN)
		return name ? s->nss->group_by_name(NULL, name, gid_out) :
			      s->nss->group_name(NULL, gid, name_out, size);
	if (!e && name_out) {
		if (gr.name_len >= size)
			return -ENAMETOOLONG;
		memcpy(name_out, gr.name, gr.name_len);
		name_out[gr.name_len] = '\0';
	}
	if (!e && gid_out)
		*gid_out = gr.gid;
	return e;
}

static int sys_group_name(void *ctx, gid_t gid, char *out, size_t size)
{
	return sys_group(ctx, NULL, gid, out, size, NULL);
}

static int sys_group_by_name(void *ctx, const char *name, gid_t *out)
{
	return sys_group(ctx, name, 0, NULL, 0, out);
}

/*
 * Membership is merged from every service of the database (glibc asks them all unless an
 * initgroups line says otherwise): the file answers alone only where it is the only one.
 */
static int sys_member_of(void *ctx, const char *user, gid_t primary, gid_t *out, size_t max,
			 size_t *n)
{
	struct ident_system *s = ctx;
	const char *text;
	size_t len;
	int e = files(s, IDENT_INITGROUPS, &text, &len);

	if (!e && s->how[IDENT_INITGROUPS] != IDENT_FILES_ONLY)
		e = -EAGAIN;
	if (!e)
		e = ident_files_member_of(text, len, user, primary, out, max, n);
	if (e != -EAGAIN)
		return e;
	return s->nss ? s->nss->member_of(NULL, user, primary, out, max, n) : no_nss(s);
}

void ident_system_init(struct ident_system *s)
{
	memset(s, 0, sizeof(*s));
	s->path[IDENT_ETC_PASSWD] = "/etc/passwd";
	s->path[IDENT_ETC_GROUP] = "/etc/group";
	s->path[IDENT_NSSWITCH] = "/etc/nsswitch.conf";
	s->nss = ident_nss_db();
}

void ident_system_db(struct ident_db *db, struct ident_system *s)
{
	db->user_by_name = sys_user_by_name;
	db->user_by_uid = sys_user_by_uid;
	db->group_by_name = sys_group_by_name;
	db->member_of = sys_member_of;
	db->group_name = sys_group_name;
	db->ctx = s;
}

void ident_system_release(struct ident_system *s)
{
	free(s->text[IDENT_ETC_PASSWD]);
	free(s->text[IDENT_ETC_GROUP]);
	s->text[IDENT_ETC_PASSWD] = s->text[IDENT_ETC_GROUP] = NULL;
	s->read[IDENT_ETC_PASSWD] = s->read[IDENT_ETC_GROUP] = 0;
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

const char *ident_hint(int err)
{
	return err == -ENOMEDIUM ? "only credbox-nss, the dynamic build, asks the name service: "
		"install credbox whole" : NULL;
}

int ident_system_absence_exact(struct ident_system *s)
{
	const char *text;
	size_t len;

	return !files(s, IDENT_PASSWD, &text, &len) && s->how[IDENT_PASSWD] == IDENT_FILES_ONLY;
}
