// SPDX-License-Identifier: GPL-2.0
/*
 * t-ident: the passwd and group files read as glibc's files service reads them, what
 * nsswitch.conf lets them answer, and the name service asked for the rest: with files and a
 * name service of the test's own, then against this machine's own NSS (ident_nss.c, as in
 * credbox-nss).
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ident.h"
#include "ident_files.h"
#include "tap.h"

#define F IDENT_FILES_ONLY
#define FF IDENT_FILES_FIRST
#define A IDENT_ASK_NSS

static void test_nsswitch(void)
{
	static const struct {
		const char *text;
		unsigned char how[IDENT_NDB];
	} cases[] = {
		{ "", { F, F, F } },
		{ "# nothing\n\nhosts: files dns\n", { F, F, F } },
		{ "passwd:         files systemd\ngroup:          files systemd\n", { FF, FF, FF } },
		{ "passwd: files\ngroup: files # local only\n", { F, F, F } },
		{ "passwd: compat\ngroup: compat\n", { A, A, A } },
		{ "passwd: files\ngroup: files [SUCCESS=merge] systemd\n", { F, A, A } },
		{ "passwd: files [NOTFOUND=return] ldap\n", { A, F, F } },
		{ "passwd: files\ngroup: files sss\ninitgroups: files\n", { F, FF, F } },
		{ "group: files\ninitgroups: files ldap\n", { F, F, FF } },
		{ "PASSWD: files ldap\n", { FF, F, F } },
		{ "passwd: files\npasswd: ldap\n", { A, F, F } },
		{ "passwd:\n", { A, F, F } },
		{ "passwd: ldap files\n", { A, F, F } },
		{ "  passwd: ldap\ngroup: files\n", { A, A, A } },
		{ "passwd files\n", { A, A, A } },
		{ "   \npasswd: files\n", { F, F, F } },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned char how[IDENT_NDB];
		char what[160];

		ident_nsswitch(cases[i].text, strlen(cases[i].text), how);
		snprintf(what, sizeof(what), "nsswitch.conf case %zu: passwd %d group %d initgroups %d",
			 i, how[0], how[1], how[2]);
		tap_ok(!memcmp(how, cases[i].how, IDENT_NDB), what);
	}
}

static int user(const char *text, const char *name, uid_t uid, struct ident_user *u)
{
	memset(u, 0, sizeof(*u));
	return ident_files_user(text, strlen(text), name, uid, u);
}

static void test_passwd(void)
{
	const char *text = "# comment\n\nroot:x:0:0:root:/root:/bin/bash\n"
			   "drive:x:1001:1001:drive owner:/home/drive:/bin/sh\n"
			   "alias:x:1001:7:second name of 1001:/:/bin/sh\n"
			   "odd:x:12::no gid:/:/bin/sh\n"
			   "late:x:1500:1500::/home/late:/bin/sh";
	struct ident_pwent pw;
	struct ident_user u;

	tap_ok(user(text, "drive", 0, &u) == 0 && u.uid == 1001 && u.gid == 1001 &&
	       !strcmp(u.home, "/home/drive") && !strcmp(u.name, "drive"), "passwd: by name");
	tap_ok(user(text, NULL, 1001, &u) == 0 && !strcmp(u.name, "drive"),
	       "passwd: by uid, the first entry of it");
	tap_ok(user(text, NULL, 0, &u) == 0 && !strcmp(u.name, "root"), "passwd: uid 0");
	tap_ok(user(text, "nosuch", 0, &u) == -EAGAIN,
	       "passwd: not found where a doubtful line could have been it: ask NSS");
	tap_ok(user(text, "late", 0, &u) == -EAGAIN,
	       "passwd: found after a doubtful line: ask NSS");
	tap_ok(user(text, "root", 0, &u) == 0, "passwd: found before a doubtful line");
	tap_ok(user("a:x:1:1::/:/bin/sh\nb:x:2:2::/:/bin/sh", "c", 0, &u) == -ENOENT,
	       "passwd: not in a clean file: ENOENT");
	tap_ok(user("", "root", 0, &u) == -ENOENT, "passwd: empty file: ENOENT");
	tap_ok(user("a:x:1:1::/:/bin/sh\n", "a:x", 0, &u) == -ENOENT,
	       "passwd: a name is matched whole");
	tap_ok(ident_passwd_line("+nis::::::", 10, &pw) == -EAGAIN, "passwd: NIS + entry");
	tap_ok(ident_passwd_line("-bad::::::", 10, &pw) == -EAGAIN, "passwd: NIS - entry");
	tap_ok(ident_passwd_line("a:x:4294967295:1::/:/bin/sh", 27, &pw) == -EAGAIN,
	       "passwd: uid -1");
	tap_ok(ident_passwd_line("a:x:+5:1::/:/bin/sh", 19, &pw) == -EAGAIN, "passwd: signed uid");
	tap_ok(ident_passwd_line("a:x:5:1::/:/bin/sh:x", 20, &pw) == -EAGAIN,
	       "passwd: eight fields");
	tap_ok(ident_passwd_line(" a:x:5:1::/:/bin/sh", 19, &pw) == -EAGAIN,
	       "passwd: leading blank");
	tap_ok(ident_passwd_line("a:x:5:1::/home/a b:/bin/sh", 26, &pw) == -EAGAIN,
	       "passwd: blank in the home directory");
	tap_ok(ident_passwd_line("a:x:5:1:A\0b:/:/bin/sh", 21, &pw) == -EAGAIN, "passwd: NUL");
	tap_ok(ident_passwd_line("#a:x:5:1::/:/bin/sh", 19, &pw) == 1, "passwd: comment");
}

static void test_group(void)
{
	const char *text = "root:x:0:\nusers:x:100:drive,sandbox\ndosemu:x:1100:sandbox\n"
			   "drive:x:1001:\nagain:x:100:drive\nsandbox:x:1002:\n";
	const char *bad = "a:x:1:drive\nb:x:2:x,,y\n";
	struct ident_grent g;
	gid_t list[8];
	size_t n;

	tap_ok(ident_files_group(text, strlen(text), "dosemu", 0, &g) == 0 && g.gid == 1100,
	       "group: by name");
	tap_ok(ident_files_group(text, strlen(text), NULL, 100, &g) == 0 && g.name_len == 5 &&
	       !memcmp(g.name, "users", 5), "group: by gid, the first entry of it");
	tap_ok(ident_files_group(text, strlen(text), "nosuch", 0, &g) == -ENOENT,
	       "group: not in a clean file: ENOENT");
	tap_ok(ident_files_member_of(text, strlen(text), "sandbox", 1002, list, 8, &n) == 0 &&
	       n == 3 && list[0] == 1002 && list[1] == 100 && list[2] == 1100,
	       "group: membership, primary first, in the file's order");
	tap_ok(ident_files_member_of(text, strlen(text), "drive", 1001, list, 8, &n) == 0 &&
	       n == 2 && list[0] == 1001 && list[1] == 100, "group: a gid listed twice, once");
	tap_ok(ident_files_member_of(text, strlen(text), "drive", 100, list, 8, &n) == 0 &&
	       n == 1 && list[0] == 100, "group: the primary group listing the user, once");
	tap_ok(ident_files_member_of(text, strlen(text), "sandbox", 1002, list, 2, &n) == -E2BIG,
	       "group: more groups than room: E2BIG");
	tap_ok(ident_files_member_of(text, strlen(text), "san", 1, list, 8, &n) == 0 && n == 1,
	       "group: a member is matched whole");
	tap_ok(ident_files_member_of(bad, strlen(bad), "drive", 5, list, 8, &n) == -EAGAIN,
	       "group: an empty member anywhere: ask NSS for membership");
	tap_ok(ident_group_line("a:x:1:b,", 8, &g) == -EAGAIN, "group: trailing comma");
	tap_ok(ident_group_line("a:x:1:b c", 9, &g) == -EAGAIN, "group: blank in a member");
	tap_ok(ident_group_line("a:x:1", 5, &g) == -EAGAIN, "group: three fields");
}

/* ---- the system database, with files of the test's own and a counting name service -------- */

