// SPDX-License-Identifier: GPL-2.0
/* plan: policy -> plan (pure); see plan.h. */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "plan.h"
#include "sysnames.h"
#include "util.h"

#define HINT_DYN_RANGE "reserve a range no account, file or other program uses, say " \
		       "\"user = dynamic:600000-600999\""

static const char *const default_keep[] = { "TERM", "LANG", "LANGUAGE", "LC_*", "TZ", NULL };
#define DEFAULT_PATH "/usr/local/bin:/usr/bin:/bin"

/* ---- identities ----------------------------------------------------------------------------- */

/* Where an identity comes from, for the messages: "[dir c]" and its key "owner". */
struct ident_src {
	const char *section;
	const char *user_key;
};

static int resolve_user(const struct ident_db *db, const struct pstr *spec, struct plan_ident *id,
			struct diag *d, const struct ident_src *src)
{
	struct ident_user u;
	int err = ident_user(db, spec->s, &u);

	if (err == -ENOENT)
		return diag_err(d, spec->line, "create the account, or give its number",
				"%s %s: no such user \"%s\"", src->section, src->user_key, spec->s);
	if (err)
		return diag_err(d, spec->line, NULL, "%s %s: cannot look up \"%s\": %s",
				src->section, src->user_key, spec->s, strerror(-err));
	id->uid = u.uid;
	id->gid = u.gid;
	memcpy(id->name, u.name, sizeof(id->name));
	memcpy(id->home, u.home, sizeof(id->home));
	return 0;
}

static int resolve_group(const struct ident_db *db, const struct pstr *spec, gid_t *gid,
			 struct diag *d, const char *what)
{
	int err = ident_group(db, spec->s, gid);

	if (err == -ENOENT)
		return diag_err(d, spec->line, NULL, "%s: no such group \"%s\"", what, spec->s);
	if (err)
		return diag_err(d, spec->line, NULL, "%s: cannot look up \"%s\": %s", what,
				spec->s, strerror(-err));
	return 0;
}

/*
 * Groups whose members reach beyond any sandbox (Debian's base-passwd describes most of
 * them). The program never runs in one and no granted fd carries one, whatever the profile
 * says: gid 0 by number, the others by the name the group database gives them.
 */
static const struct {
	const char *name;
	const char *why;
} privileged_groups[] = {
	{ "root", "owns the system's files" },
	{ "shadow", "reads /etc/shadow" },
	{ "disk", "reads and writes disks directly, as good as root" },
	{ "kmem", "reads kernel memory" },
	{ "sudo", "may run anything as root (sudo, pkexec)" },
	{ "wheel", "may run anything as root (sudo, pkexec)" },
	{ "admin", "may run anything as root (sudo, pkexec)" },
	{ "adm", "reads the system's logs" },
	{ "systemd-journal", "reads every journal" },
	{ "staff", "writes /usr/local, ahead of /usr on root's PATH: as good as root" },
	{ "docker", "drives the Docker daemon: as good as root" },
	{ "lxd", "drives the LXD daemon: as good as root" },
	{ "libvirt", "drives libvirtd: as good as root" },
	{ "tty", "writes to other users' terminals" },
	{ "input", "reads every keyboard and mouse" },
	{ "utmp", "rewrites the login records" },
};

/* Why gid g is privileged, or NULL; who: "shadow (gid 42)", for the message. */
static const char *privileged(const struct ident_db *db, gid_t g, char *who, size_t size)
{
	char name[64];
	size_t i;

	if (!db->group_name || db->group_name(db->ctx, g, name, sizeof(name)))
		snprintf(name, sizeof(name), "%s", g ? "" : "root");
	if (*name)
		snprintf(who, size, "%s (gid %u)", name, (unsigned)g);
	else
		snprintf(who, size, "gid %u", (unsigned)g);
	if (g == 0)
		return privileged_groups[0].why;
	for (i = 1; i < ARRAY_SIZE(privileged_groups); i++) {
		if (!strcmp(name, privileged_groups[i].name))
			return privileged_groups[i].why;
	}
	return NULL;
}

#define HINT_PRIVILEGED "a sandbox gets no privileged group, nor does a granted fd: remove it"

/* The one rule for every gid the program or a granted fd gets, named by the key `key`. */
static int check_gid(const struct ident_db *db, gid_t g, int line, const struct ident_src *src,
		     const char *key, struct diag *d)
{
	char who[96];
	const char *why = privileged(db, g, who, sizeof(who));

	if (!why)
		return 0;
	return diag_err(d, line, HINT_PRIVILEGED, "%s %s: %s is a privileged group: it %s",
			src->section, key, who, why);
}

static int add_gid(struct plan_ident *id, gid_t g)
{
	size_t i;

	for (i = 0; i < id->ngroups; i++) {
		if (id->groups[i] == g)
			return 0;
	}
	if (id->ngroups == IDENT_MAX_GROUPS)
		return -E2BIG;
	id->groups[id->ngroups++] = g;
	return 0;
}

