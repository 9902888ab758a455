// SPDX-License-Identifier: GPL-2.0
/*
 * redirect_rt: the code that stays in the program's address space after credbox is gone, and
 * makes the program's own path-based file calls reach the transparent grants.
 *
 * How a call gets here. The profile's seccomp filter returns SECCOMP_RET_TRAP for the calls
 * listed in rt_conf.kind, unless the call comes from rt_exempt_ret, the one syscall
 * instruction of this image: then the filter returns the profile's own verdict for it. The
 * kernel skips the trapped call and raises SIGSYS; rt_sigsys below decides, makes the call
 * from the exempt instruction, through a grant or as the program asked, and writes the result
 * into the program's rax. The program continues after its syscall instruction as if the
 * kernel had answered.
 *
 * Why this grants nothing. Every call made here is one the program could make itself: the
 * exempt instruction only lifts the trap, never a denial (the filter's exempt branch returns
 * the profile's verdict, and the always-denied filter does not look at the instruction
 * pointer at all); opens through a grant are openat2(OA2_CRED_INHERIT, RESOLVE_BENEATH), which
 * the program may call on the grant's fd directly. A program that jumps to the exempt
 * instruction, or rewrites this image, gets its own rights and no more.
 *
 * Rules for this file: freestanding (no libc: it was unmapped with credbox), async-signal-safe
 * (no allocation, no lock held across a call that can block or be interrupted by another
 * trap), position independent without relocations (the build checks), no use of the
 * program's TLS. State shared between threads is read with sequence counters and written
 * with signals blocked, so that a handler interrupted by a nested one never deadlocks.
 */
#include <stddef.h>
#include <stdint.h>
#include <asm/unistd.h>
#include <linux/fcntl.h>
#include <linux/openat2.h>

#include "redirect_rt.h"
#include "rt.h"

#define OA2_CRED_INHERIT	(1ULL << 28)
#define AT_FDCWD_	(-100)
#define SIGSYS_		31
#define SYS_SECCOMP_	1
#define SA_SIGINFO_	0x4
#define SA_RESTORER_	0x04000000
#define SA_NODEFER_	0x40000000
#define SA_RESETHAND_	0x80000000u
#define SIG_DFL_	((void *)0)
#define SIG_IGN_	((void *)1)
#define SIGBIT(s)	(1ULL << ((s) - 1))
#define E(x)		(-(long)(x))
#define ENOENT_		2
#define EBADF_		9
#define EACCES_		13
#define EFAULT_		14
#define ENOTDIR_	20
#define EINVAL_		22
#define ERANGE_		34
#define ENAMETOOLONG_	36
#define ELOOP_		40
#define EPERM_		1
#define S_IFMT_		0170000
#define S_IFDIR_	0040000
#define AT_SYMLINK_NOFOLLOW_	0x100
#define AT_EACCESS_	0x200
#define AT_EMPTY_PATH_	0x1000

struct rt_stat {
	uint64_t dev, ino, nlink;
	uint32_t mode, uid, gid, pad;
	uint64_t rdev;
	int64_t size, blksize, blocks;
	uint64_t times[6];
	int64_t unused[3];
};

/* ---- the image's one syscall instruction ------------------------------------------------ */

__asm__(".text\n"
	".globl rt_syscall6, rt_exempt_ret, rt_restorer\n"
	".hidden rt_syscall6, rt_exempt_ret, rt_restorer\n"
	".type rt_syscall6, @function\n"
	"rt_syscall6:\n"
	"	mov %rdi, %rax\n"
	"	mov %rsi, %rdi\n"
	"	mov %rdx, %rsi\n"
	"	mov %rcx, %rdx\n"
	"	mov %r8, %r10\n"
	"	mov %r9, %r8\n"
	"	mov 8(%rsp), %r9\n"
	"	syscall\n"
	"rt_exempt_ret:\n"
	"	ret\n"
	".size rt_syscall6, . - rt_syscall6\n"
	".type rt_restorer, @function\n"
	"rt_restorer:\n"
	"	mov $15, %eax\n"
	"	syscall\n"
	"	hlt\n"
	".size rt_restorer, . - rt_restorer\n");

/* Filled by credbox, then read-only; and the runtime's own state. */
HIDDEN struct rt_conf rt_conf __attribute__((section(".bss.rt_conf"), aligned(4096)));
HIDDEN struct rt_state rt_state __attribute__((aligned(4096)));

/* ---- the compiler's helpers, and strings ----------------------------------------------------- */

HIDDEN void *memcpy(void *d, const void *s, size_t n)
{
	char *dp = d;
	const char *sp = s;

	while (n--)
		*dp++ = *sp++;
	return d;
}

HIDDEN void *memset(void *d, int c, size_t n)
{
	char *dp = d;

	while (n--)
		*dp++ = (char)c;
	return d;
}

HIDDEN void *memmove(void *d, const void *s, size_t n)
{
	char *dp = d;
	const char *sp = s;

	if (dp < sp)
		return memcpy(d, s, n);
	while (n--)
		dp[n] = sp[n];
	return d;
}

HIDDEN int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++) {
		if (*x != *y)
			return *x - *y;
	}
	return 0;
}

