/* SPDX-License-Identifier: GPL-2.0 */
/*
 * session: the program in a session of its own, without a controlling terminal, as bwrap's
 * --new-session does: it cannot open /dev/tty, become the terminal's foreground process
 * group, or be the target of TIOCSTI-like tricks that need a controlling terminal.
 *
 * setsid(2) is refused to a process group leader, which credbox is whenever an interactive
 * shell starts it as a job. Then credbox forks once, before anything else changes: the child
 * becomes the new session's leader and goes on to run the program, and the parent does
 * nothing but wait for it, forwarding the signals that a terminal or the caller sends to
 * the pid they know, and then ends as the child ended.
 */
#ifndef CREDBOX_SESSION_H
#define CREDBOX_SESSION_H

#include <sys/types.h>

/*
 * Become the leader of a new session. 0 in the process that goes on to run the program;
 * 1 in a parent that must wait for *child with session_wait; -errno.
 */
int session_new(pid_t *child);

/* The parent's part: forward signals until the child ends; its wait status, or -errno. */
int session_wait(pid_t child);

#endif /* CREDBOX_SESSION_H */
