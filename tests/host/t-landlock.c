// SPDX-License-Identifier: GPL-2.0
/* t-landlock: the Landlock ruleset in forked children: grants and nothing else. TAP. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "landlock.h"
#include "plan.h"
#include "tap.h"

static char base[] = "/tmp/credbox-ll-XXXXXX";

static int expect_open(const char *rel, int flags, int want_errno)
{
	char p[256];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", base, rel);
	fd = open(p, flags | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
	return want_errno ? (fd < 0 && errno == want_errno) : fd >= 0;
}

/* A call refused by Landlock (EACCES; EXDEV for a rename it cannot allow). */
static int at_fails(int r)
{
	return r < 0 && (errno == EACCES || errno == EXDEV);
}

static int child(void)
{
	struct plan_path paths[] = { { .path = "/nonexistent-credbox", .optional = 1 },
				     { .path = "/dev/null", .rw = 1 } };
	struct plan plan;
	const char *failed;
	int fds[2], bad = 0;
	char p[256];

	memset(&plan, 0, sizeof(plan));
	plan.ndirs = 2;
	plan.dirs[0].path = "ro";
	plan.dirs[1].path = "rw";
	plan.dirs[1].rw = 1;
	plan.paths = paths;
	plan.npaths = 2;
	snprintf(p, sizeof(p), "%s/ro", base);
	fds[0] = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	snprintf(p, sizeof(p), "%s/rw", base);
	fds[1] = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || landlock_apply(&plan, fds, &failed))
		return 100;
	bad |= !expect_open("ro/file", O_RDONLY, 0) << 0;
	bad |= !expect_open("ro/file", O_WRONLY, EACCES) << 1;
	bad |= !expect_open("ro/new", O_WRONLY | O_CREAT, EACCES) << 2;
	bad |= !expect_open("rw/file", O_RDWR, 0) << 3;
	bad |= !expect_open("rw/new", O_WRONLY | O_CREAT, 0) << 4;
	bad |= !expect_open("other/file", O_RDONLY, EACCES) << 5;
	bad |= (open("/etc/passwd", O_RDONLY) >= 0) << 6;
	bad |= (open("/dev/null", O_WRONLY) < 0) << 7;
	/* What an ro grant must refuse besides writing: emptying, creating, removing, linking. */
	if (landlock_enforces_ro(landlock_abi()))
		bad |= !expect_open("ro/file", O_RDONLY | O_TRUNC, EACCES) << 8;
	bad |= !at_fails(mkdirat(fds[0], "newdir", 0700)) << 9;
	bad |= !at_fails(symlinkat("/etc", fds[0], "link")) << 10;
	bad |= !at_fails(unlinkat(fds[0], "file", 0)) << 11;
	bad |= !at_fails(renameat(fds[0], "file", fds[1], "moved")) << 12;
	/* ... and what an rw grant allows. */
	bad |= !expect_open("rw/file", O_WRONLY | O_TRUNC, 0) << 13;
	bad |= (mkdirat(fds[1], "newdir", 0700) != 0) << 14;
	if (bad)
		printf("# mask of failed checks 0x%x\n", bad);
	fflush(stdout);
	return bad ? 1 : 0;
}

int main(void)
{
	int abi = landlock_abi();
	char cmd[300], p[256];
	struct stat st;

	if (abi < 0) {
		tap_skip("Landlock", "this kernel has no Landlock");
		return tap_done();
	}
	if (!mkdtemp(base))
		return 1;
	snprintf(cmd, sizeof(cmd), "cd %s && mkdir ro rw other && echo data >ro/file && "
		 "echo data >rw/file && touch other/file && chmod 666 */file", base);
	if (system(cmd))
		return 1;
	tap_ok(tap_child_ok(child),
	       "ro grant reads only (no write, O_TRUNC, mkdir, symlink, unlink, rename out), rw "
	       "grant writes and creates, everything else EACCES");
	tap_ok(expect_open("other/file", O_RDONLY, 0) && expect_open("ro/file", O_RDONLY, 0),
	       "the parent is not restricted, and the ro grant's file is still there");
	snprintf(p, sizeof(p), "%s/ro/file", base);
	tap_ok(stat(p, &st) == 0 && st.st_size == 5, "... and was not emptied");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", base);
	if (system(cmd))
		printf("# could not remove %s\n", base);
	return tap_done();
}
