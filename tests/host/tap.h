/* SPDX-License-Identifier: GPL-2.0 */
/* tap.h: the few TAP helpers the launcher's C tests use. */
#ifndef CREDBOX_TAP_H
#define CREDBOX_TAP_H

#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static inline int tap_ok(int cond, const char *what)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++tap_n, what);
	if (!cond)
		tap_failed++;
	return cond;
}

static inline int tap_is_str(const char *got, const char *want, const char *what)
{
	int same = got && want && !strcmp(got, want);

	tap_ok(same, what);
	if (!same)
		printf("# got:\n#   %s\n# expected:\n#   %s\n", got ? got : "(null)",
		       want ? want : "(null)");
	return same;
}

static inline void tap_skip(const char *what, const char *why)
{
	printf("ok %d - %s # SKIP %s\n", ++tap_n, what, why);
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
