// SPDX-License-Identifier: GPL-2.0
/* idmap: see idmap.h for how a tree is granted through an ID-mapped mount. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>	/* the mount API's constants, from <linux/mount.h> (glibc 2.36) */
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "idmap.h"
#include "preopen.h"
#include "uapi.h"

/*
 * Where a directory is: its mount (of one superblock) and inode; a bind mount is elsewhere.
 * With its owner and mode, from the same call, for closed_fn.
 */
struct place {
	__u64 mnt, ino;
	uid_t uid;
	mode_t mode;
};

static int place_of(int fd, struct place *p)
{
	struct statx sx;

	if (statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW,
		  STATX_INO | STATX_MNT_ID | STATX_UID | STATX_MODE, &sx))
		return -errno;
	p->mnt = sx.stx_mnt_id;
	p->ino = sx.stx_ino;
	p->uid = sx.stx_uid;
	p->mode = sx.stx_mode;
	return 0;
}

static int same_place(const struct place *a, const struct place *b)
{
	return a->mnt == b->mnt && a->ino == b->ino;
}

/* Close *fd unless it is keep, and hold next instead. */
static void step(int *fd, int next, int keep)
{
	if (*fd != keep && *fd >= 0)
		close(*fd);
	*fd = next;
}

/* The path of fd in this namespace, from /proc/self/fd: for messages and the covers' names. */
static int fd_path(int fd, char *buf, size_t size)
{
	char link[32];
	ssize_t len;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, buf, size - 1);
	if (len < 0 || (size_t)len == size - 1)
		return len < 0 ? -errno : -ENAMETOOLONG;
	buf[len] = '\0';
	return 0;
}

/*
 * Call fn on each directory above fd, its parent first, up to the root (whose ".." is itself),
 * until fn returns nonzero: that, 0 at the root, or -errno. Each is opened by "..", O_PATH and
 * O_NOFOLLOW, from the one below: no path is resolved again, no symlink followed.
 */
