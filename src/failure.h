/* SPDX-License-Identifier: GPL-2.0 */
/*
 * failure: why the apply phase stopped. One record, filled the same way by every module of
 * that phase (apply, preopen, privdrop, landlock, the loader) and printed by main:
 *
 *   PROFILE:LINE: msg       line > 0: the key at fault
 *   PROFILE: msg            line 0: the profile as a whole
 *   credbox: msg            line FAILURE_NO_LINE: not the profile's doing
 *   hint: ...               when the fix is known
 *
 * A module says what is wrong in words and returns the -errno; the caller that knows more
 * (which [dir], which line of the profile) adds it with failure_prefix and failure_at.
 */
#ifndef CREDBOX_FAILURE_H
#define CREDBOX_FAILURE_H

#include <limits.h>
#include <stdarg.h>
#include <stddef.h>

#define EXIT_CREDBOX		125	/* credbox's own failure */
#define EXIT_CANNOT_RUN		126	/* the program was found but cannot run */
#define EXIT_NOT_FOUND		127	/* the program was not found */

#define FAILURE_NO_LINE		(-1)

struct failure {
	int code;		/* the -errno returned with it */
	int status;		/* exit status for main */
	int line;		/* see above */
	const char *hint;	/* static: the fix, when it is known; NULL: none */
	char msg[PATH_MAX + 256];	/* the problem, plainly: one line */
};

/*
 * Record a failure with status EXIT_CREDBOX and no line. Returns code, or -EPERM for code 0
 * (a check found something wrong; no call failed).
 */
int failure_set(struct failure *f, int code, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int failure_vset(struct failure *f, int code, const char *hint, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));
/* Put text in front of the message ("[dir a] " + "/srv/a: not a directory"). */
void failure_prefix(struct failure *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The exit status and the profile's line at fault. Returns f->code. */
int failure_at(struct failure *f, int status, int line);

/* Every failure a check found (--check reports them all, a run stops at the first). */
struct failure_list {
	struct failure *v;
	size_t n, cap;
	int oom;		/* one could not be recorded */
};

/* Append a copy of f. Returns f->code, so that a check can end with `return failure_add(...)`. */
int failure_add(struct failure_list *l, const struct failure *f);
void failure_list_free(struct failure_list *l);

#endif /* CREDBOX_FAILURE_H */
