// SPDX-License-Identifier: GPL-2.0
/* privdrop: see privdrop.h. */
#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cap-ng.h>

#include "plan.h"
#include "privdrop.h"

/* e: the errno of the call named by step, or 0 for a check that found something wrong. */
static int fail(struct failure *err, const char *step, int e)
{
	return e ? failure_set(err, -e, NULL, "%s: %s", step, strerror(e)) :
		   failure_set(err, 0, NULL, "%s", step);
}

/*
 * The bounding set, every capability the kernel knows (EINVAL past the last): with it empty,
 * no execve of a file-capability program can raise anything, whatever else goes wrong. Each
 * is dropped without asking first whether it is there (a drop of one that is not succeeds):
 * one call a capability, not two. Needs CAP_SETPCAP, so it runs while still root.
 */
static int drop_bounding_set(void)
{
	unsigned long cap;

	for (cap = 0; cap < 64; cap++) {
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0)
			return errno == EINVAL && cap > 0 ? 0 : -errno;
	}
	return 0;
}

int privdrop_apply(const struct plan_ident *id, struct failure *err)
{
	int e;

	/*
	 * Root's uid must never bring capabilities back (a later execve of anything as uid 0,
	 * or ambient capabilities): lock those securebits while we still have CAP_SETPCAP.
	 */
	if (prctl(PR_SET_SECUREBITS, SECBIT_NOROOT | SECBIT_NOROOT_LOCKED |
		  SECBIT_NO_CAP_AMBIENT_RAISE | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED, 0, 0, 0) < 0)
		return fail(err, "prctl(PR_SET_SECUREBITS)", errno);
	/* Supplementary groups first: root's groups (disk, shadow ...) must not stay. */
	if (setgroups(id->ngroups, id->groups) < 0)
		return fail(err, "setgroups", errno);
	/*
	 * The bounding and ambient sets here, with plain prctls: libcap-ng's own way
	 * (CAPNG_CLEAR_BOUNDING) reads /proc/PID/status three times, about 0.1 ms each, to
	 * learn what these calls tell for free.
	 */
	e = drop_bounding_set();
	if (e)
		return fail(err, "prctl(PR_CAPBSET_DROP)", -e);
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0)
		return fail(err, "prctl(PR_CAP_AMBIENT_CLEAR_ALL)", errno);
	/*
	 * gids and uids, then the effective, permitted and inheritable sets emptied: after
	 * this no capability is left to undo any of the above.
	 */
	capng_clear(CAPNG_SELECT_BOTH);
	if (capng_change_id(id->uid, id->gid, CAPNG_NO_FLAG) < 0)
		return fail(err, "libcap-ng could not change the ids and clear capabilities", 0);
	/* No setuid or file-capability program can give privilege back. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return fail(err, "prctl(PR_SET_NO_NEW_PRIVS)", errno);
	/* Processes of the same uid cannot ptrace us or read /proc/PID/{mem,fd}. */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return fail(err, "prctl(PR_SET_DUMPABLE)", errno);
	return privdrop_verify(id, err);
}

static int groups_match(const struct plan_ident *id)
{
	gid_t list[IDENT_MAX_GROUPS + 1];
	int n = getgroups(IDENT_MAX_GROUPS + 1, list), i;
	size_t j;

	if (n < 0 || (size_t)n != id->ngroups)
		return 0;
	for (i = 0; i < n; i++) {
		for (j = 0; j < id->ngroups && id->groups[j] != list[i]; j++)
			;
		if (j == id->ngroups)
			return 0;
	}
	return 1;
}

/* The capability sets, as the kernel holds them: capget itself. 0 or -errno. */
static int read_caps(struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3])
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };

	return syscall(SYS_capget, &hdr, data) < 0 ? -errno : 0;
}

int privdrop_capable(int cap)
{
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	int e = read_caps(data);

	return e ? e : !!(data[CAP_TO_INDEX(cap)].effective & CAP_TO_MASK(cap));
}

/*
 * 1 if the effective, permitted and inheritable sets are all empty, 0 if not, -1 if they
 * cannot be read: capget itself, not libcap-ng's record of what it meant to set.
 */
static int caps_empty(void)
{
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	int i;

	if (read_caps(data))
		return -1;
	for (i = 0; i < _LINUX_CAPABILITY_U32S_3; i++) {
		if (data[i].effective || data[i].permitted || data[i].inheritable)
			return 0;
	}
	return 1;
}

int privdrop_verify(const struct plan_ident *id, struct failure *err)
{
	uid_t ru, eu, su;
	gid_t rg, eg, sg;
	unsigned long cap;
	int e;

	if (getresuid(&ru, &eu, &su) < 0 || ru != id->uid || eu != id->uid || su != id->uid)
		return fail(err, "the uids read back are not the plan's", 0);
	if ((uid_t)setfsuid(-1) != id->uid)
		return fail(err, "the fsuid read back is not the plan's", 0);
	if (getresgid(&rg, &eg, &sg) < 0 || rg != id->gid || eg != id->gid || sg != id->gid)
		return fail(err, "the gids read back are not the plan's", 0);
	if ((gid_t)setfsgid(-1) != id->gid)
		return fail(err, "the fsgid read back is not the plan's", 0);
	if (!groups_match(id))
		return fail(err, "the groups read back are not the plan's", 0);
	e = caps_empty();
	if (e <= 0)
		return fail(err, e ? "the capabilities cannot be read back" : "capabilities remain",
			    0);
	/*
	 * The ambient set is not read cap by cap: the kernel keeps it within permitted and
	 * inheritable, which caps_empty read empty (and PR_CAP_AMBIENT_CLEAR_ALL cleared it).
	 */
	for (cap = 0; cap < 64; cap++) {
		int in_bset = prctl(PR_CAPBSET_READ, cap, 0, 0, 0);

		if (in_bset < 0)
			break;	/* past the last capability this kernel knows */
		if (in_bset)
			return fail(err, "the capability bounding set is not empty", 0);
	}
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1)
		return fail(err, "no_new_privs is not set", 0);
	if (prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 0)
		return fail(err, "the process is still dumpable", 0);
	/* The proof: getting root back must fail. */
	if (id->uid != 0 && (setresuid(0, 0, 0) == 0 || setuid(0) == 0))
		return fail(err, "setuid(0) still succeeds", 0);
	if (id->gid != 0 && setresgid(0, 0, 0) == 0)
		return fail(err, "setresgid(0, 0, 0) still succeeds", 0);
	return 0;
}