static int walk_up(int fd, int (*fn)(int dir, const struct place *p, void *arg), void *arg)
{
	struct place here, p;
	int cur = fd, up, depth = 0, e;

	for (e = place_of(fd, &here); !e && ++depth <= IDMAP_MAX_DEPTH; here = p) {
		up = openat(cur, "..", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		e = up < 0 ? -errno : 0;
		step(&cur, up, fd);
		if (e || (e = place_of(cur, &p)) || same_place(&p, &here))
			break;
		e = fn(cur, &p, arg);
	}
	step(&cur, -1, fd);
	/* Deeper than any path can name: something loops, or was built to. */
	return depth > IDMAP_MAX_DEPTH ? -ELOOP : e;
}

struct closed {
	uid_t owner;
	char *where;
	size_t size;
};

static int closed_fn(int dir, const struct place *p, void *arg)
{
	struct closed *c = arg;

	/* Another owner could chmod it open; a search bit (group: an ACL's mask) lets others by. */
	if ((p->uid != 0 && p->uid != c->owner) || (p->mode & (S_IXGRP | S_IXOTH)))
		return 0;
	return c->where && c->size ? fd_path(dir, c->where, c->size) ?: 1 : 1;
}

int idmap_closed_above(int dirfd, uid_t owner, char *where, size_t size)
{
	struct closed c = { .owner = owner, .where = where, .size = size };

	return walk_up(dirfd, closed_fn, &c);
}

#define HOLDER_STACK	1024

/*
 * The holder of a new user namespace while its maps are written: a child sharing credbox's
 * memory (CLONE_VM: nothing of credbox's address space is copied, which a fork did at a cost
 * of milliseconds), so it touches none of it but its own stack, not even errno: every signal
 * blocked (from its parent), it waits in pause() for the SIGKILL that ends it.
 */
static int holder(void *unused)
{
	for (;;)
		__asm__ volatile("syscall" : : "a"((long)SYS_pause) : "rcx", "r11", "memory");
	return 0;
}

void idmap_reap(struct idmap_holder *h)
{
	int status;

	while (h->pid > 0 && waitpid(h->pid, &status, 0) < 0 && errno == EINTR)
		;
	free(h->stack);
	*h = (struct idmap_holder){ 0, NULL };
}

int idmap_userns(const struct idmap_ids *ids, int *userns_fd, struct idmap_holder *h)
{
	static const char *const files[] = { "setgroups", "uid_map", "gid_map" };
	struct idmap_holder here = { 0, NULL }, *held = h ? h : &here;
	char path[64], text[3][48] = { "deny" };
	sigset_t all, old;
	int fd, e = 0;
	size_t i;
	pid_t pid;

	snprintf(text[1], sizeof(text[1]), "%u %u 1\n", ids->disk_uid, ids->run_uid);
	snprintf(text[2], sizeof(text[2]), "%u %u 1\n", ids->disk_gid, ids->run_gid);
	held->stack = aligned_alloc(16, HOLDER_STACK);
	if (!held->stack)
		return -ENOMEM;
	/* The child is made in the namespace and holds it; we write its maps and take it by fd. */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	pid = clone(holder, (char *)held->stack + HOLDER_STACK, CLONE_VM | CLONE_NEWUSER | SIGCHLD,
		    NULL);
	e = pid < 0 ? -errno : 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (e) {
		idmap_reap(held);
		return e;
	}
	held->pid = pid;
	/* setgroups before gid_map, which the kernel requires; nothing ever runs in it anyway. */
	for (i = 0; i < 3 && !e; i++) {
		snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, files[i]);
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, text[i], strlen(text[i])) != (ssize_t)strlen(text[i]))
			e = -errno;
		if (fd >= 0)
			close(fd);
	}
	snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
	if (!e && (*userns_fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		e = -errno;
	/*
	 * Killed now; reaped now, or when the caller says, so that its exit (and the switches to
	 * it) can run on another CPU meanwhile. Until it is reaped its pid names no other process.
	 */
	kill(pid, SIGKILL);
	if (!h)
		idmap_reap(held);
	return e;
}

int idmap_private_ns(void)
{
	if (unshare(CLONE_NEWNS))
		return -errno;
	/*
	 * Slave, not private: the host's unmounts still reach us (credbox holds no disk busy),
	 * nothing mounted here goes back. Should this fail, the caller must mount nothing.
	 */
	return mount(NULL, "/", NULL, MS_SLAVE | MS_REC, NULL) ? -errno : 0;
}

static int setattr(int mnt, struct mount_attr *attr)
{
	return syscall(SYS_mount_setattr, mnt, "", AT_EMPTY_PATH, attr, sizeof(*attr)) ? -errno : 0;
}

static int attach(int mnt, int onto)
{
	return syscall(SYS_move_mount, mnt, "", onto, "",
		       MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) ? -errno : 0;
}

/* A detached clone of the mount at dirfd, idmapped with userns_fd: *clone (O_PATH), or closed. */
static int clone_idmapped(int dirfd, int userns_fd, __u64 attrs, int *clone)
{
	struct mount_attr attr = {
		.attr_set = MOUNT_ATTR_IDMAP | attrs,
		.userns_fd = userns_fd,
		/* What the host mounts in the tree later stays out of the grant. */
		.propagation = MS_PRIVATE,
	};
	int fd, e;

	/*
	 * This mount alone, not those under it (no AT_RECURSIVE): nothing mounted inside the
	 * tree gets the map. The kernel's EINVAL here means dirfd is not on a mount of this
	 * namespace, or that mount is unbindable: -EXDEV, not the file system's refusal below.
	 */
	fd = syscall(SYS_open_tree, dirfd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
	if (fd < 0)
		return errno == EINVAL ? -EXDEV : -errno;
	e = setattr(fd, &attr);
	if (e || !clone)
		close(fd);	/* a detached mount goes with its last fd */
	else
		*clone = fd;
	return e;
}

int idmap_probe(int dirfd, int userns_fd)
{
	return clone_idmapped(dirfd, userns_fd, 0, NULL);
}

/*
 * The kernel reads the map as meant: the clone's root shows the run ids exactly where it has
 * the disk ids on disk. A map written the wrong way round shows O's inodes as the overflow id;
 * one that maps another id to S shows S on a root that is not O's. (A root owned by root on
 * disk proves only the latter; a reversed map fails closed: S acts as O nowhere.)
 */
static int map_ok(int dirfd, int clone, const struct idmap_ids *ids)
{
	struct stat disk, seen;

	if (fstat(dirfd, &disk) || fstat(clone, &seen))
		return -errno;
	return (disk.st_uid == ids->disk_uid) != (seen.st_uid == ids->run_uid) ||
	       (disk.st_gid == ids->disk_gid) != (seen.st_gid == ids->run_gid) ? -EPROTO : 0;
}

/*
 * A fresh tmpfs, detached: *cov its root. 0755 root (a new tmpfs root is 1777: anyone could
 * plant entries), nosuid, nodev, noexec, small: it holds a few directories and nothing else.
 */
static int cover_new(int *cov)
{
	int fs = syscall(SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC), e = 0;

	if (fs < 0)
		return -errno;
	if (syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "mode", "0755", 0) ||
	    syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "size", "64k", 0) ||
	    syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		e = -errno;
	else if ((*cov = syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID |
				 MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC)) < 0)
		e = -errno;
	close(fs);
	return e;
}