static size_t rt_strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

/* ---- shared state: sequence-counted reads, writes with every signal blocked -------------- */

/*
 * How long to wait for a writer before taking the entry as unusable: a fork made by another
 * thread while this entry was being written leaves it odd in the child for good. Then the
 * child reads it as empty (its calls are made with its own rights) rather than hang.
 */
#define WAIT_LIMIT	(1u << 16)

static int seq_read_begin(const uint32_t *seq, uint32_t *out)
{
	unsigned int n = 0;
	uint32_t s;

	while ((s = __atomic_load_n(seq, __ATOMIC_ACQUIRE)) & 1) {
		if (++n > WAIT_LIMIT)
			return -1;
		if (n > 64)
			SC0(__NR_sched_yield);
	}
	*out = s;
	return 0;
}

static int seq_read_retry(const uint32_t *seq, uint32_t s)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(seq, __ATOMIC_RELAXED) != s;
}

/*
 * A writer blocks every signal first: a handler that interrupted it on the same thread and
 * wanted the same entry would spin forever. Between threads, the entry's counter is the lock.
 */
static int write_begin(uint32_t *seq, uint64_t *saved)
{
	uint64_t all = ~0ULL;
	unsigned int n;
	uint32_t s;

	SC4(__NR_rt_sigprocmask, 0 /* SIG_BLOCK */, &all, saved, 8);
	for (n = 0; n < WAIT_LIMIT; n++) {
		s = __atomic_load_n(seq, __ATOMIC_RELAXED);
		if (!(s & 1) && __atomic_compare_exchange_n(seq, &s, s + 1, 0, __ATOMIC_ACQUIRE,
							    __ATOMIC_RELAXED))
			return 0;
		SC0(__NR_sched_yield);
	}
	SC4(__NR_rt_sigprocmask, 2 /* SIG_SETMASK */, saved, 0, 8);
	return -1;	/* abandoned by a writer that forked away: nothing recorded */
}

static void write_end(uint32_t *seq, const uint64_t *saved)
{
	__atomic_add_fetch(seq, 1, __ATOMIC_RELEASE);
	SC4(__NR_rt_sigprocmask, 2 /* SIG_SETMASK */, saved, 0, 8);
}

/* ---- paths ------------------------------------------------------------------------------ */

/*
 * Normalise an absolute path in place, lexically: "//" and "." vanish, ".." removes the
 * component before it (never above "/"), as a shell's cd does; a trailing '/' stays (it
 * asks for a directory). Returns the length.
 */
static size_t normalise(char *p, size_t len)
{
	size_t r = 0, w = 0;
	int slash = len > 1 && p[len - 1] == '/';

	while (r < len) {
		size_t start, clen;

		while (r < len && p[r] == '/')
			r++;
		start = r;
		while (r < len && p[r] != '/')
			r++;
		clen = r - start;
		if (clen == 0 || (clen == 1 && p[start] == '.'))
			continue;
		if (clen == 2 && p[start] == '.' && p[start + 1] == '.') {
			while (w > 0 && p[w - 1] != '/')
				w--;
			if (w > 0)
				w--;	/* the '/' before it */
			continue;
		}
		p[w++] = '/';
		memmove(p + w, p + start, clen);
		w += clen;
	}
	if (w == 0 || slash)
		p[w++] = '/';
	p[w] = '\0';
	return w;
}

/* The length of a normalised path without its trailing '/', as a directory's name. */
static size_t dir_len(const char *p, size_t len)
{
	return len > 1 && p[len - 1] == '/' ? len - 1 : len;
}

/* The grant whose tree holds the normalised absolute path p, or -1; *rel: the rest. */
static int grant_of(const char *p, size_t len, const char **rel)
{
	uint32_t i;
	int best = -1;
	size_t blen = 0;

	for (i = 0; !rt_state.grants_closed && i < rt_conf.ngrants; i++) {
		const struct rt_grant *g = &rt_conf.grants[i];

		if (g->len > len || memcmp(p, g->path, g->len) || g->len < blen)
			continue;
		if (len == g->len || p[g->len] == '/' || g->len == 1) {
			best = (int)i;
			blen = g->len;
		}
	}
	if (best >= 0) {
		const char *r = p + blen;

		while (*r == '/')
			r++;
		*rel = *r ? r : ".";
	}
	return best;
}

/* The calling process's working-directory slot, or NULL when it has none in a tree. */
static struct rt_cwd *cwd_slot(int pid)
{
	int i;

	for (i = 0; i < RT_CWD_SLOTS; i++) {
		if (__atomic_load_n(&rt_state.cwd[i].pid, __ATOMIC_ACQUIRE) == pid)
			return &rt_state.cwd[i];
	}
	return NULL;
}

static void cwd_set(const char *path, size_t len);

