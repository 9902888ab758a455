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
 *   idmap-probe unshare | dumpable
 *   idmap-probe exec ACTION ARGS...     the same probe again by execve, then ACTION
 *   idmap-probe sendfd DIR              DIR's fd over fd 0 (a unix socket), SCM_RIGHTS
 *   idmap-probe recvfd FILE             an fd from fd 0, then FILE opened beneath it
 *   idmap-probe wait                    "ready", then waits for a line on stdin
 *   idmap-probe proc-root PID PATH      PATH opened beneath /proc/PID/root
 *   idmap-probe ptrace PID              PTRACE_ATTACH
 */
#define _GNU_SOURCE
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
#include <unistd.h>
#include <utime.h>

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

int main(int argc, char **argv)
{
	const char *a = argc > 1 ? argv[1] : "", *p = argc > 2 ? argv[2] : "";
	const char *q = argc > 3 ? argv[3] : "";
	char line[16];
	int fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
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
