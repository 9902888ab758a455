/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apply: carry out a plan, in the order of the checklist in apply.c, and hand over to the
 * in-process loader. Never returns on success.
 */
#ifndef CREDBOX_APPLY_H
#define CREDBOX_APPLY_H

#include <sys/types.h>

#include "failure.h"
#include "plan.h"

/*
 * Returns (why, the exit status and the profile's line in err) only on failure. parent: the
 * process whose end ends the program (die_with_parent): credbox's parent, read with getppid()
 * first thing, or the waiting parent of a new session (apply_session). summary: NULL, or text
 * (--verbose) written to stderr once everything but seccomp is in place, the last moment a
 * write cannot be denied by the profile's filter.
 */
int apply(const struct plan *plan, pid_t parent, const char *summary, struct failure *err);

/*
 * Step 0, before apply: the new session (session.h), unless the profile keeps the caller's.
 * 0: go on with apply, *parent now the process apply ties the program to; 1: this is the
 * parent that waited, *wait_status is how the program ended; -errno, with err filled.
 */
int apply_session(const struct plan *plan, pid_t *parent, int *wait_status,
		  struct failure *err);

/*
 * --check: everything apply() checks before its first lasting change, done and undone, and
 * every failure recorded in out, not just the first: the kernel's features, the profile's
 * paths and limits, the program's working directory, the filters compiled, the program found,
 * checked executable by the sandboxed identity, it and its interpreter checked and mapped by
 * the loader (then unmapped), the scripts and libraries it opens by path under Landlock
 * (deps.h), each granted tree opened as its owner and checked (then closed; on any kernel, no
 * O_CRED_ALLOW needed). 0, or -ENOMEM. skipped: what could not be checked.
 */
#define APPLY_CHECK_NO_PROGRAM	0x1	/* the command line names the program: not given */
#define APPLY_CHECK_NOT_ROOT	0x2	/* not root: the program was only found, no grant opened */
int apply_check(const struct plan *plan, struct failure_list *out, unsigned int *skipped);

/* Find the program as execvp would (PATH from the plan's environment), as root. 0 or -errno. */
int apply_find_program(const struct plan *plan, char *out, size_t size);

#endif /* CREDBOX_APPLY_H */
