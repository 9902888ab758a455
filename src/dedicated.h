/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dedicated: a user of credbox's alone, held for one run. An ID-mapped grant's rights go with
 * the sandboxed uid and the mount, not with the process (credbox.ini(5), SECURITY): any other
 * process of that uid that got hold of the mount (a directory fd passed over a socket) would
 * use the tree as its owner. So the profile says the user is credbox's alone
 * ([identity] dedicated = yes), and each run checks what it can of that word: no process of
 * the system that runs code of its own (a kernel thread has none) has the uid as its real,
 * effective, saved or fs uid when the run takes it, and two
 * runs never take it at once (a lock held from that check until the uid is the program's,
 * after which the next run's check sees it).
 */
#ifndef CREDBOX_DEDICATED_H
#define CREDBOX_DEDICATED_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Take the lock of uid (DEDICATED_LOCK_DIR/uid-N.lock, made by root, mode 0600), then look
 * for a process that has uid: 0 and *lock_fd (hold it until the privileges are dropped, then
 * close it), -EBUSY with *pid the first process found, -EWOULDBLOCK if another run holds the
 * lock, -errno.
 */
int dedicated_claim(uid_t uid, int *lock_fd, pid_t *pid);

/*
 * A process (other than the caller) with a user address space and uid as any of its four uids:
 * 1 and *pid, 0, -errno.
 */
int dedicated_in_use(uid_t uid, pid_t *pid);

/*
 * user = dynamic:FIRST-LAST: the lowest uid of the range that dedicated_claim takes: 0 with
 * *uid and *lock_fd (held as dedicated_claim's), -EBUSY if every uid of it is held or used,
 * -EEXIST with *uid if the one taken has an account (the range is not credbox's), -errno.
 */
int dedicated_take(uid_t first, uid_t last, uid_t *uid, int *lock_fd);

#define DEDICATED_LOCK_DIR	"/run/credbox"

#endif /* CREDBOX_DEDICATED_H */
