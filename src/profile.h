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
	SEC_LIMITS,
	SEC_DIR,
	SEC_COUNT
};

#define KEY_REQUIRED	0x1	/* the section is incomplete without it */
#define KEY_REPEAT	0x2	/* may appear more than once; values accumulate */
#define KEY_LIST	0x4	/* a list: split into words, which quotes may hold together */

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
 * Parse len bytes of buf (need not be NUL-terminated), a profile of one file that includes
 * nothing. Returns 0, or -EINVAL with the reasons in d (every error found, not just the
 * first), or -ENOMEM. pol must be freed with profile_free() in both cases.
 */
int profile_parse_buffer(const char *buf, size_t len, struct policy *pol, struct diag *d);
void profile_free(struct policy *pol);

/*
 * A profile of several files (profile_file.c reads them): profile_parse_begin, then
 * profile_parse_file for each file in order, then profile_parse_end for the checks of the
 * whole (required sections and keys, ...). A section may continue in a later file; a key
 * that takes one value is set once in the whole profile.
 */
struct profile_include {
	/*
	 * Called for "include = FILE" (before the first section of a file; FILE unquoted)
	 * found on line: read FILE and parse it into the same policy, with profile_parse_file.
	 * 0, -EINVAL (the reason recorded in the diag) or -ENOMEM.
	 */
	int (*include)(void *ctx, const char *file, int line);
	void *ctx;
};

void profile_parse_begin(struct policy *pol);
/*
 * One file: its line N is line base + N of the profile (diag_add_source). inc may be NULL.
 * -ENOEXEC (one message in d) for a file that is no text at all: the checks of the whole
 * would only add noise.
 */
int profile_parse_file(struct policy *pol, const char *buf, size_t len, int base,
		       const struct profile_include *inc, struct diag *d);
int profile_parse_end(struct policy *pol, struct diag *d);

/*
 * Whether the profile set key in this section instance (for keys whose empty value counts):
 * the line where it was first set, or 0.
 */
int profile_seen(const struct psec *sec, enum profile_section s, const char *key);

#endif /* CREDBOX_PROFILE_H */
