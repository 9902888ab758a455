// SPDX-License-Identifier: GPL-2.0
/*
 * ident_files: the answers /etc/passwd and /etc/group give, read as glibc's "files" service
 * reads them, and what /etc/nsswitch.conf says of them; see ident_files.h.
 *
 * The grammar accepted here is a strict subset of what glibc parses: a line outside it makes
 * the file "doubtful" (-EAGAIN) wherever it could change the answer, and the caller then asks
 * the name service itself. So an answer from here is always the one NSS would give.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "ident_files.h"

/* ---- /etc/nsswitch.conf ------------------------------------------------------------------ */

static const char *const nss_dbs[IDENT_NDB] = { "passwd", "group", "initgroups" };

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* How one database line's service list ("files systemd") is read. */
static unsigned char classify(const char *s, const char *end)
{
	unsigned char how = IDENT_FILES_ONLY;
	int n = 0;

	while (s < end) {
		const char *w;

		while (s < end && is_blank(*s))
			s++;
		if (s == end || *s == '#')
			break;
		for (w = s; s < end && !is_blank(*s) && *s != '#'; s++)
			;
		/* an action ([NOTFOUND=return], [SUCCESS=merge]) changes what "found" means */
		if (memchr(w, '[', (size_t)(s - w)))
			return IDENT_ASK_NSS;
		if (n++ == 0 && (s - w != 5 || memcmp(w, "files", 5)))
			return IDENT_ASK_NSS;
		if (n > 1)
			how = IDENT_FILES_FIRST;
	}
	return n ? how : IDENT_ASK_NSS;
}

/*
 * The database a line names: IDENT_NDB for another one, IDENT_NDB + 1 for a name that is not
 * a plain word (a leading blank, say), which glibc might still read as one of ours.
 */
static size_t db_index(const char *p, const char *colon)
{
	size_t i, n = (size_t)(colon - p);

	for (i = 0; i < n; i++) {
		if (!isalnum((unsigned char)p[i]) && p[i] != '_')
			return IDENT_NDB + 1;
	}
	for (i = 0; i < IDENT_NDB; i++) {
		if (strlen(nss_dbs[i]) == n && !strncasecmp(p, nss_dbs[i], n))
			return i;
	}
	return n ? IDENT_NDB : IDENT_NDB + 1;
}

void ident_nsswitch(const char *text, size_t len, unsigned char how[IDENT_NDB])
{
	const char *p = text, *end = text + len;
	int seen[IDENT_NDB] = { 0 }, unknown = 0;
	size_t i;

	/* glibc's default for a database the file does not name (or no file): files alone */
	for (i = 0; i < IDENT_NDB; i++)
		how[i] = IDENT_FILES_ONLY;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *colon;

		eol = eol ? eol : end;
		for (i = 0; p + i < eol && is_blank(p[i]); i++)
			;
		if (p + i == eol || *p == '#') {
			p = eol + 1;
			continue;
		}
		colon = memchr(p, ':', (size_t)(eol - p));
		i = colon ? db_index(p, colon) : IDENT_NDB + 1;
		if (i < IDENT_NDB)
			/* named twice: which line wins is glibc's business */
			how[i] = seen[i]++ ? IDENT_ASK_NSS : classify(colon + 1, eol);
		else if (i > IDENT_NDB)
			unknown = 1;
		p = eol + 1;
	}
	/* a line this reading does not know could be one of ours: the name service for all */
	if (unknown)
		memset(how, IDENT_ASK_NSS, IDENT_NDB);
	/* without an initgroups line, membership is the group database's */
	if (!seen[IDENT_INITGROUPS] && how[IDENT_INITGROUPS] != IDENT_ASK_NSS)
		how[IDENT_INITGROUPS] = how[IDENT_GROUP];
}

/* ---- lines -------------------------------------------------------------------------------- */

/* Splits [s, end) at ':' into at most max fields; the number of fields. */
static size_t split(const char *s, const char *end, const char **f, size_t *flen, size_t max)
{
	size_t n = 0;

	for (;;) {
		const char *c = memchr(s, ':', (size_t)(end - s));

		if (n == max)
			return max + 1;
		f[n] = s;
		flen[n++] = (size_t)((c ? c : end) - s);
		if (!c)
			return n;
		s = c + 1;
	}
}

/* A uid or gid as glibc reads one and every tool writes one: decimal, not (id_t)-1. */
static int number(const char *s, size_t len, unsigned int *out)
{
	unsigned long long v = 0;
	size_t i;

	if (!len || len > 10)
		return -EAGAIN;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EAGAIN;
		v = v * 10 + (unsigned int)(s[i] - '0');
	}
	if (v >= 0xffffffffULL)
		return -EAGAIN;
	*out = (unsigned int)v;
	return 0;
}

/* Characters no entry in the strict grammar has: blanks, control characters, NUL. */
static int clean(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if ((unsigned char)s[i] <= ' ' || s[i] == 0x7f)
			return 0;
	}
	return 1;
}

/*
 * The name field: not empty, no blank, and not an NIS "+" or "-" entry (which glibc's files
 * service never matches and the compat service reads its own way).
 */
static int name_ok(const char *s, size_t len)
{
	return len && s[0] != '+' && s[0] != '-' && clean(s, len);
}

static int copy(char *dst, size_t size, const char *s, size_t len)
{
	if (len >= size)
		return -ENAMETOOLONG;
	memcpy(dst, s, len);
	dst[len] = '\0';
	return 0;
}

