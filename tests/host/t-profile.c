// SPDX-License-Identifier: GPL-2.0
/*
 * t-profile: unit tests of the pure phases, profile -> policy -> plan, with a fake user and
 * group database (the VM's accounts). TAP.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "profile.h"
#include "tap.h"
#include "util.h"

/* ---- a fake database: the guest's accounts (tests/vm/vm-run) ------------------------------- */

static const struct { const char *name; uid_t uid; gid_t gid; } users[] = {
	{ "root", 0, 0 }, { "drive", 1001, 1001 }, { "sandbox", 1002, 1002 },
	{ "other", 1003, 1003 }, { "ops", 1004, 1004 }, { "nobody", 65534, 65534 },
};
static const struct { const char *name; gid_t gid; } grps[] = {
	{ "root", 0 }, { "adm", 4 }, { "disk", 6 }, { "shadow", 42 }, { "drive", 1001 },
	{ "sandbox", 1002 }, { "other", 1003 }, { "ops", 1004 }, { "dosemu", 1100 },
	{ "nogroup", 65534 },
};

static int fill(size_t i, struct ident_user *out)
{
	out->uid = users[i].uid;
	out->gid = users[i].gid;
	snprintf(out->name, sizeof(out->name), "%s", users[i].name);
	snprintf(out->home, sizeof(out->home), "/home/%s", users[i].name);
	return 0;
}

/* With a ctx, each lookup of a user, a user's groups or a group's name is counted there. */
static void count(void *ctx)
{
	if (ctx)
		++*(int *)ctx;
}

static int fake_user(void *ctx, const char *name, struct ident_user *out)
{
	count(ctx);
	for (size_t i = 0; i < ARRAY_SIZE(users); i++)
		if (!strcmp(users[i].name, name))
			return fill(i, out);
	return -ENOENT;
}

static int fake_uid(void *ctx, uid_t uid, struct ident_user *out)
{
	count(ctx);
	for (size_t i = 0; i < ARRAY_SIZE(users); i++)
		if (users[i].uid == uid)
			return fill(i, out);
	return -ENOENT;
}

static int fake_group(void *ctx, const char *name, gid_t *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(grps); i++)
		if (!strcmp(grps[i].name, name)) {
			*out = grps[i].gid;
			return 0;
		}
	return -ENOENT;
}

static int fake_member(void *ctx, const char *user, gid_t primary, gid_t *out, size_t max,
		       size_t *n)
{
	count(ctx);
	*n = 0;
	out[(*n)++] = primary;
	if (!strcmp(user, "sandbox"))
		out[(*n)++] = 1100;
	if (!strcmp(user, "drive"))
		out[(*n)++] = 1100;
	if (!strcmp(user, "4343"))
		out[(*n)++] = 1100;	/* an account named "4343", which uid 4343 is not */
	if (!strcmp(user, "ops")) {
		out[(*n)++] = 4;	/* adm */
		out[(*n)++] = 1100;
	}
	return 0;
}

static int fake_group_name(void *ctx, gid_t gid, char *out, size_t size)
{
	count(ctx);
	for (size_t i = 0; i < ARRAY_SIZE(grps); i++)
		if (grps[i].gid == gid) {
			snprintf(out, size, "%s", grps[i].name);
			return 0;
		}
	return -ENOENT;
}

static const struct ident_db fake_db = { fake_user, fake_uid, fake_group, fake_member,
					 fake_group_name, NULL };

/* ---- helpers ------------------------------------------------------------------------------- */

/*
 * Parse (and plan with db, if parsing worked); return the messages ("" if none). Caller frees.
 * With keep_plan and no message, the plan is kept there: the caller frees it (release).
 */
static char *run_with(const struct ident_db *db, const char *text, char *const *cmd,
		      size_t ncmd, char *const *env, struct plan *keep_plan)
{
	struct policy *pol = calloc(1, sizeof(*pol));
	struct plan plan;
	struct diag d;
	char *out;
	int e;

	diag_init(&d, "t.ini");
	e = profile_parse_buffer(text, strlen(text), pol, &d);
	if (!e)
		e = plan_build(pol, db, cmd, ncmd, env, &plan, &d);
	out = diag_format(&d);
	if (!e && !d.n && keep_plan) {
		*keep_plan = plan;	/* the caller frees plan and policy */
	} else {
		if (!e)
			plan_free(&plan);
		profile_free(pol);
		free(pol);
	}
	if (e && !d.n) {
		free(out);
		out = strdup("(error without a message)\n");
	}
	diag_free(&d);
	return out;
}

/* The same with the fake database as it is. */
static char *run(const char *text, char *const *cmd, size_t ncmd, char *const *env,
		 struct plan *keep_plan)
{
	return run_with(&fake_db, text, cmd, ncmd, env, keep_plan);
}

static void release(struct plan *plan)
{
	struct policy *pol = (struct policy *)plan->pol;

	plan_free(plan);
	profile_free(pol);
	free(pol);
}

#define BASE "[program]\npath = /bin/prog\n[identity]\nuser = sandbox\n" \
	     "[seccomp]\npolicy = deny-list\n"

