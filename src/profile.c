// SPDX-License-Identifier: GPL-2.0
/*
 * profile: INI profile -> struct policy (pure). See profile.h and credbox.ini(5).
 *
 * inih does the INI splitting; our reader feeds it one line at a time, which gives us the line
 * number for messages, lets us check the syntax of every line ourselves (so that each error
 * gets a precise message, not just the first one), and turns off inih's continuation lines.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "profile.h"
#include "sysnames.h"
#include "util.h"

/* inih hands our reader a buffer of INI_MAX_LINE bytes: the longest line is one less. */
#define LINE_MAX_CHARS	(INI_MAX_LINE - 1)

/* The parse of one file of the profile (profile_parse_file). */
struct pctx {
	struct policy *pol;
	struct diag *d;
	const struct profile_include *inc;
	const char *buf;
	size_t len;
	size_t pos;
	int line;		/* of the profile as a whole: the file's lines follow base */
	int nomem;
	int started;		/* a section header was seen in this file */
	int here[SEC_COUNT];	/* the line of each section's header in this file, or 0 */
	int here_dir[PROFILE_MAX_DIRS];
	/* the section the next keys belong to; cur_base NULL: an invalid section */
	enum profile_section cur;
	void *cur_base;
	struct psec *cur_sec;
	const char *cur_label;	/* "[dir drive_c]" style, for messages */
	char label[128];
};

/* ---- small helpers ------------------------------------------------------------------------ */

static char *xstrdup(struct pctx *c, const char *s)
{
	char *r = strdup(s);

	if (!r)
		c->nomem = 1;
	return r;
}

static int list_add(struct pctx *c, struct plist *l, const char *s)
{
	struct pstr *v;
	char *dup;

	if (l->n >= 4096)
		return diag_err(c->d, c->line, NULL, "too many list entries");
	v = realloc(l->v, (l->n + 1) * sizeof(*v));
	if (!v) {
		c->nomem = 1;
		return -ENOMEM;
	}
	l->v = v;
	dup = xstrdup(c, s);
	if (!dup)
		return -ENOMEM;
	l->v[l->n].s = dup;
	l->v[l->n].line = c->line;
	l->n++;
	return 0;
}

static void list_free(struct plist *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i].s);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/*
 * Split value into words: blanks separate words (and commas too when lists is set); "..." or
 * '...' quote (no escapes). Calls add() per word. Returns 0 or the first error.
 */
static int split_words(struct pctx *c, const struct profile_key *k, const char *value, int lists,
		       int (*add)(struct pctx *, const struct profile_key *, void *, const char *),
		       void *field)
{
	size_t n = strlen(value), i = 0;
	char *word = malloc(n + 1);
	int err = 0;

	if (!word) {
		c->nomem = 1;
		return -ENOMEM;
	}
	while (i < n && !err) {
		size_t w = 0;
		int quoted = 0;

		while (i < n && (isspace((unsigned char)value[i]) || (lists && value[i] == ',')))
			i++;
		if (i == n)
			break;
		while (i < n && !isspace((unsigned char)value[i]) && !(lists && value[i] == ',')) {
			char q = value[i];

			if (q == '"' || q == '\'') {
				const char *end = strchr(value + i + 1, q);

				if (!end) {
					err = diag_err(c->d, c->line,
						       "close the quote, or remove it",
						       "unterminated %c quote in \"%s\"", q,
						       k->name);
					break;
				}
				memcpy(word + w, value + i + 1, end - value - i - 1);
				w += end - value - i - 1;
				i = end - value + 1;
				quoted = 1;
				continue;
			}
			word[w++] = value[i++];
		}
		word[w] = '\0';
		if (!err && (w || quoted))
			err = add(c, k, field, word);
	}
	free(word);
	return err;
}

/* ---- value parsers (one per type; `field` points into the section's struct) ---------------- */

static int path_check(struct pctx *c, const struct profile_key *k, const char *p)
{
	const char *s;

	if (p[0] != '/')
		return diag_err(c->d, c->line, "paths in a profile are absolute",
				"%s \"%s\" is not an absolute path", k->name, p);
	if (strlen(p) >= PATH_MAX)
		return diag_err(c->d, c->line, NULL, "%s is longer than PATH_MAX", k->name);
	for (s = p; *s; s++) {
		if (s[0] == '/' && s[1] == '.' && (s[2] == '/' || !s[2] ||
						   (s[2] == '.' && (s[3] == '/' || !s[3]))))
			return diag_err(c->d, c->line,
					"write the path without \".\" or \"..\" components",
					"%s \"%s\" has a \".\" or \"..\" component", k->name, p);
		if ((unsigned char)*s < 0x20)
			return diag_err(c->d, c->line, NULL,
					"%s \"%s\" contains a control character", k->name, p);
	}
	return 0;
}

static int set_once(struct pctx *c, struct pstr *f, const char *v)
{
	free(f->s);
	f->s = xstrdup(c, v);
	f->line = c->line;
	return f->s ? 0 : -ENOMEM;
}

static int parse_path(struct pctx *c, const struct profile_key *k, void *field, const char *v)
{
	int err = path_check(c, k, v);

	return err ? err : set_once(c, field, v);
}

static int add_path(struct pctx *c, const struct profile_key *k, void *field, const char *w)
{
	int err = path_check(c, k, w[0] == '-' ? w + 1 : w);

	return err ? err : list_add(c, field, w);
}

static int parse_paths(struct pctx *c, const struct profile_key *k, void *field, const char *v)
{
	return split_words(c, k, v, 1, add_path, field);
}

static int add_word(struct pctx *c, const struct profile_key *k, void *field, const char *w)
{
	return list_add(c, field, w);
}

static int parse_words(struct pctx *c, const struct profile_key *k, void *field, const char *v)
{
	return split_words(c, k, v, 0, add_word, field);
}