/* Copy the emulated working directory into buf; 0 when there is none. */
static size_t cwd_get(char *buf)
{
	int pid = (int)SC0(__NR_getpid), ppid;
	struct rt_cwd *c = cwd_slot(pid);
	uint32_t s;
	size_t len;

	/*
	 * A process without a slot of its own is a child (fork, vfork, clone) of one that had
	 * one, or never left the kernel's working directory: a child starts where its parent
	 * was, as the kernel copies fs_struct.
	 */
	if (!c) {
		ppid = (int)SC0(__NR_getppid);
		c = cwd_slot(ppid);
		if (!c)
			return 0;
	}
	do {
		if (seq_read_begin(&c->seq, &s))
			return 0;
		len = c->len;
		if (len >= RT_PATH_MAX)
			len = 0;
		memcpy(buf, c->path, len);
	} while (seq_read_retry(&c->seq, s));
	buf[len] = '\0';
	/* The child's own copy from now on: the parent may move while the child stays. */
	if (c->pid != pid && len)
		cwd_set(buf, len);
	return len;
}

/* Set (len > 0) or drop (len == 0) the emulated working directory of this process. */
static void cwd_set(const char *path, size_t len)
{
	int pid = (int)SC0(__NR_getpid);
	struct rt_cwd *c = cwd_slot(pid);
	uint64_t saved;
	int i;

	if (!c && !len)
		return;		/* nothing emulated, nothing to drop */
	if (!c) {
		/* Take a free slot, or one whose process is gone (getpgid: ESRCH). */
		for (i = 0; !c && i < RT_CWD_SLOTS; i++) {
			struct rt_cwd *t = &rt_state.cwd[i];
			int old = __atomic_load_n(&t->pid, __ATOMIC_ACQUIRE);

			if (old && SC1(__NR_getpgid, old) != E(3))
				continue;
			if (__atomic_compare_exchange_n(&t->pid, &old, pid, 0, __ATOMIC_ACQ_REL,
							__ATOMIC_RELAXED))
				c = t;
		}
		if (!c)
			return;	/* more processes than slots: the kernel's cwd it is */
	}
	if (write_begin(&c->seq, &saved))
		return;
	memcpy(c->path, path, len);
	c->path[len] = '\0';
	c->len = (uint32_t)len;
	write_end(&c->seq, &saved);
}

/* The path of a tracked directory fd (still the same inode), or 0. */
static size_t dirfd_get(int fd, char *buf)
{
	struct rt_dirfd *d;
	struct rt_stat st;
	uint64_t dev, ino;
	uint32_t s;
	size_t len;

	if (fd < 0 || fd >= RT_FD_MAX)
		return 0;
	d = &rt_state.fds[fd];
	do {
		if (seq_read_begin(&d->seq, &s))
			return 0;
		len = d->grant < 0 ? 0 : d->len;
		if (len >= sizeof(d->path))
			len = 0;
		dev = d->dev;
		ino = d->ino;
		memcpy(buf, d->path, len);
	} while (seq_read_retry(&d->seq, s));
	if (!len || SC2(__NR_fstat, fd, &st) < 0 || st.dev != dev || st.ino != ino)
		return 0;
	buf[len] = '\0';
	return len;
}

static void dirfd_put(int fd, int grant, const struct rt_stat *st, const char *path, size_t len)
{
	struct rt_dirfd *d;
	uint64_t saved;

	if (fd < 0 || fd >= RT_FD_MAX || len >= sizeof(d->path))
		return;
	d = &rt_state.fds[fd];
	if (write_begin(&d->seq, &saved))
		return;
	d->grant = grant;
	d->dev = st->dev;
	d->ino = st->ino;
	memcpy(d->path, path, len);
	d->len = (uint32_t)len;
	write_end(&d->seq, &saved);
}

/* empty_ok: "" with AT_EMPTY_PATH means the dirfd itself. */
enum where resolve(int dirfd, const char *path, int empty_ok, struct target *t)
{
	size_t len, base = 0;

	if (!path)
		return W_PASS;		/* the kernel's EFAULT */
	len = rt_strnlen(path, RT_PATH_MAX);
	if (len == RT_PATH_MAX) {
		t->err = E(ENAMETOOLONG_);
		return W_ERROR;
	}
	if (len == 0) {
		if (!empty_ok)
			return W_PASS;	/* ENOENT */
		base = dirfd == AT_FDCWD_ ? cwd_get(t->buf) : dirfd_get(dirfd, t->buf);
		if (!base)
			return W_PASS;
	} else if (path[0] != '/') {
		base = dirfd == AT_FDCWD_ ? cwd_get(t->buf) : dirfd_get(dirfd, t->buf);
		if (!base)
			return W_PASS;	/* relative to the kernel's own idea: not in a tree */
		if (base + 1 + len >= RT_PATH_MAX) {
			t->err = E(ENAMETOOLONG_);
			return W_ERROR;
		}
		t->buf[base] = '/';
		memcpy(t->buf + base + 1, path, len + 1);
		len += base + 1;
	} else {
		memcpy(t->buf, path, len + 1);
	}
	t->len = normalise(t->buf, len);
	t->grant = grant_of(t->buf, t->len, &t->rel);
	if (t->grant >= 0)
		return W_TREE;
	return base ? W_OUTSIDE : W_PASS;
}

/* ---- operations through a grant ------------------------------------------------------------ */

