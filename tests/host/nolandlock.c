// SPDX-License-Identifier: GPL-2.0
/*
 * nolandlock: run a command as if the kernel had no Landlock. A seccomp filter makes
 * landlock_create_ruleset(2) fail with ENOSYS, as on a kernel built without it, for the
 * command and everything it starts (credbox's own filters stack on top).
 *
 *   nolandlock COMMAND [ARG...]
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <seccomp.h>

int main(int argc, char **argv)
{
	scmp_filter_ctx ctx;
	int e;

	if (argc < 2) {
		fputs("usage: nolandlock COMMAND [ARG...]\n", stderr);
		return 2;
	}
	ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx)
		return 1;
	e = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(landlock_create_ruleset), 0);
	if (!e)
		e = seccomp_load(ctx);
	seccomp_release(ctx);
	if (e) {
		fprintf(stderr, "nolandlock: %s\n", strerror(-e));
		return 1;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "nolandlock: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