struct sandbox {
	char dir[64], passwd[96], group[96], nss[96];
};

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void sandbox_make(struct sandbox *s, const char *nsswitch)
{
	snprintf(s->dir, sizeof(s->dir), "/tmp/t-ident.XXXXXX");
	if (!mkdtemp(s->dir))
		return;
	snprintf(s->passwd, sizeof(s->passwd), "%s/passwd", s->dir);
	snprintf(s->group, sizeof(s->group), "%s/group", s->dir);
	snprintf(s->nss, sizeof(s->nss), "%s/nsswitch.conf", s->dir);
	put(s->passwd, "root:x:0:0:root:/root:/bin/sh\ndrive:x:1001:1001::/home/drive:/bin/sh\n");
	put(s->group, "root:x:0:\ndrive:x:1001:\ndosemu:x:1100:drive\n");
	put(s->nss, nsswitch);
}

static void sandbox_remove(struct sandbox *s)
{
	unlink(s->passwd);
	unlink(s->group);
	unlink(s->nss);
	rmdir(s->dir);
}

/*
 * The name service a test stands in: knows alice (uid 2000, in 3000 and 3001) and group
 * staff2 (4242), and counts the questions it is asked.
 */
static int asked;

static int ns_user_by_name(void *ctx, const char *name, struct ident_user *out)
{
	asked++;
	if (strcmp(name, "alice"))
		return -ENOENT;
	*out = (struct ident_user){ .uid = 2000, .gid = 2000, .name = "alice",
				    .home = "/home/alice" };
	return 0;
}