/* The primary group: "group = ...", else the user's own, which must not be privileged either. */
static int resolve_primary(const struct ident_db *db, const struct pstr *user,
			   const struct pstr *group, struct plan_ident *id,
			   const struct ident_src *src, struct diag *d)
{
	char what[96], who[96], hint[160];
	const char *why;
	int err;

	snprintf(what, sizeof(what), "%s group", src->section);
	if (group->s) {
		err = resolve_group(db, group, &id->gid, d, what);
		return err ? err : check_gid(db, id->gid, group->line, src, "group", d);
	}
	if (id->gid == IDENT_NO_GID)
		return diag_err(d, user->line, "give the group with \"group = ...\"",
				"%s %s: uid %s has no passwd entry, so no primary group",
				src->section, src->user_key, user->s);
	why = privileged(db, id->gid, who, sizeof(who));
	snprintf(hint, sizeof(hint), "name another group with \"group = ...\" in %s", src->section);
	return why ? diag_err(d, user->line, hint, "%s %s: %s's primary group %s is a privileged "
			      "group: it %s", src->section, src->user_key, id->name, who, why) : 0;
}

/* "groups = ...": each group, on its own line; every one at fault is reported. */
static int resolve_listed(const struct ident_db *db, const struct plist *groups,
			  struct plan_ident *id, const struct ident_src *src, struct diag *d)
{
	char what[96];
	size_t i;
	int err, ret = 0;

	snprintf(what, sizeof(what), "%s groups", src->section);
	for (i = 0; i < groups->n; i++) {
		const struct pstr *gs = &groups->v[i];
		gid_t g;

		err = resolve_group(db, gs, &g, d, what);
		if (!err)
			err = check_gid(db, g, gs->line, src, "groups", d);
		if (!err && add_gid(id, g))
			err = diag_err(d, gs->line, NULL, "%s: more than %d groups", what,
				       IDENT_MAX_GROUPS);
		ret = err ? err : ret;
	}
	return ret;
}

/* No "groups" key in a [dir]: the owner's groups in the group database. */
static int resolve_member(const struct ident_db *db, const struct pstr *user,
			  struct plan_ident *id, const struct ident_src *src, struct diag *d)
{
	gid_t list[IDENT_MAX_GROUPS];
	char who[96], hint[160];
	const char *why;
	size_t i, n = 0;
	int err;

	err = db->member_of(db->ctx, id->name, id->gid, list, IDENT_MAX_GROUPS, &n);
	if (err)
		return diag_err(d, user->line, "list them with \"groups = ...\"",
				"%s %s: cannot list the groups of \"%s\": %s", src->section,
				src->user_key, id->name, strerror(-err));
	snprintf(hint, sizeof(hint), "list the groups the fd needs with \"groups = ...\" in %s",
		 src->section);
	for (i = 0; i < n; i++) {
		/* the primary group was checked by resolve_primary: one look-up less */
		why = list[i] == id->gid ? NULL : privileged(db, list[i], who, sizeof(who));
		if (why)
			return diag_err(d, user->line, hint, "%s %s: %s is in %s, a privileged "
					"group: it %s", src->section, src->user_key, id->name, who,
					why);
		add_gid(id, list[i]);
	}
	return 0;
}

/*
 * user/group/groups -> numbers. With member_default, an absent groups key means the user's
 * groups in the group database; otherwise none. No gid of the result is privileged; uid 0
 * is left to the caller.
 */
static int resolve_ident(const struct ident_db *db, const struct pstr *user,
			 const struct pstr *group, const struct plist *groups, int groups_seen,
			 int member_default, struct plan_ident *id, struct diag *d,
			 const struct ident_src *src)
{
	int err = resolve_user(db, user, id, d, src), listed;

	if (err || id->uid == 0)
		return err;	/* root: the caller refuses it in its own words */
	listed = id->gid != IDENT_NO_GID;
	err = resolve_primary(db, user, group, id, src, d);
	if (err)
		return err;
	if (groups_seen)
		return resolve_listed(db, groups, id, src, d);
	if (!member_default || !db->member_of)
		return 0;
	/*
	 * A uid without a passwd entry has no name to be a member by: its primary group alone.
	 * (Its number is not a name: a group listing an account called "4242" is that account's.)
	 */
	return listed ? resolve_member(db, user, id, src, d) : add_gid(id, id->gid);
}

/* ---- argv and the environment ------------------------------------------------------------- */

static int vec_push(char ***v, size_t *n, char *s)
{
	char **nv;

	if (!s)
		return -ENOMEM;
	nv = realloc(*v, (*n + 2) * sizeof(*nv));
	if (!nv) {
		free(s);
		return -ENOMEM;
	}
	nv[(*n)++] = s;
	nv[*n] = NULL;
	*v = nv;
	return 0;
}