/* What open(2) takes; it ignores other bits, openat2(2) refuses them. */
#define VALID_OPEN_FLAGS (O_ACCMODE | O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_APPEND | \
			  O_NONBLOCK | O_DSYNC | FASYNC | O_DIRECT | O_LARGEFILE | O_DIRECTORY | \
			  O_NOFOLLOW | O_NOATIME | O_CLOEXEC | __O_SYNC | O_PATH | __O_TMPFILE)

static long tree_open(const struct target *t, long flags, long mode)
{
	struct open_how how = {
		.flags = (uint64_t)((unsigned int)flags & VALID_OPEN_FLAGS) | OA2_CRED_INHERIT,
		.mode = (flags & (O_CREAT | __O_TMPFILE)) ? (uint64_t)mode & 07777 : 0,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};

	/*
	 * O_PATH is refused with the flag: a read-only open serves it (a file its owner cannot
	 * read cannot be opened with O_PATH in a tree; see credbox.ini(5)).
	 */
	if (flags & O_PATH) {
		how.flags &= ~(uint64_t)(O_PATH | O_ACCMODE);
		how.flags |= O_RDONLY | O_NONBLOCK | O_NOCTTY;
	}
	return SC4(__NR_openat2, rt_conf.grants[t->grant].fd, t->rel, &how, sizeof(how));
}

/* A directory the program now holds: remember its path for *at calls and fchdir. */
static void track_dir(long fd, const struct target *t)
{
	struct rt_stat st;

	if (fd >= 0 && SC2(__NR_fstat, fd, &st) == 0 && (st.mode & S_IFMT_) == S_IFDIR_)
		dirfd_put((int)fd, t->grant, &st, t->buf, dir_len(t->buf, t->len));
}

static long do_open(const struct target *t, long flags, long mode)
{
	long fd = tree_open(t, flags, mode);

	if (fd >= 0 && (flags & O_DIRECTORY))
		track_dir(fd, t);
	return fd;
}

/*
 * Open what a path names only to look at it: never blocking on a FIFO, never becoming the
 * controlling terminal. (Device nodes: refused through the flag by the kernel's issue-10 fix.)
 */
static long peek_open(const struct target *t, int nofollow)
{
	return tree_open(t, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
			 (nofollow ? O_NOFOLLOW : 0), 0);
}

/*
 * A symbolic link cannot be opened to look at it until the kernel lends O_PATH or a stat
 * (issue 13): ELOOP from an O_NOFOLLOW open says it is one; answer EACCES, as the kernel
 * would have without the grant.
 */
static long peek_err(long err, int nofollow)
{
	return nofollow && err == E(ELOOP_) ? E(EACCES_) : err;
}

static long do_fstat_path(const struct target *t, int nofollow, long nr, void *buf, long a3,
			  long a4)
{
	long fd = peek_open(t, nofollow), ret;

	if (fd < 0)
		return peek_err(fd, nofollow);
	if (nr == __NR_statx)
		ret = SC5(__NR_statx, fd, "", AT_EMPTY_PATH_ | (a3 & ~AT_SYMLINK_NOFOLLOW_), a4,
			  buf);
	else
		ret = SC2(__NR_fstat, fd, buf);
	SC1(__NR_close, fd);
	return ret;
}

static int in_groups(const struct rt_grant *g, uint32_t gid)
{
	uint32_t i;

	if (gid == g->gid)
		return 1;
	for (i = 0; i < g->ngroups; i++) {
		if (g->groups[i] == gid)
			return 1;
	}
	return 0;
}

/*
 * access(2) through a grant: the path must open (existence, search permission), then the
 * mode bits answer for the identity the grant lends; a read-only grant refuses W_OK, as
 * Landlock refuses the open for writing.
 */
static long do_access(const struct target *t, long mode, int nofollow)
{
	const struct rt_grant *g = &rt_conf.grants[t->grant];
	struct rt_stat st;
	long fd = peek_open(t, nofollow), ret;
	uint32_t bits;

	if (fd < 0)
		return peek_err(fd, nofollow);
	ret = SC2(__NR_fstat, fd, &st);
	SC1(__NR_close, fd);
	if (ret < 0)
		return ret;
	if (mode & ~7L)
		return E(EINVAL_);
	if ((mode & 2) && !g->rw)
		return E(EACCES_);
	bits = st.uid == g->uid ? st.mode >> 6 : in_groups(g, st.gid) ? st.mode >> 3 : st.mode;
	return ((uint32_t)mode & ~bits & 7) ? E(EACCES_) : 0;
}

static long do_readlink(const struct target *t)
{
	long fd = peek_open(t, 1);

	if (fd >= 0) {
		SC1(__NR_close, fd);
		return E(EINVAL_);	/* not a symbolic link */
	}
	return peek_err(fd, 1);
}

static long do_chdir(const struct target *t)
{
	long fd = tree_open(t, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);

	if (fd < 0)
		return fd;
	SC1(__NR_close, fd);
	cwd_set(t->buf, dir_len(t->buf, t->len));
	return 0;
}

static long do_truncate(const struct target *t, long length)
{
	long fd = tree_open(t, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0), ret;

	if (fd < 0)
		return fd;
	ret = SC2(__NR_ftruncate, fd, length);
	SC1(__NR_close, fd);
	return ret;
}

