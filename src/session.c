// SPDX-License-Identifier: GPL-2.0
/* session: a session of its own for the program; see session.h. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "session.h"
#include "util.h"

/* What the parent passes on: a terminal's keys, the caller's kill, a resize. */
static const int forwarded[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGWINCH, SIGCONT,
	SIGTSTP, SIGTTIN, SIGTTOU,
};

static void forwarded_set(sigset_t *set)
{
	size_t i;

	sigemptyset(set);
	sigaddset(set, SIGCHLD);
	for (i = 0; i < ARRAY_SIZE(forwarded); i++)
		sigaddset(set, forwarded[i]);
}

/* Already alone: the leader of a session without a controlling terminal (setsid -w). */
static int alone(void)
{
	int fd;

	if (getsid(0) != getpid())
		return 0;
	fd = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno == ENXIO;
}

int session_new(pid_t *child)
{
	sigset_t set, old;
	pid_t pid;

	if (alone())
		return 0;
	if (getpgrp() != getpid())
		return setsid() < 0 ? -errno : 0;
	/* Blocked before the fork, so that none arrives before the parent waits for it. */
	forwarded_set(&set);
	if (sigprocmask(SIG_BLOCK, &set, &old) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return -errno;
	}
	if (pid > 0) {
		*child = pid;
		return 1;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return setsid() < 0 ? -errno : 0;
}

int session_wait(pid_t child)
{
	siginfo_t info;
	sigset_t set;
	int sig, status;

	forwarded_set(&set);
	for (;;) {
		sig = sigwaitinfo(&set, &info);
		if (sig < 0 && errno != EINTR)
			return -errno;
		if (sig == SIGCHLD) {
			pid_t r = waitpid(child, &status, WNOHANG);

			if (r == child)
				return status;
			if (r < 0)
				return -errno;
		} else if (sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU) {
			/* ^Z: the job stops, the program with it; SIGCONT resumes both. */
			kill(child, SIGSTOP);
			raise(SIGSTOP);
		} else if (sig > 0) {
			kill(child, sig);
		}
	}
}