static void vec_free(char **v)
{
	size_t i;

	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

static int build_argv(const struct policy *pol, char *const cmd[], size_t ncmd,
		      struct plan *plan, struct diag *d)
{
	const struct policy_program *p = &pol->program;
	size_t i, n = 0;
	int err = 0;

	if (ncmd && p->command_line == CMDLINE_NONE)
		return diag_err(d, p->sec.line,
				"set \"command_line = args\" or \"command_line = program\" in "
				"[program]",
				"the profile does not let the command line choose the program or "
				"its arguments");
	if (ncmd && p->command_line == CMDLINE_PROGRAM) {
		plan->program = strdup(cmd[0]);
		for (i = 0; !err && i < ncmd; i++)
			err = vec_push(&plan->argv, &n, strdup(cmd[i]));
		return plan->program ? err : -ENOMEM;
	}
	if (!p->path.s && !cmd) {
		/* --check: the command line will name it */
		plan->program = strdup("(named on the command line)");
		return plan->program ? 0 : -ENOMEM;
	}
	if (!p->path.s)
		return diag_err(d, p->sec.line, "name it after the options: credbox --profile "
				"FILE -- PROGRAM [ARG...]", "no program to run");
	plan->program = strdup(p->path.s);
	plan->program_line = p->path.line;
	err = vec_push(&plan->argv, &n, strdup(p->path.s));
	if (ncmd) {
		for (i = 0; !err && i < ncmd; i++)
			err = vec_push(&plan->argv, &n, strdup(cmd[i]));
	} else {
		for (i = 0; !err && i < p->args.n; i++)
			err = vec_push(&plan->argv, &n, strdup(p->args.v[i].s));
	}
	return plan->program ? err : -ENOMEM;
}

static int env_kept(const struct policy *pol, const char *var)
{
	const char *eq = strchr(var, '=');
	char name[256];
	size_t i, len;

	if (!eq || (len = eq - var) >= sizeof(name))
		return 0;
	memcpy(name, var, len);
	name[len] = '\0';
	if (!profile_seen(&pol->env.sec, SEC_ENVIRONMENT, "keep")) {
		for (i = 0; default_keep[i]; i++) {
			if (!fnmatch(default_keep[i], name, 0))
				return 1;
		}
		return 0;
	}
	for (i = 0; i < pol->env.keep.n; i++) {
		if (!fnmatch(pol->env.keep.v[i].s, name, 0))
			return 1;
	}
	return 0;
}

static int env_has(char **envp, size_t n, const char *name)
{
	size_t i, len = strlen(name);

	for (i = 0; i < n; i++) {
		if (!strncmp(envp[i], name, len) && envp[i][len] == '=')
			return 1;
	}
	return 0;
}

static void env_remove(char **envp, size_t *n, const char *var)
{
	size_t i, len = strchr(var, '=') - var + 1;

	for (i = 0; i < *n; i++) {
		if (!strncmp(envp[i], var, len)) {
			free(envp[i]);
			memmove(&envp[i], &envp[i + 1], (*n - i) * sizeof(*envp));
			(*n)--;
			return;
		}
	}
}

static char *credbox_dirs(const struct plan *plan)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fputs("CREDBOX_DIRS=", f);
	for (i = 0; i < plan->ndirs; i++)
		fprintf(f, "%s%s=%d", i ? "," : "", plan->dirs[i].name, plan->dirs[i].fd);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Scrubbed: only kept variables, then `set`, then the identity's defaults, then CREDBOX_DIRS. */
static int build_env(const struct policy *pol, char *const environ[], struct plan *plan)
{
	char *var;
	size_t i, n = 0;
	int err = 0;

	plan->envp = calloc(1, sizeof(char *));
	if (!plan->envp)
		return -ENOMEM;
	for (i = 0; !err && environ && environ[i]; i++) {
		if (env_kept(pol, environ[i]) && strncmp(environ[i], "CREDBOX_DIRS=", 13))
			err = vec_push(&plan->envp, &n, strdup(environ[i]));
	}
	for (i = 0; !err && i < pol->env.set.n; i++) {
		env_remove(plan->envp, &n, pol->env.set.v[i].s);
		err = vec_push(&plan->envp, &n, strdup(pol->env.set.v[i].s));
	}
	if (!err && !env_has(plan->envp, n, "PATH"))
		err = vec_push(&plan->envp, &n, strdup("PATH=" DEFAULT_PATH));
	if (!err && !env_has(plan->envp, n, "HOME") && asprintf(&var, "HOME=%s",
							       plan->run.home) >= 0)
		err = vec_push(&plan->envp, &n, var);
	if (!err && !env_has(plan->envp, n, "USER") && asprintf(&var, "USER=%s",
							       plan->run.name) >= 0)
		err = vec_push(&plan->envp, &n, var);
	if (!err && !env_has(plan->envp, n, "LOGNAME") && asprintf(&var, "LOGNAME=%s",
								  plan->run.name) >= 0)
		err = vec_push(&plan->envp, &n, var);
	if (!err)
		err = vec_push(&plan->envp, &n, credbox_dirs(plan));
	return err;
}

/* ---- directories and paths ---------------------------------------------------------------- */

static int fd_taken(const struct plan *plan, int fd)
{
	size_t i;

	for (i = 0; i < plan->ndirs; i++) {
		if (plan->dirs[i].fd == fd)
			return 1;
	}
	return 0;
}

static int same_spec(const struct pstr *a, const struct pstr *b)
{
	return a->s && b->s ? !strcmp(a->s, b->s) : a->s == b->s;
}

/*
 * An earlier [dir] whose owner, group and groups say word for word what dirs[i]'s say, and
 * resolved (ok[j]): its identity is this one's. A profile's drives usually share an owner,
 * and each resolution is a round of the user and group databases (NSS reads passwd and group
 * and asks systemd's module: 0.2 ms a [dir] here). NULL: resolve it.
 */
static const struct plan_ident *resolved_before(const struct policy *pol, const struct plan *plan,
						const unsigned char *ok, size_t i)
{
	const struct policy_dir *a = &pol->dirs[i];
	size_t j, k;

	for (j = 0; j < i; j++) {
		const struct policy_dir *b = &pol->dirs[j];
		int same = ok[j] && same_spec(&a->owner, &b->owner) &&
			   same_spec(&a->group, &b->group) && a->groups.n == b->groups.n &&
			   !profile_seen(&a->sec, SEC_DIR, "groups") ==
			   !profile_seen(&b->sec, SEC_DIR, "groups");

		for (k = 0; same && k < a->groups.n; k++)
			same = same_spec(&a->groups.v[k], &b->groups.v[k]);
		if (same)
			return &plan->dirs[j].id;
	}
	return NULL;
}

static int build_dirs(const struct policy *pol, const struct ident_db *db, struct plan *plan,
		      struct diag *d)
{
	unsigned char ok[PROFILE_MAX_DIRS] = { 0 };
	const struct plan_ident *same;
	size_t i;
	int err = 0, ret = 0, next = PROFILE_FD_MIN;

	plan->max_fd = 2;
	for (i = 0; i < pol->ndirs; i++) {
		const struct policy_dir *pd = &pol->dirs[i];
		struct plan_dir *dir = &plan->dirs[i];
		char what[96];

		memset(dir, 0, sizeof(*dir));
		dir->name = pd->name;
		dir->path = pd->path.s;
		dir->rw = pd->access == ACCESS_RW;
		dir->trust_symlinks = pd->trust_symlinks;
		dir->transparent = pd->transparent;
		dir->transparent_line = profile_seen(&pd->sec, SEC_DIR, "transparent");
		dir->exec_keep = pd->exec == EXEC_KEEP;
		/* Only the runtime's exec in place can keep it: the kernel's closes it. */
		if (dir->exec_keep && !dir->transparent)
			ret = diag_err(d, profile_seen(&pd->sec, SEC_DIR, "exec"),
				       "add transparent = yes, or remove exec = keep",
				       "[dir %s]: exec = keep needs transparent = yes: without it "
				       "the kernel makes the program's execve, and closes the grant",
				       pd->name);
		dir->method = pd->method;
		dir->method_line = profile_seen(&pd->sec, SEC_DIR, "method");
		dir->fd = pd->fd;
		plan->ndirs++;
		struct ident_src src = { what, "owner" };

		snprintf(what, sizeof(what), "[dir %s]", pd->name);
		same = resolved_before(pol, plan, ok, i);
		if (same)
			dir->id = *same;
		else
			err = resolve_ident(db, &pd->owner, &pd->group, &pd->groups,
					    profile_seen(&pd->sec, SEC_DIR, "groups"), 1, &dir->id,
					    d, &src);
		if (!same && err) {
			ret = err;
			continue;
		}
		ok[i] = 1;
		/* root's capabilities never travel with the fd: only its ids would. */
		if (dir->id.uid == 0)
			ret = diag_err(d, pd->owner.line,
				       "name the account that owns the tree; a root-opened "
				       "directory carries uid 0 without root's capabilities",
				       "[dir %s]: owner is root", pd->name);
		else if (plan->dyn_last && dir->id.uid >= plan->dyn_first &&
			 dir->id.uid <= plan->dyn_last)
			ret = diag_err(d, pd->owner.line, HINT_DYN_RANGE,
				       "[dir %s]: the owner, uid %u, is in [identity]'s dynamic range: "
				       "a run could be given it", pd->name, (unsigned)dir->id.uid);
		else if (dir->id.uid == plan->run.uid)
			ret = diag_err(d, pd->owner.line,
				       "the tree's owner must be another account than [identity] "
				       "user",
				       "[dir %s]: the sandboxed user owns the tree, so it could "
				       "plant hard links in it", pd->name);
	}
	for (i = 0; i < plan->ndirs; i++) {
		if (plan->dirs[i].fd >= 0)
			continue;
		while (fd_taken(plan, next))
			next++;
		if (next > PROFILE_FD_MAX)
			return diag_err(d, pol->dirs[i].sec.line, NULL, "no fd number left");
		plan->dirs[i].fd = next++;
	}
	for (i = 0; i < plan->ndirs; i++) {
		if (plan->dirs[i].fd > plan->max_fd)
			plan->max_fd = plan->dirs[i].fd;
	}
	return ret;
}

static int build_paths(const struct policy *pol, struct plan *plan)
{
	size_t i, n = pol->fs.ro.n + pol->fs.rw.n;

	plan->paths = calloc(n + 1, sizeof(*plan->paths));
	if (!plan->paths)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		int rw = i >= pol->fs.ro.n;
		const struct pstr *p = rw ? &pol->fs.rw.v[i - pol->fs.ro.n] : &pol->fs.ro.v[i];
		struct plan_path *pp = &plan->paths[plan->npaths++];

		pp->optional = p->s[0] == '-';
		pp->path = pp->optional ? p->s + 1 : p->s;
		pp->rw = rw;
		pp->line = p->line;
	}
	plan->landlock_required = pol->fs.landlock == LANDLOCK_REQUIRED;
	return 0;
}

