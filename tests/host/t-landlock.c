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
	return bad;
}

int main(void)
{
	int abi = landlock_abi(), status;
	char cmd[300];
	pid_t pid;

	if (abi < 0) {
		tap_skip("Landlock", "this kernel has no Landlock");
		return tap_done();
	}
	tap_ok(landlock_access_rw(abi) & landlock_handled_fs(abi), "rw rights are handled");
	tap_ok(!(landlock_access_ro(abi, 0) & ~landlock_handled_fs(abi)),
	       "ro rights are a subset of the handled ones");
	if (!mkdtemp(base))
		return 1;
	snprintf(cmd, sizeof(cmd), "cd %s && mkdir ro rw other && touch ro/file rw/file "
		 "other/file && chmod 666 */file", base);
	if (system(cmd))
		return 1;
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(child());
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "ro grant reads, rw grant writes and creates, everything else EACCES");
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		printf("# child status %d (bit mask of failed checks)\n", WEXITSTATUS(status));
	tap_ok(expect_open("other/file", O_RDONLY, 0), "the parent is not restricted");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", base);
	tap_ok(system(cmd) == 0, "cleanup");
	return tap_done();
}