static void expect(const char *text, const char *want, const char *what)
{
	char *got = run(text, NULL, 0, NULL, NULL);

	tap_is_str(got, want, what);
	free(got);
}

/* ---- bad profiles: the exact messages ------------------------------------------------------- */

#define HINT_SECURE "hint: the program runs in secure mode (AT_SECURE), so it would never see " \
		    "the variable: remove it\n"
#define HINT_GLOB "hint: name the variables to keep, or use a longer prefix\n"

static void test_bad(void)
{
	expect(BASE "[dir drive_c]\npath = /srv/c\nowner = drive\nrw = yes\naccess = rw\n",
	       "t.ini:10: unknown key \"rw\" in [dir drive_c]\n"
	       "hint: the access of a directory is set with \"access = rw\"\n",
	       "unknown key, with a hint");
	expect(BASE "[dir c]\npath = /srv/c\nownr = drive\naccess = rw\n",
	       "t.ini:9: unknown key \"ownr\" in [dir c]\nhint: did you mean \"owner\"?\n"
	       "t.ini:7: missing required key \"owner\" in [dir c]\n",
	       "a typo: did you mean, and the missing key");
	expect(BASE "[dir c]\npath = /srv/c\nowner = drive\n",
	       "t.ini:7: missing required key \"access\" in [dir c]\n",
	       "missing required key");
	expect(BASE "[dir c]\npath = /srv/c\npath = /srv/d\nowner = drive\naccess = ro\n",
	       "t.ini:9: duplicate key \"path\" in [dir c] (first on line 8)\n", "duplicate key");
	expect(BASE "[dir c]\npath = srv/c\nowner = drive\naccess = ro\n",
	       "t.ini:8: path \"srv/c\" is not an absolute path\n"
	       "hint: paths in a profile are absolute\n", "relative path");
	expect(BASE "[dir c]\npath = /srv/../etc\nowner = drive\naccess = ro\n",
	       "t.ini:8: path \"/srv/../etc\" has a \".\" or \"..\" component\n"
	       "hint: write the path without \".\" or \"..\" components\n", "dot-dot path");
	expect(BASE "[dir c]\npath = /srv/c\nowner = drive\naccess = write\n",
	       "t.ini:10: access must be one of ro|rw, not \"write\"\n", "bad enum value");
	expect("user = x\n" BASE,
	       "t.ini:1: key \"user\" outside any section\n"
	       "hint: start with a section such as [program]\n", "key outside a section");
	expect(BASE "[network]\nallow = yes\n",
	       "t.ini:7: unknown section [network]\n"
	       "hint: sections are [program], [identity], [environment], [filesystem], "
	       "[seccomp], [limits] and [dir NAME]\n", "unknown section, its keys not reported");
	expect(BASE "[identity]\nuser = other\n",
	       "t.ini:7: duplicate section [identity] (first on line 3)\n", "duplicate section");
	expect(BASE "[dir]\npath = /x\n",
	       "t.ini:7: [dir] needs a name\nhint: a directory section is [dir NAME]; NAME is "
	       "letters, digits, '_', '-', '.' (at most 64)\n", "dir without a name");
	expect("[program]\npath = /bin/prog\n[identity]\nuser = sandbox\n",
	       "t.ini: missing section [seccomp]\n", "missing section");
	expect(BASE "this is not a key\n",
	       "t.ini:7: expected \"key = value\"\nhint: each line is [section], key = value, "
	       "or a comment (; or #)\n", "syntax error");
	expect(BASE "[dir c]\npath: /srv/c\n",
	       "t.ini:8: expected \"key = value\"\nhint: use '=' between key and value\n"
	       "t.ini:7: missing required key \"path\" in [dir c]\n"
	       "t.ini:7: missing required key \"owner\" in [dir c]\n"
	       "t.ini:7: missing required key \"access\" in [dir c]\n", "colon delimiter");
	expect(BASE "[program\n",
	       "t.ini:7: missing ']' in section header\nhint: a section header is [NAME]\n",
	       "unclosed section header");
	expect(BASE "deny = @nosuch\n",
	       "t.ini:7: deny: unknown syscall group \"@nosuch\"\n"
	       "hint: credbox --list-groups lists the groups and their members\n",
	       "unknown group");
	expect(BASE "deny = frobnicate\n",
	       "t.ini:7: deny: unknown system call \"frobnicate\"\n", "unknown system call");
	expect(BASE "allow = read:EPERM\n",
	       "t.ini:7: allow: \"read:EPERM\" has an errno\n"
	       "hint: only deny entries carry an errno\n", "errno on an allow entry");
	expect(BASE "deny = read:EWHAT\n",
	       "t.ini:7: deny: bad errno in \"read:EWHAT\"\n"
	       "hint: write a name such as EPERM, or a number\n", "bad errno");
	expect(BASE "[dir a]\npath = /a\nowner = drive\naccess = ro\nfd = 7\n"
	       "[dir b]\npath = /b\nowner = drive\naccess = ro\nfd = 7\n",
	       "t.ini:12: [dir a] and [dir b] both ask for fd 7\n", "duplicate fd");
	expect(BASE "[dir a]\npath = /a\nowner = drive\naccess = ro\nfd = 2\n",
	       "t.ini:11: fd must be a number from 3 to 1023, not \"2\"\n"
	       "hint: 0, 1 and 2 stay the standard streams\n", "fd of a standard stream");
	expect(BASE "[environment]\nset = LD_PRELOAD=/tmp/x.so\n",
	       "t.ini:8: set: \"LD_PRELOAD\": the dynamic linker ignores LD_ variables in secure "
	       "mode\nhint: the program runs in secure mode (AT_SECURE): remove it\n",
	       "LD_ variables refused, saying why");
	expect(BASE "[environment]\nkeep = LD*\n",
	       "t.ini:8: keep: \"LD*\" would keep LD_ variables, which the dynamic linker "
	       "ignores in secure mode\n"
	       HINT_GLOB, "a glob that would pass LD_ variables: refused");
	expect(BASE "[environment]\nkeep = L*\n",
	       "t.ini:8: keep: \"L*\" would keep LD_ variables, which the dynamic linker "
	       "ignores in secure mode\n"
	       HINT_GLOB, "a shorter glob that would pass LD_ variables: refused");
	expect(BASE "[environment]\nkeep = TERM, LD\n", "",
	       "LD, which is not an LD_ variable: kept");
	expect(BASE "[environment]\nkeep = TERM, TMPDIR\n",
	       "t.ini:8: keep: the dynamic linker deletes TMPDIR in secure mode\n" HINT_SECURE,
	       "TMPDIR: refused, secure mode would delete it");
	expect(BASE "[environment]\nset = TZDIR=/usr/share/zoneinfo\nset = NLSPATH=/x\n"
	       "set = LOCALDOMAIN=x\nset = RES_OPTIONS=x\nset = HOSTALIASES=/x\n",
	       "t.ini:8: set: the dynamic linker deletes TZDIR in secure mode\n" HINT_SECURE
	       "t.ini:9: set: the dynamic linker deletes NLSPATH in secure mode\n" HINT_SECURE
	       "t.ini:10: set: the dynamic linker deletes LOCALDOMAIN in secure mode\n"
	       HINT_SECURE
	       "t.ini:11: set: the dynamic linker deletes RES_OPTIONS in secure mode\n"
	       HINT_SECURE
	       "t.ini:12: set: the dynamic linker deletes HOSTALIASES in secure mode\n"
	       HINT_SECURE, "set of what secure mode deletes: each refused");
	expect(BASE "[environment]\nkeep = TERM, TZ*\n",
	       "t.ini:8: keep: \"TZ*\" would keep TZDIR, which the dynamic linker deletes in "
	       "secure mode\n" HINT_GLOB, "a glob matching TZDIR: refused");
	expect("[program]\npath = /bin/p\numask = 0999\n[identity]\nuser = sandbox\n[seccomp]\n"
	       "policy = deny-list\n",
	       "t.ini:3: umask must be an octal number from 0 to 0777, not \"0999\"\n"
	       "hint: an octal number such as 0077 or 0022\n", "umask: not octal");
	expect("[program]\npath = /bin/p\numask = 01000\ncwd = tmp\n[identity]\nuser = sandbox\n"
	       "[seccomp]\npolicy = deny-list\n",
	       "t.ini:3: umask must be an octal number from 0 to 0777, not \"01000\"\n"
	       "hint: an octal number such as 0077 or 0022\n"
	       "t.ini:4: cwd \"tmp\" is not an absolute path\n"
	       "hint: paths in a profile are absolute\n", "umask: too large; cwd: relative");
	expect(BASE "[environment]\nset = CREDBOX_DIRS=x=3\n",
	       "t.ini:8: set: CREDBOX_DIRS cannot be kept or set\n"
	       "hint: credbox sets CREDBOX_DIRS from the [dir] sections\n",
	       "CREDBOX_DIRS cannot be set");
	expect("[program]\npath = /bin/prog\nargs = \"unterminated\n[identity]\nuser = sandbox\n"
	       "[seccomp]\npolicy = deny-list\n",
	       "t.ini:3: unterminated \" quote in \"args\"\nhint: close the quote, or remove it\n",
	       "unterminated quote");
	expect("[program]\n[identity]\nuser = sandbox\n[seccomp]\npolicy = deny-list\n",
	       "t.ini:1: missing required key \"path\" in [program]\n"
	       "hint: or let the command line name it: \"command_line = program\"\n",
	       "no program and no command line");
	{
		char text[400];

		snprintf(text, sizeof(text), BASE "deny = %0200d\n", 0);
		expect(text, "t.ini:7: line longer than 199 characters\n"
		       "hint: repeat a list key to continue its list\n", "line too long");
	}
	expect(BASE "deny = a\0b\n", BASE "" == NULL ? "" :
	       "t.ini:7: deny: unknown system call \"a\"\n", "NUL ends the C string (buffer test "
	       "is the fuzzer's)");
}