/* ---- resource limits ---------------------------------------------------------------------- */

/* The keys of [limits] (enum p_limit): apply.c says which attack each stops. */
static const struct {
	const char *key;
	int resource;
	int size;
} limit_names[LIMIT_COUNT] = {
	[LIMIT_NPROC] = { "nproc", RLIMIT_NPROC, 0 },
	[LIMIT_AS] = { "as", RLIMIT_AS, 1 },
	[LIMIT_FSIZE] = { "fsize", RLIMIT_FSIZE, 1 },
	[LIMIT_NOFILE] = { "nofile", RLIMIT_NOFILE, 0 },
	[LIMIT_CPU] = { "cpu", RLIMIT_CPU, 0 },
	[LIMIT_CORE] = { "core", RLIMIT_CORE, 1 },
};

/* What the profile sets, and core dumps off unless it says otherwise. */
static void build_limits(const struct policy *pol, struct plan *plan)
{
	size_t i;

	for (i = 0; i < LIMIT_COUNT; i++) {
		const struct plimit *l = &pol->limits.v[i];

		if (!l->set && i != LIMIT_CORE)
			continue;
		plan->limits[plan->nlimits++] = (struct plan_limit){
			.resource = limit_names[i].resource, .name = limit_names[i].key,
			.size = limit_names[i].size, .soft = l->set ? l->soft : 0,
			.hard = l->set ? l->hard : 0,
			.line = profile_seen(&pol->limits.sec, SEC_LIMITS, limit_names[i].key) };
	}
}