int ident_passwd_line(const char *s, size_t len, struct ident_pwent *out)
{
	const char *f[7];
	size_t fl[7];
	unsigned int uid, gid;

	if (!len || *s == '#')
		return 1;
	if (split(s, s + len, f, fl, 7) != 7 || !name_ok(f[0], fl[0]) ||
	    number(f[2], fl[2], &uid) || number(f[3], fl[3], &gid) || !clean(f[5], fl[5]) ||
	    memchr(s, '\0', len))
		return -EAGAIN;
	out->uid = uid;
	out->gid = gid;
	out->name = f[0];
	out->name_len = fl[0];
	out->home = f[5];
	out->home_len = fl[5];
	return 0;
}

int ident_pwent_user(const struct ident_pwent *pw, struct ident_user *out)
{
	out->uid = pw->uid;
	out->gid = pw->gid;
	if (copy(out->name, sizeof(out->name), pw->name, pw->name_len) ||
	    copy(out->home, sizeof(out->home), pw->home, pw->home_len))
		return -ENAMETOOLONG;
	return 0;
}

int ident_group_line(const char *s, size_t len, struct ident_grent *out)
{
	const char *f[4], *m, *end = s + len;
	size_t fl[4];
	unsigned int gid;

	if (!len || *s == '#')
		return 1;
	if (split(s, end, f, fl, 4) != 4 || !name_ok(f[0], fl[0]) || number(f[2], fl[2], &gid) ||
	    !clean(f[3], fl[3]) || memchr(s, '\0', len))
		return -EAGAIN;
	/* members: "a,b,c", each a name (glibc would also take blanks and an empty one) */
	for (m = f[3]; m < end;) {
		const char *c = memchr(m, ',', (size_t)(end - m));
		size_t n = (size_t)((c ? c : end) - m);

		if (!name_ok(m, n))
			return -EAGAIN;
		m += n + 1;
		if (c && m == end)
			return -EAGAIN;
	}
	out->gid = gid;
	out->name = f[0];
	out->name_len = fl[0];
	out->members = f[3];
	out->members_len = fl[3];
	return 0;
}

int ident_grent_has(const struct ident_grent *g, const char *user)
{
	const char *m = g->members, *end = g->members + g->members_len;
	size_t n = strlen(user);

	while (m < end) {
		const char *c = memchr(m, ',', (size_t)(end - m));
		size_t len = (size_t)((c ? c : end) - m);

		if (len == n && !memcmp(m, user, n))
			return 1;
		m += len + 1;
	}
	return 0;
}

/* ---- looking up --------------------------------------------------------------------------- */

/* Next line of [*p, end) into (line, len); 0 at the end. */
static int next_line(const char **p, const char *end, const char **line, size_t *len)
{
	const char *eol;

	if (*p >= end)
		return 0;
	eol = memchr(*p, '\n', (size_t)(end - *p));
	*line = *p;
	*len = (size_t)((eol ? eol : end) - *p);
	*p = eol ? eol + 1 : end;
	return 1;
}

int ident_files_user(const char *text, size_t size, const char *name, uid_t uid,
		     struct ident_user *out)
{
	const char *p = text, *line;
	size_t len;
	int doubt = 0;

	while (next_line(&p, text + size, &line, &len)) {
		struct ident_pwent pw;
		int e = ident_passwd_line(line, len, &pw);

		if (e == 1)
			continue;
		if (e) {
			doubt = 1;
			continue;
		}
		if (name ? pw.name_len != strlen(name) || memcmp(pw.name, name, pw.name_len) :
			   pw.uid != uid)
			continue;
		/* a doubtful line before the match could have been the match */
		return doubt ? -EAGAIN : ident_pwent_user(&pw, out);
	}
	return doubt ? -EAGAIN : -ENOENT;
}

int ident_files_group(const char *text, size_t size, const char *name, gid_t gid,
		      struct ident_grent *out)
{
	const char *p = text, *line;
	size_t len;
	int doubt = 0;

	while (next_line(&p, text + size, &line, &len)) {
		struct ident_grent g;
		int e = ident_group_line(line, len, &g);

		if (e == 1)
			continue;
		if (e) {
			doubt = 1;
			continue;
		}
		if (name ? g.name_len != strlen(name) || memcmp(g.name, name, g.name_len) :
			   g.gid != gid)
			continue;
		if (doubt)
			return -EAGAIN;
		*out = g;
		return 0;
	}
	return doubt ? -EAGAIN : -ENOENT;
}

/* As getgrouplist: the primary group first, then each group listing the user, once. */
int ident_files_member_of(const char *text, size_t size, const char *user, gid_t primary,
			  gid_t *out, size_t max, size_t *n)
{
	const char *p = text, *line;
	size_t len, i;

	*n = 0;
	if (max == 0)
		return -E2BIG;
	out[(*n)++] = primary;
	while (next_line(&p, text + size, &line, &len)) {
		struct ident_grent g;
		int e = ident_group_line(line, len, &g);

		if (e == 1)
			continue;
		if (e)
			return -EAGAIN;	/* any line may list the user */
		if (!ident_grent_has(&g, user))
			continue;
		for (i = 0; i < *n && out[i] != g.gid; i++)
			;
		if (i < *n)
			continue;
		if (*n == max)
			return -E2BIG;
		out[(*n)++] = g.gid;
	}
	return 0;
}