static long do_xattr(const struct target *t, long nr, long a1, long a2, long a3)
{
	int nofollow = nr == __NR_lgetxattr || nr == __NR_llistxattr;
	long fd = peek_open(t, nofollow), ret;

	if (fd < 0)
		return peek_err(fd, nofollow);
	if (nr == __NR_getxattr || nr == __NR_lgetxattr)
		ret = SC4(__NR_fgetxattr, fd, a1, a2, a3);
	else
		ret = SC3(__NR_flistxattr, fd, a1, a2);
	SC1(__NR_close, fd);
	return ret;
}

static long do_getcwd(char *ubuf, unsigned long size)
{
	char buf[RT_PATH_MAX];
	size_t len = cwd_get(buf);

	if (!len)
		return -1;	/* not emulated: the kernel's */
	if (size < len + 1)
		return E(ERANGE_);
	memcpy(ubuf, buf, len + 1);
	return (long)len + 1;
}

/* ---- the table of redirected calls ------------------------------------------------------ */

/*
 * Where a call's paths are: the argument holding the dirfd (-1: AT_FDCWD), the one holding the
 * path, the same for a second path (-1: none), the one holding AT_* flags (-1: none).
 */
struct rt_op {
	uint16_t nr;
	int8_t dirfd, path, dirfd2, path2, flags;
	uint8_t op;
};

enum {
	OP_OPEN, OP_CREAT, OP_OPENAT2, OP_STAT, OP_LSTAT, OP_FSTATAT, OP_STATX, OP_ACCESS,
	OP_FACCESSAT, OP_READLINK, OP_CHDIR, OP_TRUNCATE, OP_XATTR, OP_STATFS, OP_PASS_ABS,
};

#define NONE	-1, -1
static const struct rt_op ops[] = {
	{ __NR_open, -1, 0, NONE, -1, OP_OPEN },
	{ __NR_openat, 0, 1, NONE, -1, OP_OPEN },
	{ __NR_creat, -1, 0, NONE, -1, OP_CREAT },
	{ __NR_openat2, 0, 1, NONE, -1, OP_OPENAT2 },
	{ __NR_stat, -1, 0, NONE, -1, OP_STAT },
	{ __NR_lstat, -1, 0, NONE, -1, OP_LSTAT },
	{ __NR_newfstatat, 0, 1, NONE, 3, OP_FSTATAT },
	{ __NR_statx, 0, 1, NONE, 2, OP_STATX },
	{ __NR_access, -1, 0, NONE, -1, OP_ACCESS },
	{ __NR_faccessat, 0, 1, NONE, -1, OP_FACCESSAT },
	{ __NR_faccessat2, 0, 1, NONE, 3, OP_FACCESSAT },
	{ __NR_readlink, -1, 0, NONE, -1, OP_READLINK },
	{ __NR_readlinkat, 0, 1, NONE, -1, OP_READLINK },
	{ __NR_chdir, -1, 0, NONE, -1, OP_CHDIR },
	{ __NR_truncate, -1, 0, NONE, -1, OP_TRUNCATE },
	{ __NR_getxattr, -1, 0, NONE, -1, OP_XATTR },
	{ __NR_lgetxattr, -1, 0, NONE, -1, OP_XATTR },
	{ __NR_listxattr, -1, 0, NONE, -1, OP_XATTR },
	{ __NR_llistxattr, -1, 0, NONE, -1, OP_XATTR },
	{ __NR_statfs, -1, 0, NONE, -1, OP_STATFS },
	/*
	 * Not through a grant yet: the kernel has no directory operations, changes of mode,
	 * owner or times with borrowed credentials (issue 13). Relative to an emulated working
	 * directory they are made on the absolute path, with the program's own rights (in a
	 * tree: EACCES), never on the kernel's working directory, which is not the program's.
	 */
	{ __NR_mkdir, -1, 0, NONE, -1, OP_PASS_ABS },
	{ __NR_mkdirat, 0, 1, NONE, -1, OP_PASS_ABS },
	{ __NR_unlink, -1, 0, NONE, -1, OP_PASS_ABS },
	{ __NR_unlinkat, 0, 1, NONE, -1, OP_PASS_ABS },
	{ __NR_rmdir, -1, 0, NONE, -1, OP_PASS_ABS },
	{ __NR_rename, -1, 0, -1, 1, -1, OP_PASS_ABS },
	{ __NR_renameat, 0, 1, 2, 3, -1, OP_PASS_ABS },
	{ __NR_renameat2, 0, 1, 2, 3, -1, OP_PASS_ABS },
	{ __NR_link, -1, 0, -1, 1, -1, OP_PASS_ABS },
	{ __NR_linkat, 0, 1, 2, 3, 4, OP_PASS_ABS },
	{ __NR_symlink, -1, 1, NONE, -1, OP_PASS_ABS },
	{ __NR_symlinkat, 1, 2, NONE, -1, OP_PASS_ABS },
	{ __NR_chmod, -1, 0, NONE, -1, OP_PASS_ABS },
	{ __NR_fchmodat, 0, 1, NONE, -1, OP_PASS_ABS },
	{ __NR_chown, -1, 0, NONE, -1, OP_PASS_ABS },
	{ __NR_lchown, -1, 0, NONE, -1, OP_PASS_ABS },
	{ __NR_fchownat, 0, 1, NONE, 4, OP_PASS_ABS },
	{ __NR_utime, -1, 0, NONE, -1, OP_PASS_ABS },
	{ __NR_utimes, -1, 0, NONE, -1, OP_PASS_ABS },
	{ __NR_futimesat, 0, 1, NONE, -1, OP_PASS_ABS },
	{ __NR_utimensat, 0, 1, NONE, 3, OP_PASS_ABS },
	{ __NR_mknod, -1, 0, NONE, -1, OP_PASS_ABS },
	{ __NR_mknodat, 0, 1, NONE, -1, OP_PASS_ABS },
	{ __NR_setxattr, -1, 0, NONE, -1, OP_PASS_ABS },
	{ __NR_lsetxattr, -1, 0, NONE, -1, OP_PASS_ABS },
	{ __NR_removexattr, -1, 0, NONE, -1, OP_PASS_ABS },
	{ __NR_lremovexattr, -1, 0, NONE, -1, OP_PASS_ABS },
	{ __NR_inotify_add_watch, -1, 1, NONE, -1, OP_PASS_ABS },
};