/* ---- a dynamic user ------------------------------------------------------------------------ */

/*
 * What a run could leave behind, outside any file, for the next run given the same uid: keys
 * in the uid's user keyring (which outlives its processes) and SysV and POSIX IPC objects.
 * A dynamic user's profile must deny the calls that make them; leftover processes are
 * apply's to find, and files a Landlock matter (apply.c, check_path).
 */
static const char *const dyn_denied[] = {
	"add_key", "keyctl", "request_key", "shmget", "semget", "msgget", "mq_open",
};

static int spec_denies(const struct filter_spec *spec, const char *name)
{
	size_t i;

	for (i = 0; i < spec->n; i++) {
		const struct filter_entry *e = &spec->e[i];

		if (e->name && !strcmp(e->name, name))
			return filter_act_denies(e->act) &&
			       (!e->has_cond || filter_act_denies(e->cond_act));
	}
	return filter_act_denies(spec->dflt);
}

/*
 * "user = dynamic:FIRST-LAST": the range, and the rules that keep each run's uid fresh (those
 * of the filter when filter_ok: it was resolved). 1: not a dynamic user (resolve it as a
 * user); 0, or the first error.
 */
static int resolve_dynamic(const struct policy *pol, struct plan *plan, int filter_ok,
			   struct diag *d)
{
	const struct policy_identity *pi = &pol->identity;
	const char *v = pi->user.s;
	unsigned long long first, last;
	char *end;
	size_t i;
	int ret = 0;

