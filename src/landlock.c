// SPDX-License-Identifier: GPL-2.0
/* landlock: see landlock.h. Raw syscalls; our own struct so that old headers do not limit us. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "landlock.h"
#include "plan.h"
#include "uapi.h"
#include "util.h"

#define LL_FS_EXECUTE		(1ULL << 0)
#define LL_FS_WRITE_FILE	(1ULL << 1)
#define LL_FS_READ_FILE		(1ULL << 2)
#define LL_FS_READ_DIR		(1ULL << 3)
#define LL_FS_REMOVE_DIR	(1ULL << 4)
#define LL_FS_REMOVE_FILE	(1ULL << 5)
#define LL_FS_MAKE_CHAR		(1ULL << 6)
#define LL_FS_MAKE_DIR		(1ULL << 7)
#define LL_FS_MAKE_REG		(1ULL << 8)
#define LL_FS_MAKE_SOCK		(1ULL << 9)
#define LL_FS_MAKE_FIFO		(1ULL << 10)
#define LL_FS_MAKE_BLOCK	(1ULL << 11)
#define LL_FS_MAKE_SYM		(1ULL << 12)
#define LL_FS_REFER		(1ULL << 13)	/* ABI 2 */
#define LL_FS_TRUNCATE		(1ULL << 14)	/* ABI 3 */
#define LL_FS_IOCTL_DEV		(1ULL << 15)	/* ABI 5 */
#define LL_SCOPE_ABSTRACT_UNIX	(1ULL << 0)	/* ABI 6 */
#define LL_SCOPE_SIGNAL		(1ULL << 1)	/* ABI 6 */
#define LL_RULE_PATH_BENEATH	1
#define LL_CREATE_VERSION	(1U << 0)

struct ll_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;	/* ABI 4 */
	uint64_t scoped;		/* ABI 6 */
};

struct ll_path_beneath {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

/* Rights a non-directory can carry in a rule. */
#define LL_FILE_RIGHTS	(LL_FS_EXECUTE | LL_FS_WRITE_FILE | LL_FS_READ_FILE | LL_FS_TRUNCATE | \
			 LL_FS_IOCTL_DEV)

static const struct landlock_gap gaps[] = {
	{ 2, "REFER", "files cannot be linked or renamed between directories at all" },
	{ 3, "TRUNCATE", "O_TRUNC and truncate(2) are not restricted: read-only grants are "
	  "refused" },
	{ 4, "network rules", "(credbox does not use them)" },
	{ 5, "IOCTL_DEV", "ioctl on device files is not restricted by Landlock" },
	{ 6, "scopes", "signals and abstract unix sockets can reach processes outside" },
};

int landlock_abi(void)
{
	long v = syscall(SYS_landlock_create_ruleset, NULL, 0, LL_CREATE_VERSION);

	return v < 0 ? -errno : (int)v;
}

int landlock_missing(int abi, size_t i, struct landlock_gap *out)
{
	size_t k, seen = 0;

	for (k = 0; k < ARRAY_SIZE(gaps); k++) {
		if (gaps[k].abi <= abi)
			continue;
		if (seen++ == i) {
			*out = gaps[k];
			return 0;
		}
	}
	return -ENOENT;
}

int landlock_enforces_ro(int abi)
{
	return abi >= 3;
}

uint64_t landlock_handled_fs(int abi)
{
	uint64_t fs = (LL_FS_MAKE_SYM << 1) - 1;

	if (abi >= 2)
		fs |= LL_FS_REFER;
	if (abi >= 3)
		fs |= LL_FS_TRUNCATE;
	if (abi >= 5)
		fs |= LL_FS_IOCTL_DEV;
	return fs;
}

uint64_t landlock_access_ro(int abi, int exec)
{
	return (LL_FS_READ_FILE | LL_FS_READ_DIR | (exec ? LL_FS_EXECUTE : 0)) &
	       landlock_handled_fs(abi);
}

uint64_t landlock_access_rw(int abi)
{
	/* Everything but execute and making device nodes (mknod needs a capability anyway). */
	return (LL_FS_IOCTL_DEV | LL_FS_READ_FILE | LL_FS_READ_DIR | LL_FS_WRITE_FILE |
		LL_FS_REMOVE_DIR | LL_FS_REMOVE_FILE | LL_FS_MAKE_DIR | LL_FS_MAKE_REG |
		LL_FS_MAKE_SOCK | LL_FS_MAKE_FIFO | LL_FS_MAKE_SYM | LL_FS_REFER | LL_FS_TRUNCATE) &
	       landlock_handled_fs(abi);
}

static int add_rule(int ruleset, int fd, uint64_t access)
{
	struct ll_path_beneath pb = { .allowed_access = access, .parent_fd = fd };
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		pb.allowed_access &= LL_FILE_RIGHTS;
	if (syscall(SYS_landlock_add_rule, ruleset, LL_RULE_PATH_BENEATH, &pb, 0) < 0)
		return -errno;
	return 0;
}

static int add_path(int ruleset, const struct plan_path *p, int abi, const char **failed)
{
	int fd = open(p->path, O_PATH | O_CLOEXEC);
	int err;

	if (fd < 0) {
		err = -errno;
		if (p->optional && err == -ENOENT)
			return 0;
		*failed = p->path;
		return err;
	}
	err = add_rule(ruleset, fd, p->rw ? landlock_access_rw(abi) :
			landlock_access_ro(abi, 1));
	close(fd);
	if (err)
		*failed = p->path;
	return err;
}

int landlock_apply(const struct plan *plan, const int *dir_fds, const char **failed_path)
{
	struct ll_ruleset_attr attr = { 0 };
	size_t i, size = sizeof(attr);
	int abi = landlock_abi(), ruleset, err = 0;

	*failed_path = NULL;
	if (abi < 0)
		return -EOPNOTSUPP;
	attr.handled_access_fs = landlock_handled_fs(abi);
	if (abi >= 6)
		attr.scoped = LL_SCOPE_ABSTRACT_UNIX | LL_SCOPE_SIGNAL;
	else
		size = offsetof(struct ll_ruleset_attr, scoped);
	if (abi < 4)
		size = offsetof(struct ll_ruleset_attr, handled_access_net);
	ruleset = syscall(SYS_landlock_create_ruleset, &attr, size, 0);
	if (ruleset < 0)
		return -errno;
	for (i = 0; !err && i < plan->ndirs; i++) {
		uint64_t access = plan->dirs[i].rw ? landlock_access_rw(abi) :
				  landlock_access_ro(abi, 0);

		/*
		 * Through an ID-mapped grant the program is the tree's owner on disk: a FIFO or
		 * a socket it made there would be its owner's, for anyone to block on or connect
		 * to. (Device nodes need a capability; the mount is nodev besides.)
		 */
		if (plan->dirs[i].idmap)
			access &= ~(LL_FS_MAKE_FIFO | LL_FS_MAKE_SOCK | LL_FS_MAKE_CHAR |
				    LL_FS_MAKE_BLOCK | LL_FS_IOCTL_DEV);
		err = add_rule(ruleset, dir_fds[i], access);
		if (err)
			*failed_path = plan->dirs[i].path;
	}
	for (i = 0; !err && i < plan->npaths; i++)
		err = add_path(ruleset, &plan->paths[i], abi, failed_path);
	if (!err && syscall(SYS_landlock_restrict_self, ruleset, 0) < 0)
		err = -errno;
	close(ruleset);
	return err;
}