/* ---- bad plans ------------------------------------------------------------------------------ */

#define HINT_PRIV "hint: a sandbox gets no privileged group, nor does a granted fd: remove it\n"

/* ---- [limits] ------------------------------------------------------------------------------ */

#define HINT_SIZE "hint: a number, with K, M, G or T for KiB, MiB, GiB or TiB, or infinity; " \
		  "SOFT:HARD sets the two limits apart\n"
#define HINT_NUMBER "hint: a number, or infinity; SOFT:HARD sets the two limits apart\n"

/* The limit the plan sets for key, or NULL. */
static const struct plan_limit *plan_limit(const struct plan *plan, const char *key)
{
	for (size_t i = 0; i < plan->nlimits; i++)
		if (!strcmp(plan->limits[i].name, key))
			return &plan->limits[i];
	return NULL;
}

static void test_limits(void)
{
	const struct plan_limit *l;
	struct plan plan;
	char *got;

	expect(BASE "[limits]\nnproc = 64k\n",
	       "t.ini:8: nproc must be number[:number], not \"64k\"\n" HINT_NUMBER,
	       "limits: a count takes no unit");
	expect(BASE "[limits]\nas = 512X\nfsize = -1\ncore = 1M:\n",
	       "t.ini:8: as must be size[:size], not \"512X\"\n" HINT_SIZE
	       "t.ini:9: fsize must be size[:size], not \"-1\"\n" HINT_SIZE
	       "t.ini:10: core must be size[:size], not \"1M:\"\n" HINT_SIZE,
	       "limits: every bad value reported, each on its line");
	expect(BASE "[limits]\nnofile = 4096:1024\n",
	       "t.ini:8: nofile: the soft limit is above the hard limit in \"4096:1024\"\n"
	       "hint: the program may raise its soft limit up to the hard one, not beyond: write "
	       "SOFT:HARD with SOFT no larger\n", "limits: soft above hard");
	expect(BASE "[limits]\nas = 17179869184T\ncpu = 99999999999999999999\n",
	       "t.ini:8: as must be size[:size], not \"17179869184T\"\n" HINT_SIZE
	       "t.ini:9: cpu must be number[:number], not \"99999999999999999999\"\n"
	       HINT_NUMBER, "limits: numbers that do not fit in 64 bits");
	expect(BASE "[limits]\ncpu = 10\ncpu = 20\n",
	       "t.ini:9: duplicate key \"cpu\" in [limits] (first on line 8)\n",
	       "limits: one value per key");
	expect(BASE "[limits]\nprocesses = 10\n",
	       "t.ini:8: unknown key \"processes\" in [limits]\n", "limits: unknown key");
	expect(BASE "[limits]\nnprocs = 10\n",
	       "t.ini:8: unknown key \"nprocs\" in [limits]\nhint: did you mean \"nproc\"?\n",
	       "limits: a typo, did you mean");
	expect(BASE "[limits]\n[limits]\n",
	       "t.ini:8: duplicate section [limits] (first on line 7)\n", "limits: one section");

	got = run(BASE, NULL, 0, NULL, &plan);
	if (tap_is_str(got, "", "limits: none in the profile")) {
		l = plan_limit(&plan, "core");
		tap_ok(plan.nlimits == 1 && l && l->soft == 0 && l->hard == 0 && !l->line,
		       "limits: none in the profile: core dumps off all the same (core 0, no line)");
		release(&plan);
	}
	free(got);
	got = run(BASE "[limits]\nnproc = 64\nas = 512M\nfsize = 1K:2G\nnofile = 256:infinity\n"
		  "cpu = unlimited\ncore = 8M\n", NULL, 0, NULL, &plan);
	if (tap_is_str(got, "", "limits: every key")) {
		tap_ok(plan.nlimits == 6, "limits: six limits planned");
		l = plan_limit(&plan, "nproc");
		tap_ok(l && l->soft == 64 && l->hard == 64 && l->line == 8,
		       "limits: nproc = 64 sets soft and hard, from line 8");
		l = plan_limit(&plan, "as");
		tap_ok(l && l->soft == 512ULL << 20 && l->hard == 512ULL << 20,
		       "limits: as = 512M is 512 MiB");
		l = plan_limit(&plan, "fsize");
		tap_ok(l && l->soft == 1024 && l->hard == 2ULL << 30, "limits: fsize = 1K:2G");
		l = plan_limit(&plan, "nofile");
		tap_ok(l && l->soft == 256 && l->hard == PLIMIT_INFINITY,
		       "limits: nofile = 256:infinity");
		l = plan_limit(&plan, "cpu");
		tap_ok(l && l->soft == PLIMIT_INFINITY && l->hard == PLIMIT_INFINITY,
		       "limits: cpu = unlimited is infinity");
		l = plan_limit(&plan, "core");
		tap_ok(l && l->soft == 8ULL << 20 && l->line == 13,
		       "limits: core = 8M replaces the default 0");
		release(&plan);
	}
	free(got);
}

