// SPDX-License-Identifier: GPL-2.0
/*
 * credbox-demo: what a program run by credbox can and cannot do, printed
 * plainly. `make run` starts it in the guest through conf/dosemu.ini:
 *
 *	credbox-demo GRANT FILE OUTSIDE [RO_GRANT]
 *
 * GRANT is the name of a granted directory, FILE a file in it to read, and
 * OUTSIDE a path of the same tree as the rest of the system sees it, which
 * the program must not be able to open by itself. RO_GRANT, if given, names
 * a read-only grant, in which creating a file must fail.
 *
 * Each refusal is tried in a child process: under an allow-list profile the
 * seccomp filter may kill the caller (SIGSYS), which is a refusal too, and
 * the demo goes on to show the next one.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "credbox.h"

static void can(const char *what, const char *detail)
{
	printf("  can     %-44s %s\n", what, detail);
}

/*
 * Run PROBE(ARG) in a child and report a refusal: OK when it failed with an
 * errno or the child was killed by a signal (the filter), a loud FAIL when it
 * worked. The child exits with the errno, 0 for success.
 */
static int cannot(const char *what, int (*probe)(const void *), const void *arg)
{
	int status, r;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		r = probe(arg);
		_exit(r >= 0 ? 0 : (-r > 255 ? 255 : -r));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		printf("  FAIL    %-44s could not run the check\n", what);
		return 1;
	}
	if (WIFSIGNALED(status)) {
		printf("  cannot  %-44s SIG%s%s\n", what, sigabbrev_np(WTERMSIG(status)) ?: "?",
		       WTERMSIG(status) == SIGSYS ? ": the seccomp filter kills the program" : "");
		return 0;
	}
	if (WEXITSTATUS(status) == 0) {
		printf("  FAIL    %-44s it worked, and must not\n", what);
		return 1;
	}
	printf("  cannot  %-44s %s\n", what, strerrorname_np(WEXITSTATUS(status)) ?: "?");
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

/* The probes, each run in a child by cannot(); ARG is a path or an fd. */
static int probe_open(const void *path)
{
	return ret(open(path, O_RDONLY | O_CLOEXEC));
}

static int probe_openat(const void *path)
{
	return credbox_openat(getenv("DEMO_GRANT"), path, O_RDONLY | O_CLOEXEC, 0);
}

static int probe_create(const void *grant)
{
	return credbox_openat(grant, "NEWFILE.TXT", O_WRONLY | O_CREAT | O_CLOEXEC, 0640);
}

static int probe_send_fd(const void *fdp)
{
	char data = '.', ctl[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec io = { .iov_base = &data, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &io, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof(ctl),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), fdp, sizeof(int));
	return ret(sendmsg(sv[0], &msg, 0));
}

static int probe_dumpable(const void *unused)
{
	return ret(prctl(PR_SET_DUMPABLE, 1, 0, 0, 0));
}

static int probe_setuid(const void *unused)
{
	return ret(setuid(0));
}

int main(int argc, char **argv)
{
	const char *grant, *file, *outside, *ro_grant;
	char path[4096], fdpath[64];
	int dirfd, bad = 0;
	gid_t groups[16];
	int ngroups;

	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: %s GRANT FILE OUTSIDE [RO_GRANT]\n", argv[0]);
		return 2;
	}
	grant = argv[1], file = argv[2], outside = argv[3];
	ro_grant = argc == 5 ? argv[4] : NULL;
	dirfd = credbox_dir(grant);
	if (dirfd < 0) {
		fprintf(stderr, "credbox-demo: %s: %s\n", grant, credbox_strerror(dirfd));
		return 1;
	}
	/* The child probes find the grant here; nothing else reads it. */
	setenv("DEMO_GRANT", grant, 1);
	ngroups = getgroups(16, groups);
	printf("credbox-demo: uid %u gid %u, %d supplementary group(s); %s is fd %d\n",
	       getuid(), getgid(), ngroups, grant, dirfd);

	printf("Inside the granted directory, with its owner's credentials:\n");
	bad += show_listing(grant);
	bad += show_read(grant, file);
	bad += show_create(grant);

	printf("Everything else:\n");
	snprintf(path, sizeof(path), "%s/%s", outside, file);
	bad += cannot("open the same file by its path", probe_open, path);
	bad += cannot("open ../ out of the drive", probe_openat, "../x");
	bad += cannot("open an absolute path", probe_openat, "/etc/passwd");
	bad += cannot("follow a symlink out of the drive", probe_openat, "ESCAPE/passwd");
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", dirfd);
	bad += cannot("reopen the drive through /proc/self/fd", probe_open, fdpath);
	bad += cannot("open /etc/passwd (outside every grant)", probe_open, "/etc/passwd");
	if (ro_grant) {
		char what[96];

		snprintf(what, sizeof(what), "create a file in %s (read-only grant)", ro_grant);
		bad += cannot(what, probe_create, ro_grant);
	}
	bad += cannot("send the drive's fd to another process", probe_send_fd, &dirfd);
	bad += cannot("make the process dumpable (ptrace-able)", probe_dumpable, NULL);
	bad += cannot("become root again", probe_setuid, NULL);
	printf(bad ? "credbox-demo: %d check(s) FAILED\n" : "credbox-demo: all checks passed\n",
	       bad);
	return bad ? 1 : 0;
}
