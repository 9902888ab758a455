// SPDX-License-Identifier: GPL-2.0
/* dedicated: a user of credbox's alone, held for one run; see dedicated.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dedicated.h"

/* Whether the Uid: line of /proc/PID/status (real, effective, saved, fs) names uid. */
static int status_has(int dirfd, const char *pid, uid_t uid)
{
	char path[64], buf[4096], *line;
	unsigned long ids[4];
	ssize_t n;
	int fd, i;

	snprintf(path, sizeof(path), "%s/status", pid);
	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;	/* it ended meanwhile */
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	line = strstr(buf, "\nUid:");
	if (!line || sscanf(line + 5, "%lu %lu %lu %lu", &ids[0], &ids[1], &ids[2], &ids[3]) != 4)
		return 0;
	for (i = 0; i < 4; i++) {
		if (ids[i] == uid)
			return 1;
	}
	return 0;
}

/*
 * Whether the process runs code of its own: /proc/PID/exe names a file for every process that
 * has a user address space, and nothing (ENOENT) for a kernel thread or a process that has
 * already exited. Those are most of a host's processes (61 of 69 here), and reading the
 * status of each took two thirds of the scan; a readlink is a quarter of one. Any other
 * failure counts as a process, whose status is then read.
 */
static int has_user_code(int dirfd, long pid)
{
	char path[32], target[16];

	snprintf(path, sizeof(path), "%ld/exe", pid);
	return readlinkat(dirfd, path, target, sizeof(target)) >= 0 || errno != ENOENT;
}

int dedicated_in_use(uid_t uid, pid_t *pid)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t self = getpid();
	int found = 0;

	if (!d)
		return -errno;
	while (!found && (e = readdir(d)) != NULL) {
		char *end;
		long p = strtol(e->d_name, &end, 10);

		if (*end || p <= 0 || p == self)
			continue;
		if (has_user_code(dirfd(d), p) && status_has(dirfd(d), e->d_name, uid)) {
			*pid = (pid_t)p;
			found = 1;
		}
	}
	closedir(d);
	return found;
}

int dedicated_claim(uid_t uid, int *lock_fd, pid_t *pid)
{
	char path[64];
	struct stat st;
	int fd, e;

	*lock_fd = -1;
	/* root's own directory: nobody else can plant the lock file or hold it open */
	if (mkdir(DEDICATED_LOCK_DIR, 0700) < 0 && errno != EEXIST)
		return -errno;
	if (lstat(DEDICATED_LOCK_DIR, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != 0 || (st.st_mode & 022))
		return -EPERM;
	snprintf(path, sizeof(path), DEDICATED_LOCK_DIR "/uid-%u.lock", (unsigned)uid);
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		e = -errno;
		close(fd);
		return e;
	}
	e = dedicated_in_use(uid, pid);
	if (e) {
		close(fd);
		return e < 0 ? e : -EBUSY;
	}
	*lock_fd = fd;
	return 0;
}

int dedicated_take(uid_t first, uid_t last, uid_t *uid, int *lock_fd)
{
	struct passwd pw, *found = NULL;
	char buf[1024];
	pid_t pid;
	uid_t u;
	int e;

	*lock_fd = -1;
	for (u = first; u >= first && u <= last; u++) {
		e = dedicated_claim(u, lock_fd, &pid);
		if (e == -EBUSY || e == -EWOULDBLOCK)
			continue;	/* a process of it runs, or a run holds it: the next */
		if (e)
			return e;
		*uid = u;
		/* reserved for credbox: an account there is the admin's mistake, not a uid to use */
		e = getpwuid_r(u, &pw, buf, sizeof(buf), &found);
		if (e != 0 && e != ENOENT && e != ESRCH)
			e = -e;
		else
			e = found ? -EEXIST : 0;
		if (e) {
			close(*lock_fd);
			*lock_fd = -1;
		}
		return e;
	}
	return -EBUSY;
}