/* A user or group: a name as useradd(8) accepts it, or a number below 2^32 - 1. */
static int ident_check(struct pctx *c, const struct profile_key *k, const char *v)
{
	const char *s = v;

	if (isdigit((unsigned char)*v)) {
		char *end;
		unsigned long long n;

		errno = 0;
		n = strtoull(v, &end, 10);
		if (*end || errno || n >= 0xffffffffULL)
			return diag_err(c->d, c->line, "numbers go from 0 to 4294967294",
					"%s \"%s\" is not a valid id", k->name, v);
		return 0;
	}
	if (!(islower((unsigned char)*s) || *s == '_'))
		goto bad;
	for (s++; *s; s++) {
		if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '_' ||
		      *s == '-' || *s == '.' || (*s == '$' && !s[1])))
			goto bad;
	}
	if (s - v > 32)
		goto bad;
	return 0;
bad:
	return diag_err(c->d, c->line,
			"names are lower case letters, digits, '_', '-', '.'; or give a number",
			"%s \"%s\" is not a valid user or group name", k->name, v);
}

static int parse_ident(struct pctx *c, const struct profile_key *k, void *field, const char *v)
{
	int err = ident_check(c, k, v);

	return err ? err : set_once(c, field, v);
}

static int add_ident(struct pctx *c, const struct profile_key *k, void *field, const char *w)
{
	int err = ident_check(c, k, w);

	return err ? err : list_add(c, field, w);
}

/* [identity] user: a user, or "dynamic:FIRST-LAST" (checked by the plan, which reads it). */
static int parse_user(struct pctx *c, const struct profile_key *k, void *field, const char *v)
{
	int err = strncmp(v, PROFILE_DYNAMIC, strlen(PROFILE_DYNAMIC)) ? ident_check(c, k, v) : 0;

	return err ? err : set_once(c, field, v);
}

static int parse_idents(struct pctx *c, const struct profile_key *k, void *field, const char *v)
{
	struct plist *l = field;

	/* "groups =" (empty) is meaningful: no groups. Record that the key was given. */
	list_free(l);
	return split_words(c, k, v, 1, add_ident, field);
}

struct enum_word {
	const char *word;
	int value;
};

static const struct enum_word bool_words[] = {
	{ "yes", 1 }, { "no", 0 }, { "true", 1 }, { "false", 0 }, { "1", 1 }, { "0", 0 },
	{ NULL, 0 }
};
static const struct enum_word cmdline_words[] = {
	{ "none", CMDLINE_NONE }, { "args", CMDLINE_ARGS }, { "program", CMDLINE_PROGRAM },
	{ NULL, 0 }
};
static const struct enum_word access_words[] = {
	{ "ro", ACCESS_RO }, { "rw", ACCESS_RW }, { NULL, 0 }
};
static const struct enum_word exec_words[] = {
	{ "close", EXEC_CLOSE }, { "keep", EXEC_KEEP }, { NULL, 0 }
};
static const struct enum_word method_words[] = {
	{ "cred-fd", METHOD_CRED_FD }, { "idmap", METHOD_IDMAP }, { "auto", METHOD_AUTO },
	{ NULL, 0 }
};
static const struct enum_word landlock_words[] = {
	{ "required", LANDLOCK_REQUIRED }, { "best-effort", LANDLOCK_BEST_EFFORT }, { NULL, 0 }
};
static const struct enum_word policy_words[] = {
	{ "allow-list", SC_ALLOW_LIST }, { "deny-list", SC_DENY_LIST }, { NULL, 0 }
};
static const struct enum_word action_words[] = {
	{ "kill", SC_ACT_KILL }, { "errno", SC_ACT_ERRNO }, { "log", SC_ACT_LOG }, { NULL, 0 }
};

static int parse_enum(struct pctx *c, const struct profile_key *k, int *field, const char *v,
		      const struct enum_word *words)
{
	const struct enum_word *w;

	for (w = words; w->word; w++) {
		if (!strcmp(w->word, v)) {
			*field = w->value;
			return 0;
		}
	}
	return diag_err(c->d, c->line, NULL, "%s must be one of %s, not \"%s\"", k->name, k->type,
			v);
}

#define ENUM_PARSER(fn, words) \
static int fn(struct pctx *c, const struct profile_key *k, void *field, const char *v) \
{ \
	return parse_enum(c, k, field, v, words); \
}
ENUM_PARSER(parse_bool, bool_words)
ENUM_PARSER(parse_cmdline, cmdline_words)
ENUM_PARSER(parse_access, access_words)
ENUM_PARSER(parse_exec, exec_words)
ENUM_PARSER(parse_method, method_words)
ENUM_PARSER(parse_landlock, landlock_words)
ENUM_PARSER(parse_policy, policy_words)
ENUM_PARSER(parse_action, action_words)

static int parse_umask(struct pctx *c, const struct profile_key *k, void *field, const char *v)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 8);
	if (!isdigit((unsigned char)*v) || *end || errno || n < 0 || n > 0777)
		return diag_err(c->d, c->line, "an octal number such as 0077 or 0022",
				"umask must be an octal number from 0 to 0777, not \"%s\"", v);
	*(int *)field = (int)n;
	return 0;
}

static int parse_fd(struct pctx *c, const struct profile_key *k, void *field, const char *v)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (!isdigit((unsigned char)*v) || *end || errno || n < PROFILE_FD_MIN ||
	    n > PROFILE_FD_MAX)
		return diag_err(c->d, c->line, "0, 1 and 2 stay the standard streams",
				"fd must be a number from %d to %d, not \"%s\"", PROFILE_FD_MIN,
				PROFILE_FD_MAX, v);
	*(int *)field = (int)n;
	return 0;
}

static int parse_errno(struct pctx *c, const struct profile_key *k, void *field, const char *v)
{
	int e = sysnames_errno_parse(v);

	if (e < 0)
		return diag_err(c->d, c->line, "write a name such as EPERM, or a number",
				"unknown errno \"%s\"", v);
	*(int *)field = e;
	return 0;
}

/*
 * One value of [limits]: "infinity", or a decimal number; a size may end in K, M, G or T
 * (powers of 1024). 0, or -1 for anything else, an overflow included.
 */