	if (!v || strncmp(v, PROFILE_DYNAMIC, strlen(PROFILE_DYNAMIC)))
		return 1;
	v += strlen(PROFILE_DYNAMIC);
	errno = 0;
	first = isdigit((unsigned char)*v) ? strtoull(v, &end, 10) : 0;
	if (first && *end == '-' && isdigit((unsigned char)end[1]))
		last = strtoull(end + 1, &end, 10);
	else
		last = 0;
	if (!first || !last || *end || errno || last < first)
		return diag_err(d, pi->user.line, HINT_DYN_RANGE, "[identity] user: \"%s\" is not "
				"dynamic:FIRST-LAST, two uids from 1 up, the first the lower",
				pi->user.s);
	if (last >= 65534 && first <= 65535)
		return diag_err(d, pi->user.line, HINT_DYN_RANGE, "[identity] user: the range "
				"%llu-%llu holds 65534 or 65535 (nobody, and the 16-bit -1)",
				first, last);
	if (last >= 0xffffffffULL || last - first >= 65536)
		return diag_err(d, pi->user.line, HINT_DYN_RANGE, "[identity] user: the range "
				"%llu-%llu is %s", first, last, last >= 0xffffffffULL ?
				"past the last uid, 4294967294" : "wider than 65536 uids");
	if (pi->group.s || profile_seen(&pi->sec, SEC_IDENTITY, "groups"))
		ret = diag_err(d, pi->group.s ? pi->group.line :
			       profile_seen(&pi->sec, SEC_IDENTITY, "groups"),
			       "remove it: its gid is its uid's number, with no supplementary group",
			       "[identity]: a dynamic user has no group or groups of the profile's: "
			       "files it left in them would reach the next run");
	plan->dyn_first = (uid_t)first;
	plan->dyn_last = (uid_t)last;
	plan->dyn_line = pi->user.line;
	plan->run.uid = plan->dyn_first;
	plan->run.gid = (gid_t)plan->dyn_first;
	snprintf(plan->run.name, sizeof(plan->run.name), "dynamic");
	snprintf(plan->run.home, sizeof(plan->run.home), "/");
	for (i = 0; i < ARRAY_SIZE(dyn_denied) && filter_ok && !ret; i++) {
		if (!spec_denies(&plan->filter, dyn_denied[i]))
			ret = diag_err(d, pi->user.line, "add \"deny = @keyring, shmget, semget, "
				       "msgget, mq_open\" to [seccomp]", "[identity] user = dynamic: "
				       "[seccomp] allows %s, whose keys or IPC objects outlive the run "
				       "and would reach the next run given the same uid", dyn_denied[i]);
	}
	return ret;
}

/* ---- all of it ---------------------------------------------------------------------------- */

int plan_build(const struct policy *pol, const struct ident_db *db, char *const cmd[],
	       size_t ncmd, char *const environ[], struct plan *plan, struct diag *d)
{
	static const struct ident_src src = { "[identity]", "user" };
	const struct policy_identity *pi = &pol->identity;
	int err, ferr, ret = 0;

	/* Not the [dir] array: build_dirs sets its entries up to ndirs (policy_defaults says why). */
	memset(plan, 0, offsetof(struct plan, dirs));
	memset(&plan->ndirs, 0, sizeof(*plan) - offsetof(struct plan, ndirs));
	plan->pol = pol;
	/* the filter first: a dynamic user's rules read it */
	ferr = filter_resolve(&pol->seccomp, &plan->filter, d);
	err = resolve_dynamic(pol, plan, !ferr, d);
	if (err == 1)
		err = resolve_ident(db, &pi->user, &pi->group, &pi->groups,
				    profile_seen(&pi->sec, SEC_IDENTITY, "groups"), 0, &plan->run, d,
				    &src);
	if (!err && plan->run.uid == 0)
		err = diag_err(d, pi->user.line, "name an unprivileged account",
			       "[identity]: refusing to run the program as root");
	ret = err ? err : ret;
	err = build_dirs(pol, db, plan, d);
	ret = err ? err : ret;
	err = build_argv(pol, cmd, ncmd, plan, d);
	ret = err ? err : ret;
	plan->cwd = pol->program.cwd.s ? pol->program.cwd.s : "/";
	plan->cwd_line = pol->program.cwd.line;
	plan->umask = (mode_t)pol->program.umask;
	plan->new_session = pol->program.new_session;
	plan->die_with_parent = pol->program.die_with_parent;
	/* a dynamic user is credbox's alone: apply takes one no process has */
	plan->dedicated = pi->dedicated || plan->dyn_last;
	plan->dedicated_line = profile_seen(&pi->sec, SEC_IDENTITY, "dedicated");
	if (!plan->dedicated_line)
		plan->dedicated_line = plan->dyn_line;
	err = build_paths(pol, plan);
	ret = err ? err : ret;
	build_limits(pol, plan);
	ret = ferr ? ferr : ret;
	if (!ret)
		ret = build_env(pol, environ, plan);
	if (ret == -ENOMEM || (ret && !d->n))
		ret = ret == -ENOMEM ? -ENOMEM : diag_err(d, 0, NULL, "cannot build the plan");
	return ret;
}

void plan_free(struct plan *plan)
{
	free(plan->program);
	vec_free(plan->argv);
	vec_free(plan->envp);
	free(plan->paths);
	filter_spec_free(&plan->filter);
	memset(plan, 0, sizeof(*plan));
}