static void test_bad_plans(void)
{
	char *cmd[] = { "/bin/other", NULL };
	char *got;

	expect("[program]\npath = /bin/p\n[identity]\nuser = root\n[seccomp]\npolicy = deny-list\n",
	       "t.ini:4: [identity]: refusing to run the program as root\n"
	       "hint: name an unprivileged account\n", "refuses root");
	expect("[program]\npath = /bin/p\n[identity]\nuser = sandbox\ngroup = root\n"
	       "[seccomp]\npolicy = deny-list\n",
	       "t.ini:5: [identity] group: root (gid 0) is a privileged group: it owns the "
	       "system's files\n" HINT_PRIV, "refuses group root");
	expect(BASE "[dir c]\npath = /c\nowner = root\naccess = rw\n",
	       "t.ini:9: [dir c]: owner is root\nhint: name the account that owns the tree; a "
	       "root-opened directory carries uid 0 without root's capabilities\n",
	       "refuses a root-owned grant");
	expect(BASE "[dir c]\npath = /c\nowner = sandbox\naccess = rw\n",
	       "t.ini:9: [dir c]: the sandboxed user owns the tree, so it could plant hard links "
	       "in it\nhint: the tree's owner must be another account than [identity] user\n",
	       "refuses a tree owned by the sandboxed user");
	expect(BASE "[dir c]\npath = /c\nowner = nosuchuser\naccess = rw\n",
	       "t.ini:9: [dir c] owner: no such user \"nosuchuser\"\n"
	       "hint: create the account, or give its number\n", "unknown user");
	expect("[program]\npath = /bin/p\n[identity]\nuser = 4242\n[seccomp]\npolicy = deny-list\n",
	       "t.ini:4: [identity] user: uid 4242 has no passwd entry, so no primary group\n"
	       "hint: give the group with \"group = ...\"\n", "number without passwd entry");
	expect("[program]\npath = /bin/p\n[identity]\nuser = sandbox\n[seccomp]\n"
	       "policy = allow-list\nallow = read, ptrace\n",
	       "t.ini:7: allow: ptrace is always denied\n"
	       "hint: credbox denies it whatever the profile says; remove it\n",
	       "always-denied syscall named in allow");
	expect(BASE "deny = @clock:EPERM\ndeny = @privileged:EACCES, settimeofday:EINVAL\n"
	       "deny = @sync:EIO, @memory:ENOMEM\n",
	       "t.ini:9: msync: errno ENOMEM and errno EIO on this line\n"
	       "hint: name the system call on its own to settle it\n",
	       "two groups disagree: an error, not first-wins");
	got = run(BASE, cmd, 1, NULL, NULL);
	tap_is_str(got, "t.ini:1: the profile does not let the command line choose the program or "
		   "its arguments\nhint: set \"command_line = args\" or \"command_line = program\" "
		   "in [program]\n", "command line refused unless allowed");
	free(got);
}

