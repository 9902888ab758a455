// SPDX-License-Identifier: GPL-2.0
/*
 * client-test: the client API (credbox.h) as a program that was, or was not,
 * started by credbox sees it. On a kernel without the series no fd can carry
 * O_CRED_ALLOW, so the successful path is tested in the VM (tests/vm/).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "credbox.h"

static int test_no;
static int test_failed;

static void check(int cond, const char *what, int got)
{
	test_no++;
	if (!cond)
		test_failed++;
	printf("%sok %d - %s%s", cond ? "" : "not ", test_no, what, cond ? "\n" : "");
	if (!cond)
		printf(" (got %d: %s)\n", got, got < 0 ? strerror(-got) : "");
}

int main(void)
{
	char env[64];
	int dirfd, r;

	printf("1..29\n");

	unsetenv(CREDBOX_DIRS_ENV);
	r = credbox_dir("drive_c");
	check(r == -ENXIO, "not started by credbox: -ENXIO", r);
	r = credbox_openat("drive_c", "x", O_RDONLY, 0);
	check(r == -ENXIO, "credbox_openat without grants: -ENXIO", r);
	check(strstr(credbox_strerror(r), "not started by credbox") != NULL,
	      "credbox_strerror explains -ENXIO", r);
	r = credbox_mkdirat("drive_c", "x", 0755);
	check(r == -ENXIO, "credbox_mkdirat without grants: -ENXIO", r);
	r = credbox_renameat("drive_c", "x", "y", 0);
	check(r == -ENXIO, "credbox_renameat without grants: -ENXIO", r);

	dirfd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	snprintf(env, sizeof(env), "drive_c=%d,drive_d=%d", dirfd, dirfd);
	setenv(CREDBOX_DIRS_ENV, env, 1);
	r = credbox_dir("drive_e");
	check(r == -ENOENT, "unknown name: -ENOENT", r);
	r = credbox_dir("drive");
	check(r == -ENOENT, "a prefix of a name does not match", r);
	r = credbox_dir("drive_d=3");
	check(r == -ENOENT, "a name with '=' never matches", r);
	r = credbox_dir("drive_d");
	check(r == -EBADF, "a directory without O_CRED_ALLOW: -EBADF", r);

	setenv(CREDBOX_DIRS_ENV, "drive_c=999", 1);
	r = credbox_dir("drive_c");
	check(r == -EBADF, "an fd that is not open: -EBADF", r);

	setenv(CREDBOX_DIRS_ENV, "drive_c", 1);
	r = credbox_dir("drive_c");
	check(r == -EINVAL, "an entry without '=': -EINVAL", r);
	setenv(CREDBOX_DIRS_ENV, "drive_c=3x", 1);
	r = credbox_dir("drive_c");
	check(r == -EINVAL, "a non-numeric fd: -EINVAL", r);
	setenv(CREDBOX_DIRS_ENV, "drive_c=12345678901", 1);
	r = credbox_dir("drive_c");
	check(r == -EINVAL, "an fd number too long: -EINVAL", r);

	r = credbox_openat_fd(dirfd, NULL, O_RDONLY, 0);
	check(r == -EINVAL, "a NULL path: -EINVAL", r);
	r = credbox_unlinkat_fd(dirfd, "x", AT_SYMLINK_NOFOLLOW);
	check(r == -EINVAL, "credbox_unlinkat takes AT_REMOVEDIR only: -EINVAL", r);
	r = credbox_renameat_fd(dirfd, "x", "y", 4 /* RENAME_WHITEOUT */);
	check(r == -EINVAL, "credbox_renameat refuses RENAME_WHITEOUT: -EINVAL", r);
	r = credbox_fstatat_fd(dirfd, "x", NULL, 0);
	check(r == -EINVAL, "credbox_fstatat without a stat buffer: -EINVAL", r);

	/* Modes, times and links: the arguments the library refuses itself. */
	r = credbox_fchmodat_fd(dirfd, "x", 0644, AT_REMOVEDIR);
	check(r == -EINVAL, "credbox_fchmodat takes AT_SYMLINK_NOFOLLOW only: -EINVAL", r);
	r = credbox_fchmodat_fd(dirfd, NULL, 0644, 0);
	check(r == -EINVAL, "credbox_fchmodat with a NULL path: -EINVAL", r);
	r = credbox_utimensat_fd(dirfd, NULL, NULL, 0);
	check(r == -EINVAL, "credbox_utimensat with a NULL path (futimens' form): -EINVAL", r);
	r = credbox_utimensat_fd(dirfd, "x", NULL, AT_EMPTY_PATH);
	check(r == -EINVAL, "credbox_utimensat refuses AT_EMPTY_PATH: -EINVAL", r);
	r = credbox_linkat_fd(dirfd, "x", "y", AT_EMPTY_PATH);
	check(r == -EINVAL, "credbox_linkat refuses AT_EMPTY_PATH: -EINVAL", r);
	r = credbox_symlinkat_fd(NULL, dirfd, "y");
	check(r == -EINVAL, "credbox_symlinkat with a NULL target: -EINVAL", r);
	unsetenv(CREDBOX_DIRS_ENV);
	r = credbox_fchmodat("drive_c", "x", 0644, 0);
	check(r == -ENXIO, "credbox_fchmodat without grants: -ENXIO", r);
	r = credbox_utimensat("drive_c", "x", NULL, 0);
	check(r == -ENXIO, "credbox_utimensat without grants: -ENXIO", r);
	r = credbox_linkat("drive_c", "x", "y", 0);
	check(r == -ENXIO, "credbox_linkat without grants: -ENXIO", r);
	r = credbox_symlinkat("t", "drive_c", "y");
	check(r == -ENXIO, "credbox_symlinkat without grants: -ENXIO", r);
	check(strstr(credbox_strerror(-EROFS), "reading only") != NULL,
	      "credbox_strerror explains -EROFS", -EROFS);
	{
		/* An fd of one's own lends nothing: refused whatever the kernel, mode unchanged. */
		char tmpl[] = "/tmp/client-test.XXXXXX";
		int fd = mkstemp(tmpl);
		struct stat st;
		int r2;

		r = fd < 0 ? -errno : credbox_fchmod(fd, 0644);
		r2 = fd < 0 ? -errno : credbox_futimens(fd, NULL);
		check(fd >= 0 && r < 0 && r2 < 0 && fstat(fd, &st) == 0 &&
		      (st.st_mode & 07777) == 0600,
		      "credbox_fchmod and credbox_futimens on an fd of one's own: refused", r);
		if (fd >= 0) {
			unlink(tmpl);
			close(fd);
		}
	}
	return test_failed ? 1 : 0;
}
