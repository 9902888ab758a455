/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apply: carry out a plan, in the order of the checklist in apply.c, and hand over to the
 * in-process loader. Never returns on success.
 */
#ifndef CREDBOX_APPLY_H
#define CREDBOX_APPLY_H

#include "plan.h"

#define APPLY_EXIT_FAILURE	125	/* credbox's own failure */
#define APPLY_EXIT_CANNOT_RUN	126	/* the program was found but cannot run */
#define APPLY_EXIT_NOT_FOUND	127	/* the program was not found */

/*
 * What main prints: "PROFILE:LINE: msg" (line > 0: the key at fault), "PROFILE: msg" (0: the
 * profile as a whole) or "credbox: msg" (< 0: not the profile's doing), then "hint: ...".
 */
struct apply_error {
	int status;		/* exit status for main */
	int changed;		/* 0: nothing in the process had changed yet */
	int line;
	const char *hint;	/* static: the fix, when it is known; NULL: none */
	char msg[768];		/* the problem, plainly */
};

/* Returns (status and message in err) only on failure. */
int apply(const struct plan *plan, struct apply_error *err);

/* Find the program as execvp would (PATH from the plan's environment), as root. 0 or -errno. */
int apply_find_program(const struct plan *plan, char *out, size_t size);

#endif /* CREDBOX_APPLY_H */