/* ---- privileged groups: one rule for every gid the program or a granted fd gets ------------ */

static void test_privileged_groups(void)
{
	struct plan plan;
	char *got;

	expect("[program]\npath = /bin/p\n[identity]\nuser = sandbox\ngroups = root\n"
	       "[seccomp]\npolicy = deny-list\n",
	       "t.ini:5: [identity] groups: root (gid 0) is a privileged group: it owns the "
	       "system's files\n" HINT_PRIV, "[identity] groups = root: refused");
	expect("[program]\npath = /bin/p\n[identity]\nuser = sandbox\n"
	       "groups = dosemu, 0\n[seccomp]\npolicy = deny-list\n",
	       "t.ini:5: [identity] groups: root (gid 0) is a privileged group: it owns the "
	       "system's files\n" HINT_PRIV, "[identity] groups = 0 (a number): refused");
	expect("[program]\npath = /bin/p\n[identity]\nuser = sandbox\n"
	       "groups = dosemu, shadow, disk\n[seccomp]\npolicy = deny-list\n",
	       "t.ini:5: [identity] groups: shadow (gid 42) is a privileged group: it reads "
	       "/etc/shadow\n" HINT_PRIV "t.ini:5: [identity] groups: disk (gid 6) is a "
	       "privileged group: it reads and writes disks directly, as good as root\n"
	       HINT_PRIV, "[identity] groups = shadow, disk: both refused, named");
	expect(BASE "[dir c]\npath = /c\nowner = drive\ngroups = dosemu, 0\naccess = rw\n",
	       "t.ini:10: [dir c] groups: root (gid 0) is a privileged group: it owns the "
	       "system's files\n" HINT_PRIV, "[dir] groups = 0: refused");
	expect(BASE "[dir c]\npath = /c\nowner = drive\ngroup = disk\naccess = rw\n",
	       "t.ini:10: [dir c] group: disk (gid 6) is a privileged group: it reads and writes "
	       "disks directly, as good as root\n" HINT_PRIV, "[dir] group = disk: refused");
	expect(BASE "[dir c]\npath = /c\nowner = ops\naccess = rw\n",
	       "t.ini:9: [dir c] owner: ops is in adm (gid 4), a privileged group: it reads "
	       "the system's logs\nhint: list the groups the fd needs with \"groups = ...\" in "
	       "[dir c]\n", "[dir] owner in a privileged group by the group database: refused");
	got = run(BASE "[dir c]\npath = /c\nowner = ops\ngroups = dosemu\naccess = rw\n",
		  NULL, 0, NULL, &plan);
	if (tap_is_str(got, "", "... and with \"groups = dosemu\": accepted"))
		release(&plan);
	free(got);
}

/* ---- good plans ----------------------------------------------------------------------------- */

static int has(char **v, const char *s)
{
	for (; v && *v; v++)
		if (!strcmp(*v, s))
			return 1;
	return 0;
}