static const struct rt_op *op_find(long nr)
{
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (ops[i].nr == nr)
			return &ops[i];
	}
	return NULL;
}

static long arg(const long *a, int i)
{
	return i < 0 ? AT_FDCWD_ : a[i];
}

static long same_call(long nr, const long *a)
{
	return rt_syscall6(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/*
 * A call not made through a grant, with each path that is relative to an emulated directory
 * replaced by its absolute form (a second target for a second path).
 */
static long pass_abs(long nr, const long *a, const struct rt_op *op, enum where w,
		     struct target *t)
{
	long b[6] = { a[0], a[1], a[2], a[3], a[4], a[5] };
	struct target t2;
	enum where w2;

	if (w == W_OUTSIDE || w == W_TREE)
		b[(int)op->path] = (long)t->buf;
	if (op->path2 >= 0) {
		w2 = resolve((int)arg(a, op->dirfd2), (const char *)a[(int)op->path2], 0, &t2);
		if (w2 == W_ERROR)
			return t2.err;
		if (w2 == W_OUTSIDE || w2 == W_TREE)
			b[(int)op->path2] = (long)t2.buf;
	}
	return same_call(nr, b);
}

/* A call whose path lies in a tree, made through its grant. */
static long through_grant(const struct rt_op *op, long nr, long *a, const struct target *t)
{
	long ret;

	switch (op->op) {
	case OP_OPEN:
		return do_open(t, op->dirfd < 0 ? a[1] : a[2], op->dirfd < 0 ? a[2] : a[3]);
	case OP_CREAT:
		return do_open(t, O_CREAT | O_WRONLY | O_TRUNC, a[1]);
	case OP_OPENAT2: {
		struct open_how how;

		if ((unsigned long)a[3] < sizeof(how))
			return E(EINVAL_);
		memcpy(&how, (const void *)a[2], sizeof(how));
		/* Already through a grant, or scoped in a way a tree path cannot keep: as is. */
		if ((how.flags & OA2_CRED_INHERIT) || (how.resolve & RESOLVE_IN_ROOT))
			return same_call(nr, a);
		return do_open(t, (long)how.flags, (long)how.mode);
	}
	case OP_STAT:
		return do_fstat_path(t, 0, nr, (void *)a[1], 0, 0);
	case OP_LSTAT:
		return do_fstat_path(t, 1, nr, (void *)a[1], 0, 0);
	case OP_FSTATAT:
		return do_fstat_path(t, (a[3] & AT_SYMLINK_NOFOLLOW_) != 0, nr, (void *)a[2], 0,
				     0);
	case OP_STATX:
		return do_fstat_path(t, (a[2] & AT_SYMLINK_NOFOLLOW_) != 0, nr, (void *)a[4],
				     a[2], a[3]);
	case OP_ACCESS:
		return do_access(t, a[1], 0);
	case OP_FACCESSAT:
		return do_access(t, a[2], nr == __NR_faccessat2 &&
				 (a[3] & AT_SYMLINK_NOFOLLOW_));
	case OP_READLINK:
		return do_readlink(t);
	case OP_CHDIR:
		return do_chdir(t);
	case OP_TRUNCATE:
		return do_truncate(t, a[1]);
	case OP_XATTR:
		return do_xattr(t, nr, a[1], a[2], a[3]);
	case OP_STATFS: {
		long fd = peek_open(t, 0);

		if (fd < 0)
			return fd;
		ret = SC2(__NR_fstatfs, fd, a[1]);
		SC1(__NR_close, fd);
		return ret;
	}
	}
	return E(EINVAL_);
}

static long redirect(long nr, long *a)
{
	const struct rt_op *op = op_find(nr);
	struct target t;
	long flags, ret;
	enum where w;

	if (nr == __NR_getcwd) {
		ret = do_getcwd((char *)a[0], (unsigned long)a[1]);
		return ret == -1 ? same_call(nr, a) : ret;
	}
	if (nr == __NR_fchdir) {
		ret = (long)dirfd_get((int)a[0], t.buf);
		if (ret) {
			cwd_set(t.buf, (size_t)ret);
			return 0;
		}
		ret = same_call(nr, a);
		if (ret == 0)
			cwd_set("", 0);
		return ret;
	}
	if (!op)
		return same_call(nr, a);
	flags = op->flags >= 0 ? a[(int)op->flags] : 0;
	w = resolve((int)arg(a, op->dirfd), (const char *)a[(int)op->path],
		    (flags & AT_EMPTY_PATH_) != 0, &t);
	if (w == W_ERROR)
		return t.err;
	if (op->op == OP_CHDIR && w != W_TREE) {
		/* Out of the trees: the kernel's working directory from now on. */
		ret = w == W_OUTSIDE ? SC1(__NR_chdir, t.buf) : same_call(nr, a);
		if (ret == 0)
			cwd_set("", 0);
		return ret;
	}
	if (op->op == OP_PASS_ABS || w != W_TREE)
		return w == W_PASS && op->path2 < 0 ? same_call(nr, a) : pass_abs(nr, a, op, w, &t);
	return through_grant(op, nr, a, &t);
}

/* ---- denials, signals ---------------------------------------------------------------- */

static size_t put(char *buf, size_t at, size_t cap, const char *s)
{
	while (*s && at < cap)
		buf[at++] = *s++;
	return at;
}


/* "credbox: PROG called WHAT\n" on the program's fd 2. */
void say(const char *what, const char *extra)
{
	char buf[512];
	size_t n = 0;

	n = put(buf, n, sizeof(buf) - 1, "credbox: ");
	n = put(buf, n, sizeof(buf) - 1, rt_conf.prog);
	n = put(buf, n, sizeof(buf) - 1, " called ");
	n = put(buf, n, sizeof(buf) - 1, what);
	if (extra)
		n = put(buf, n, sizeof(buf) - 1, extra);
	buf[n++] = '\n';
	SC3(__NR_write, 2, buf, n);
}

/*
 * A call the profile denies: name it once per system call, then make it from the exempt
 * instruction, where the filter returns the profile's verdict: the errno it asks for, or the
 * death of the process by SIGSYS, as without the runtime. The handler decides nothing.
 */
static long deny(long nr, long *a)
{
	uint32_t off = nr >= 0 && nr < RT_NR_MAX ? rt_conf.msg[nr] : rt_conf.default_msg;
	uint64_t bit = 1ULL << (nr & 63);
	uint64_t *word = nr >= 0 && nr < RT_NR_MAX ? &rt_state.explained[nr / 64] : NULL;

	if (!word || !(__atomic_fetch_or(word, bit, __ATOMIC_RELAXED) & bit)) {
		if (off && off - 1 < RT_POOL_SIZE)
			say(rt_conf.pool + off - 1, NULL);
		else
			say("a system call the profile denies", NULL);
	}
	return rt_syscall6(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/*
 * rt_sigaction and rt_sigprocmask: SIGSYS stays ours. The program's own SIGSYS action is kept
 * here and given the signals that are not the runtime's; SIGSYS never enters a blocked mask,
 * nor the mask of any handler (a trap while it is blocked would kill the process).
 */
static long signal_call(long nr, long *a, struct rt_ucontext *uc)
{
	struct rt_ksigaction act;
	uint64_t set;

	if (nr == __NR_rt_sigaction) {
		if (a[3] != 8)
			return E(EINVAL_);
		if (a[0] == SIGSYS_) {
			if (a[2])
				memcpy((void *)a[2], rt_state.sigsys_act, sizeof(act));
			if (a[1])
				memcpy(rt_state.sigsys_act, (const void *)a[1], sizeof(act));
			return 0;
		}
		if (!a[1])
			return rt_syscall6(nr, a[0], a[1], a[2], a[3], 0, 0);
		memcpy(&act, (const void *)a[1], sizeof(act));
		act.mask &= ~SIGBIT(SIGSYS_);
		return rt_syscall6(nr, a[0], (long)&act, a[2], a[3], 0, 0);
	}
	/*
	 * rt_sigprocmask: the mask the program runs with after this handler is the one saved in
	 * its signal frame, so that is the one changed.
	 */
	if (a[3] != 8 || (a[1] && (a[0] < 0 || a[0] > 2)))
		return E(EINVAL_);
	set = a[1] ? *(const uint64_t *)a[1] : 0;
	if (a[2])
		*(uint64_t *)a[2] = uc->sigmask |
				    (rt_state.sigsys_blocked ? SIGBIT(SIGSYS_) : 0);
	if (!a[1])
		return 0;
	if (a[0] == 0)
		uc->sigmask |= set;
	else if (a[0] == 1)
		uc->sigmask &= ~set;
	else
		uc->sigmask = set;
	if (a[0] != 1 && (set & SIGBIT(SIGSYS_)))
		rt_state.sigsys_blocked = 1;
	else if (a[0] == 2 || (a[0] == 1 && (set & SIGBIT(SIGSYS_))))
		rt_state.sigsys_blocked = 0;
	uc->sigmask &= ~(SIGBIT(SIGSYS_) | SIGBIT(9) | SIGBIT(19));
	if (!rt_state.sigsys_blocked && __atomic_exchange_n(&rt_state.sigsys_pending, 0,
							      __ATOMIC_ACQ_REL))
		SC3(__NR_tgkill, SC0(__NR_getpid), SC0(__NR_gettid), SIGSYS_);
	return 0;
}

/* A SIGSYS that is not ours: the program's own action, as the kernel would have taken it. */
static void pass_on(int sig, struct rt_siginfo *si, struct rt_ucontext *uc)
{
	struct rt_ksigaction act;
	uint64_t saved;

	memcpy(&act, rt_state.sigsys_act, sizeof(act));
	if (act.handler == SIG_IGN_)
		return;
	if (rt_state.sigsys_blocked) {
		__atomic_store_n(&rt_state.sigsys_pending, 1, __ATOMIC_RELEASE);
		return;
	}
	if (act.handler == SIG_DFL_) {
		/* Default: the process dies of SIGSYS. */
		struct rt_ksigaction dfl = { SIG_DFL_, 0, 0, 0 };

		SC4(__NR_rt_sigaction, SIGSYS_, &dfl, 0, 8);
		SC3(__NR_tgkill, SC0(__NR_getpid), SC0(__NR_gettid), SIGSYS_);
		return;
	}
	if (act.flags & SA_RESETHAND_) {
		memset(rt_state.sigsys_act, 0, sizeof(rt_state.sigsys_act));
	}
	act.mask &= ~SIGBIT(SIGSYS_);
	SC4(__NR_rt_sigprocmask, 0, &act.mask, &saved, 8);
	if (act.flags & SA_SIGINFO_)
		((void (*)(int, void *, void *))act.handler)(sig, si, uc);
	else
		((void (*)(int))act.handler)(sig);
	SC4(__NR_rt_sigprocmask, 2, &saved, 0, 8);
}

/* ---- the handler ------------------------------------------------------------------------ */

HIDDEN void rt_sigsys(int sig, struct rt_siginfo *si, struct rt_ucontext *uc)
{
	struct rt_sigcontext *r = &uc->mc;
	long a[6] = { (long)r->rdi, (long)r->rsi, (long)r->rdx, (long)r->r10, (long)r->r8,
		      (long)r->r9 };
	long nr = si->syscall;
	int kind;

	if (si->code != SYS_SECCOMP_ || ((uint32_t)si->errnum & RT_TRAP_TAG_MASK) != RT_TRAP_TAG) {
		rt_exec_signal(si);
		pass_on(sig, si, uc);
		return;
	}
	rt_exec_claim();
	kind = nr >= 0 && nr < RT_NR_MAX ? rt_conf.kind[nr] : RT_KIND_DENY;
	switch (kind) {
	case RT_KIND_NONE:
		r->rax = (uint64_t)same_call(nr, a);
		break;
	case RT_KIND_REDIRECT:
		r->rax = (uint64_t)redirect(nr, a);
		break;
	case RT_KIND_SIGNAL:
		r->rax = (uint64_t)signal_call(nr, a, uc);
		break;
	case RT_KIND_EXEC:
		r->rax = (uint64_t)rt_exec(nr, a, uc);
		break;
	default:
		r->rax = (uint64_t)deny(nr, a);
		break;
	}
}

/* Install the handler: called by credbox through rt_conf.base + offset, before seccomp. */
HIDDEN long rt_arm(void)
{
	struct rt_ksigaction act = {
		.handler = (void *)rt_sigsys,
		/*
		 * Not SA_ONSTACK: a program's alternate stack is sized for its own handlers (8 KiB
		 * is common), and this one needs up to 9 KiB of path buffers; it runs on the
		 * stack of the thread whose call trapped. SA_NODEFER: a handler of the program's
		 * that interrupts this one may make a trapped call of its own.
		 */
		.flags = SA_SIGINFO_ | SA_RESTORER_ | SA_NODEFER_,
		.restorer = (void *)rt_restorer,
		.mask = 0,
	};
	char buf[RT_PATH_MAX];
	const char *rel;
	size_t len = rt_strnlen(rt_conf.cwd, RT_PATH_MAX - 1);
	uint32_t i;

	/* Every fd of a grant is a directory of its tree, at its root. */
	for (i = 0; i < rt_conf.ngrants; i++) {
		struct rt_stat st;
		const struct rt_grant *g = &rt_conf.grants[i];

		if (SC2(__NR_fstat, g->fd, &st) == 0)
			dirfd_put(g->fd, (int)i, &st, g->path, g->len);
	}
	/* Started with the working directory in a tree: the program's is emulated from here. */
	memcpy(buf, rt_conf.cwd, len + 1);
	len = normalise(buf, len);
	if (buf[0] == '/' && grant_of(buf, len, &rel) >= 0)
		cwd_set(buf, dir_len(buf, len));
	rt_exec_arm();
	return SC4(__NR_rt_sigaction, SIGSYS_, &act, 0, 8);
}