int plan_methods(struct plan *plan, int cred_fd, struct diag *d)
{
	const struct plan_dir *lent = NULL, *mapped = NULL;
	size_t i;

	for (i = 0; i < plan->ndirs; i++) {
		struct plan_dir *dir = &plan->dirs[i];

		dir->idmap = dir->method == METHOD_IDMAP || (dir->method == METHOD_AUTO && !cred_fd);
		/* The mount is the grant: the program's own paths reach it without a trap. */
		if (dir->idmap)
			dir->transparent = 0;
		if (dir->idmap && !mapped)
			mapped = dir;
		if (!dir->idmap && dir->transparent && !lent)
			lent = dir;
	}
	plan->filter.idmap = mapped != NULL;
	/*
	 * The idmap filter refuses openat2 (its mode is in memory, out of a filter's sight),
	 * through which the runtime reaches a transparent cred-fd grant.
	 */
	if (mapped && lent)
		return diag_err(d, lent->transparent_line, "give both the same method, or set "
				"transparent = no here", "[dir %s]: a transparent cred-fd grant "
				"cannot be combined with an ID-mapped one ([dir %s])", lent->name,
				mapped->name);
	return 0;
}

/* ---- the --check table -------------------------------------------------------------------- */

static void describe_ident(const struct plan_ident *id, FILE *out)
{
	size_t i;

	fprintf(out, "%s (uid %u, gid %u", id->name, (unsigned)id->uid, (unsigned)id->gid);
	if (!id->ngroups)
		fputs(", no supplementary groups)", out);
	for (i = 0; i < id->ngroups; i++)
		fprintf(out, "%s%u", i ? "," : ", groups ", (unsigned)id->groups[i]);
	if (id->ngroups)
		fputc(')', out);
}

static void describe_program(const struct plan *plan, FILE *out)
{
	static const char *const cmdline[] = { "none", "args", "program" };
	size_t i;

	fputs("program     ", out);
	if (!plan->argv)
		fputs(plan->program, out);
	for (i = 0; plan->argv && plan->argv[i]; i++)
		fprintf(out, "%s%s", i ? " " : "", plan->argv[i]);
	fprintf(out, "\n            (command line may supply: %s)\n",
		cmdline[plan->pol->program.command_line]);
	fputs("runs as     ", out);
	if (plan->dyn_last)
		fprintf(out, "a fresh uid of %u-%u for each run, the one no process has and no run "
			"holds\n            (gid the same number, no supplementary groups)",
			(unsigned)plan->dyn_first, (unsigned)plan->dyn_last);
	else
		describe_ident(&plan->run, out);
	fprintf(out, "\n            in %s, umask %04o, %s\n", plan->cwd, (unsigned)plan->umask,
		plan->new_session ? "in a session of its own (no controlling terminal)" :
		"in the caller's session (keeps its controlling terminal)");
	fprintf(out, "            %s\n", plan->die_with_parent ?
		"ends when the process that started credbox ends (SIGKILL)" :
		"may outlive the process that started credbox");
}

static void describe_dirs(const struct plan *plan, FILE *out)
{
	char ru[16], rg[16];
	size_t i;

	plan_run_ids(plan, ru, rg, sizeof(ru));
	fputs("\ngranted directories: each fd carries its owner's fs credentials\n", out);
	if (!plan->ndirs)
		fputs("  (none: runs on any kernel)\n", out);
	else
		fprintf(out, "  %-12s %4s  %-6s %-9s %-28s %s\n", "NAME", "FD", "ACCESS",
			"SYMLINKS", "PATH", "OWNER");
	for (i = 0; i < plan->ndirs; i++) {
		const struct plan_dir *dir = &plan->dirs[i];

		fprintf(out, "  %-12s %4d  %-6s %-9s %-28s ", dir->name, dir->fd,
			dir->rw ? "rw" : "ro", dir->trust_symlinks ? "followed" : "refused",
			dir->path);
		describe_ident(&dir->id, out);
		if (dir->idmap)
			fprintf(out, "\n               an ID-mapped mount (method = %s): uid %u and "
				"gid %u on disk are %s and %s through it\n               (uid_map "
				"\"%u %s 1\", gid_map \"%u %s 1\"), nosuid, nodev%s; the path is the "
				"grant", dir->method == METHOD_AUTO ? "auto, no O_CRED_ALLOW here" :
				"idmap", (unsigned)dir->id.uid, (unsigned)dir->id.gid,
				plan->dyn_last ? "the run's uid" : ru, plan->dyn_last ? "gid" : rg,
				(unsigned)dir->id.uid, ru, (unsigned)dir->id.gid, rg,
				dir->rw ? "" : ", read-only");
		if (dir->transparent)
			fputs("\n               transparent: the program's own paths beneath it reach "
			      "it", out);
		if (dir->exec_keep)
			fputs("\n               kept for the programs the program execs (exec = keep)",
			      out);
		fputc('\n', out);
	}
}

