/* SPDX-License-Identifier: GPL-2.0 */
/*
 * policy: what a profile says, as data (struct policy). No functions: the parser (profile.c)
 * fills it, the plan (plan.c) and the filter (filter.c) read it; none of them needs another
 * to know its shape.
 */
#ifndef CREDBOX_POLICY_H
#define CREDBOX_POLICY_H

#include <stddef.h>

#define PROFILE_MAX_DIRS	64
#define PROFILE_MAX_KEYS	48	/* rows of the key table */

/* A string with the line it came from (for errors found after parsing). */
struct pstr {
	char *s;	/* NULL: not set */
	int line;
};

struct plist {
	struct pstr *v;
	size_t n;
};

enum p_cmdline { CMDLINE_NONE, CMDLINE_ARGS, CMDLINE_PROGRAM };
enum p_access { ACCESS_UNSET, ACCESS_RO, ACCESS_RW };
enum p_exec { EXEC_CLOSE, EXEC_KEEP };
enum p_method { METHOD_CRED_FD, METHOD_IDMAP, METHOD_AUTO };
enum p_landlock { LANDLOCK_REQUIRED, LANDLOCK_BEST_EFFORT };
enum p_sc_policy { SC_POLICY_UNSET, SC_ALLOW_LIST, SC_DENY_LIST };
enum p_sc_action { SC_ACT_KILL, SC_ACT_ERRNO, SC_ACT_LOG };

/* Bookkeeping common to every section instance. */
struct psec {
	int line;		/* line of the [header]; 0: section absent */
	int key_line[PROFILE_MAX_KEYS];	/* [i]: where key i of the table was first set, or 0 */
};

struct policy_program {
	struct psec sec;
	struct pstr path;
	struct plist args;
	int command_line;	/* enum p_cmdline */
	struct pstr cwd;	/* NULL: "/" */
	int umask;
	int new_session;
	int die_with_parent;
};

#define PROFILE_DYNAMIC	"dynamic:"	/* [identity] user = dynamic:FIRST-LAST */

struct policy_identity {
	struct psec sec;
	struct pstr user;
	struct pstr group;
	struct plist groups;
	int dedicated;		/* the admin's word: no one but credbox runs as user */
};

struct policy_env {
	struct psec sec;
	struct plist keep;	/* names, or prefixes ending in '*' */
	struct plist set;	/* NAME=value */
};

struct policy_fs {
	struct psec sec;
	struct plist ro;	/* a leading '-' marks a path that may be missing */
	struct plist rw;
	int landlock;		/* enum p_landlock */
};

struct policy_seccomp {
	struct psec sec;
	int policy;		/* enum p_sc_policy */
	struct plist allow;	/* syscall or @group */
	struct plist deny;	/* syscall or @group, optionally ":ERRNO" */
	int action;		/* enum p_sc_action */
	int errnum;		/* errno for action = errno */
};

/* [limits]: the resource limits of setrlimit(2), one key each; see plan.c for the names. */
enum p_limit { LIMIT_NPROC, LIMIT_AS, LIMIT_FSIZE, LIMIT_NOFILE, LIMIT_CPU, LIMIT_CORE,
	       LIMIT_COUNT };
#define PLIMIT_INFINITY	(~0ULL)

struct plimit {
	int set;
	unsigned long long soft, hard;	/* PLIMIT_INFINITY: none */
};

struct policy_limits {
	struct psec sec;
	struct plimit v[LIMIT_COUNT];
};

struct policy_dir {
	struct psec sec;
	char *name;
	struct pstr path;
	struct pstr owner;
	struct pstr group;
	struct plist groups;
	int access;		/* enum p_access */
	int fd;			/* -1: assigned in order */
	int trust_symlinks;
	int transparent;		/* the program's own paths reach it (redirect.c) */
	int exec;		/* enum p_exec: after the program's own execve */
	int method;		/* enum p_method: how the grant is made */
};

struct policy {
	struct policy_program program;
	struct policy_identity identity;
	struct policy_env env;
	struct policy_fs fs;
	struct policy_seccomp seccomp;
	struct policy_limits limits;
	struct policy_dir dirs[PROFILE_MAX_DIRS];
	size_t ndirs;
};

#endif /* CREDBOX_POLICY_H */
