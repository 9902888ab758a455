// SPDX-License-Identifier: GPL-2.0
/*
 * ident_getent: a question for the system's name service, asked through getent(1), for what
 * the passwd and group files cannot answer (ident.c). credbox is linked statically and has no
 * name service of its own: glibc's modules (systemd's userdb, sssd, LDAP, NIS) are shared
 * libraries of the installed glibc, which getent loads as any program would.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ident_getent.h"

#define ANSWER_MAX	(16UL << 20)

/* The pipe's whole content, until getent closes it. */
static int read_all(int fd, char **out, size_t *len)
{
	size_t size = 4096, n = 0;
	char *buf = malloc(size), *nb;
	ssize_t r;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (n == size) {
			nb = size < ANSWER_MAX ? realloc(buf, size * 2) : NULL;
			if (!nb) {
				free(buf);
				return size < ANSWER_MAX ? -ENOMEM : -E2BIG;
			}
			buf = nb;
			size *= 2;
		}
		r = read(fd, buf + n, size - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			r = -errno;
			free(buf);
			return (int)r;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*out = buf;
	*len = n;
	return 0;
}

static int wait_exit(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	if (!WIFEXITED(status))
		return -EIO;
	/* getent(1): 2 is "not found"; 1 and 3 are its own errors */
	return WEXITSTATUS(status) == 0 ? 0 : WEXITSTATUS(status) == 2 ? -ENOENT : -EIO;
}

int ident_getent(const char *path, const char *db, const char *key, char **out, size_t *len)
{
	/* "--": a key that starts with "-" is a key, not an option */
	char *argv[] = { "getent", "--", (char *)db, (char *)key, NULL }, *envp[] = { NULL };
	posix_spawn_file_actions_t fa;
	int fds[2], e, w;
	pid_t pid;

	/* the answer is read a line at a time: a key that breaks lines could forge one */
	if (!*key || strpbrk(key, ":\n"))
		return -EINVAL;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	e = posix_spawn_file_actions_init(&fa);
	if (!e)
		e = posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	if (!e)
		e = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (!e)
		e = posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	/*
	 * An empty environment: what the name service answers must not depend on variables of
	 * whoever started credbox.
	 */
	if (!e)
		e = posix_spawn(&pid, path, &fa, NULL, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (e) {
		close(fds[0]);
		return e == ENOENT || e == EACCES || e == ENOEXEC ? -ENOPKG : -e;
	}
	e = read_all(fds[0], out, len);
	close(fds[0]);
	w = wait_exit(pid);
	if (!e && w) {
		free(*out);
		*out = NULL;
	}
	return e ? e : w;
}
