/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apply: carry out a plan, in the order of the checklist in apply.c, and hand over to the
 * in-process loader. Never returns on success.
 */
#ifndef CREDBOX_APPLY_H
#define CREDBOX_APPLY_H

#include "failure.h"
#include "plan.h"

/* Returns (why, the exit status and the profile's line in err) only on failure. */
int apply(const struct plan *plan, struct failure *err);

/*
 * Step 0, before apply: the new session (session.h), unless the profile keeps the caller's.
 * 0: go on with apply; 1: this is the parent that waited, *wait_status is how the program
 * ended; -errno, with err filled.
 */
int apply_session(const struct plan *plan, int *wait_status, struct failure *err);

/* Find the program as execvp would (PATH from the plan's environment), as root. 0 or -errno. */
int apply_find_program(const struct plan *plan, char *out, size_t size);

#endif /* CREDBOX_APPLY_H */
