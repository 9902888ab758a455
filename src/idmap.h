/* SPDX-License-Identifier: GPL-2.0 */
/*
 * idmap: grant trees through ID-mapped mounts, on kernels without O_CRED_ALLOW (issue 23).
 *
 * In credbox's own private mount namespace, while it is still root, a detached clone of each
 * tree (owned by uid O, gid OG) gets MOUNT_ATTR_IDMAP with a user namespace whose maps are
 * "O S 1" and "OG SG 1" (on disk, then seen through the mount: an inode of O shows as S, and
 * what S creates is stored as O), nosuid, nodev, and rdonly for a read-only grant.
 *
 * The program must not reach the tree by its original path: some directory above it is closed
 * to all but root and O (idmap_closed_above checks it, the caller requires it), which is what
 * keeps what S does as O away from everyone else. So the highest ancestor C that S cannot
 * search is covered, in the namespace only, by a small read-only tmpfs (0755 root, nosuid,
 * nodev, noexec) holding just the directories from C down to each tree under it, and the clone
 * is attached on the last one: the tree stays at its own path, and nothing else of C shows.
 * When S can search every ancestor, the clone is attached over the tree itself.
 *
 * Every function returns 0 (or what it says) or -errno, and never prints.
 */
#ifndef CREDBOX_IDMAP_H
#define CREDBOX_IDMAP_H

#include <stddef.h>
#include <sys/types.h>

#include "plan.h"

#define IDMAP_MAX_TREES		64	/* PROFILE_MAX_DIRS */
#define IDMAP_MAX_DEPTH		2048	/* levels above a tree: PATH_MAX / 2 */

struct idmap_ids {
	uid_t disk_uid, run_uid;	/* O, S */
	gid_t disk_gid, run_gid;	/* OG, SG */
};

/* The child that holds a new user namespace while its maps are written, until reaped. */
struct idmap_holder {
	pid_t pid;		/* 0: none */
	void *stack;		/* its stack, freed when it is reaped */
};

/*
 * A user namespace whose uid_map is "disk_uid run_uid 1" and gid_map "disk_gid run_gid 1"
 * (setgroups deny): *userns_fd, O_CLOEXEC. The child that holds it is killed before return,
 * and reaped before return too unless h is not NULL: then the caller reaps it with idmap_reap,
 * once it has done other work while the child exits (it runs no more of its code: SIGKILL
 * ends it in the kernel; its stack is kept until then). Needs CAP_SETUID and CAP_SETGID. The
 * fd may be closed once mount_setattr has used it: the mount keeps its own copy of the maps.
 */
int idmap_userns(const struct idmap_ids *ids, int *userns_fd, struct idmap_holder *h);

/* Wait for a holder left by idmap_userns, if any, and free its stack. */
void idmap_reap(struct idmap_holder *h);

/*
 * Whether the file system of dirfd takes an idmapped mount: a detached clone of its mount is
 * given MOUNT_ATTR_IDMAP with userns_fd, then closed. Nothing is mounted or changed. 0;
 * -EXDEV if dirfd is not on a mount of the caller's namespace (an fd opened before
 * idmap_private_ns: the kernel clones only its own mounts) or the mount is unbindable; else
 * mount_setattr's -errno: -EINVAL the file system does not take idmapped mounts (proc, sysfs,
 * tmpfs before 6.3...), -EPERM the mount is idmapped already or its superblock belongs to a
 * user namespace credbox does not control.
 */
int idmap_probe(int dirfd, int userns_fd);

/*
 * The calling process's mount namespace made its own (unshare CLONE_NEWNS), receiving the
 * host's mount events but sending none (MS_SLAVE | MS_REC on /).
 */
int idmap_private_ns(void);

/*
 * Some directory above dirfd (its parent, up to the root, found by "..") that nobody but root
 * and owner can search: owned by root or owner, no search bit for group or others (with a
 * POSIX ACL the group bits are the mask, which bounds every named entry). 1 and the nearest
 * one's path in where (from /proc/self/fd, for messages; may be NULL), 0 if none, -errno.
 */
int idmap_closed_above(int dirfd, uid_t owner, char *where, size_t size);

/* One tree to mount. */
struct idmap_tree {
	int dirfd;		/* in: its root (O_PATH will do), opened in this mount namespace */
	struct idmap_ids ids;	/* in: its owner, and the program's ids (those of run below) */
	int userns_fd;		/* in: from idmap_userns(&ids) */
	int rdonly;		/* in: a read-only grant */
	int closed;		/* in: some directory above must still be closed to all but root
				 * and its owner, as idmap_closed_above found: else -ESTALE */
	int grant_fd;		/* out: the mounted tree's root, O_RDONLY | O_DIRECTORY |
				 * O_CLOEXEC; -1 unless 0 is returned */
};

/*
 * Mount an idmapped clone of each of the n trees for the program's identity run (whose
 * search rights, with its groups, decide where the covers go); afterwards each tree is
 * reachable in this namespace at its own path, and through t[i].grant_fd. A clone is the
 * tree's own mount alone (what is mounted inside it is not granted) and private (what the
 * host mounts there later stays out). Every step that can fail without changing a mount comes
 * first: the clones and their attributes (idmap_probe's errors), the check of each map's
 * direction (-EPROTO), the walks (-EINVAL: a tree given twice or inside another, or ids not
 * run's; -ELOOP: deeper than IDMAP_MAX_DEPTH; -ESTALE: a tree moved or mounted over since its
 * fd was opened, or none closed above it that closed asks for) and the covers, built
 * detached. Only the attaching (move_mount) comes after.
 * On failure *at is the index of the tree at fault, and what was attached before it stays in
 * the namespace: call this in a private one (idmap_private_ns), and exit on failure.
 */
int idmap_mount_all(struct idmap_tree *t, size_t n, const struct plan_ident *run, size_t *at);

#endif /* CREDBOX_IDMAP_H */
