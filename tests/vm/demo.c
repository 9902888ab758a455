// SPDX-License-Identifier: GPL-2.0
/*
 * credbox-demo: what a program run by credbox can and cannot do, printed
 * plainly. `make run` starts it in the guest through conf/dosemu.ini:
 *
 *	credbox-demo GRANT FILE OUTSIDE
 *
 * GRANT is the name of a granted directory, FILE a file in it to read, and
 * OUTSIDE a path of the same tree as the rest of the system sees it, which
 * the program must not be able to open by itself.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "credbox.h"

static void can(const char *what, const char *detail)
{
	printf("  can     %-44s %s\n", what, detail);
}

/* Report a refusal: OK when the operation failed, a loud FAIL otherwise. */
static int cannot(const char *what, int err)
{
	if (err >= 0) {
		printf("  FAIL    %-44s it worked, and must not\n", what);
		return 1;
	}
	printf("  cannot  %-44s %s\n", what, strerrorname_np(-err) ?: "?");
	return 0;
}

static int ret(int r)
{
	return r < 0 ? -errno : r;
}

static int show_listing(const char *grant)
{
	char line[512] = "";
	struct dirent *de;
	DIR *dir;
	int fd;

	fd = credbox_openat(grant, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	if (fd < 0 || !(dir = fdopendir(fd))) {
		printf("  FAIL    list %s: %s\n", grant, credbox_strerror(fd < 0 ? fd : -errno));
		return 1;
	}
	while ((de = readdir(dir)))
		if (de->d_name[0] != '.' && strlen(line) + strlen(de->d_name) + 2 < sizeof(line))
			strcat(strcat(line, de->d_name), " ");
	closedir(dir);
	can("list the drive", line);
	return 0;
}

static int show_read(const char *grant, const char *file)
{
	char buf[64] = "", what[96];
	ssize_t n;
	int fd;

	fd = credbox_openat(grant, file, O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0) {
		printf("  FAIL    read %s: %s\n", file, credbox_strerror(fd));
		return 1;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	snprintf(what, sizeof(what), "read %s", file);
	can(what, buf);
	return 0;
}

static int show_create(const char *grant)
{
	static const char text[] = "written from inside the sandbox\n";
	char detail[96];
	struct stat st;
	int fd;

	fd = credbox_openat(grant, "NEWFILE.TXT", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
	if (fd < 0 || write(fd, text, sizeof(text) - 1) != sizeof(text) - 1 || fstat(fd, &st)) {
		printf("  FAIL    create NEWFILE.TXT: %s\n", credbox_strerror(fd < 0 ? fd : -errno));
		return 1;
	}
	close(fd);
	snprintf(detail, sizeof(detail), "owned by uid %u gid %u, the drive's owner",
		 st.st_uid, st.st_gid);
	can("create and write NEWFILE.TXT", detail);
	return 0;
}

static int send_fd(int fd)
{
	char data = '.', ctl[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec io = { .iov_base = &data, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &io, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof(ctl),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
	int sv[2], r;

	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	r = ret(sendmsg(sv[0], &msg, 0));
	close(sv[0]);
	close(sv[1]);
	return r;
}

int main(int argc, char **argv)
{
	const char *grant, *file, *outside;
	char path[4096];
	int dirfd, bad = 0;
	gid_t groups[16];
	int ngroups;

	if (argc != 4) {
		fprintf(stderr, "usage: %s GRANT FILE OUTSIDE\n", argv[0]);
		return 2;
	}
	grant = argv[1], file = argv[2], outside = argv[3];
	dirfd = credbox_dir(grant);
	if (dirfd < 0) {
		fprintf(stderr, "credbox-demo: %s: %s\n", grant, credbox_strerror(dirfd));
		return 1;
	}
	ngroups = getgroups(16, groups);
	printf("credbox-demo: uid %u gid %u, %d supplementary group(s); %s is fd %d\n",
	       getuid(), getgid(), ngroups, grant, dirfd);

	printf("Inside the granted directory, with its owner's credentials:\n");
	bad += show_listing(grant);
	bad += show_read(grant, file);
	bad += show_create(grant);

	printf("Everything else:\n");
	snprintf(path, sizeof(path), "%s/%s", outside, file);
	bad += cannot("open the same file by its path", ret(open(path, O_RDONLY)));
	bad += cannot("open ../ out of the drive", credbox_openat(grant, "../x", O_RDONLY, 0));
	bad += cannot("open an absolute path", credbox_openat(grant, "/etc/passwd", O_RDONLY, 0));
	bad += cannot("follow a symlink out of the drive",
		      credbox_openat(grant, "ESCAPE/passwd", O_RDONLY, 0));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", dirfd);
	bad += cannot("reopen the drive through /proc/self/fd", ret(open(path, O_RDONLY)));
	bad += cannot("open /etc/passwd (outside every grant)",
		      ret(open("/etc/passwd", O_RDONLY)));
	bad += cannot("send the drive's fd to another process", send_fd(dirfd));
	bad += cannot("make the process dumpable (ptrace-able)",
		      ret(prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)));
	bad += cannot("become root again", ret(setuid(0)));
	printf(bad ? "credbox-demo: %d check(s) FAILED\n" : "credbox-demo: all checks passed\n",
	       bad);
	return bad ? 1 : 0;
}
