// SPDX-License-Identifier: GPL-2.0
/*
 * sysprobe: run under credbox by the host tests. Tries system calls the filters deny and
 * prints one line per call, "name errno-name" or "name ok", then the open fds and ids.
 * With an argument, calls that one system call only (to be killed by the filter).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static void report(const char *name, long r)
{
	if (r >= 0)
		printf("%s ok\n", name);
	else
		printf("%s %s\n", name, strerrorname_np(errno) ? strerrorname_np(errno) : "?");
}

int main(int argc, char **argv)
{
	int fd;

	if (argc > 1 && !strcmp(argv[1], "kill")) {
		syscall(SYS_settimeofday, NULL, NULL);
		printf("still alive\n");
		return 0;
	}
	report("ptrace", ptrace(PTRACE_TRACEME, 0, 0, 0));
	report("prctl_dumpable", prctl(PR_SET_DUMPABLE, 1, 0, 0, 0));
	report("prctl_dumpable_hi", syscall(SYS_prctl, (1UL << 32) | PR_SET_DUMPABLE, 1, 0, 0, 0));
	report("prctl_name", prctl(PR_SET_NAME, "probe", 0, 0, 0));
	report("unshare_user", unshare(CLONE_NEWUSER));
	report("clone3", syscall(SYS_clone3, NULL, 0));
	report("io_uring_setup", syscall(SYS_io_uring_setup, 1, NULL));
	report("bpf", syscall(SYS_bpf, 0, NULL, 0));
	report("userfaultfd", syscall(SYS_userfaultfd, 0));
	report("personality_norandom", personality(ADDR_NO_RANDOMIZE));
	report("personality_query", personality(0xffffffff));
	report("personality_linux", personality(PER_LINUX));
	report("personality_linux32", personality(PER_LINUX32));
	report("personality_bsd", personality(PER_BSD));
	report("personality_query_hi", syscall(SYS_personality, 0x1ffffffffUL));
	report("tiocsti", ioctl(0, TIOCSTI, "x"));
	report("mount", syscall(SYS_mount, "none", "/tmp", "tmpfs", 0, NULL));
	report("keyctl", syscall(SYS_keyctl, 0, 0, 0, 0, 0));
	report("pidfd_getfd", syscall(SYS_pidfd_getfd, 0, 0, 0));
	report("process_vm_readv", syscall(SYS_process_vm_readv, 1, NULL, 0, NULL, 0, 0));
	report("socket", socket(AF_INET, SOCK_STREAM, 0));
	report("fdatasync", fdatasync(1));
	report("getpid", getpid());
	printf("uid %u gid %u\n", getuid(), getgid());
	printf("fds");
	for (fd = 0; fd < 1024; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			printf(" %d", fd);
	printf("\n");
	printf("env CREDBOX_DIRS=%s\n", getenv("CREDBOX_DIRS") ? getenv("CREDBOX_DIRS") : "-");
	{
		char cwd[4096];
		mode_t mask = umask(0);
		pid_t pgrp;

		printf("cwd %s\n", getcwd(cwd, sizeof(cwd)) ? cwd : "?");
		printf("umask %04o\n", (unsigned)mask);
		printf("session %s\n", getsid(0) == getpid() ? "own" : "inherited");
		/* fd 0 a terminal: is it the controlling one (TIOCGPGRP answers only for that)? */
		if (isatty(0))
			printf("tty %s\n", ioctl(0, TIOCGPGRP, &pgrp) == 0 ? "controlling" :
			       "not controlling");
	}
	return 0;
}
