/* SPDX-License-Identifier: GPL-2.0 */
/*
 * redirect: the program's own path-based file calls reach the transparent grants, and the
 * calls the profile denies are named on stderr, by a SIGSYS handler that stays in the
 * program's address space (src/rt/redirect_rt.c, "the runtime").
 *
 * The runtime is armed in full when a grant is transparent, or when the program cannot execve
 * (an execve'd program would inherit the traps without the handler: SIGSYS would kill it).
 * Then the profile's filter returns SECCOMP_RET_TRAP for
 *   - the path-based file calls (transparent grants only),
 *   - rt_sigaction and rt_sigprocmask (SIGSYS stays the runtime's),
 *   - execve and execveat (transparent grants only: done in place by the runtime, which
 *     closes the grants and keeps redirecting; src/rt/rt_exec.c),
 *   - every call it denies (named on stderr, then made with the profile's verdict),
 * unless the call comes from the runtime's own syscall instruction, where it returns the
 * profile's verdict unchanged. Every other call is filtered exactly as without the runtime.
 * A profile that lets the program execve, without a transparent grant, arms it for the calls
 * it kills for only: named first, they still kill, and after an execve they kill unnamed
 * (SIGSYS's default action), as before.
 *
 *   redirect_prepare  (privileged, before anything changed) decide, map the runtime's data
 *                     and fill its configuration, compile the profile's filter with the traps;
 *   redirect_keep     the loader keeps the runtime's text (pages of credbox's own) and data;
 *   redirect_arm      (after the loader reset the signal handlers, before seccomp) install
 *                     the SIGSYS handler.
 */
#ifndef CREDBOX_REDIRECT_H
#define CREDBOX_REDIRECT_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "failure.h"
#include "filter.h"
#include "loader.h"
#include "plan.h"

struct redirect {
	int armed;		/* 0: not; else how much (redirect.c, ARM_*) */
	size_t transparent;	/* transparent grants */
	uintptr_t base;		/* the runtime's text: pages of credbox's own */
	uintptr_t data;		/* its configuration and state, mapped (0: not) */
};

/*
 * Compile the profile's filter into bpf (in place of filter_compile), with the runtime's traps
 * when it is armed (rd->armed). 0, or -errno with err filled (its line: the profile's, when
 * the profile is at fault).
 */
int redirect_prepare(const struct plan *plan, struct redirect *rd, struct filter_bpf *bpf,
		     struct failure *err);

/*
 * Whether the absolute path lies in a transparent tree (lexically, as the runtime decides):
 * the program's working directory there is the runtime's to keep, not the kernel's.
 */
int redirect_in_tree(const struct plan *plan, const char *path);

/* For --check and --print-filter: which calls trap and why, if the runtime is armed. */
void redirect_describe(const struct plan *plan, FILE *out, const char *prefix);

/* Have the loader keep the runtime's text and data for the program (armed only). 0 or -errno. */
int redirect_keep(const struct redirect *rd, struct loader_image *img);

/* Unmap what redirect_prepare mapped, for a run that stops before the program (--check). */
void redirect_release(struct redirect *rd);

/* Install the runtime's SIGSYS handler (armed only). 0 or -errno. */
int redirect_arm(const struct redirect *rd);

#endif /* CREDBOX_REDIRECT_H */
