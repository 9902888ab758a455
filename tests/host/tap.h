/* SPDX-License-Identifier: GPL-2.0 */
/* tap.h: the few TAP helpers the launcher's C tests use. */
#ifndef CREDBOX_TAP_H
#define CREDBOX_TAP_H

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* Run fn in a child of its own (stdout flushed first, so nothing prints twice): 1 if it exits 0. */
static inline int tap_child_ok(int (*fn)(void))
{
	int status = -1;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(fn());
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