static int limit_number(const char *s, size_t len, int size, unsigned long long *out)
{
	static const char units[] = "KMGT";
	unsigned long long n = 0, mult = 1;
	const char *u;
	size_t i;

	if ((len == 8 && !strncmp(s, "infinity", 8)) || (len == 9 && !strncmp(s, "unlimited", 9))) {
		*out = PLIMIT_INFINITY;
		return 0;
	}
	if (size && len > 1 && (u = memchr(units, s[len - 1], 4))) {
		mult = 1ULL << (10 * (u - units + 1));
		len--;
	}
	if (!len || len > 20)
		return -1;
	for (i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]) || n > (~0ULL - 9) / 10)
			return -1;
		n = n * 10 + (s[i] - '0');
	}
	if (n > (PLIMIT_INFINITY - 1) / mult)
		return -1;
	*out = n * mult;
	return 0;
}

/* LIMIT, or SOFT:HARD, each a limit_number; size: K, M, G, T allowed. */
static int parse_limit_as(struct pctx *c, const struct profile_key *k, struct plimit *l,
			  const char *v, int size)
{
	const char *colon = strchr(v, ':');
	size_t soft_len = colon ? (size_t)(colon - v) : strlen(v);

	if (limit_number(v, soft_len, size, &l->soft) < 0 ||
	    limit_number(colon ? colon + 1 : v, colon ? strlen(colon + 1) : soft_len, size,
			 &l->hard) < 0)
		return diag_err(c->d, c->line, size ?
				"a number, with K, M, G or T for KiB, MiB, GiB or TiB, or "
				"infinity; SOFT:HARD sets the two limits apart" :
				"a number, or infinity; SOFT:HARD sets the two limits apart",
				"%s must be %s, not \"%s\"", k->name, k->type, v);
	if (l->soft > l->hard)
		return diag_err(c->d, c->line, "the program may raise its soft limit up to the "
				"hard one, not beyond: write SOFT:HARD with SOFT no larger",
				"%s: the soft limit is above the hard limit in \"%s\"", k->name, v);
	l->set = 1;
	return 0;
}

static int parse_limit(struct pctx *c, const struct profile_key *k, void *field, const char *v)
{
	return parse_limit_as(c, k, field, v, 0);
}

static int parse_limit_size(struct pctx *c, const struct profile_key *k, void *field,
			    const char *v)
{
	return parse_limit_as(c, k, field, v, 1);
}

/*
 * What ld.so deletes from a program's environment in secure mode (AT_SECURE, which credbox's
 * loader always sets), besides every LD_ variable: glibc 2.36's list (Debian 12's ld.so holds
 * it as one string), and MALLOC_CHECK_, a tunable that secure mode erases. Keeping or setting
 * one would show in --check and never reach the program.
 */
static const char *const secure_deleted[] = {
	"GCONV_PATH", "GETCONF_DIR", "HOSTALIASES", "LOCALDOMAIN", "LOCPATH", "MALLOC_CHECK_",
	"MALLOC_TRACE", "NIS_PATH", "NLSPATH", "RESOLV_HOST_CONF", "RES_OPTIONS", "TMPDIR",
	"TZDIR",
};

/* name (len bytes; with glob, a prefix followed by '*') against what secure mode drops. */
static int secure_mode_check(struct pctx *c, const struct profile_key *k, const char *name,
			     size_t len, int glob)
{
	size_t i, plen = glob && len && name[len - 1] == '*' ? len - 1 : len;
	int prefix = plen < len;

	/* A prefix of "LD_" (L*, LD*) keeps LD_ variables as surely as one starting with it. */
	if ((prefix && !strncmp("LD_", name, plen < 3 ? plen : 3)) ||
	    (plen >= 3 && !strncmp(name, "LD_", 3)))
		return prefix ?
			diag_err(c->d, c->line, "name the variables to keep, or use a longer prefix",
				 "%s: \"%.*s\" would keep LD_ variables, which the dynamic linker "
				 "ignores in secure mode", k->name, (int)len, name) :
			diag_err(c->d, c->line,
				 "the program runs in secure mode (AT_SECURE): remove it",
				 "%s: \"%.*s\": the dynamic linker ignores LD_ variables in "
				 "secure mode", k->name, (int)len, name);
	for (i = 0; i < ARRAY_SIZE(secure_deleted); i++) {
		const char *s = secure_deleted[i];

		if (prefix && !strncmp(s, name, plen))
			return diag_err(c->d, c->line,
					"name the variables to keep, or use a longer prefix",
					"%s: \"%.*s\" would keep %s, which the dynamic linker deletes "
					"in secure mode", k->name, (int)len, name, s);
		if (!prefix && strlen(s) == len && !strncmp(s, name, len))
			return diag_err(c->d, c->line,
					"the program runs in secure mode (AT_SECURE), so it would "
					"never see the variable: remove it",
					"%s: the dynamic linker deletes %s in secure mode", k->name, s);
	}
	return 0;
}

static int env_name_check(struct pctx *c, const struct profile_key *k, const char *name,
			  size_t len, int glob)
{
	size_t i;

	for (i = 0; i < len; i++) {
		char ch = name[i];

		if (glob && ch == '*' && i == len - 1 && i > 0)
			break;
		if (!(isalpha((unsigned char)ch) || ch == '_' || (i && isdigit((unsigned char)ch))))
			return diag_err(c->d, c->line,
					glob ? "a name, or a prefix followed by '*'" : NULL,
					"%s: \"%.*s\" is not a variable name", k->name, (int)len,
					name);
	}
	if (!len)
		return diag_err(c->d, c->line, NULL, "%s: empty variable name", k->name);
	if (!strncmp(name, "CREDBOX_DIRS", len) && len == 12)
		return diag_err(c->d, c->line, "credbox sets CREDBOX_DIRS from the [dir] sections",
				"%s: CREDBOX_DIRS cannot be kept or set", k->name);
	return secure_mode_check(c, k, name, len, glob);
}

static int add_env_name(struct pctx *c, const struct profile_key *k, void *field, const char *w)
{
	int err = env_name_check(c, k, w, strlen(w), 1);

	return err ? err : list_add(c, field, w);
}

