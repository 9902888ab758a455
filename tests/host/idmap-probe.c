// SPDX-License-Identifier: GPL-2.0
/*
 * idmap-probe: one file operation, or one attack, as tests/host/idmap.t asks: inside the
 * sandbox on an ID-mapped grant, or outside it as another process. Prints what came of it
 * on one line: "0", or the errno's name; for `owner`, "UID:GID"; for `dumpable`, the flag.
 *
 *   idmap-probe read|create|owner|unlink|utime|mkfifo|bind PATH
 *   idmap-probe chmod|create-mode PATH OCTAL
 *   idmap-probe link|rename|symlink FROM TO
 *   idmap-probe umount|mount|open-tree PATH
 *   idmap-probe unshare | setns | dumpable
 *   idmap-probe exec ACTION ARGS...     the same probe again by execve, then ACTION
 *   idmap-probe sendfd DIR              DIR's fd over fd 0 (a unix socket), SCM_RIGHTS
 *   idmap-probe recvfd FILE             an fd from fd 0, then FILE opened beneath it
 *   idmap-probe wait                    "ready", then waits for a line on stdin
 *   idmap-probe proc-root PID PATH      PATH opened beneath /proc/PID/root
 *   idmap-probe ptrace PID              PTRACE_ATTACH
 *   idmap-probe as UID ACTION ARGS...   ACTION as uid and gid UID, no other groups
 *   idmap-probe relay UID FILE -- CMD...
 *                                       CMD with fd 0 one end of a unix socket pair; as
 *                                       UID, an fd from the other end (CMD's sendfd), then
 *                                       FILE opened beneath it, printed after CMD ended
 *   idmap-probe pids UID                the pids with UID as any of their uids
 *   idmap-probe sleep SECONDS
 *   idmap-probe client-read|client-create|client-mkdir|client-unlink NAME PATH
 *   idmap-probe client-fchmod NAME PATH OCTAL
 *                                       the same through the client library (credbox.h), on
 *                                       the grant NAME of CREDBOX_DIRS, PATH beneath it
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <dirent.h>
#include <grp.h>
#include <unistd.h>
#include <utime.h>

#include "credbox.h"

static int result(long r)
{
	printf("%s\n", r < 0 ? strerrorname_np(errno) : "0");
	return 0;
}

static long sendfd(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 }, byte = 'x';
	struct iovec iov = { &byte, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			    .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);

	if (fd < 0)
		return -1;
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(0, &m, 0);
}

static long recvfd(const char *file)
{
	char cbuf[CMSG_SPACE(sizeof(int))], byte;
	struct iovec iov = { &byte, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			    .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c;
	int fd;

	if (recvmsg(0, &m, 0) <= 0 || !(c = CMSG_FIRSTHDR(&m)) || c->cmsg_type != SCM_RIGHTS) {
		errno = ENOMSG;
		return -1;
	}
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return openat(fd, file, O_RDONLY | O_CLOEXEC);
}

static long bind_at(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (s < 0)
		return -1;
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	return bind(s, (struct sockaddr *)&a, sizeof(a));
}

static long owner(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -1;
	printf("%u:%u\n", (unsigned)st.st_uid, (unsigned)st.st_gid);
	exit(0);
}

/* The client library's calls: its -errno as errno, for result(). */
static long cret(long r)
{
	if (r < 0) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

static int client(const char *what, const char *name, const char *path, const char *mode)
{
	char c;
	long fd;

	if (!strcmp(what, "read"))
		return result((fd = cret(credbox_openat(name, path, O_RDONLY | O_CLOEXEC, 0))) < 0 ?
			      -1 : read((int)fd, &c, 1));
	if (!strcmp(what, "create"))
		return result(cret(credbox_openat(name, path, O_CREAT | O_EXCL | O_WRONLY |
						  O_CLOEXEC, 0644)));
	if (!strcmp(what, "mkdir"))
		return result(cret(credbox_mkdirat(name, path, 0755)));
	if (!strcmp(what, "unlink"))
		return result(cret(credbox_unlinkat(name, path, 0)));
	if (!strcmp(what, "fchmod")) {
		fd = cret(credbox_openat(name, path, O_RDONLY | O_CLOEXEC, 0));
		return result(fd < 0 ? -1 : cret(credbox_fchmod((int)fd,
							       (mode_t)strtoul(mode, NULL, 8))));
	}
	errno = EINVAL;
	return result(-1);
}

static int become(const char *uid)
{
	uid_t u = (uid_t)strtoul(uid, NULL, 10);

	return setgroups(0, NULL) || setresgid(u, u, u) || setresuid(u, u, u) ? -1 : 0;
}

/* relay UID FILE -- CMD...: see the top. */
static int relay(char **argv)
{
	int sv[2], status;
	long r;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return result(-1);
	pid = fork();
	if (pid == 0) {
		dup2(sv[0], 0);
		execv(argv[5], argv + 5);
		_exit(127);
	}
	close(sv[0]);
	dup2(sv[1], 0);
	r = become(argv[2]) ? -1 : recvfd(argv[3]);
	status = errno;
	waitpid(pid, NULL, 0);
	errno = status;
	return result(r);
}

static int pids(const char *uid)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	char path[300], buf[4096], *l;

	while (d && (e = readdir(d))) {
		unsigned long ids[4];
		ssize_t n;
		int fd, i;

		snprintf(path, sizeof(path), "/proc/%s/status", e->d_name);
		if (e->d_name[0] < '1' || e->d_name[0] > '9' ||
		    (fd = open(path, O_RDONLY)) < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		buf[n > 0 ? n : 0] = '\0';
		l = strstr(buf, "\nUid:");
		if (!l || sscanf(l + 5, "%lu %lu %lu %lu", &ids[0], &ids[1], &ids[2], &ids[3]) != 4)
			continue;
		for (i = 0; i < 4; i++) {
			if (ids[i] == strtoul(uid, NULL, 10)) {
				printf("%s\n", e->d_name);
				break;
			}
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *a = argc > 1 ? argv[1] : "", *p = argc > 2 ? argv[2] : "";
	const char *q = argc > 3 ? argv[3] : "";
	char line[16];
	int fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(a, "as") && argc > 3) {
		if (become(p))
			return result(-1);
		return main(argc - 2, argv + 2);
	}
	if (!strcmp(a, "relay") && argc > 5 && !strcmp(argv[4], "--"))
		return relay(argv);
	if (!strcmp(a, "pids"))
		return pids(p);
	if (!strcmp(a, "sleep"))
		return sleep((unsigned)atoi(p));
	if (!strncmp(a, "client-", 7))
		return client(a + 7, p, q, argc > 4 ? argv[4] : "0");
	if (!strcmp(a, "read"))
		return result((fd = open(p, O_RDONLY)) < 0 ? -1 : read(fd, line, 1));
	if (!strcmp(a, "create"))
		return result((fd = open(p, O_CREAT | O_WRONLY | O_EXCL, 0644)) < 0 ? -1 :
			      write(fd, "made\n", 5));
	if (!strcmp(a, "owner"))
		return result(owner(p));
	if (!strcmp(a, "unlink"))
		return result(unlink(p));
	if (!strcmp(a, "utime"))
		return result(utime(p, NULL));
	if (!strcmp(a, "mkfifo"))
		return result(mkfifo(p, 0600));
	if (!strcmp(a, "bind"))
		return result(bind_at(p));
	if (!strcmp(a, "chmod"))
		return result(chmod(p, (mode_t)strtoul(q, NULL, 8)));
	if (!strcmp(a, "create-mode"))
		return result(open(p, O_CREAT | O_WRONLY | O_EXCL, (mode_t)strtoul(q, NULL, 8)));
	if (!strcmp(a, "link"))
		return result(link(p, q));
	if (!strcmp(a, "rename"))
		return result(rename(p, q));
	if (!strcmp(a, "symlink"))
		return result(symlink(p, q));
	if (!strcmp(a, "umount"))
		return result(umount2(p, MNT_DETACH));
	if (!strcmp(a, "mount"))
		return result(mount("none", p, "tmpfs", 0, NULL));
	if (!strcmp(a, "open-tree"))
		return result(syscall(SYS_open_tree, AT_FDCWD, p, 1 /* OPEN_TREE_CLONE */));
	if (!strcmp(a, "unshare"))
		return result(unshare(CLONE_NEWUSER | CLONE_NEWNS));
	if (!strcmp(a, "setns"))
		return result((fd = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC)) < 0 ? -1 :
			      setns(fd, CLONE_NEWNS));
	if (!strcmp(a, "dumpable"))
		return printf("%d\n", prctl(PR_GET_DUMPABLE)) < 0;
	if (!strcmp(a, "exec") && argc > 2) {
		argv[1] = argv[0];
		execv(argv[0], argv + 1);
		return result(-1);
	}
	if (!strcmp(a, "sendfd"))
		return result(sendfd(p));
	if (!strcmp(a, "recvfd"))
		return result(recvfd(p));
	if (!strcmp(a, "wait")) {
		printf("ready\n");
		return !fgets(line, sizeof(line), stdin);
	}
	if (!strcmp(a, "proc-root")) {
		char path[4096];

		snprintf(path, sizeof(path), "/proc/%s/root/%s", p, q);
		return result(open(path, O_RDONLY));
	}
	if (!strcmp(a, "ptrace"))
		return result(ptrace(PTRACE_ATTACH, atoi(p), 0, 0));
	fprintf(stderr, "idmap-probe: unknown action \"%s\"\n", a);
	return 2;
}