static int filter_act(const struct plan *plan, const char *name, struct filter_act *act)
{
	for (size_t i = 0; i < plan->filter.n; i++)
		if (plan->filter.e[i].name && !strcmp(plan->filter.e[i].name, name)) {
			*act = plan->filter.e[i].act;
			return 1;
		}
	*act = plan->filter.dflt;
	return 0;
}

static void test_good(void)
{
	char *env[] = { "TERM=vt100", "FOO=bar", "LC_ALL=C", "CREDBOX_DIRS=evil=0", "PATH=/x",
			NULL };
	char *cmd[] = { "-x", "two words", NULL };
	char *cmdp[] = { "/bin/other", "a", NULL };
	struct filter_act act;
	struct plan plan;
	char *got;

	got = run("[program]\npath = /bin/prog\nargs = -a \"b c\" 'd'\ncommand_line = args\n"
		  "[identity]\nuser = sandbox\ngroups = dosemu, 1234\n"
		  "[dir a]\npath = /a\nowner = drive\naccess = rw\nfd = 4\n"
		  "[dir b]\npath = /b\nowner = drive\ngroups =\naccess = ro\n"
		  "[dir c]\npath = /c\nowner = other\ngroup = dosemu\naccess = ro\n"
		  "trust_symlinks = yes\n"
		  "[environment]\nset = A=1=2\n"
		  "[seccomp]\npolicy = allow-list\nallow = @basic-io, socket\n"
		  "deny = write:EIO, @network-io\naction = errno\nerrno = EACCES\n",
		  NULL, 0, env, &plan);
	if (!tap_is_str(got, "", "a full profile plans without messages")) {
		free(got);
		return;
	}
	free(got);
	tap_ok(plan.dirs[0].fd == 4 && plan.dirs[1].fd == 3 && plan.dirs[2].fd == 5,
	       "fds: explicit kept, the rest assigned in order around it");
	tap_ok(plan.max_fd == 5, "max_fd");
	tap_ok(has(plan.envp, "CREDBOX_DIRS=a=4,b=3,c=5"), "CREDBOX_DIRS names every grant");
	tap_ok(!has(plan.envp, "CREDBOX_DIRS=evil=0"), "an inherited CREDBOX_DIRS is dropped");
	tap_ok(has(plan.envp, "TERM=vt100") && has(plan.envp, "LC_ALL=C"), "default keep-list");
	tap_ok(!has(plan.envp, "FOO=bar") && !has(plan.envp, "PATH=/x"), "the rest is scrubbed");
	tap_ok(has(plan.envp, "A=1=2") && has(plan.envp, "HOME=/home/sandbox") &&
	       has(plan.envp, "USER=sandbox") && has(plan.envp, "PATH=/usr/local/bin:/usr/bin:/bin"),
	       "set, and the identity's HOME/USER/PATH");
	tap_ok(plan.argv && !strcmp(plan.argv[0], "/bin/prog") && !strcmp(plan.argv[1], "-a") &&
	       !strcmp(plan.argv[2], "b c") && !strcmp(plan.argv[3], "d") && !plan.argv[4],
	       "default args split and unquoted");
	tap_ok(plan.run.uid == 1002 && plan.run.gid == 1002 && plan.run.ngroups == 2 &&
	       plan.run.groups[0] == 1100 && plan.run.groups[1] == 1234,
	       "sandboxed identity: only the groups listed");
	tap_ok(plan.dirs[0].id.uid == 1001 && plan.dirs[0].id.ngroups == 2,
	       "owner: the group database's groups by default");
	tap_ok(plan.dirs[1].id.ngroups == 0, "owner: \"groups =\" means none");
	tap_ok(plan.dirs[2].id.gid == 1100 && plan.dirs[2].trust_symlinks && !plan.dirs[2].rw,
	       "owner's group, symlink trust, access");
	tap_ok(plan.filter.allow_list && plan.filter.dflt.kind == FILTER_ERRNO &&
	       plan.filter.dflt.errnum == EACCES, "allow-list: violation gives errno EACCES");
	tap_ok(filter_act(&plan, "exit_group", &act) && act.kind == FILTER_ALLOW,
	       "@default is part of every allow-list");
	tap_ok(filter_act(&plan, "write", &act) && act.kind == FILTER_ERRNO && act.errnum == EIO,
	       "deny carves write:EIO out of @basic-io");
	tap_ok(!filter_act(&plan, "socket", &act) && act.kind == FILTER_ERRNO &&
	       act.errnum == EACCES, "deny @network-io beats allow socket in an allow-list");
	tap_ok(!filter_act(&plan, "mount", &act), "mount: not allowed (default action)");
	release(&plan);

	got = run("[program]\npath = /bin/prog\nargs = dflt\ncommand_line = args\n"
		  "[identity]\nuser = sandbox\n[seccomp]\npolicy = deny-list\n"
		  "deny = @clock, @sync:EIO\nallow = fsync\naction = log\n", cmd, 2, NULL, &plan);
	tap_is_str(got, "", "deny-list profile");
	if (!*got) {
		tap_ok(plan.argv && !strcmp(plan.argv[0], "/bin/prog") &&
		       !strcmp(plan.argv[1], "-x") && !strcmp(plan.argv[2], "two words") &&
		       !plan.argv[3], "command_line = args: the words replace args");
		tap_ok(!filter_act(&plan, "fsync", &act) && act.kind == FILTER_ALLOW,
		       "deny-list: allow fsync carves it out of @sync");
		tap_ok(filter_act(&plan, "fdatasync", &act) && act.kind == FILTER_ERRNO &&
		       act.errnum == EIO, "deny-list: @sync:EIO");
		tap_ok(filter_act(&plan, "settimeofday", &act) && act.kind == FILTER_LOG,
		       "deny-list: @clock gets the action (log)");
		release(&plan);
	}
	free(got);
	got = run("[program]\ncommand_line = program\n[identity]\nuser = nobody\n"
		  "[seccomp]\npolicy = deny-list\n", cmdp, 2, NULL, &plan);
	tap_is_str(got, "", "command_line = program");
	if (!*got) {
		tap_ok(!strcmp(plan.program, "/bin/other") && !strcmp(plan.argv[1], "a"),
		       "the command line names program and arguments");
		tap_ok(has(plan.envp, "CREDBOX_DIRS="), "CREDBOX_DIRS is set, empty, without grants");
		release(&plan);
	}
	free(got);
}