static int parse_env_names(struct pctx *c, const struct profile_key *k, void *field,
			   const char *v)
{
	list_free(field);
	return split_words(c, k, v, 1, add_env_name, field);
}

static int parse_env_set(struct pctx *c, const struct profile_key *k, void *field, const char *v)
{
	const char *eq = strchr(v, '=');
	char where[PATH_MAX + 32];
	struct plist *l = field;
	size_t i, len;
	int err;

	if (!eq)
		return diag_err(c->d, c->line, "write set = NAME=value",
				"set: \"%s\" has no '='", v);
	len = eq - v;
	err = env_name_check(c, k, v, len, 0);
	if (err)
		return err;
	for (i = 0; i < l->n; i++) {
		if (!strncmp(l->v[i].s, v, len + 1))
			return diag_err(c->d, c->line, NULL, "set: %.*s is already set on %s",
					(int)len, v, diag_where(c->d, l->v[i].line, c->line, where,
								sizeof(where)));
	}
	return list_add(c, l, v);
}

static int add_syscall(struct pctx *c, const struct profile_key *k, void *field, const char *w)
{
	int is_deny = !strcmp(k->name, "deny");
	char name[64];
	int e;

	if (sysnames_entry(w, name, sizeof(name), &e) < 0) {
		if (strchr(w, ':'))
			return diag_err(c->d, c->line, "write a name such as EPERM, or a number",
					"%s: bad errno in \"%s\"", k->name, w);
		return diag_err(c->d, c->line, NULL, "%s: bad entry \"%s\"", k->name, w);
	}
	if (e >= 0 && !is_deny)
		return diag_err(c->d, c->line, "only deny entries carry an errno",
				"allow: \"%s\" has an errno", w);
	if (name[0] == '@' ? !sysnames_group_find(name) : !sysnames_syscall_known(name)) {
		char hint[96], near[64];

		if (!sysnames_suggest(name, near, sizeof(near)))
			snprintf(hint, sizeof(hint), "did you mean \"%s\"?", near);
		else
			snprintf(hint, sizeof(hint), "%s", name[0] == '@' ?
				 "credbox --list-groups lists the groups and their members" : "");
		return diag_err(c->d, c->line, *hint ? hint : NULL, "%s: unknown %s \"%s\"",
				k->name, name[0] == '@' ? "syscall group" : "system call", name);
	}
	return list_add(c, field, w);
}

static int parse_syscalls(struct pctx *c, const struct profile_key *k, void *field,
			  const char *v)
{
	return split_words(c, k, v, 1, add_syscall, field);
}

/* ---- the tables --------------------------------------------------------------------------- */

#define F(type, member) offsetof(type, member)

