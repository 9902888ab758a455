// SPDX-License-Identifier: GPL-2.0
/*
 * e2e-drop: the bare minimum a launcher does to run a program as another user, what
 * setpriv(1) does: setgroups, setresgid, setresuid, execve. No Landlock, no seccomp, no
 * directory grants. The end-to-end test uses it to start an attacker of the sandbox's uid;
 * tests/vm/bench-credbox uses it as the baseline credbox is measured against.
 *
 *	e2e-drop UID GID GROUP[,GROUP...]|- PROGRAM [ARG...]
 */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	gid_t groups[64];
	size_t n = 0;
	char *p, *end;
	uid_t uid;
	gid_t gid;

	if (argc < 5) {
		fprintf(stderr, "usage: e2e-drop UID GID GROUP[,GROUP...]|- PROGRAM [ARG...]\n");
		return 125;
	}
	uid = (uid_t)strtoul(argv[1], NULL, 10);
	gid = (gid_t)strtoul(argv[2], NULL, 10);
	for (p = argv[3]; strcmp(argv[3], "-") && *p && n < 64; p = *end ? end + 1 : end)
		groups[n++] = (gid_t)strtoul(p, &end, 10);
	/* Groups first, while still privileged; then the gids, then the uids (which drop it). */
	if (setgroups(n, groups) || setresgid(gid, gid, gid) || setresuid(uid, uid, uid)) {
		perror("e2e-drop");
		return 125;
	}
	execv(argv[4], argv + 4);
	perror(argv[4]);
	return errno == ENOENT ? 127 : 126;
}
