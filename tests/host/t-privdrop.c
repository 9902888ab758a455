// SPDX-License-Identifier: GPL-2.0
/* t-privdrop: the privilege drop, in forked children, as root. TAP. */
#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plan.h"
#include "privdrop.h"
#include "tap.h"

/* Run fn in a child; its exit status is the result (0: passed). */
static int in_child(int (*fn)(void *), void *arg)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();

	if (pid == 0) {
		int r = fn(arg);

		fflush(stdout);
		_exit(r);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static struct plan_ident target = { .uid = 65534, .gid = 65533, .groups = { 65532, 4242 },
				    .ngroups = 2 };

static int drop_and_check(void *arg)
{
	struct failure err;
	unsigned long cap;
	int in_bset;

	int e = privdrop_apply(&target, &err);

	if (e) {
		printf("# privdrop_apply: %s\n", err.msg);
		return 10;
	}
	/* the module's own read-back passed; check a few things independently */
	if (getuid() != 65534 || geteuid() != 65534 || getgid() != 65533)
		return 11;
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1 || prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 0)
		return 12;
	for (cap = 0; (in_bset = prctl(PR_CAPBSET_READ, cap, 0, 0, 0)) >= 0; cap++) {
		if (in_bset)
			return 13;	/* every capability out of the bounding set, the last too */
	}
	if (cap < 38)
		return 16;	/* the loop must have read them all: 6.12 knows 41 */
	if (setuid(0) == 0 || errno != EPERM)
		return 14;
	if (chroot("/") == 0)
		return 15;	/* CAP_SYS_CHROOT would allow it */
	return 0;
}

static int verify_as_root(void *arg)
{
	struct failure err;

	/* still root with every capability: the read-back must refuse */
	return privdrop_verify(&target, &err) == 0 ? 1 : 0;
}

static int verify_partial(void *arg)
{
	struct failure err;
	struct plan_ident self = { .uid = 0, .gid = 0 };

	/* ids right but capabilities kept: must be refused, naming the capabilities */
	if (setgroups(0, NULL) < 0)
		return 2;
	if (privdrop_verify(&self, &err) == 0)
		return 1;
	return 0;
}

/*
 * Become target by hand, the way a careless drop would: groups, gids, uids (the kernel then
 * empties effective and permitted), no_new_privs, not dumpable. What stays: the inheritable
 * set and the bounding set, unless the caller clears them first.
 */
static int careless_drop(void)
{
	if (setgroups(target.ngroups, target.groups) < 0 ||
	    setresgid(target.gid, target.gid, target.gid) < 0 ||
	    setresuid(target.uid, target.uid, target.uid) < 0)
		return -1;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return -1;
	return 0;
}

static int drop_bounding(void)
{
	unsigned long cap;

	for (cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; cap++) {
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0)
			return -1;
	}
	return 0;
}

static int verify_bounding_left(void *arg)
{
	struct failure err;

	/* every id right, no capability, but the bounding set still full */
	if (careless_drop() < 0)
		return 2;
	return privdrop_verify(&target, &err) == 0 ? 1 : 0;
}

static int verify_inheritable_left(void *arg)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	struct failure err;

	/* CAP_CHOWN inheritable (setuid does not clear it), bounding set empty */
	if (syscall(SYS_capget, &hdr, data) < 0)
		return 2;
	data[0].inheritable |= 1u << CAP_CHOWN;
	if (syscall(SYS_capset, &hdr, data) < 0 || drop_bounding() < 0 || careless_drop() < 0)
		return 3;
	if (syscall(SYS_capget, &hdr, data) < 0 || data[0].inheritable != 1u << CAP_CHOWN ||
	    data[0].permitted)
		return 4;	/* the setup is not what the test means */
	return privdrop_verify(&target, &err) == 0 ? 1 : 0;
}

static int verify_careful(void *arg)
{
	struct failure err;

	/* the same by hand, done right: the read-back must accept it */
	if (drop_bounding() < 0 || careless_drop() < 0)
		return 2;
	if (privdrop_verify(&target, &err)) {
		printf("# %s\n", err.msg);
		return 1;
	}
	return 0;
}

int main(void)
{
	if (geteuid() != 0) {
		tap_skip("privilege drop", "needs root");
		return tap_done();
	}
	int r = in_child(drop_and_check, NULL);

	if (r)
		printf("# child: %d\n", r);
	tap_ok(r == 0,
	       "drop to 65534:65533 +groups: ids, no caps, empty bounding set, nnp, not dumpable, "
	       "root does not come back");
	tap_ok(in_child(verify_as_root, NULL) == 0, "the read-back refuses a process still root");
	tap_ok(in_child(verify_partial, NULL) == 0,
	       "the read-back refuses right ids with capabilities left");
	tap_ok(in_child(verify_bounding_left, NULL) == 0,
	       "the read-back refuses a bounding set left full");
	tap_ok(in_child(verify_inheritable_left, NULL) == 0,
	       "the read-back refuses an inheritable capability left (setuid keeps it)");
	tap_ok(in_child(verify_careful, NULL) == 0,
	       "the read-back accepts a drop done right by hand");
	return tap_done();
}