/*
 * Make in the cover (root cov) the directories from c down to the tree (tfd, at tp), by fd in
 * the cover, 0755 whatever the umask. The names come from /proc/self/fd; that they lead from c
 * to the tree itself is checked by fd (RESOLVE_BENEATH, no symlink): a name that reads wrong
 * (moved, deleted) is -ESTALE, never a wrong place. *target: the tree's double.
 */
static int chain(int c, int cov, int tfd, const struct place *tp, int *target)
{
	struct open_how how = { .flags = O_PATH | O_DIRECTORY | O_CLOEXEC, .resolve =
				RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS };
	char cpath[PATH_MAX], tpath[PATH_MAX], *rel, *name, *save;
	int mine = cov, real, next, e;
	struct place p = { 0, 0, 0, 0 };
	size_t len;

	if ((e = fd_path(c, cpath, sizeof(cpath))) || (e = fd_path(tfd, tpath, sizeof(tpath))))
		return e;
	len = strcmp(cpath, "/") ? strlen(cpath) : 0;
	rel = tpath + len + 1;
	if (strncmp(tpath, cpath, len) || tpath[len] != '/' || !*rel)
		return -ESTALE;
	real = syscall(SYS_openat2, c, rel, &how, sizeof(how));
	if (real < 0)
		return errno == ENOENT || errno == ELOOP || errno == EXDEV ? -ESTALE : -errno;
	e = place_of(real, &p);
	if (!e && !same_place(&p, tp))
		e = -ESTALE;
	close(real);
	for (name = strtok_r(rel, "/", &save); name && !e; name = strtok_r(NULL, "/", &save)) {
		if (mkdirat(mine, name, 0755) && errno != EEXIST) {	/* EEXIST: a shared part */
			e = -errno;
			break;
		}
		next = openat(mine, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		e = next < 0 ? -errno : 0;
		step(&mine, next, cov);
		if (!e && fchmod(mine, 0755))
			e = -errno;
	}
	if (e)
		step(&mine, -1, cov);
	*target = mine;
	return e;
}

/* What idmap_mount_all holds of one tree until it is attached. */
struct held {
	struct place place;
	int clone;		/* the idmapped clone, detached */
	int c;			/* the highest ancestor S cannot search, or -1 */
	struct place cplace;
	int cov;		/* the cover's root, detached (in the first tree with this c) */
	int target;		/* the tree's double in the cover, or -1 */
};

/* The directories above a tree, its parent first, up to the root: O_PATH fds and places. */
struct above {
	int *fd;
	struct place *p;
	size_t n, size;
};

/* Hold dir (its fd is a's now) at the end of a. */
static int above_add(struct above *a, int dir, const struct place *p)
{
	size_t size = a->size ? a->size * 2 : 8;
	int *fd;
	struct place *pl;

	if (a->n == a->size) {
		fd = realloc(a->fd, size * sizeof(*fd));
		if (fd)
			a->fd = fd;
		pl = fd ? realloc(a->p, size * sizeof(*pl)) : NULL;
		if (!pl) {
			close(dir);
			return -ENOMEM;
		}
		a->p = pl;
		a->size = size;
	}
	a->fd[a->n] = dir;
	a->p[a->n++] = *p;
	return 0;
}

static void above_free(struct above *a)
{
	while (a->n)
		close(a->fd[--a->n]);
	free(a->fd);
	free(a->p);
}

/* Every directory above dirfd, whose place is start, into a as walk_up finds them, fds kept. */
static int above_walk(int dirfd, const struct place *start, struct above *a)
{
	struct place here = *start, p;
	int cur = dirfd, up, e;

	for (e = 0; !e; here = p, cur = up) {
		if (a->n == IDMAP_MAX_DEPTH)
			return -ELOOP;
		up = openat(cur, "..", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (up < 0)
			return -errno;
		if ((e = place_of(up, &p)) || same_place(&p, &here)) {
			close(up);
			break;
		}
		e = above_add(a, up, &p);
	}
	return e;
}

/*
 * Where tree t goes: me->c, the highest directory above it that run cannot search, or -1.
 * The directories are found by one walk as root, then each is tried as run, from the root
 * down, under one change of credentials (its fsuid, fsgid and groups: root's fs capabilities
 * drop with them) rather than one a directory. The same walk finds, when t->closed asks, a
 * directory still closed to all but root and the owner (closed_fn; -ESTALE if none), and
 * that no other tree is above it (it would be attached where the other's clone hides it:
 * -EINVAL).
 */
static int find_cover(const struct idmap_tree *t, const struct plan_ident *run,
		      const struct held *h, size_t n, struct held *me)
{
	struct closed closed = { .owner = t->ids.disk_uid };
	struct above a = { NULL, NULL, 0, 0 };
	struct preopen_fscred saved;
	int e, shut = !t->closed;
	size_t k, j;

	e = above_walk(t->dirfd, &me->place, &a);
	for (k = 0; !e && k < a.n; k++) {
		for (j = 0; j < n; j++)
			if (same_place(&a.p[k], &h[j].place))
				e = -EINVAL;
		shut = shut || closed_fn(a.fd[k], &a.p[k], &closed);
	}
	if (!e && !shut)
		e = -ESTALE;
	if (!e && !(e = preopen_become(run, &saved))) {
		for (k = a.n; k-- > 0;) {
			if (syscall(SYS_faccessat2, a.fd[k], "", X_OK, AT_EACCESS | AT_EMPTY_PATH)) {
				e = errno == EACCES ? 0 : -errno;
				break;
			}
		}
		if (preopen_leave(&saved))
			e = -EPERM;
		if (!e && k < a.n) {
			me->c = a.fd[k];
			me->cplace = a.p[k];
			a.fd[k] = a.fd[--a.n];	/* kept: not closed with the rest */
		}
	}
	above_free(&a);
	return e;
}

static int prepare(struct idmap_tree *t, size_t n, const struct plan_ident *run,
		   struct held *h, size_t *at)
{
	struct mount_attr ro = { .attr_set = MOUNT_ATTR_RDONLY };
	__u64 attrs;
	size_t i, j;
	int e;

	/* Each tree cloned and idmapped, detached, its map checked: nothing mounted yet. */
	for (i = 0; i < n; i++) {
		*at = i;
		if (t[i].ids.run_uid != run->uid || t[i].ids.run_gid != run->gid)
			return -EINVAL;
		if ((e = place_of(t[i].dirfd, &h[i].place)))
			return e;
		for (j = 0; j < i; j++)
			if (same_place(&h[i].place, &h[j].place))
				return -EINVAL;
		attrs = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV;
		if (t[i].rdonly)
			attrs |= MOUNT_ATTR_RDONLY;
		if ((e = clone_idmapped(t[i].dirfd, t[i].userns_fd, attrs, &h[i].clone)) ||
		    (e = map_ok(t[i].dirfd, h[i].clone, &t[i].ids)))
			return e;
		t[i].grant_fd = openat(h[i].clone, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (t[i].grant_fd < 0)
			return -errno;
	}
	/* Where each goes: the highest ancestor S cannot search, and its cover, built detached. */
	for (i = 0; i < n; i++) {
		*at = i;
		if ((e = find_cover(&t[i], run, h, n, &h[i])))
			return e;
		if (h[i].c < 0)
			continue;
		for (j = 0; j < i && (h[j].c < 0 || !same_place(&h[j].cplace, &h[i].cplace)); j++)
			;
		if (j == i && (e = cover_new(&h[i].cov)))
			return e;
		if ((e = chain(h[i].c, h[j].cov, t[i].dirfd, &h[i].place, &h[i].target)))
			return e;
	}
	/* Each cover read-only once built: nothing is added to it after, not even by root. */
	for (i = 0; i < n; i++) {
		*at = i;
		if (h[i].cov >= 0 && (e = setattr(h[i].cov, &ro)))
			return e;
	}
	return 0;
}

int idmap_mount_all(struct idmap_tree *t, size_t n, const struct plan_ident *run, size_t *at)
{
	struct held h[IDMAP_MAX_TREES];
	size_t i;
	int e;

	*at = 0;
	if (n > IDMAP_MAX_TREES)
		return -E2BIG;
	for (i = 0; i < n; i++) {
		t[i].grant_fd = -1;
		h[i] = (struct held){ .clone = -1, .c = -1, .cov = -1, .target = -1 };
	}
	e = prepare(t, n, run, h, at);
	/*
	 * The attaching: each cover on its ancestor, then each clone on its double in the cover,
	 * or over the tree itself. A failure here leaves what was attached before it in this
	 * namespace: credbox runs this in its own private one (idmap_private_ns) and exits on
	 * the error, so nothing of it reaches the host.
	 */
	for (i = 0; i < n && !e; i++)
		if (h[i].cov >= 0 && (e = attach(h[i].cov, h[i].c)))
			*at = i;
	for (i = 0; i < n && !e; i++)
		if ((e = attach(h[i].clone, h[i].target >= 0 ? h[i].target : t[i].dirfd)))
			*at = i;
	for (i = 0; i < n; i++) {
		step(&h[i].clone, -1, -1);
		step(&h[i].c, -1, -1);
		step(&h[i].cov, -1, -1);
		step(&h[i].target, -1, -1);
		if (e)
			step(&t[i].grant_fd, -1, -1);
	}
	return e;
}