static const struct profile_key keys[] = {
	{ SEC_PROGRAM, "path", "absolute-path", 0, parse_path,
	  F(struct policy_program, path), NULL,
	  "The program to run. Required unless command_line is program." },
	{ SEC_PROGRAM, "args", "words", KEY_LIST, parse_words,
	  F(struct policy_program, args), "no arguments",
	  "Default arguments, split at blanks; \"...\" and '...' quote." },
	{ SEC_PROGRAM, "command_line", "none|args|program", 0, parse_cmdline,
	  F(struct policy_program, command_line), "none",
	  "What the command line may supply: nothing, the arguments, or program and arguments." },
	{ SEC_PROGRAM, "cwd", "absolute-path", 0, parse_path,
	  F(struct policy_program, cwd), "/",
	  "The program's working directory, entered as the sandboxed user." },
	{ SEC_PROGRAM, "umask", "octal", 0, parse_umask,
	  F(struct policy_program, umask), "0077",
	  "The program's file mode creation mask." },
	{ SEC_PROGRAM, "new_session", "yes|no", 0, parse_bool,
	  F(struct policy_program, new_session), "no",
	  "Run the program in a session of its own, without a controlling terminal." },
	{ SEC_PROGRAM, "die_with_parent", "yes|no", 0, parse_bool,
	  F(struct policy_program, die_with_parent), "yes",
	  "End the program with SIGKILL when the process that started credbox ends." },

	{ SEC_IDENTITY, "user", "user|dynamic:first-last", KEY_REQUIRED, parse_user,
	  F(struct policy_identity, user), NULL,
	  "The user the program runs as: a name or a number, never root; or a fresh uid "
	  "of a range reserved for credbox, for each run." },
	{ SEC_IDENTITY, "group", "group", 0, parse_ident,
	  F(struct policy_identity, group), "the user's primary group",
	  "The group the program runs as." },
	{ SEC_IDENTITY, "groups", "group-list", KEY_LIST, parse_idents,
	  F(struct policy_identity, groups), "none",
	  "Supplementary groups of the program." },
	{ SEC_IDENTITY, "dedicated", "yes|no", 0, parse_bool,
	  F(struct policy_identity, dedicated), "no",
	  "The user exists for credbox alone: no login, no other program runs as it "
	  "(method = idmap needs it)." },

	{ SEC_ENVIRONMENT, "keep", "name-list", KEY_LIST, parse_env_names,
	  F(struct policy_env, keep), "TERM, LANG, LANGUAGE, LC_*, TZ",
	  "Variables kept from credbox's environment; a trailing '*' matches a prefix." },
	{ SEC_ENVIRONMENT, "set", "NAME=value", KEY_REPEAT, parse_env_set,
	  F(struct policy_env, set), NULL,
	  "Set a variable (after keep; wins over it)." },

	{ SEC_FILESYSTEM, "ro", "path-list", KEY_REPEAT | KEY_LIST, parse_paths,
	  F(struct policy_fs, ro), NULL,
	  "Paths the program may read and execute beneath; '-' before a path: may be missing." },
	{ SEC_FILESYSTEM, "rw", "path-list", KEY_REPEAT | KEY_LIST, parse_paths,
	  F(struct policy_fs, rw), NULL,
	  "Paths the program may read and write beneath, with its own credentials." },
	{ SEC_FILESYSTEM, "landlock", "required|best-effort", 0, parse_landlock,
	  F(struct policy_fs, landlock), "required",
	  "Whether a kernel without Landlock stops credbox." },

	{ SEC_SECCOMP, "policy", "allow-list|deny-list", KEY_REQUIRED, parse_policy,
	  F(struct policy_seccomp, policy), NULL,
	  "allow-list: only allow and @default are allowed; deny-list: only deny is denied." },
	{ SEC_SECCOMP, "allow", "syscall-list", KEY_REPEAT | KEY_LIST, parse_syscalls,
	  F(struct policy_seccomp, allow), NULL,
	  "System calls and @groups allowed (in a deny-list: exceptions to deny)." },
	{ SEC_SECCOMP, "deny", "syscall-list", KEY_REPEAT | KEY_LIST, parse_syscalls,
	  F(struct policy_seccomp, deny), NULL,
	  "System calls and @groups denied, each optionally :ERRNO (in an allow-list: "
	  "exceptions to allow)." },
	{ SEC_SECCOMP, "action", "kill|errno|log", 0, parse_action,
	  F(struct policy_seccomp, action), "kill",
	  "What a denied system call without its own errno does." },
	{ SEC_SECCOMP, "errno", "errno", 0, parse_errno,
	  F(struct policy_seccomp, errnum), "EPERM",
	  "The error returned when action is errno." },

	{ SEC_LIMITS, "nproc", "number[:number]", 0, parse_limit,
	  F(struct policy_limits, v[LIMIT_NPROC]), "the caller's",
	  "Processes and threads the program's user may have, all of its processes counted." },
	{ SEC_LIMITS, "as", "size[:size]", 0, parse_limit_size,
	  F(struct policy_limits, v[LIMIT_AS]), "the caller's",
	  "The program's address space, in bytes." },
	{ SEC_LIMITS, "fsize", "size[:size]", 0, parse_limit_size,
	  F(struct policy_limits, v[LIMIT_FSIZE]), "the caller's",
	  "The largest file the program may write, in bytes." },
	{ SEC_LIMITS, "nofile", "number[:number]", 0, parse_limit,
	  F(struct policy_limits, v[LIMIT_NOFILE]), "the caller's",
	  "One more than the highest fd number the program may open." },
	{ SEC_LIMITS, "cpu", "number[:number]", 0, parse_limit,
	  F(struct policy_limits, v[LIMIT_CPU]), "the caller's",
	  "CPU time, in seconds: SIGXCPU at the soft limit, SIGKILL at the hard one." },
	{ SEC_LIMITS, "core", "size[:size]", 0, parse_limit_size,
	  F(struct policy_limits, v[LIMIT_CORE]), "0",
	  "The largest core dump, in bytes." },

	{ SEC_DIR, "path", "absolute-path", KEY_REQUIRED, parse_path,
	  F(struct policy_dir, path), NULL,
	  "The directory granted." },
	{ SEC_DIR, "owner", "user", KEY_REQUIRED, parse_ident,
	  F(struct policy_dir, owner), NULL,
	  "The identity whose credentials the directory fd carries: the tree's owner." },
	{ SEC_DIR, "group", "group", 0, parse_ident,
	  F(struct policy_dir, group), "the owner's primary group",
	  "The fs group the directory fd carries." },
	{ SEC_DIR, "groups", "group-list", KEY_LIST, parse_idents,
	  F(struct policy_dir, groups), "the owner's groups in the group database",
	  "The supplementary groups the directory fd carries." },
	{ SEC_DIR, "access", "ro|rw", KEY_REQUIRED, parse_access,
	  F(struct policy_dir, access), NULL,
	  "Read-only or read-write, enforced by Landlock." },
	{ SEC_DIR, "fd", "number", 0, parse_fd,
	  F(struct policy_dir, fd), "the lowest number from 3 not otherwise taken",
	  "The fd number the program finds the directory at." },
	{ SEC_DIR, "trust_symlinks", "yes|no", 0, parse_bool,
	  F(struct policy_dir, trust_symlinks), "no",
	  "Follow symbolic links in path when opening the directory." },
	{ SEC_DIR, "transparent", "yes|no", 0, parse_bool,
	  F(struct policy_dir, transparent), "no",
	  "The program's own path-based file calls beneath path go through the grant." },
	{ SEC_DIR, "exec", "close|keep", 0, parse_exec,
	  F(struct policy_dir, exec), "close",
	  "At the program's own execve, close the grant, as the kernel does, or keep it for "
	  "the new program (with transparent = yes)." },
	{ SEC_DIR, "method", "cred-fd|idmap|auto", 0, parse_method,
	  F(struct policy_dir, method), "cred-fd",
	  "How the grant is made: an O_CRED_ALLOW fd, an ID-mapped mount, or the first of "
	  "the two this kernel and the profile allow." },
};
_Static_assert(ARRAY_SIZE(keys) <= PROFILE_MAX_KEYS, "raise PROFILE_MAX_KEYS");

static const char *const section_names[SEC_COUNT] = {
	[SEC_PROGRAM] = "program",
	[SEC_IDENTITY] = "identity",
	[SEC_ENVIRONMENT] = "environment",
	[SEC_FILESYSTEM] = "filesystem",
	[SEC_SECCOMP] = "seccomp",
	[SEC_LIMITS] = "limits",
	[SEC_DIR] = "dir",
};

/* Sections the profile must have. */
static const int section_required[SEC_COUNT] = {
	[SEC_PROGRAM] = 1, [SEC_IDENTITY] = 1, [SEC_SECCOMP] = 1,
};