static void describe_fs_env(const struct plan *plan, FILE *out)
{
	size_t i;

	fputs("\nfile system (Landlock): the directories above, these paths, nothing else\n",
	      out);
	for (i = 0; i < plan->npaths; i++)
		fprintf(out, "  %-4s %s%s\n", plan->paths[i].rw ? "rw" : "ro",
			plan->paths[i].path, plan->paths[i].optional ? "  (may be missing)" : "");
	if (!plan->npaths)
		fputs("  (no paths)\n", out);
	fprintf(out, "  %s\n", plan->landlock_required ?
		"a kernel without Landlock stops credbox" :
		"best effort: a kernel without Landlock is tolerated");
	fputs("\nenvironment\n", out);
	for (i = 0; plan->envp && plan->envp[i]; i++)
		fprintf(out, "  %s\n", plan->envp[i]);
}

/* A limit as a profile would write it: "infinity", "512M", "64". */
static void describe_limit_value(unsigned long long v, int size, FILE *out)
{
	static const char units[] = "KMGT";
	int u = -1;

	if (v == PLIMIT_INFINITY) {
		fputs("infinity", out);
		return;
	}
	while (size && v && u < 3 && !(v & 1023)) {
		v >>= 10;
		u++;
	}
	fprintf(out, "%llu", v);
	if (u >= 0)
		fputc(units[u], out);
}

static void describe_limits(const struct plan *plan, FILE *out)
{
	size_t i;

	fputs("\nresource limits: the caller's, except\n", out);
	for (i = 0; i < plan->nlimits; i++) {
		const struct plan_limit *l = &plan->limits[i];

		fprintf(out, "  %-7s ", l->name);
		describe_limit_value(l->soft, l->size, out);
		if (l->soft != l->hard) {
			fputs(" (hard ", out);
			describe_limit_value(l->hard, l->size, out);
			fputc(')', out);
		}
		fputs(l->line ? "\n" : "  (the default: no core dumps)\n", out);
	}
}

/* "N system calls allowed, ..., any other kills the process" */
static void describe_filter(const struct plan *plan, FILE *out)
{
	const struct filter_spec *f = &plan->filter;
	size_t i, nallow = 0, nerrno = 0, nother = 0;
	const char *en = sysnames_errno_name(f->dflt.errnum);

	for (i = 0; i < f->n; i++) {
		int k = f->e[i].act.kind;

		if (k == FILTER_ALLOW)
			nallow++;
		else if (k == FILTER_ERRNO)
			nerrno++;
		else
			nother++;
	}
	fprintf(out, "\nseccomp     %s: ", f->allow_list ? "allow-list" : "deny-list");
	if (nallow)
		fprintf(out, "%zu system calls allowed, ", nallow);
	if (nerrno)
		fprintf(out, "%zu return their own errno, ", nerrno);
	if (nother)
		fprintf(out, "%zu %s, ", nother,
			plan->pol->seccomp.action == SC_ACT_LOG ? "logged" : "kill the process");
	fputs("any other ", out);
	if (f->dflt.kind == FILTER_ERRNO)
		fprintf(out, "returns %s\n", en ? en : "an errno");
	else
		fprintf(out, "%s\n", f->dflt.kind == FILTER_ALLOW ? "is allowed" :
			f->dflt.kind == FILTER_LOG ? "is logged and allowed" :
			"kills the process");
}

static void describe_always(FILE *out)
{
	struct filter_always_info ai;
	size_t i;
	int col = 200;

	fputs("            always denied, whatever the profile says:", out);
	for (i = 0; !filter_always(i, &ai); i++) {
		char item[96];
		int len = snprintf(item, sizeof(item), "%s%s%s%s", ai.name,
				   ai.condition ? " (" : "", ai.condition ? ai.condition : "",
				   ai.condition ? ")" : "");

		if (col + len > 94) {
			fputs(i ? ",\n              " : "\n              ", out);
			col = 14;
		} else {
			fputs(", ", out);
		}
		fputs(item, out);
		col += len + 2;
	}
	fputc('\n', out);
}

void plan_run_ids(const struct plan *plan, char *uid, char *gid, size_t size)
{
	if (plan->dyn_last) {
		snprintf(uid, size, "UID");
		snprintf(gid, size, "UID");
	} else {
		snprintf(uid, size, "%u", (unsigned)plan->run.uid);
		snprintf(gid, size, "%u", (unsigned)plan->run.gid);
	}
}

void plan_describe(const struct plan *plan, FILE *out)
{
	describe_program(plan, out);
	describe_dirs(plan, out);
	describe_fs_env(plan, out);
	describe_limits(plan, out);
	describe_filter(plan, out);
	describe_always(out);
}
