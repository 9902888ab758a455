/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profile: parse an INI profile (credbox.ini(5)) into a struct policy. Pure: reads a buffer,
 * touches nothing else. Every key is described by one row of a table (profile_keys()), which
 * also feeds the man page check and `credbox --dump-keys`.
 */
#ifndef CREDBOX_PROFILE_H
#define CREDBOX_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

#define PROFILE_MAX_SIZE	(1 << 20)	/* bytes */
#define PROFILE_MAX_DIRS	64
#define PROFILE_FD_MIN		3
#define PROFILE_FD_MAX		1023
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

enum profile_section {
	SEC_PROGRAM,
	SEC_IDENTITY,
	SEC_ENVIRONMENT,
	SEC_FILESYSTEM,
	SEC_SECCOMP,
	SEC_DIR,
	SEC_COUNT
};

enum p_cmdline { CMDLINE_NONE, CMDLINE_ARGS, CMDLINE_PROGRAM };
enum p_access { ACCESS_UNSET, ACCESS_RO, ACCESS_RW };
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
};

struct policy_identity {
	struct psec sec;
	struct pstr user;
	struct pstr group;
	struct plist groups;
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
};

struct policy {
	struct policy_program program;
	struct policy_identity identity;
	struct policy_env env;
	struct policy_fs fs;
	struct policy_seccomp seccomp;
	struct policy_dir dirs[PROFILE_MAX_DIRS];
	size_t ndirs;
};

#define KEY_REQUIRED	0x1	/* the section is incomplete without it */
#define KEY_REPEAT	0x2	/* may appear more than once; values accumulate */

struct pctx;

struct profile_key {
	enum profile_section section;
	const char *name;
	const char *type;	/* value syntax, as the man page writes it */
	unsigned int flags;
	int (*parse)(struct pctx *c, const struct profile_key *k, void *field, const char *value);
	size_t offset;		/* of the field in the section's struct */
	const char *def;	/* default (NULL: required or none) */
	const char *doc;	/* one line */
};

/* The key table, and the section names ("dir" for [dir NAME]). */
const struct profile_key *profile_keys(size_t *n);
const char *profile_section_name(enum profile_section s);

/*
 * Parse len bytes of buf (need not be NUL-terminated). Returns 0, or -EINVAL with the reasons
 * in d (every error found, not just the first), or -ENOMEM. pol must be freed with
 * profile_free() in both cases.
 */
int profile_parse_buffer(const char *buf, size_t len, struct policy *pol, struct diag *d);
void profile_free(struct policy *pol);

/*
 * Whether the profile set key in this section instance (for keys whose empty value counts):
 * the line where it was first set, or 0.
 */
int profile_seen(const struct psec *sec, enum profile_section s, const char *key);

/* Split a [seccomp] deny entry "name:ERRNO" (errno -1 when absent); 0 or -EINVAL. */
int profile_syscall_entry(const char *entry, char *name, size_t size, int *errnum);

#endif /* CREDBOX_PROFILE_H */