/* Likely mistakes, and what to write instead. */
static const struct {
	enum profile_section section;
	const char *key;
	const char *hint;
} key_hints[] = {
	{ SEC_DIR, "rw", "the access of a directory is set with \"access = rw\"" },
	{ SEC_DIR, "ro", "the access of a directory is set with \"access = ro\"" },
	{ SEC_DIR, "readonly", "the access of a directory is set with \"access = ro\"" },
	{ SEC_DIR, "user", "the identity a directory fd carries is set with \"owner\"" },
	{ SEC_DIR, "uid", "the identity a directory fd carries is set with \"owner\"" },
	{ SEC_IDENTITY, "uid", "write \"user = NAME-OR-NUMBER\"" },
	{ SEC_IDENTITY, "gid", "write \"group = NAME-OR-NUMBER\"" },
	{ SEC_PROGRAM, "argv", "default arguments are set with \"args\"" },
	{ SEC_FILESYSTEM, "dir", "granted directories are sections of their own: [dir NAME]" },
	{ SEC_SECCOMP, "default", "write \"policy = allow-list\" or \"policy = deny-list\"" },
};

const struct profile_key *profile_keys(size_t *n)
{
	*n = ARRAY_SIZE(keys);
	return keys;
}

int profile_seen(const struct psec *sec, enum profile_section s, const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		if (keys[i].section == s && !strcmp(keys[i].name, key))
			return sec->key_line[i];
	}
	return 0;
}

const char *profile_section_name(enum profile_section s)
{
	return s < SEC_COUNT ? section_names[s] : "?";
}

/* ---- sections ----------------------------------------------------------------------------- */

static void *section_base(struct policy *pol, enum profile_section s)
{
	switch (s) {
	case SEC_PROGRAM:
		return &pol->program;
	case SEC_IDENTITY:
		return &pol->identity;
	case SEC_ENVIRONMENT:
		return &pol->env;
	case SEC_FILESYSTEM:
		return &pol->fs;
	case SEC_SECCOMP:
		return &pol->seccomp;
	case SEC_LIMITS:
		return &pol->limits;
	default:
		return NULL;
	}
}

static int dir_name_ok(const char *s)
{
	size_t n = 0;

	for (; *s; s++, n++) {
		if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '-' || *s == '.'))
			return 0;
	}
	return n > 0 && n <= 64;
}

/* "did you mean [identity]?" for a mistyped section name, or the list of sections. */
static const char *unknown_section_hint(const char *text, char *buf, size_t size)
{
	char word[64];
	enum profile_section s;

	snprintf(word, sizeof(word), "%.*s", (int)strcspn(text, " "), text);
	for (s = 0; s < SEC_COUNT; s++) {
		if (diag_distance(section_names[s], word) <= 2) {
			snprintf(buf, size, "did you mean [%s%s]?", section_names[s],
				 s == SEC_DIR ? text + strlen(word) : "");
			return buf;
		}
	}
	return "sections are [program], [identity], [environment], [filesystem], [seccomp], "
	       "[limits] and [dir NAME]";
}

/* Make the keys that follow belong to sec (whose first header may be in another file). */
static void section_enter(struct pctx *c, enum profile_section s, void *base, struct psec *sec)
{
	if (!sec->line)
		sec->line = c->line;
	c->cur = s;
	c->cur_base = base;
	c->cur_sec = sec;
}

/* Twice in one file is a mistake; a later file (include, drop-in) continues the section. */
static int section_twice(struct pctx *c, int *here, const char *label)
{
	char where[PATH_MAX + 32];

	if (*here)
		return diag_err(c->d, c->line, NULL, "duplicate section %s (first on %s)", label,
				diag_where(c->d, *here, c->line, where, sizeof(where)));
	*here = c->line;
	return 0;
}

static void dir_section_begin(struct pctx *c, const char *name)
{
	struct policy *pol = c->pol;
	struct policy_dir *dir;
	size_t i;

	if (!dir_name_ok(name)) {
		diag_err(c->d, c->line,
			 "a directory section is [dir NAME]; NAME is letters, digits, '_', '-', "
			 "'.' (at most 64)",
			 *name ? "bad directory name \"%s\"" : "[dir] needs a name%s", name);
		return;
	}
	for (i = 0; i < pol->ndirs && strcmp(pol->dirs[i].name, name); i++)
		;
	if (i == pol->ndirs && pol->ndirs == PROFILE_MAX_DIRS) {
		diag_err(c->d, c->line, NULL, "more than %d [dir] sections", PROFILE_MAX_DIRS);
		return;
	}
	if (section_twice(c, &c->here_dir[i], c->label))
		return;
	dir = &pol->dirs[i];
	if (i == pol->ndirs) {
		*dir = (struct policy_dir){ .fd = -1 };
		dir->name = xstrdup(c, name);
		if (!dir->name)
			return;
		pol->ndirs++;
	}
	section_enter(c, SEC_DIR, dir, &dir->sec);
}

/* Start a section from the text between '[' and ']'. */
static void section_begin(struct pctx *c, const char *text)
{
	enum profile_section s;
	struct psec *sec;
	char hint[96];

	c->started = 1;
	c->cur_base = NULL;
	c->cur_sec = NULL;
	snprintf(c->label, sizeof(c->label), "[%s]", text);
	c->cur_label = c->label;
	for (s = 0; s < SEC_COUNT; s++) {
		size_t len = strlen(section_names[s]);

		if (!strncmp(text, section_names[s], len) && (!text[len] || text[len] == ' '))
			break;
	}
	if (s == SEC_COUNT) {
		diag_err(c->d, c->line, unknown_section_hint(text, hint, sizeof(hint)),
			 "unknown section [%s]", text);
	} else if (s == SEC_DIR) {
		dir_section_begin(c, text[3] == ' ' ? text + 4 : text + 3);
	} else if (text[strlen(section_names[s])]) {
		diag_err(c->d, c->line, NULL, "section [%s] takes no name", section_names[s]);
	} else if (!section_twice(c, &c->here[s], c->label)) {
		sec = section_base(c->pol, s);
		section_enter(c, s, sec, sec);
	}
}

/* ---- inih callbacks ------------------------------------------------------------------------ */