/* ---- the example profiles ------------------------------------------------------------------- */

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;

	if (!f)
		return NULL;
	buf = calloc(1, 1 << 20);
	*len = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
	fclose(f);
	return buf;
}

static void test_conf(const char *srcdir)
{
	static const char *const files[] = { "dosemu.ini", "minimal.ini", "viewer.ini",
					     "debug-shell.ini" };
	char path[512], *text, *got;
	struct plan plan;
	size_t len, i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		char what[128];

		snprintf(path, sizeof(path), "%s/conf/%s", srcdir, files[i]);
		text = slurp(path, &len);
		snprintf(what, sizeof(what), "conf/%s parses and plans", files[i]);
		if (!text) {
			tap_ok(0, what);
			continue;
		}
		got = run(text, NULL, 0, NULL, &plan);
		if (tap_is_str(got, "", what) && !strcmp(files[i], "dosemu.ini")) {
			char *table = NULL, *want;
			size_t tlen = 0;
			FILE *f = open_memstream(&table, &tlen);

			plan_describe(&plan, f);
			fclose(f);
			snprintf(path, sizeof(path), "%s/tests/host/golden/dosemu-check.txt", srcdir);
			want = slurp(path, &len);
			tap_ok(want && !strcmp(table, want),
			       "--check table of conf/dosemu.ini (golden/dosemu-check.txt)");
			if (!want || strcmp(table, want))
				printf("# got:\n%s", table);
			tap_ok(plan.ndirs == 2 && plan.dirs[0].fd == 10 && plan.dirs[1].fd == 3 &&
			       plan.dirs[0].id.uid == 1001 && plan.run.uid == 1002,
			       "dosemu: drives owned by drive, program as sandbox");
			free(want);
			free(table);
		}
		if (!*got)
			release(&plan);
		free(got);
		free(text);
	}
}

#define DYN_HEAD "[program]\npath = /bin/p\n[identity]\nuser = dynamic:"
#define DYN_DENY "[seccomp]\npolicy = deny-list\ndeny = @keyring, shmget, semget, msgget, " \
		 "mq_open\n"
#define DYN_HINT "hint: reserve a range no account, file or other program uses, say " \
		 "\"user = dynamic:600000-600999\"\n"

/* user = dynamic:FIRST-LAST: the range, and what would keep a run's leftovers for the next. */
static void test_dynamic(void)
{
	struct plan plan;
	char *got;

	expect(DYN_HEAD "9-3\n" DYN_DENY, "t.ini:4: [identity] user: \"dynamic:9-3\" is not "
	       "dynamic:FIRST-LAST, two uids from 1 up, the first the lower\n" DYN_HINT,
	       "dynamic: a range upside down");
	expect(DYN_HEAD "0-3\n" DYN_DENY, "t.ini:4: [identity] user: \"dynamic:0-3\" is not "
	       "dynamic:FIRST-LAST, two uids from 1 up, the first the lower\n" DYN_HINT,
	       "dynamic: uid 0 in it");
	expect(DYN_HEAD "600000\n" DYN_DENY, "t.ini:4: [identity] user: \"dynamic:600000\" is "
	       "not dynamic:FIRST-LAST, two uids from 1 up, the first the lower\n" DYN_HINT,
	       "dynamic: one number");
	expect(DYN_HEAD "65000-70000\n" DYN_DENY, "t.ini:4: [identity] user: the range "
	       "65000-70000 holds 65534 or 65535 (nobody, and the 16-bit -1)\n" DYN_HINT,
	       "dynamic: nobody in it");
	expect(DYN_HEAD "100000-200000\n" DYN_DENY, "t.ini:4: [identity] user: the range "
	       "100000-200000 is wider than 65536 uids\n" DYN_HINT, "dynamic: too wide");
	expect(DYN_HEAD "600000-600009\ngroups = dosemu\n" DYN_DENY, "t.ini:5: [identity]: a "
	       "dynamic user has no group or groups of the profile's: files it left in them "
	       "would reach the next run\nhint: remove it: its gid is its uid's number, with no "
	       "supplementary group\n", "dynamic: no groups");
	expect(DYN_HEAD "600000-600009\n[seccomp]\npolicy = deny-list\ndeny = @keyring, "
	       "shmget, semget, msgget\n", "t.ini:4: [identity] user = dynamic: [seccomp] allows "
	       "mq_open, whose keys or IPC objects outlive the run and would reach the next run "
	       "given the same uid\nhint: add \"deny = @keyring, shmget, semget, msgget, "
	       "mq_open\" to [seccomp]\n", "dynamic: an IPC call allowed");
	expect(DYN_HEAD "600000-600009\n" DYN_DENY "[dir c]\npath = /c\nowner = 600005\n"
	       "group = drive\naccess = rw\n", "t.ini:10: [dir c]: the owner, uid 600005, is in "
	       "[identity]'s dynamic range: a run could be given it\n" DYN_HINT,
	       "dynamic: an owner in the range");
	got = run(DYN_HEAD "600000-600009\n" DYN_DENY, NULL, 0, NULL, &plan);
	if (tap_is_str(got, "", "dynamic: a range of ten plans")) {
		tap_ok(plan.dyn_first == 600000 && plan.dyn_last == 600009 &&
		       plan.run.uid == 600000 && plan.run.gid == 600000 && !plan.run.ngroups &&
		       !strcmp(plan.run.name, "dynamic") && plan.dedicated,
		       "dynamic: the range, a placeholder identity, credbox's alone");
		release(&plan);
	}
	free(got);
}

