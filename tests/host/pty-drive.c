// SPDX-License-Identifier: GPL-2.0
/*
 * pty-drive: run a command on a new pseudo-terminal, as its controlling terminal, and drive
 * it from a script, as a user at the keyboard would (the job control tests, jobctl.t).
 *
 *   pty-drive [-t SECONDS] -- COMMAND [ARG...] <SCRIPT
 *
 * SCRIPT has one step a line:
 *   send TEXT      write TEXT to the terminal; \n, \r, \\ and \xHH are escapes
 *                  (\x03 is Control-C, \x1a Control-Z)
 *   expect TEXT    wait until the terminal has printed TEXT since the last match
 *                  (SECONDS, default 10); exit 1 if it does not
 * Everything the terminal prints is copied to stdout. At the end the terminal is hung up
 * and COMMAND, if still running, killed. Exit status 0 when every step passed.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct term {
	int master;
	char *out;		/* all output so far */
	size_t len, cap, mark;	/* mark: the end of the last match */
	int hung_up;
};

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

/* Read what the terminal printed, waiting at most ms. -1 on an error of our own. */
static int pump(struct term *t, int ms)
{
	struct pollfd p = { .fd = t->master, .events = POLLIN };
	char buf[4096];
	ssize_t n;

	if (t->hung_up || poll(&p, 1, ms) <= 0)
		return 0;
	n = read(t->master, buf, sizeof(buf));
	if (n <= 0) {
		t->hung_up = 1;		/* EIO: every process let go of the terminal */
		return 0;
	}
	if (t->len + n > t->cap) {
		size_t cap = (t->len + n) * 2;
		char *nb = realloc(t->out, cap);

		if (!nb)
			return -1;
		t->out = nb;
		t->cap = cap;
	}
	memcpy(t->out + t->len, buf, n);
	t->len += n;
	fwrite(buf, 1, n, stdout);
	fflush(stdout);
	return 0;
}

static int expect(struct term *t, const char *text, int seconds)
{
	long end = now_ms() + seconds * 1000L;
	size_t want = strlen(text);

	for (;;) {
		char *hit = t->len > t->mark ?
			    memmem(t->out + t->mark, t->len - t->mark, text, want) : NULL;

		if (hit) {
			t->mark = hit - t->out + want;
			return 0;
		}
		if (now_ms() >= end || t->hung_up || pump(t, (int)(end - now_ms())) < 0)
			return -1;
	}
}

/* TEXT with its escapes, in place; the new length. */
static size_t unescape(char *s)
{
	char *o = s, *p = s;

	while (*p) {
		if (p[0] != '\\' || !p[1]) {
			*o++ = *p++;
		} else if (p[1] == 'x' && p[2] && p[3]) {
			char hex[3] = { p[2], p[3], 0 };

			*o++ = (char)strtol(hex, NULL, 16);
			p += 4;
		} else {
			*o++ = p[1] == 'n' ? '\n' : p[1] == 'r' ? '\r' : p[1];
			p += 2;
		}
	}
	return o - s;
}

static pid_t spawn(char **argv, int *master)
{
	const char *name;
	pid_t pid;
	int slave;

	*master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (*master < 0 || grantpt(*master) || unlockpt(*master) || !(name = ptsname(*master)))
		return -1;
	pid = fork();
	if (pid)
		return pid;
	/* A session of its own, the terminal its controlling one: a login, in short. */
	if (setsid() < 0 || (slave = open(name, O_RDWR)) < 0 ||
	    ioctl(slave, TIOCSCTTY, 0) < 0 || dup2(slave, 0) < 0 || dup2(slave, 1) < 0 ||
	    dup2(slave, 2) < 0)
		_exit(126);
	if (slave > 2)
		close(slave);
	signal(SIGPIPE, SIG_DFL);
	execvp(argv[0], argv);
	_exit(127);
}

int main(int argc, char **argv)
{
	struct term t = { .master = -1 };
	char line[4096];
	int seconds = 10, status = 0, i = 1, lineno = 0;
	pid_t pid;

	if (argc > 2 && !strcmp(argv[1], "-t")) {
		seconds = atoi(argv[2]);
		i = 3;
	}
	if (i >= argc || strcmp(argv[i], "--") || i + 1 >= argc) {
		fputs("usage: pty-drive [-t SECONDS] -- COMMAND [ARG...] <SCRIPT\n", stderr);
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	pid = spawn(argv + i + 1, &t.master);
	if (pid < 0) {
		perror("pty-drive: the terminal");
		return 2;
	}
	while (!status && fgets(line, sizeof(line), stdin)) {
		char *arg = strchr(line, ' ');

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (arg)
			*arg++ = '\0';
		if (!strcmp(line, "send") && arg) {
			size_t n = unescape(arg);

			if (write(t.master, arg, n) != (ssize_t)n)
				status = 1;
		} else if (!strcmp(line, "expect") && arg) {
			if (expect(&t, arg, seconds) < 0) {
				fprintf(stderr, "pty-drive: line %d: no \"%s\" within %d s\n",
					lineno, arg, seconds);
				status = 1;
			}
		} else if (*line && *line != '#') {
			fprintf(stderr, "pty-drive: line %d: unknown step \"%s\"\n", lineno, line);
			status = 2;
		}
	}
	/* Hang up, as a closed terminal window does; then make sure nothing is left. */
	close(t.master);
	for (i = 0; i < 20 && waitpid(pid, NULL, WNOHANG) == 0; i++)
		usleep(50000);
	if (i == 20) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	free(t.out);
	return status;
}