static const char *unknown_key_hint(enum profile_section s, const char *name, char *buf,
				    size_t size)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(key_hints); i++) {
		if (key_hints[i].section == s && !strcmp(key_hints[i].key, name))
			return key_hints[i].hint;
	}
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		if (keys[i].section == s && diag_distance(keys[i].name, name) <= 2) {
			snprintf(buf, size, "did you mean \"%s\"?", keys[i].name);
			return buf;
		}
	}
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		if (keys[i].section != s && !strcmp(keys[i].name, name)) {
			snprintf(buf, size, "\"%s\" is a key of [%s%s]", name,
				 section_names[keys[i].section],
				 keys[i].section == SEC_DIR ? " NAME" : "");
			return buf;
		}
	}
	return NULL;
}

/*
 * A value that is no list: quotes ("..." or '...', no escapes) may enclose all or part of it,
 * to keep blanks at its ends (inih trims them) or a ';' after a blank. A new string, or NULL
 * (reported).
 */
static char *unquote(struct pctx *c, const char *name, const char *v)
{
	char *out = malloc(strlen(v) + 1), *o = out;

	if (!out) {
		c->nomem = 1;
		return NULL;
	}
	for (; *v; v++) {
		const char *end = *v == '"' || *v == '\'' ? strchr(v + 1, *v) : v;

		if (!end) {
			diag_err(c->d, c->line, "close the quote; write a quote inside the other kind",
				 "unterminated %c quote in \"%s\"", *v, name);
			free(out);
			return NULL;
		}
		if (end == v) {
			*o++ = *v;
			continue;
		}
		memcpy(o, v + 1, end - v - 1);
		o += end - v - 1;
		v = end;
	}
	*o = '\0';
	return out;
}

/* include = FILE, before the first section: the other file is read at this point. */
static void on_include(struct pctx *c, const char *value)
{
	char *file;

	if (c->started) {
		diag_err(c->d, c->line, "move it above the first section of the file",
			 "include after a section header");
		return;
	}
	if (!c->inc) {
		diag_err(c->d, c->line, NULL, "include: only a profile read from a file includes");
		return;
	}
	file = unquote(c, "include", value);
	if (file && !*file)
		diag_err(c->d, c->line, NULL, "include needs a file name");
	else if (file && c->inc->include(c->inc->ctx, file, c->line) == -ENOMEM)
		c->nomem = 1;
	free(file);
}

static void on_section_key(struct pctx *c, size_t i, const char *value)
{
	const struct profile_key *k = &keys[i];
	char where[PATH_MAX + 32];
	char *v = (char *)value;

	if (c->cur_sec->key_line[i] && !(k->flags & KEY_REPEAT)) {
		diag_err(c->d, c->line, NULL, "duplicate key \"%s\" in %s (first on %s)", k->name,
			 c->cur_label, diag_where(c->d, c->cur_sec->key_line[i], c->line, where,
						  sizeof(where)));
		return;
	}
	if (!c->cur_sec->key_line[i])
		c->cur_sec->key_line[i] = c->line;
	if (!(k->flags & KEY_LIST))
		v = unquote(c, k->name, value);
	if (v)
		k->parse(c, k, (char *)c->cur_base + k->offset, v);
	if (v != value)
		free(v);
}

static int on_key(void *user, const char *section, const char *name, const char *value)
{
	struct pctx *c = user;
	char hintbuf[128];
	size_t i;

	(void)section;
	if (!strcmp(name, "include")) {
		on_include(c, value);
		return 1;
	}
	if (!c->cur_sec) {
		if (!c->cur_label)
			diag_err(c->d, c->line, "start with a section such as [program]",
				 "key \"%s\" outside any section", name);
		return 1;	/* the section itself was reported */
	}
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		if (keys[i].section == c->cur && !strcmp(keys[i].name, name)) {
			on_section_key(c, i, value);
			return 1;
		}
	}
	diag_err(c->d, c->line, unknown_key_hint(c->cur, name, hintbuf, sizeof(hintbuf)),
		 "unknown key \"%s\" in %s", name, c->cur_label);
	return 1;
}

/* Check one line's syntax; returns 0 to pass it to inih, -1 to hide it (it was reported). */
static int check_line(struct pctx *c, char *s)
{
	char *end = s + strlen(s);
	char *eq, *colon;

	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	if (!*s || *s == ';' || *s == '#')
		return 0;
	if (*s == '[') {
		char *close = strchr(s, ']');
		char *rest;

		if (!close) {
			diag_err(c->d, c->line, "a section header is [NAME]",
				 "missing ']' in section header");
			return -1;
		}
		for (rest = close + 1; isspace((unsigned char)*rest); rest++)
			;
		if (*rest && *rest != ';' && *rest != '#') {
			diag_err(c->d, c->line, NULL, "text after section header");
			return -1;
		}
		*close = '\0';
		section_begin(c, s + 1);
		*close = ']';
		return 0;
	}
	eq = strchr(s, '=');
	colon = strchr(s, ':');
	if (!eq || (colon && colon < eq)) {
		diag_err(c->d, c->line,
			 colon && (!eq || colon < eq) ? "use '=' between key and value" :
			 "each line is [section], key = value, or a comment (; or #)",
			 "expected \"key = value\"");
		return -1;
	}
	return 0;
}

/* inih reader: one line per call, without continuation lines, with the line number. */
static char *reader(char *str, int num, void *stream)
{
	struct pctx *c = stream;
	size_t start = c->pos, end, len;
	char *s;

	if (c->pos >= c->len)
		return NULL;
	for (end = start; end < c->len && c->buf[end] != '\n'; end++)
		;
	c->pos = end < c->len ? end + 1 : end;
	c->line++;
	len = end - start;
	str[0] = '\0';
	if (memchr(c->buf + start, '\0', len)) {
		diag_err(c->d, c->line, NULL, "NUL byte in line");
		return str;
	}
	if (len > (size_t)num - 1 || len > LINE_MAX_CHARS) {
		diag_err(c->d, c->line, "repeat a list key to continue its list",
			 "line longer than %d characters", LINE_MAX_CHARS);
		return str;
	}
	memcpy(str, c->buf + start, len);
	str[len] = '\0';
	/* A UTF-8 byte order mark, as some editors write one, is no part of the first line. */
	if (start == 0 && !strncmp(str, "\xef\xbb\xbf", 3))
		memmove(str, str + 3, len - 2);
	/* No continuation lines: an indented line stands on its own. */
	for (s = str; *s == ' ' || *s == '\t'; s++)
		;
	memmove(str, s, strlen(s) + 1);
	if (check_line(c, str) < 0)
		str[0] = '\0';
	return str;
}