/* [dir]s that name their owner alike share one resolution; any difference gets its own. */
static void test_shared_owner(void)
{
	struct ident_db db = fake_db;
	struct plan plan;
	int lookups = 0;
	const char *text = BASE
		"[dir a]\npath = /a\nowner = drive\naccess = rw\n"
		"[dir b]\npath = /b\nowner = drive\naccess = ro\n"
		"[dir c]\npath = /c\nowner = drive\ngroups = dosemu\naccess = ro\n"
		"[dir d]\npath = /d\nowner = 1001\naccess = ro\n"
		"[dir e]\npath = /e\nowner = drive\ngroup = dosemu\naccess = ro\n"
		"[dir f]\npath = /f\nowner = drive\ngroups = dosemu\naccess = ro\n";
	char *got;

	db.ctx = &lookups;
	got = run_with(&db, text, NULL, 0, NULL, &plan);
	if (!tap_is_str(got, "", "six grants of one owner plan")) {
		free(got);
		return;
	}
	free(got);
	/*
	 * The sandbox user 2 (user, its group's name); a 4 (user, its group's name, its groups,
	 * dosemu's name), c 3 (user, the names of both groups), d 4, e 3 (dosemu the primary,
	 * named once); b and f none.
	 */
	if (!tap_ok(lookups == 16, "the same owner, group and groups are looked up once"))
		printf("# %d lookups\n", lookups);
	tap_ok(!memcmp(&plan.dirs[1].id, &plan.dirs[0].id, sizeof(plan.dirs[0].id)) &&
	       plan.dirs[1].id.ngroups == 2, "a grant sharing an owner's words has its identity");
	tap_ok(plan.dirs[2].id.ngroups == 1 && plan.dirs[2].id.groups[0] == 1100 &&
	       !memcmp(&plan.dirs[5].id, &plan.dirs[2].id, sizeof(plan.dirs[0].id)),
	       "groups = listed: that list, shared by the grant that says the same");
	tap_ok(plan.dirs[3].id.uid == 1001 && plan.dirs[4].id.gid == 1100 &&
	       plan.dirs[0].id.gid == 1001, "another spelling or another group: its own");
	release(&plan);
}

/* An owner given as a number without a passwd entry: its group alone, no member look-ups. */
static void test_unlisted_owner(void)
{
	struct ident_db db = fake_db;
	struct plan plan;
	int lookups = 0;
	const char *text = BASE "[dir g]\npath = /g\nowner = 4343\ngroup = drive\naccess = ro\n";
	char *got;

	db.ctx = &lookups;
	got = run_with(&db, text, NULL, 0, NULL, &plan);
	if (!tap_is_str(got, "", "an owner without a passwd entry plans")) {
		free(got);
		return;
	}
	free(got);
	tap_ok(plan.dirs[0].id.uid == 4343 && plan.dirs[0].id.gid == 1001 &&
	       plan.dirs[0].id.ngroups == 1 && plan.dirs[0].id.groups[0] == 1001,
	       "its group alone, not the groups of an account named like its number");
	/* the sandbox user 2 (user, its group's name); g 2 (uid, drive's name) */
	if (!tap_ok(lookups == 4, "no member look-up for it, its group's name looked up once"))
		printf("# %d lookups\n", lookups);
	release(&plan);
}

int main(int argc, char **argv)
{
	const char *srcdir = getenv("SRCDIR") ? getenv("SRCDIR") : ".";

	test_bad();
	test_bad_plans();
	test_limits();
	test_privileged_groups();
	test_good();
	test_shared_owner();
	test_unlisted_owner();
	test_dynamic();
	test_conf(srcdir);
	return tap_done();
}