static int ns_user_by_uid(void *ctx, uid_t uid, struct ident_user *out)
{
	if (uid == 2000)
		return ns_user_by_name(ctx, "alice", out);	/* counts the question */
	asked++;
	return -ENOENT;
}

static int ns_group_by_name(void *ctx, const char *name, gid_t *out)
{
	asked++;
	if (strcmp(name, "staff2"))
		return -ENOENT;
	*out = 4242;
	return 0;
}

static int ns_group_name(void *ctx, gid_t gid, char *out, size_t size)
{
	asked++;
	if (gid != 4242)
		return -ENOENT;
	snprintf(out, size, "staff2");
	return 0;
}

static int ns_member_of(void *ctx, const char *user, gid_t primary, gid_t *out, size_t max,
			size_t *n)
{
	asked++;
	*n = 0;
	out[(*n)++] = primary;
	if (!strcmp(user, "alice") && max >= 3) {
		out[(*n)++] = 3000;
		out[(*n)++] = 3001;
	}
	return 0;
}

static const struct ident_db counting_ns = {
	.user_by_name = ns_user_by_name,
	.user_by_uid = ns_user_by_uid,
	.group_by_name = ns_group_by_name,
	.member_of = ns_member_of,
	.group_name = ns_group_name,
};

static void sandbox_db(struct sandbox *s, struct ident_system *sys, struct ident_db *db,
		       const struct ident_db *ns)
{
	ident_system_init(sys);
	sys->path[IDENT_ETC_PASSWD] = s->passwd;
	sys->path[IDENT_ETC_GROUP] = s->group;
	sys->path[IDENT_NSSWITCH] = s->nss;
	sys->nss = ns;
	ident_system_db(db, sys);
	asked = 0;
}

static void test_files_only(void)
{
	struct ident_system sys;
	struct ident_user u;
	struct ident_db db;
	struct sandbox s;
	char name[64];
	gid_t list[8], g;
	size_t n;

	sandbox_make(&s, "passwd: files\ngroup: files\n");
	sandbox_db(&s, &sys, &db, &counting_ns);
	tap_ok(ident_user(&db, "drive", &u) == 0 && u.uid == 1001, "files alone: a local user");
	tap_ok(db.user_by_name(db.ctx, "alice", &u) == -ENOENT,
	       "files alone: a user the file lacks does not exist");
	tap_ok(db.member_of(db.ctx, "drive", 1001, list, 8, &n) == 0 && n == 2 &&
	       list[1] == 1100, "files alone: membership from the file");
	tap_ok(db.group_name(db.ctx, 1100, name, sizeof(name)) == 0 && !strcmp(name, "dosemu"),
	       "files alone: a group's name");
	tap_ok(ident_group(&db, "staff2", &g) == -ENOENT, "files alone: no such group");
	tap_ok(asked == 0, "files alone: the name service never asked");
	tap_ok(ident_system_absence_exact(&sys), "files alone: an absent uid is absent");
	ident_system_release(&sys);
	sandbox_remove(&s);
}