/* ---- whole-profile checks ----------------------------------------------------------------- */

static void check_required(struct pctx *c, enum profile_section s, const struct psec *sec,
			   const char *label)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		if (keys[i].section == s && (keys[i].flags & KEY_REQUIRED) &&
		    !sec->key_line[i])
			diag_err(c->d, sec->line, NULL, "missing required key \"%s\" in %s",
				 keys[i].name, label);
	}
}

static void check_profile(struct pctx *c)
{
	struct policy *pol = c->pol;
	enum profile_section s;
	char label[96];
	size_t i, j;
	int line;

	for (s = 0; s < SEC_DIR; s++) {
		struct psec *sec = section_base(pol, s);

		if (!sec->line) {
			if (section_required[s])
				diag_err(c->d, 0, NULL, "missing section [%s]", section_names[s]);
			continue;
		}
		snprintf(label, sizeof(label), "[%s]", section_names[s]);
		check_required(c, s, sec, label);
	}
	if (pol->program.sec.line && !profile_seen(&pol->program.sec, SEC_PROGRAM, "path") &&
	    pol->program.command_line != CMDLINE_PROGRAM)
		diag_err(c->d, pol->program.sec.line,
			 "or let the command line name it: \"command_line = program\"",
			 "missing required key \"path\" in [program]");
	/* an errno that would never be returned is a misunderstanding, not a default */
	line = profile_seen(&pol->seccomp.sec, SEC_SECCOMP, "errno");
	if (line && pol->seccomp.action != SC_ACT_ERRNO)
		diag_err(c->d, line, "set \"action = errno\", or remove errno",
			 "errno is used only with action = errno, and action is %s",
			 pol->seccomp.action == SC_ACT_LOG ? "log" : "kill");
	for (i = 0; i < pol->ndirs; i++) {
		struct policy_dir *dir = &pol->dirs[i];

		snprintf(label, sizeof(label), "[dir %s]", dir->name);
		check_required(c, SEC_DIR, &dir->sec, label);
		for (j = 0; j < i && dir->fd >= 0; j++) {
			if (pol->dirs[j].fd == dir->fd)
				diag_err(c->d, dir->sec.line, NULL,
					 "[dir %s] and [dir %s] both ask for fd %d",
					 pol->dirs[j].name, dir->name, dir->fd);
		}
	}
}

/*
 * The [dir] sections are set one by one as they come (dir_begin), up to ndirs: the array, most
 * of the policy, is never written for a profile without them (a page fault each, at every start).
 */
static void policy_defaults(struct policy *pol)
{
	memset(pol, 0, offsetof(struct policy, dirs));
	pol->ndirs = 0;
	pol->program.umask = 077;
	pol->program.die_with_parent = 1;
	pol->seccomp.errnum = EPERM;
}

void profile_parse_begin(struct policy *pol)
{
	policy_defaults(pol);
}

static int count_newlines(const char *from, const char *to)
{
	int n = 0;

	for (; from < to; from++)
		n += *from == '\n';
	return n;
}

int profile_parse_file(struct policy *pol, const char *buf, size_t len, int base,
		       const struct profile_include *inc, struct diag *d)
{
	struct pctx c = { .pol = pol, .d = d, .inc = inc, .buf = buf, .len = len, .line = base };
	const char *nul = memchr(buf, '\0', len);
	size_t before = d->n;
	int ret;

	if (len > PROFILE_MAX_SIZE)
		return diag_err(d, base ? base : 0, NULL, "larger than %d bytes", PROFILE_MAX_SIZE);
	/* A binary file gets one message, not one a line; a text file has no NUL byte. */
	if (nul) {
		diag_err(d, base + count_newlines(buf, nul) + 1,
			 "a profile is an INI text file: is this the file you meant?",
			 "not a text file (a NUL byte)");
		return -ENOEXEC;
	}
	ret = ini_parse_stream(reader, &c, on_key, &c);
	if (ret > 0)
		diag_err(d, base + ret, NULL, "syntax error");
	else if (ret < 0)
		c.nomem = 1;
	if (c.nomem)
		return -ENOMEM;
	return d->n > before || d->oom ? -EINVAL : 0;
}

int profile_parse_end(struct policy *pol, struct diag *d)
{
	struct pctx c = { .pol = pol, .d = d };
	size_t before = d->n;

	check_profile(&c);
	return d->n > before || d->oom ? -EINVAL : 0;
}

int profile_parse_buffer(const char *buf, size_t len, struct policy *pol, struct diag *d)
{
	int err;

	profile_parse_begin(pol);
	err = profile_parse_file(pol, buf, len, 0, NULL, d);
	if (err == -ENOEXEC)
		return -EINVAL;		/* no text: the checks of the whole would be noise */
	if (err == -ENOMEM)
		return err;
	return profile_parse_end(pol, d) ? -EINVAL : err;
}

static void pstr_free(struct pstr *p)
{
	free(p->s);
	p->s = NULL;
}

void profile_free(struct policy *pol)
{
	size_t i;

	pstr_free(&pol->program.path);
	pstr_free(&pol->program.cwd);
	list_free(&pol->program.args);
	pstr_free(&pol->identity.user);
	pstr_free(&pol->identity.group);
	list_free(&pol->identity.groups);
	list_free(&pol->env.keep);
	list_free(&pol->env.set);
	list_free(&pol->fs.ro);
	list_free(&pol->fs.rw);
	list_free(&pol->seccomp.allow);
	list_free(&pol->seccomp.deny);
	for (i = 0; i < pol->ndirs; i++) {
		struct policy_dir *dir = &pol->dirs[i];

		free(dir->name);
		pstr_free(&dir->path);
		pstr_free(&dir->owner);
		pstr_free(&dir->group);
		list_free(&dir->groups);
	}
	pol->ndirs = 0;
}
