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
#include "policy.h"

#define PROFILE_MAX_SIZE	(1 << 20)	/* bytes */
#define PROFILE_FD_MIN		3
#define PROFILE_FD_MAX		1023

enum profile_section {
	SEC_PROGRAM,
	SEC_IDENTITY,
	SEC_ENVIRONMENT,
	SEC_FILESYSTEM,
	SEC_SECCOMP,
	SEC_DIR,
	SEC_COUNT
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

#endif /* CREDBOX_PROFILE_H */