static void test_files_first(void)
{
	struct ident_system sys;
	struct ident_user u;
	struct ident_db db;
	struct sandbox s;
	char name[64];
	gid_t list[8], g;
	size_t n;

	sandbox_make(&s, "passwd: files systemd\ngroup: files systemd\n");
	sandbox_db(&s, &sys, &db, &counting_ns);
	tap_ok(ident_user(&db, "drive", &u) == 0 && u.uid == 1001 && ident_group(&db, "dosemu",
	       &g) == 0 && g == 1100 && asked == 0,
	       "files first: local entries from the files, the name service not asked");
	tap_ok(ident_user(&db, "alice", &u) == 0 && u.uid == 2000 && u.gid == 2000 &&
	       !strcmp(u.home, "/home/alice") && asked == 1,
	       "files first: another user from the name service");
	tap_ok(ident_group(&db, "staff2", &g) == 0 && g == 4242 &&
	       db.group_name(db.ctx, 4242, name, sizeof(name)) == 0 && !strcmp(name, "staff2") &&
	       asked == 3, "files first: another group, by name and by number");
	tap_ok(db.member_of(db.ctx, "drive", 1001, list, 8, &n) == 0 && asked == 4,
	       "files first: membership is always the name service's");
	tap_ok(db.member_of(db.ctx, "alice", 2000, list, 8, &n) == 0 && n == 3 &&
	       list[0] == 2000 && list[1] == 3000, "files first: its groups, primary first");
	tap_ok(ident_user(&db, "4343", &u) == 0 && u.gid == IDENT_NO_GID,
	       "files first: a number neither knows is an unlisted uid");
	tap_ok(!ident_system_absence_exact(&sys), "files first: an absent uid is not known absent");
	tap_ok(!sys.need_nss, "files first: with a name service, none is missing");
	ident_system_release(&sys);

	/* credbox, static: no name service in process */
	sandbox_db(&s, &sys, &db, NULL);
	tap_ok(db.user_by_name(db.ctx, "drive", &u) == 0 && !sys.need_nss,
	       "no name service: a local user still resolves");
	tap_ok(db.member_of(db.ctx, "drive", 1001, list, 8, &n) == -ENOMEDIUM && sys.need_nss &&
	       ident_hint(-ENOMEDIUM), "no name service: membership needs one, noted, with a hint");
	ident_system_release(&sys);
	sandbox_db(&s, &sys, &db, NULL);
	tap_ok(db.user_by_uid(db.ctx, 4343, &u) == -ENOMEDIUM && sys.need_nss,
	       "no name service: an unlisted number needs one");
	ident_system_release(&sys);
	sandbox_remove(&s);
}

static void test_ask_nss(void)
{
	struct ident_system sys;
	struct ident_user u;
	struct ident_db db;
	struct sandbox s;

	sandbox_make(&s, "passwd: compat\n");
	sandbox_db(&s, &sys, &db, &counting_ns);
	tap_ok(db.user_by_name(db.ctx, "drive", &u) == -ENOENT && asked == 1,
	       "compat: even a user of the file is the name service's to answer");
	ident_system_release(&sys);
	sandbox_remove(&s);

	sandbox_make(&s, "");
	unlink(s.nss);
	sandbox_db(&s, &sys, &db, &counting_ns);
	tap_ok(db.user_by_name(db.ctx, "alice", &u) == -ENOENT && asked == 0,
	       "no nsswitch.conf: the files alone, as glibc's default");
	ident_system_release(&sys);
	sandbox_remove(&s);
}

/* ---- against this machine's own name service ------------------------------------------------ */

static void test_this_machine(void)
{
	struct ident_system sys;
	struct ident_db db;
	struct passwd *pw;
	int users = 0, same = 0, groups_same = 0;

	ident_system_init(&sys);
	sys.nss = ident_nss_db();
	ident_system_db(&db, &sys);
	setpwent();
	while ((pw = getpwent())) {
		struct ident_user u;
		gid_t mine[IDENT_MAX_GROUPS], libc[IDENT_MAX_GROUPS];
		int nl = IDENT_MAX_GROUPS, i;
		size_t n;

		users++;
		if (!db.user_by_name(db.ctx, pw->pw_name, &u) && u.uid == pw->pw_uid &&
		    u.gid == pw->pw_gid && !strcmp(u.home, pw->pw_dir))
			same++;
		else
			printf("# %s: differs from getpwent\n", pw->pw_name);
		if (getgrouplist(pw->pw_name, pw->pw_gid, libc, &nl) < 0 ||
		    db.member_of(db.ctx, pw->pw_name, pw->pw_gid, mine, IDENT_MAX_GROUPS, &n) ||
		    n != (size_t)nl) {
			printf("# %s: groups differ from getgrouplist\n", pw->pw_name);
			continue;
		}
		for (i = 0; i < nl && libc[i] == mine[i]; i++)
			;
		groups_same += i == nl;
	}
	endpwent();
	printf("# %d users of this machine\n", users);
	tap_ok(users > 0 && same == users, "this machine: every user as getpwnam gives it");
	tap_ok(users > 0 && groups_same == users,
	       "this machine: every user's groups as getgrouplist gives them");
	ident_system_release(&sys);
}

int main(void)
{
	test_nsswitch();
	test_passwd();
	test_group();
	test_files_only();
	test_files_first();
	test_ask_nss();
	test_this_machine();
	return tap_done();
}
