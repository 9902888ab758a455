/* SPDX-License-Identifier: GPL-2.0 */
/*
 * preopen: open each granted directory with O_CRED_ALLOW as its owner, check that it hands
 * out no more than the admin meant, and place the fds at their numbers.
 *
 * What is checked, for each directory (credbox.ini(5) says why):
 *  - it is opened by openat2(2) with the owner's fsuid, fsgid and groups (root's capabilities
 *    do not take part in the permission checks of the walk), refusing magic links always
 *    and symbolic links unless the profile trusts them;
 *  - the lent fd of an access = ro grant lends for reading only (OA2_CRED_RDONLY): the kernel
 *    refuses every change through it (EROFS), whatever Landlock can express;
 *  - it is a directory, and not on a pseudo file system (statfs f_type: proc, sysfs,
 *    cgroup/cgroup2, debugfs, tracefs, securityfs, bpf, configfs, devpts, ...);
 *  - fs.protected_hardlinks is 1, so nobody can hard-link into the tree a file they could
 *    not already read and write;
 *  - every directory of the tree, the top included, can be changed by its owner alone, so
 *    that nobody else (the sandbox, another process of its uid, a third user) can plant
 *    hard links, symlinks or FUSE mounts in it: owned by the [dir] owner or by root, not
 *    writable by its group or by others (with a POSIX ACL the group bits are its mask, so
 *    this covers every named entry), and no default ACL giving anyone else write in what
 *    is created there;
 *  - no directory of the tree is a mount point (statx mount id differs from the top's):
 *    what is granted is one file system tree, as the admin saw it;
 *  - nothing in it but files, directories and symbolic links: no device node (a disk
 *    opened through the fd would use the owner's groups) unless the file system is mounted
 *    nodev, no FIFO or socket, and no set-user-ID or set-group-ID program unless it is
 *    mounted nosuid.
 * The walk visits every entry once, as root, by fd (nothing it meets is opened but
 * directories, O_NOFOLLOW), and stops at PREOPEN_MAX_TREE_ENTRIES entries or
 * PREOPEN_MAX_DEPTH levels: a larger tree is refused, not half checked.
 */
#ifndef CREDBOX_PREOPEN_H
#define CREDBOX_PREOPEN_H

#include <stddef.h>
#include <sys/types.h>

#include "failure.h"
#include "plan.h"

#define PREOPEN_MAX_TREE_ENTRIES	100000
#define PREOPEN_MAX_DEPTH	128

/* The running kernel supports O_CRED_ALLOW: 0; -EOPNOTSUPP if openat2 refuses it; -errno. */
int preopen_probe(void);
/* The running kernel has the directory operations (AT_CRED_INHERIT): 0; -EOPNOTSUPP; -errno. */
int preopen_probe_dirops(void);
/* The running kernel lends for reading only (OA2_CRED_RDONLY): 0; -EOPNOTSUPP; -errno. */
int preopen_probe_rdonly(void);
/*
 * The running kernel lends fchmodat2, utimensat, linkat and symlinkat2 (AT_CRED_INHERIT, patches
 * 13-16): 0; -EOPNOTSUPP with *missing the first call that refuses the flag; -errno.
 */
int preopen_probe_treeops(const char **missing);

/* Saved fs credentials while acting as another identity. */
struct preopen_fscred {
	uid_t fsuid;
	gid_t fsgid;
	gid_t groups[IDENT_MAX_GROUPS + 64];
	int ngroups;
};

/* Take on id's fsuid, fsgid and groups for permission checks; leave restores. 0 or -errno. */
int preopen_become(const struct plan_ident *id, struct preopen_fscred *saved);
int preopen_leave(const struct preopen_fscred *saved);

/*
 * Open and check one directory; *fd: an O_CLOEXEC fd (any number), lent with O_CRED_ALLOW,
 * or for an ID-mapped grant (dir->idmap) the plain fd that was checked. 0 or -errno, with err
 * saying "PATH: the problem" (PATH: the granted path, or the entry of its tree at fault).
 */
int preopen_dir(const struct plan_dir *dir, const struct plan_ident *sandbox, int *fd,
		struct failure *err);

/*
 * The same opens and checks, without O_CRED_ALLOW: nothing lent, nothing kept (--check, which
 * checks the trees on a kernel without the flag too). 0 or -errno, with err as above.
 */
int preopen_dir_check(const struct plan_dir *dir, const struct plan_ident *sandbox,
		      struct failure *err);

/* The checks alone, on a directory fd opened some other way (host tests). 0 or -errno. */
int preopen_check(const struct plan_dir *dir, const struct plan_ident *sandbox, int fd,
		  struct failure *err);
/* The same with another bound on the entries walked (tests, benchmark). */
int preopen_check_bounded(const struct plan_dir *dir, const struct plan_ident *sandbox, int fd,
			  size_t max_entries, struct failure *err);

/* fs.protected_hardlinks is 1: 0, -EPERM if not, -errno if it cannot be read. */
int preopen_hardlinks_protected(void);

/*
 * Move fds[i] to plan->dirs[i].fd (O_CLOEXEC), then close every fd but 0, 1, 2 and those, and
 * *keep (unless NULL or -1), moved off the targets' numbers if it sat on one. 0 or -errno.
 */
int preopen_place(const struct plan *plan, int *fds, int *keep);

#endif /* CREDBOX_PREOPEN_H */
