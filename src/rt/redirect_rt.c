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
#define O_CRED_ALLOW_		00400000000	/* the series' open flag, bit 26 */
#define AT_CRED_INHERIT_	0x20000
#ifndef __NR_fchmodat2
#define __NR_fchmodat2		452
#endif
#define NR_SYMLINKAT2		463	/* the series' symlinkat with flags (patches 15, 16) */
#define AT_FDCWD_	(-100)
#define SIGSYS_		31
#define SYS_SECCOMP_	1
#define SA_SIGINFO_	0x4
#define SA_RESTORER_	0x04000000
#define SA_ONSTACK_	0x08000000
#define SA_RESETHAND_	0x80000000u
#define SIG_DFL_	((void *)0)
#define SIG_IGN_	((void *)1)
#define SIGBIT(s)	(1ULL << ((s) - 1))
#define E(x)		(-(long)(x))
#define ENOENT_		2
#define EBADF_		9
#define EACCES_		13
#define EFAULT_		14
#define ESRCH_		3
#define PAGE_		4096UL
#define ENOTDIR_	20
#define E2BIG_		7
#define EXDEV_		18
#define EEXIST_		17
#define EINVAL_		22
#define ERANGE_		34
#define ENAMETOOLONG_	36
#define ELOOP_		40
#define EPERM_		1
#define ENOSYS_		38
#define EOPNOTSUPP_	95
#define EROFS_		30
#define S_IFMT_		0170000
#define S_IFDIR_	0040000
#define AT_SYMLINK_NOFOLLOW_	0x100
#define AT_EACCESS_	0x200
#define AT_REMOVEDIR_	0x200
#define AT_EMPTY_PATH_	0x1000
#define AT_SYMLINK_FOLLOW_	0x400

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

/*
 * The handler's entry, where the kernel's signal frame leaves it: on the program's alternate
 * stack if it has one (SA_ONSTACK), else on the stack of the call that trapped. Only this
 * entry and rt_stack_for (a few words) run there; rt_sigsys runs on the thread's stack of the
 * runtime's, below the frame of an outer trap when it is already there (a handler of the
 * program's that interrupted the runtime and trapped in turn). A thread the runtime has no
 * stack for stays where it is.
 *
 *	kernel's frame: siginfo, ucontext, fpstate; the restorer's address	<- entry rsp + 8
 *	saved rbp								<- rbp
 *	sig, si, uc, pad (rt_stack_for's call)
 *	...switch...
 *	runtime stack: rt_sigsys's frame					<- top
 */
__asm__(".text\n"
	".globl rt_sigsys_entry\n"
	".hidden rt_sigsys_entry\n"
	".type rt_sigsys_entry, @function\n"
	"rt_sigsys_entry:\n"
	"	push %rbp\n"
	"	mov %rsp, %rbp\n"
	"	push %rdi\n"
	"	push %rsi\n"
	"	push %rdx\n"
	"	sub $8, %rsp\n"
	"	mov %rbp, %rdi\n"
	"	call rt_stack_for\n"
	"	add $8, %rsp\n"
	"	pop %rdx\n"
	"	pop %rsi\n"
	"	pop %rdi\n"
	"	test %rax, %rax\n"
	"	jz 1f\n"
	"	mov %rax, %rsp\n"
	"1:	call rt_sigsys\n"
	"	mov %rbp, %rsp\n"
	"	pop %rbp\n"
	"	ret\n"
	".size rt_sigsys_entry, . - rt_sigsys_entry\n");

/* Filled by credbox, then read-only; and the runtime's own state. */
HIDDEN struct rt_conf rt_conf __attribute__((section(".bss.rt_conf"), aligned(4096)));
HIDDEN struct rt_state rt_state __attribute__((aligned(4096)));
/* The handler's stacks, one per thread that traps (struct rt_thread); zero pages until used. */
static unsigned char rt_stacks[RT_THREADS][RT_STACK_SIZE] __attribute__((aligned(4096)));

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

/*
 * Whether len bytes at p can be read: FUTEX_CMP_REQUEUE reads the first word of each page
 * they span (EFAULT where it cannot), compares it (EAGAIN, or 0) and requeues nobody; it
 * never sleeps. (FUTEX_WAIT with a zero timeout slept when the word matched: a timer tick, 4
 * ms, on a kernel without high-resolution timers, the timer slack on one with them.) A
 * thread of the program unmapping the memory meanwhile only hurts the program.
 */
int rt_readable(uintptr_t p, size_t len)
{
	uintptr_t page = p & ~(PAGE_ - 1), end = p + len;

	if (end < p)
		return 0;
	for (; page < end; page += PAGE_) {
		if (SC6(__NR_futex, page, 4 | 128 /* FUTEX_CMP_REQUEUE_PRIVATE */, 0, 0, page,
			0) == E(EFAULT_))
			return 0;
	}
	return 1;
}

/*
 * Whether the string at s can be read up to its NUL, or max bytes: each page is checked before
 * a byte of it is read.
 */
int rt_string_readable(const char *s, size_t max)
{
	uintptr_t p = (uintptr_t)s, end;
	size_t n = 0;

	while (n < max) {
		if (!rt_readable(p + n, 1))
			return 0;
		for (end = ((p + n) | (PAGE_ - 1)) + 1; p + n < end && n < max; n++) {
			if (!s[n])
				return 1;
		}
	}
	return 1;
}

/*
 * Whether len bytes at p can be written: FUTEX_WAKE_OP adds 0 to an aligned word of each page
 * they span (atomically: the word keeps its value whatever another thread does to it) and
 * says EFAULT where it cannot write; the word it wakes on is the runtime's own, never written.
 */
static int rt_writable(uintptr_t p, size_t len)
{
	static const uint32_t none;
	uintptr_t w = p & ~(uintptr_t)3, end = p + len;

	if (end < p)
		return 0;
	for (; w < end; w = (w | (PAGE_ - 1)) + 1) {
		if (SC6(__NR_futex, &none, 5 | 128 /* FUTEX_WAKE_OP_PRIVATE */, 0, 0, w,
			1 << 28 /* FUTEX_OP_ADD, 0 */) == E(EFAULT_))
			return 0;
	}
	return 1;
}

/* ---- threads: the handler's stack, SIGSYS's place in the mask ----------------------------- */

/*
 * The calling thread's entry: found by its tid (unique among live threads), else made at its
 * first trap, in a free slot or one whose thread has ended (tgkill says ESRCH), however the
 * thread was made (pthread_create, a raw clone, a vfork child: anything the runtime never
 * sees being made). The slot is claimed with one compare-and-exchange of the whole id, so two
 * new threads never take the same one. With all RT_THREADS slots held by live threads, the
 * spare entry: no stack (the handler stays on the trapping stack), SIGSYS's mask bit shared.
 */
static struct rt_thread *thread_new(uint32_t tid, uint32_t h)
{
	uint64_t id = (uint64_t)(uint32_t)SC0(__NR_getpid) << 32 | tid, old;
	uint32_t i, k;

	for (i = 0; i < RT_THREADS; i++) {
		struct rt_thread *t = &rt_state.threads[k = (h + i) % RT_THREADS];

		old = __atomic_load_n(&t->id, __ATOMIC_ACQUIRE);
		if (old && SC3(__NR_tgkill, old >> 32, (uint32_t)old, 0) != E(ESRCH_))
			continue;
		if (!__atomic_compare_exchange_n(&t->id, &old, id, 0, __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			continue;
		t->sigsys_blocked = 0;
		t->sigsys_pending = 0;
		/* A guard page: the handler overrunning its stack faults, never writes below. */
		if (!t->guarded && (rt_conf.exec_may & RT_MAY_MPROTECT) &&
		    SC3(__NR_mprotect, rt_stacks[k], PAGE_, 0 /* PROT_NONE */) == 0)
			t->guarded = 1;
		return t;
	}
	return &rt_state.threads[RT_THREADS];
}

static struct rt_thread *thread_self(void)
{
	uint32_t tid = (uint32_t)SC0(__NR_gettid), h = tid % RT_THREADS, i;

	for (i = 0; i < RT_THREADS; i++) {
		struct rt_thread *t = &rt_state.threads[(h + i) % RT_THREADS];

		if ((uint32_t)__atomic_load_n(&t->id, __ATOMIC_ACQUIRE) == tid)
			return t;
	}
	return thread_new(tid, h);
}

/*
 * From rt_sigsys_entry, with sp the stack the kernel's frame is on: the top of the thread's
 * runtime stack to switch to, or 0 to stay (already on it, or no stack for this thread). A
 * thread an exec is ending ends here instead.
 */
HIDDEN uintptr_t rt_stack_for(uintptr_t sp)
{
	struct rt_thread *t;
	uintptr_t base, top;

	rt_exec_early();
	t = thread_self();
	if (t == &rt_state.threads[RT_THREADS])
		return 0;
	base = (uintptr_t)rt_stacks[t - rt_state.threads];
	top = base + RT_STACK_SIZE;
	return sp >= base && sp < top ? 0 : top;
}

/* After an exec in place: one thread left, the caller; its entry keeps its mask bit. */
HIDDEN void rt_threads_exec(void)
{
	struct rt_thread *self = thread_self();
	uint32_t i;

	for (i = 0; i <= RT_THREADS; i++) {
		if (&rt_state.threads[i] != self)
			__atomic_store_n(&rt_state.threads[i].id, 0, __ATOMIC_RELEASE);
	}
}

/* ---- paths ------------------------------------------------------------------------------ */

/* Whether grant i was closed by the program's execve (a grant of exec = keep never is). */
int rt_grant_closed(uint32_t i)
{
	return (__atomic_load_n(&rt_state.grants_closed, __ATOMIC_ACQUIRE) >> i) & 1;
}

/* The grant whose tree holds the normalised absolute path p[0..len), or -1; *blen: its length. */
static int grant_index(const char *p, size_t len, size_t *blen)
{
	uint32_t i;
	int best = -1;

	*blen = 0;
	for (i = 0; i < rt_conf.ngrants; i++) {
		const struct rt_grant *g = &rt_conf.grants[i];

		if (rt_grant_closed(i) || g->len > len || memcmp(p, g->path, g->len) || g->len < *blen)
			continue;
		if (len == g->len || p[g->len] == '/' || g->len == 1) {
			best = (int)i;
			*blen = g->len;
		}
	}
	return best;
}

/* The grant whose tree holds the normalised absolute path p, or -1; *rel: the rest. */
static int grant_of(const char *p, size_t len, const char **rel)
{
	size_t blen;
	int best = grant_index(p, len, &blen);

	if (best >= 0) {
		const char *r = p + blen;

		while (*r == '/')
			r++;
		*rel = *r ? r : ".";
	}
	return best;
}

/*
 * Normalise an absolute path in place, lexically: "//" and "." vanish, ".." removes the
 * component before it (never above "/"), as a shell's cd does; a trailing '/' stays (it
 * asks for a directory). Returns the length; *left: a ".." left a tree (NULL: not asked).
 */
static size_t normalise(char *p, size_t len, int *left)
{
	size_t r = 0, w = 0, blen;
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
			if (left && !*left)
				*left = grant_index(p, w, &blen) >= 0;
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

static void cwd_set(const char *path, size_t len, uint32_t kernel, int fd, uint32_t deep);

/*
 * The slot a process without one of its own starts from: a child (fork, vfork, clone) of one
 * that had one, as the kernel copies fs_struct. Its memory says which process it was copied
 * from (mem_pid: a fork's child before its first trap, and its own forks, whose parent may be
 * gone: an orphan's ppid is 1); else, memory shared with the parent (vfork), the parent's.
 */
static struct rt_cwd *cwd_inherited(int pid)
{
	int32_t from = __atomic_load_n(&rt_state.mem_pid, __ATOMIC_ACQUIRE);
	struct rt_cwd *c = from && from != pid ? cwd_slot(from) : NULL;

	return c ? c : cwd_slot((int)SC0(__NR_getppid));
}

/*
 * From rt_exec.c, at a fork child's first trap, alone in its memory (a copy): the slot kept
 * for the process it was copied from is its own now (a slot of its pid left by a process that
 * ended is dropped first); its parent has its own copy of the memory.
 */
void rt_forked(int32_t pid)
{
	int32_t from = rt_state.mem_pid;
	int i;

	for (i = 0; from != pid && i < RT_CWD_SLOTS; i++) {
		if (rt_state.cwd[i].pid == pid)
			__atomic_store_n(&rt_state.cwd[i].pid, 0, __ATOMIC_RELEASE);
	}
	for (i = 0; from && from != pid && i < RT_CWD_SLOTS; i++) {
		if (rt_state.cwd[i].pid == from)
			__atomic_store_n(&rt_state.cwd[i].pid, pid, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&rt_state.mem_pid, pid, __ATOMIC_RELEASE);
}

/* Whether fd is still the file (dev, ino) of the runtime's record. */
static int fd_is(int fd, uint64_t dev, uint64_t ino)
{
	struct rt_stat st;

	return fd >= 0 && SC2(__NR_fstat, fd, &st) == 0 && st.dev == dev && st.ino == ino;
}

/*
 * Copy the working directory the runtime knows into buf; 0 when there is none. *kernel: it is
 * the kernel's own (outside the trees, but a tree lies beneath it: a relative path may lead
 * into one), not an emulated one. *fd (when asked): the directory that lends for it, checked
 * to be still that one (the program may have closed or replaced it), or -1; *lends then: 1,
 * or RT_DEEP when its path is too long to keep (buf is its tree's root).
 */
static size_t cwd_get(char *buf, uint32_t *kernel, int *fd, uint32_t *lends)
{
	int pid = (int)SC0(__NR_getpid), lender;
	struct rt_cwd *c = cwd_slot(pid);
	uint64_t dev, ino;
	uint32_t s, deep;
	size_t len;

	/*
	 * A process without a slot of its own is a child (fork, vfork, clone) of one that had
	 * one, or never left the kernel's working directory: a child starts where its parent
	 * was, as the kernel copies fs_struct.
	 */
	if (!c) {
		c = cwd_inherited(pid);
		if (!c)
			return 0;
	}
	do {
		if (seq_read_begin(&c->seq, &s))
			return 0;
		len = c->len;
		if (len >= RT_PATH_MAX)
			len = 0;
		*kernel = c->kernel;
		lender = c->fd;
		deep = c->deep;
		dev = c->dev;
		ino = c->ino;
		memcpy(buf, rt_state.cwd_path[c - rt_state.cwd], len);
	} while (seq_read_retry(&c->seq, s));
	buf[len] = '\0';
	if ((c->pid != pid || fd) && !fd_is(lender, dev, ino))
		lender = -1;
	/*
	 * The child's own copy from now on: the parent may move while the child stays. Its fd
	 * table is a copy too, with the same lender at the same number.
	 */
	if (c->pid != pid && len)
		cwd_set(buf, len, *kernel, lender, deep);
	if (fd) {
		*fd = len && !*kernel ? lender : -1;
		*lends = *fd < 0 ? 0 : deep ? RT_DEEP : 1;
	}
	return len;
}

/*
 * Set (len > 0) or drop (len == 0) the working directory of this process the runtime keeps:
 * an emulated one in a tree, with fd the directory that lends for it (the runtime's, or -1),
 * or (kernel) the kernel's own. The lender of the one before is closed.
 */
static void cwd_set(const char *path, size_t len, uint32_t kernel, int fd, uint32_t deep)
{
	int pid = (int)SC0(__NR_getpid), old_fd = -1;
	struct rt_cwd *c = cwd_slot(pid);
	struct rt_stat st = { 0 };
	uint64_t saved, old_dev = 0, old_ino = 0;
	char *kept;
	int i;

	/* Nothing kept, nothing to drop; but a child drops what it would read of its parent's. */
	if (!c && !len && !cwd_inherited(pid))
		return;
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
		if (!c) {
			if (fd >= 0)
				SC1(__NR_close, fd);
			return;	/* more processes than slots: the kernel's cwd it is */
		}
		c->fd = -1;	/* a slot taken over: its lender was another process's */
	}
	if (fd >= 0 && SC2(__NR_fstat, fd, &st) != 0)
		fd = -1;
	if (write_begin(&c->seq, &saved)) {
		if (fd >= 0)
			SC1(__NR_close, fd);
		return;
	}
	if (c->fd != fd) {
		old_fd = c->fd;
		old_dev = c->dev;
		old_ino = c->ino;
	}
	kept = rt_state.cwd_path[c - rt_state.cwd];
	memcpy(kept, path, len);
	kept[len] = '\0';
	c->len = (uint32_t)len;
	c->kernel = kernel;
	c->fd = fd;
	c->deep = fd >= 0 && deep;
	c->dev = st.dev;
	c->ino = st.ino;
	write_end(&c->seq, &saved);
	if (fd_is(old_fd, old_dev, old_ino))
		SC1(__NR_close, old_fd);
}

/*
 * A lender of the runtime's own for the working directory, a copy of fd: at a number out of
 * those a program counts on (it may have closed 0 and expect its next open there), as close
 * to RT_FD_MAX as the file limit lets; -1 when there is none to be had.
 */
static int cwd_lender(long fd)
{
	long high = SC3(__NR_fcntl, fd, F_DUPFD_CLOEXEC, RT_FD_MAX - 64);

	if (high < 0)
		high = SC3(__NR_fcntl, fd, F_DUPFD_CLOEXEC, 64);
	return high < 0 ? -1 : (int)high;
}

size_t rt_fd_link(char *buf, int fd)
{
	static const char self_fd[] = "/proc/self/fd/";
	size_t n = sizeof(self_fd) - 1, k = 0;
	char num[12];

	memcpy(buf, self_fd, n);
	for (; fd || !k; fd /= 10)
		num[k++] = (char)('0' + fd % 10);
	while (k)
		buf[n++] = num[--k];
	buf[n] = '\0';
	return n;
}

/*
 * The path the kernel has for an open directory (its /proc/self/fd link: it follows renames),
 * normalised into buf; 0 when it cannot be read (no /proc), or names no place in a tree.
 */
static size_t fd_path(int fd, char *buf)
{
	char link[RT_FD_LINK_MAX];
	const char *rel;
	long len;

	rt_fd_link(link, fd);
	len = SC4(__NR_readlinkat, AT_FDCWD_, link, buf, RT_PATH_MAX - 1);
	if (len <= 0 || buf[0] != '/')
		return 0;
	buf[len] = '\0';
	len = (long)dir_len(buf, normalise(buf, (size_t)len, NULL));
	return grant_of(buf, (size_t)len, &rel) >= 0 ? (size_t)len : 0;
}

static long tree_open(const struct target *t, long flags, long mode, uint64_t resolve);

/*
 * The directory t names, opened to lend and put at the runtime's own number (cwd_lender): a
 * working directory's lender, or -1 when there is none; *opened: the open's error, else 0;
 * *len (when path is given): the kernel's path for it (fd_path), 0 when unknown.
 */
static int cwd_open(const struct target *t, long *opened, char *path, size_t *len)
{
	long fd = tree_open(t, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_CRED_ALLOW_, 0, 0);
	int lender;

	*opened = fd < 0 ? fd : 0;
	if (fd < 0)
		return -1;
	if (path)
		*len = fd_path((int)fd, path);
	lender = cwd_lender(fd);
	SC1(__NR_close, fd);
	return lender;
}

/* Whether a tree lies beneath the normalised absolute directory path p (not in one). */
static int tree_below(const char *p, size_t len)
{
	uint32_t i;

	for (i = 0; i < rt_conf.ngrants; i++) {
		const struct rt_grant *g = &rt_conf.grants[i];

		if (!rt_grant_closed(i) && g->len > len && !memcmp(p, g->path, len) && (len == 1 || g->path[len] == '/'))
			return 1;
	}
	return 0;
}

/*
 * The kernel's working directory is the program's again (a chdir or fchdir outside the trees,
 * or the start): kept when a tree lies beneath it, so that a relative path into the tree
 * ("drive_c/X", as mkdir -p walks) is found in it.
 */
static void kernel_cwd(const char *path)
{
	char buf[RT_PATH_MAX];
	long len;

	if (path) {
		len = (long)rt_strnlen(path, RT_PATH_MAX - 1);
		memcpy(buf, path, (size_t)len + 1);
	} else {
		len = SC2(__NR_getcwd, buf, sizeof(buf)) - 1;
	}
	if (len > 0 && buf[0] == '/') {
		len = (long)normalise(buf, (size_t)len, NULL);
		len = (long)dir_len(buf, (size_t)len);
		if (tree_below(buf, (size_t)len)) {
			cwd_set(buf, (size_t)len, 1, -1, 0);
			return;
		}
	}
	cwd_set("", 0, 0, -1, 0);
}

/*
 * What the runtime recorded at fd's number (its path, whether it lends, the inode), whether
 * or not the fd is still that directory; 0: nothing.
 */
static size_t dirfd_entry(int fd, char *buf, uint32_t *lends, uint64_t *dev, uint64_t *ino)
{
	struct rt_dirfd *d;
	uint32_t s, l;
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
		*dev = d->dev;
		*ino = d->ino;
		l = d->lends;
		memcpy(buf, d->path, len);
	} while (seq_read_retry(&d->seq, s));
	buf[len] = '\0';
	if (lends)
		*lends = l;
	return len;
}

/*
 * The path of a tracked directory fd (still the same inode), or 0; *lends (when asked):
 * whether the fd lends, so that walks relative to it start there.
 */
static size_t dirfd_get(int fd, char *buf, uint32_t *lends)
{
	struct rt_stat st;
	uint64_t dev, ino;
	size_t len = dirfd_entry(fd, buf, lends, &dev, &ino);

	if (!len || SC2(__NR_fstat, fd, &st) < 0 || st.dev != dev || st.ino != ino)
		return 0;
	return len;
}

static void dirfd_put(int fd, int grant, const struct rt_stat *st, const char *path, size_t len,
		      uint32_t lends)
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
	d->lends = lends;
	memcpy(d->path, path, len);
	d->len = (uint32_t)len;
	write_end(&d->seq, &saved);
}

/*
 * A tracked directory fd that does not lend (opened without O_DIRECTORY, or learned from its
 * /proc link): made one that lends, by opening its path (the kernel's, else the one kept)
 * again so through its grant and putting that at its number, when the path still leads to
 * the same directory. The file position (where a readdir is) and the status flags go with
 * it. 1: it lends now.
 */
static int dirfd_lender(int fd, const char *path, size_t len)
{
	struct rt_stat st, again;
	struct target t;
	long l, flags = SC2(__NR_fcntl, fd, F_GETFL), pos = SC3(__NR_lseek, fd, 0, 1 /* CUR */);
	size_t n = fd_path(fd, t.buf);

	if (n) {	/* where the kernel has it now: it may have been renamed */
		path = t.buf;
		len = n;
	}
	t.grant = grant_of(path, len, &t.rel);
	if (t.grant < 0 || flags < 0 || SC2(__NR_fstat, fd, &st) != 0)
		return 0;
	t.fd = rt_conf.grants[t.grant].fd;
	l = tree_open(&t, (flags & (O_NONBLOCK | O_NOATIME | O_LARGEFILE)) | O_RDONLY |
		      O_DIRECTORY | O_CLOEXEC | O_CRED_ALLOW_, 0, 0);
	if (l < 0)
		return 0;
	if (SC2(__NR_fstat, l, &again) != 0 || again.dev != st.dev || again.ino != st.ino ||
	    (pos > 0 && SC3(__NR_lseek, l, pos, 0 /* SET */) != pos) ||
	    SC3(__NR_dup3, l, fd, O_CLOEXEC) != fd) {
		SC1(__NR_close, l);
		return 0;
	}
	SC1(__NR_close, l);
	dirfd_put(fd, t.grant, &st, path, len, 1);
	return 1;
}

/* The next component of *p past "/" and "." ones, its length in *n; NULL at the end. */
static const char *component(const char **p, size_t *n)
{
	const char *c;

	for (;;) {
		while (**p == '/')
			(*p)++;
		if (!**p)
			return NULL;
		c = *p;
		while (**p && **p != '/')
			(*p)++;
		*n = (size_t)(*p - c);
		if (*n != 1 || c[0] != '.')
			return c;
	}
}

/*
 * An absolute path whose part past a tree's own components has a ".." ("T/L/../f"): that
 * part as written, for the kernel to walk from the grant, where ".." after a symbolic link
 * is the parent of its target, as without the grant; *grant: the tree's (the longest one
 * that matches). NULL when there is none, or a ".." comes before the tree is reached or
 * climbs above it as written ("T/../x", which DOSBox stats): then the path is taken as it
 * reads.
 */
static const char *raw_rel(const char *path, int *grant)
{
	const char *best = NULL, *rest, *c, *g, *gc;
	size_t n, gn, blen = 0, depth = 0;
	uint32_t i;
	int dots = 0;

	for (i = 0; i < rt_conf.ngrants && i < RT_MAX_GRANTS; i++) {
		if (rt_grant_closed(i) || (best && rt_conf.grants[i].len <= blen))
			continue;
		rest = path;
		g = rt_conf.grants[i].path;
		while ((gc = component(&g, &gn)) != NULL) {
			c = component(&rest, &n);
			if (!c || n != gn || memcmp(c, gc, n) || (n == 2 && c[0] == '.' && c[1] == '.'))
				break;
		}
		if (gc)
			continue;
		best = rest;
		blen = rt_conf.grants[i].len;
		*grant = (int)i;
	}
	if (!best)
		return NULL;
	for (rest = best; (c = component(&rest, &n)) != NULL;) {
		if (n != 2 || c[0] != '.' || c[1] != '.')
			depth++;
		else if (depth-- == 0)
			return NULL;	/* above the tree as written: taken as the path reads */
		else
			dots = 1;
	}
	while (*best == '/')
		best++;
	return dots ? best : NULL;
}

/*
 * A relative path from a directory that lends (the working directory, or the program's dirfd
 * in a tree): the kernel walks it from there, beneath the root of the grant it was lent
 * from, resolving ".." and symbolic links as it does for any walk; the directory is a kernel
 * object, which follows renames. The path made absolute and normalised (buf, as long as it
 * fits) is kept for a walk that leaves the tree: lexical(). t->buf holds the directory's
 * path, base bytes.
 */
static enum where kernel_first(struct target *t, int lender, uint32_t lends, const char *path,
			       size_t len, size_t base)
{
	const char *rel;
	int grant = grant_of(t->buf, base, &rel);

	if (grant < 0)
		return W_ERROR;	/* its path is not in a tree any more: by the path */
	t->kernel_first = 1;
	t->grant = grant;
	t->fd = lender;
	t->rel = path;
	t->lex = W_ERROR;
	t->err = E(ENAMETOOLONG_);
	t->len = base;	/* too long to write out: the directory's, for want of better */
	if (lends != RT_DEEP && base + 1 + len < RT_PATH_MAX) {
		t->buf[base] = '/';
		memcpy(t->buf + base + 1, path, len + 1);
		t->len = normalise(t->buf, base + 1 + len, NULL);
		t->lex_grant = grant_of(t->buf, t->len, &t->lex_rel);
		t->lex = t->lex_grant >= 0 ? W_TREE : W_OUTSIDE;
	}
	return W_TREE;
}

/* A kernel-first target taken as its path reads: in a tree, outside, or too long. */
enum where lexical(struct target *t)
{
	if (!t->kernel_first)
		return W_TREE;
	t->kernel_first = 0;
	if (t->lex == W_TREE) {
		t->grant = t->lex_grant;
		t->fd = rt_conf.grants[t->grant].fd;
		t->rel = t->lex_rel;
	}
	return t->lex;
}

/* empty_ok: "" with AT_EMPTY_PATH means the dirfd itself. */
enum where resolve(int dirfd, const char *path, int empty_ok, struct target *t)
{
	size_t len, base = 0;
	uint32_t kernel = 0, lends = 0;
	int left = 0, lender = -1, grant;
	const char *raw;
	enum where w;

	t->kernel_first = 0;
	if (!path)
		return W_PASS;		/* the kernel's EFAULT */
	len = rt_strnlen(path, RT_PATH_MAX);
	if (len == RT_PATH_MAX) {
		t->err = E(ENAMETOOLONG_);
		return W_ERROR;
	}
	if (len && path[0] == '/') {
		memcpy(t->buf, path, len + 1);
	} else {
		if (!len && !empty_ok)
			return W_PASS;	/* ENOENT */
		if (dirfd == AT_FDCWD_) {
			base = cwd_get(t->buf, &kernel, &lender, &lends);
		} else {
			base = dirfd_get(dirfd, t->buf, &lends);
			if (base && len && !lends)
				lends = dirfd_lender(dirfd, t->buf, base);
			lender = lends ? dirfd : -1;
		}
		if (!base)
			return W_PASS;	/* relative to the kernel's own idea: not in a tree */
		if (len && lender >= 0 &&
		    kernel_first(t, lender, lends, path, len, base) == W_TREE)
			return W_TREE;
		if (lends == RT_DEEP) {
			t->err = E(ENAMETOOLONG_);
			return W_ERROR;	/* "" or no tree: no path to take it by */
		}
		if (len && base + 1 + len >= RT_PATH_MAX) {
			t->err = E(ENAMETOOLONG_);
			return W_ERROR;
		}
		if (len) {
			t->buf[base] = '/';
			memcpy(t->buf + base + 1, path, len + 1);
			len += base + 1;
		} else {
			len = base;	/* the directory itself */
		}
	}
	t->len = normalise(t->buf, len, &left);
	t->grant = grant_of(t->buf, t->len, &t->rel);
	if (t->grant >= 0) {
		t->fd = rt_conf.grants[t->grant].fd;
		w = W_TREE;
	} else if (kernel && !left) {
		return W_PASS;	/* from the kernel's working directory, and out of the trees */
	} else {
		/*
		 * Out of every tree, but by a ".." from inside one ("drive/.."): the kernel's
		 * walk of the path as given would cross the tree with the program's own rights;
		 * the path it leads to is the answer.
		 */
		w = base || left ? W_OUTSIDE : W_PASS;
	}
	if (!base && left && (raw = raw_rel(path, &grant)) != NULL) {
		/* An absolute path with ".." past a tree's own part: the kernel walks that part. */
		t->kernel_first = 1;
		t->lex = w;
		t->lex_grant = t->grant;
		t->lex_rel = t->rel;
		t->grant = grant;
		t->fd = rt_conf.grants[grant].fd;
		t->rel = raw;
		return W_TREE;
	}
	return w;
}

/*
 * Whether path names this process's /proc/.../exe link ("/proc/self/exe",
 * "/proc/thread-self/exe", "/proc/PID/exe" of its own pid), which names credbox: the kernel
 * started credbox, and the runtime loaded the program. The runtime answers for it with the
 * program's file (rt_state.exe), so that a program re-executing itself (busybox's applets)
 * runs itself again.
 */
/* path past the prefix pre, or NULL (read no further than a mismatch or its end) */
static const char *past(const char *path, const char *pre)
{
	while (*pre && *path == *pre)
		path++, pre++;
	return *pre ? NULL : path;
}

int rt_self_exe(const char *path)
{
	const char *p, *q;
	long pid, n = 0;

	if (!path || !rt_state.exe[0] || !(p = past(path, "/proc/")))
		return 0;
	if ((q = past(p, "self/")) || (q = past(p, "thread-self/"))) {
		p = q;
	} else {
		pid = SC0(__NR_getpid);
		if (*p < '1' || *p > '9')
			return 0;
		while (*p >= '0' && *p <= '9' && n < 1L << 31)
			n = n * 10 + (*p++ - '0');
		if (n != pid || *p++ != '/')
			return 0;
	}
	q = past(p, "exe");
	return q && !*q;
}

/* ---- operations through a grant ------------------------------------------------------------ */

/* What open(2) takes; it ignores other bits, openat2(2) refuses them. */
#define VALID_OPEN_FLAGS (O_ACCMODE | O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_APPEND | \
			  O_NONBLOCK | O_DSYNC | FASYNC | O_DIRECT | O_LARGEFILE | O_DIRECTORY | \
			  O_NOFOLLOW | O_NOATIME | O_CLOEXEC | __O_SYNC | O_PATH | __O_TMPFILE)

/* What openat2(2) takes besides: RESOLVE_* bits a borrowed open keeps as the program asked. */
#define RESOLVE_KNOWN	(RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_SYMLINKS | \
			 RESOLVE_BENEATH | RESOLVE_IN_ROOT | RESOLVE_CACHED)
#define RESOLVE_KEPT	(RESOLVE_NO_XDEV | RESOLVE_NO_SYMLINKS | RESOLVE_CACHED)

/*
 * The open through the grant, beneath it, with the resolve bits the program asked for that
 * still mean the same there (@resolve: RESOLVE_KEPT bits; a borrowed walk crosses no mount
 * and follows no magic link anyway). O_TMPFILE makes an inode no name reaches, which the
 * kernel does not lend: the tree answers as a file system without it, EOPNOTSUPP, which
 * glibc's tmpfile() and python's TemporaryFile take as "use a named file".
 */
static long tree_open(const struct target *t, long flags, long mode, uint64_t resolve)
{
	struct open_how how = {
		.flags = (uint64_t)((unsigned int)flags & (VALID_OPEN_FLAGS | O_CRED_ALLOW_)) |
			 OA2_CRED_INHERIT,
		.mode = (flags & (O_CREAT | __O_TMPFILE)) ? (uint64_t)mode & 07777 : 0,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS | (resolve & RESOLVE_KEPT),
	};

	if ((flags & __O_TMPFILE) == __O_TMPFILE)
		return E(EOPNOTSUPP_);
	return SC4(__NR_openat2, t->fd, t->rel, &how, sizeof(how));
}

/*
 * A directory the program now holds: remember its path, and whether it lends, for *at calls
 * and fchdir.
 */
static void track_dir(long fd, const struct target *t, uint32_t lends)
{
	const struct rt_grant *g = &rt_conf.grants[t->grant];
	size_t len = dir_len(t->buf, t->len);
	char buf[RT_PATH_MAX];
	struct rt_stat st;

	if (fd < 0 || SC2(__NR_fstat, fd, &st) != 0 || (st.mode & S_IFMT_) != S_IFDIR_)
		return;
	/*
	 * Found by the kernel where the path, read lexically, leaves the tree ("L/.." with L a
	 * link deeper in it): the path the kernel has for it.
	 */
	if (t->kernel_first && t->lex == W_OUTSIDE && (len = fd_path((int)fd, buf)) != 0) {
		dirfd_put((int)fd, t->grant, &st, buf, len, lends);
		return;
	}
	/* A lender deeper than a path can say: kept by its tree, for the kernel's walks. */
	if (lends && ((t->kernel_first && t->lex != W_TREE) ||
		      len >= sizeof(rt_state.fds[0].path)))
		dirfd_put((int)fd, t->grant, &st, g->path, g->len, RT_DEEP);
	else
		dirfd_put((int)fd, t->grant, &st, t->buf, len, lends);
}

/*
 * An open in a tree. A directory opened with O_DIRECTORY lends (O_CRED_ALLOW), beneath its
 * grant's root: the walks relative to it start there, in the kernel (kernel_first). One
 * opened without it becomes one at its first use as a dirfd (dirfd_lender). An O_PATH
 * handle lends nothing (the kernel refuses the pair): its walks go by its path.
 */
static long do_open(const struct target *t, long flags, long mode, uint64_t resolve)
{
	int lends = (flags & O_DIRECTORY) && !(flags & (O_PATH | O_CREAT));
	long fd = tree_open(t, flags | (lends ? O_CRED_ALLOW_ : 0), mode, resolve);

	if (fd >= 0 && (flags & O_DIRECTORY))
		track_dir(fd, t, (uint32_t)lends);
	return fd;
}

/*
 * Open what a path names only to look at it, without opening the file itself (O_PATH: no
 * FIFO blocks, no device is touched, no read permission needed).
 */
static long peek_open(const struct target *t, int nofollow)
{
	return tree_open(t, O_PATH | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0), 0, 0);
}

/*
 * The kernel's directory operations and lookups with the grant's credentials: the call itself
 * on the grant's fd with AT_CRED_INHERIT, beneath it (the kernel scopes the walk as
 * RESOLVE_BENEATH; the path is the tree's relative one). AT_EMPTY_PATH goes: an empty path on
 * a directory fd was made its path by resolve, and the kernel refuses it with the flag.
 */
static long do_stat(const struct target *t, long nr, long flags, long mask, void *buf)
{
	flags = (flags & ~(long)AT_EMPTY_PATH_) | AT_CRED_INHERIT_;
	if (nr == __NR_statx)
		return SC5(__NR_statx, t->fd, t->rel, flags, mask, buf);
	return SC4(__NR_newfstatat, t->fd, t->rel, buf, flags);
}

/*
 * access(2) through a grant: the kernel checks the mode against the identity the grant lends;
 * a read-only grant refuses W_OK, as Landlock refuses the open for writing.
 */
static long do_access(const struct target *t, long mode, long flags)
{
	long ret = SC4(__NR_faccessat2, t->fd, t->rel, mode,
		       (flags & (AT_SYMLINK_NOFOLLOW_ | AT_EACCESS_)) | AT_CRED_INHERIT_);

	if (ret == 0 && (mode & 2) && !rt_conf.grants[t->grant].rw)
		return E(EACCES_);
	return ret;
}

/* A handle on the link itself (O_PATH | O_NOFOLLOW), then readlinkat(fd, ""): no walk. */
static long do_readlink(const struct target *t, char *buf, long size)
{
	long fd = peek_open(t, 1), ret;

	if (fd < 0)
		return fd;
	ret = SC4(__NR_readlinkat, fd, "", buf, size);
	SC1(__NR_close, fd);
	return ret == E(ENOENT_) ? E(EINVAL_) : ret;	/* "": ENOENT for what is not a link */
}

/* mkdir: openat2(O_CREAT | O_DIRECTORY | O_EXCL) with the flag makes and opens it. */
static long do_mkdir(const struct target *t, long mode)
{
	long fd;

	if (!memcmp(t->rel, ".", 2))
		return E(EEXIST_);	/* the tree's root, as mkdir(".") */
	fd = tree_open(t, O_CREAT | O_DIRECTORY | O_EXCL | O_CLOEXEC, mode & 01777, 0);
	if (fd < 0)
		return fd;
	SC1(__NR_close, fd);
	return 0;
}

/*
 * chdir into a tree: the directory, opened to lend, is the working directory the runtime
 * keeps (a copy at a number of its own), with the path the kernel has for it.
 */
static long do_chdir(const struct target *t)
{
	char buf[RT_PATH_MAX];
	size_t len = 0;
	long e;
	int fd = cwd_open(t, &e, buf, &len);

	if (e)
		return e;
	if (len)
		cwd_set(buf, len, 0, fd, 0);
	else if (t->kernel_first && t->lex == W_ERROR)
		cwd_set(rt_conf.grants[t->grant].path, rt_conf.grants[t->grant].len, 0, fd, 1);
	else
		cwd_set(t->buf, dir_len(t->buf, t->len), 0, fd, 0);
	return 0;
}

static long do_truncate(const struct target *t, long length)
{
	long fd = tree_open(t, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0, 0), ret;

	if (fd < 0)
		return fd;
	ret = SC2(__NR_ftruncate, fd, length);
	SC1(__NR_close, fd);
	return ret;
}

/*
 * The xattr reads, on a read-only open (fgetxattr refuses O_PATH files). A symbolic link
 * cannot be opened so (ELOOP from O_NOFOLLOW): EACCES, as the kernel would have answered
 * without the grant.
 */
static long do_xattr(const struct target *t, long nr, long a1, long a2, long a3)
{
	int nofollow = nr == __NR_lgetxattr || nr == __NR_llistxattr;
	long fd = tree_open(t, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
			    (nofollow ? O_NOFOLLOW : 0), 0, 0), ret;

	if (fd < 0)
		return nofollow && fd == E(ELOOP_) ? E(EACCES_) : fd;
	if (nr == __NR_getxattr || nr == __NR_lgetxattr)
		ret = SC4(__NR_fgetxattr, fd, a1, a2, a3);
	else
		ret = SC3(__NR_flistxattr, fd, a1, a2);
	SC1(__NR_close, fd);
	return ret;
}

/*
 * Modes, times and links through a grant (the series' patches 13-16): the kernel lends them
 * with AT_CRED_INHERIT, sets no set-id bit and keeps the tree's top directory's mode; a
 * read-only grant refuses them (EROFS).
 */
static long do_chmod(const struct target *t, long mode, long flags)
{
	return SC4(__NR_fchmodat2, t->fd, t->rel, mode,
		   (flags & AT_SYMLINK_NOFOLLOW_) | AT_CRED_INHERIT_);
}

struct rt_timespec {
	int64_t sec, nsec;
};

static long do_utimens(const struct target *t, const struct rt_timespec *ts, long flags)
{
	return SC4(__NR_utimensat, t->fd, t->rel, ts,
		   (flags & AT_SYMLINK_NOFOLLOW_) | AT_CRED_INHERIT_);
}

/*
 * utime(2) (struct utimbuf: two longs of seconds) and utimes(2), futimesat(2) (two struct
 * timeval): the same times as timespecs; NULL is now, as for utimensat.
 */
static long times_of(const int64_t *u, int timeval, struct rt_timespec ts[2])
{
	int i;

	for (i = 0; i < 2; i++) {
		int64_t usec = timeval ? u[2 * i + 1] : 0;

		if (usec < 0 || usec >= 1000000)
			return E(EINVAL_);
		ts[i].sec = timeval ? u[2 * i] : u[i];
		ts[i].nsec = usec * 1000;
	}
	return 0;
}

static long do_utime(const struct target *t, const int64_t *u, int timeval)
{
	struct rt_timespec ts[2];

	if (!u)
		return do_utimens(t, NULL, 0);
	return times_of(u, timeval, ts) ?: do_utimens(t, ts, 0);
}

/*
 * chown, lchown, fchownat in a tree: the kernel lends no chown (the lender's files would be
 * given away), and the program's own call would walk the tree it cannot search (EACCES). The
 * answer is the kernel's to a change of owner one may not make, EPERM, after the file is
 * looked up through the grant (ENOENT, ...); a chown that changes nothing (-1, -1) is 0. So
 * cp -a and tar as a user, which take EPERM as "not root", go on.
 */
static long do_chown(const struct target *t, long uid, long gid, long flags)
{
	struct rt_stat st;
	long ret = do_stat(t, __NR_newfstatat, flags & AT_SYMLINK_NOFOLLOW_, 0, &st);

	if (ret < 0)
		return ret;
	return (int)uid == -1 && (int)gid == -1 ? 0 : E(EPERM_);
}

/*
 * setxattr, removexattr and their l forms in a tree: the kernel lends no xattr write, and the
 * program's own call would walk the tree it cannot search (EACCES). The tree answers as a
 * file system without extended attributes does, EOPNOTSUPP, once the file is looked up through
 * the grant: cp -a and the ACL library take that as "nothing to preserve" (gnulib's
 * acl_errno_valid), as on such a file system.
 */
static long do_xattr_set(const struct target *t, long nr)
{
	struct rt_stat st;
	long ret = do_stat(t, __NR_newfstatat, nr == __NR_lsetxattr || nr == __NR_lremovexattr ?
			   AT_SYMLINK_NOFOLLOW_ : 0, 0, &st);

	return ret < 0 ? ret : E(EOPNOTSUPP_);
}

static long do_symlink(const char *target, const struct target *t)
{
	return SC4(NR_SYMLINKAT2, target, t->fd, t->rel, AT_CRED_INHERIT_);
}

/*
 * fchmod(2) and futimens(3) of a file the program holds: the kernel's fd form with the flag
 * first, which acts only on a file opened through a lent directory, with the identity it was
 * opened with (a file in a tree changes as its path would); any other fd it refuses (EPERM),
 * as a kernel without the form does (EINVAL), and then the program's own call is made. The
 * other order would answer a borrowed file with the program's own identity first: on a file
 * of the tree that the program's uid happens to own it would act with its own rights and
 * ignore a read-only loan. Either way nothing is done that the program could not do itself.
 */
static long fd_form(long nr, const long *a, long ret)
{
	if (ret == E(EPERM_) || ret == E(EINVAL_) || ret == E(ENOSYS_))
		return rt_syscall6(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	return ret;
}

static long do_fchmod(const long *a)
{
	return fd_form(__NR_fchmod, a, SC4(__NR_fchmodat2, a[0], "", a[1],
					   AT_EMPTY_PATH_ | AT_CRED_INHERIT_));
}

/* futimesat(fd, NULL, timevals): futimes(3), the same fd form. */
static long do_futimes(long nr, const long *a)
{
	struct rt_timespec ts[2];
	const int64_t *u = (const int64_t *)a[2];

	if (u && times_of(u, 1, ts))
		return E(EINVAL_);
	return fd_form(nr, a, SC4(__NR_utimensat, a[0], "", u ? ts : NULL,
				  AT_EMPTY_PATH_ | AT_CRED_INHERIT_));
}

/* futimens' own form, utimensat(fd, NULL, times, 0): flags there are the kernel's EINVAL. */
static long do_futimens(long nr, const long *a)
{
	if (a[3])
		return rt_syscall6(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	return fd_form(nr, a, SC4(__NR_utimensat, a[0], "", a[2],
				  AT_EMPTY_PATH_ | AT_CRED_INHERIT_));
}

/*
 * "/proc/self/fd/N" or "/proc/thread-self/fd/N": the name of a file the program holds.
 * glibc's fchmodat(AT_SYMLINK_NOFOLLOW) opens the file O_PATH and changes it by that name,
 * which the kernel follows with the program's own identity; for a file held from a tree it is
 * the fd form on N. Returns N, or -1 for any other path.
 */
static int proc_fd_name(const char *path)
{
	static const char *const dirs[] = { "/proc/self/fd/", "/proc/thread-self/fd/" };
	size_t i, n;
	long fd = 0;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		for (n = 0; dirs[i][n] && path[n] == dirs[i][n]; n++)
			;	/* stops at the path's end: no byte past it is read */
		if (!dirs[i][n])
			break;
	}
	if (i == sizeof(dirs) / sizeof(dirs[0]) || !path[n])
		return -1;
	for (; path[n]; n++) {
		if (path[n] < '0' || path[n] > '9' || fd >= RT_FD_MAX)
			return -1;
		fd = fd * 10 + path[n] - '0';
	}
	return (int)fd;
}

/*
 * getcwd of an emulated working directory: the kernel's path of its lender (which follows
 * renames), as the kernel would answer; ENOENT once it was removed, as the kernel says.
 */
static long do_getcwd(char *ubuf, unsigned long size)
{
	char buf[RT_PATH_MAX];
	struct rt_stat st;
	uint32_t kernel = 0, deep = 0;
	int fd = -1;
	size_t len = cwd_get(buf, &kernel, &fd, &deep), now;

	if (!len || kernel)
		return -1;	/* not emulated: the kernel's */
	if (fd >= 0 && SC2(__NR_fstat, fd, &st) == 0 && st.nlink == 0)
		return E(ENOENT_);
	if (fd >= 0 && (now = fd_path(fd, buf)) != 0)
		len = now;
	else if (deep)
		return E(ENAMETOOLONG_);	/* as the kernel's getcwd past PATH_MAX */
	if (size < len + 1)
		return E(ERANGE_);
	if (!rt_writable((uintptr_t)ubuf, len + 1))
		return E(EFAULT_);
	memcpy(ubuf, buf, len + 1);
	return (long)len + 1;
}

/*
 * close_range from the program (glibc's closefrom, python's subprocess in the child before
 * its exec): made around the runtime's own descriptors, which stay open, the grants' (a
 * grant of exec = keep is there for the programs the program execs) and the working
 * directory's lender; the program is told the whole range is closed, as a closed grant would
 * only take the tree from it. The first error is the answer.
 */
static long do_close_range(const long *a)
{
	unsigned int lo = (unsigned int)a[0], hi = (unsigned int)a[1], keep[RT_MAX_GRANTS + 1];
	unsigned int n = 0, i, j, v;
	char buf[RT_PATH_MAX];
	uint32_t kernel = 0, lends = 0;
	int cwd = -1;
	long r = 0, e;

	if (lo > hi)
		return SC3(__NR_close_range, a[0], a[1], a[2]);	/* EINVAL */
	for (i = 0; i < rt_conf.ngrants && i < RT_MAX_GRANTS; i++) {
		v = (unsigned int)rt_conf.grants[i].fd;
		if (!rt_grant_closed(i) && v >= lo && v <= hi)
			keep[n++] = v;
	}
	if (cwd_get(buf, &kernel, &cwd, &lends) && cwd >= 0 && (unsigned int)cwd >= lo &&
	    (unsigned int)cwd <= hi)
		keep[n++] = (unsigned int)cwd;
	for (i = 1; i < n; i++) {	/* in order */
		for (j = i, v = keep[i]; j > 0 && keep[j - 1] > v; j--)
			keep[j] = keep[j - 1];
		keep[j] = v;
	}
	for (i = 0; i < n; i++) {
		if (keep[i] > lo) {
			e = SC3(__NR_close_range, lo, keep[i] - 1, a[2]);
			r = r ? r : e;
		}
		lo = keep[i] + 1;
	}
	if (!n || keep[n - 1] < hi) {
		e = SC3(__NR_close_range, lo, hi, a[2]);
		r = r ? r : e;
	}
	return r;
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
	OP_FACCESSAT, OP_READLINK, OP_CHDIR, OP_TRUNCATE, OP_XATTR, OP_STATFS, OP_MKDIR,
	OP_UNLINK, OP_RMDIR, OP_UNLINKAT, OP_RENAME, OP_CHMOD, OP_UTIME, OP_UTIMES, OP_UTIMENSAT,
	OP_LINK, OP_SYMLINK, OP_CHOWN, OP_XATTR_SET, OP_PASS_ABS,
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
	{ __NR_mkdir, -1, 0, NONE, -1, OP_MKDIR },
	{ __NR_mkdirat, 0, 1, NONE, -1, OP_MKDIR },
	{ __NR_unlink, -1, 0, NONE, -1, OP_UNLINK },
	{ __NR_unlinkat, 0, 1, NONE, -1, OP_UNLINKAT },
	{ __NR_rmdir, -1, 0, NONE, -1, OP_RMDIR },
	{ __NR_rename, -1, 0, -1, 1, -1, OP_RENAME },
	{ __NR_renameat, 0, 1, 2, 3, -1, OP_RENAME },
	{ __NR_renameat2, 0, 1, 2, 3, -1, OP_RENAME },
	/* Links, modes and times (the series' patches 13-16); symlink's path is the link's. */
	{ __NR_link, -1, 0, -1, 1, -1, OP_LINK },
	{ __NR_linkat, 0, 1, 2, 3, 4, OP_LINK },
	{ __NR_symlink, -1, 1, NONE, -1, OP_SYMLINK },
	{ __NR_symlinkat, 1, 2, NONE, -1, OP_SYMLINK },
	{ __NR_chmod, -1, 0, NONE, -1, OP_CHMOD },
	{ __NR_fchmodat, 0, 1, NONE, -1, OP_CHMOD },
	{ __NR_fchmodat2, 0, 1, NONE, 3, OP_CHMOD },
	{ __NR_utime, -1, 0, NONE, -1, OP_UTIME },
	{ __NR_utimes, -1, 0, NONE, -1, OP_UTIMES },
	{ __NR_futimesat, 0, 1, NONE, -1, OP_UTIMES },
	{ __NR_utimensat, 0, 1, NONE, 3, OP_UTIMENSAT },
	/* Changes of owner: not lent, answered as the kernel answers a chown one may not make. */
	{ __NR_chown, -1, 0, NONE, -1, OP_CHOWN },
	{ __NR_lchown, -1, 0, NONE, -1, OP_CHOWN },
	{ __NR_fchownat, 0, 1, NONE, 4, OP_CHOWN },
	/* xattr writes (ACLs too): not lent; the tree is one without them (EOPNOTSUPP) */
	{ __NR_setxattr, -1, 0, NONE, -1, OP_XATTR_SET },
	{ __NR_lsetxattr, -1, 0, NONE, -1, OP_XATTR_SET },
	{ __NR_removexattr, -1, 0, NONE, -1, OP_XATTR_SET },
	{ __NR_lremovexattr, -1, 0, NONE, -1, OP_XATTR_SET },
	/*
	 * Not through a grant: the kernel lends no credentials to device nodes and FIFOs.
	 * Relative to an emulated working directory they are made on the absolute path, with
	 * the program's own rights (in a tree: EACCES), never on the kernel's working
	 * directory, which is not the program's.
	 */
	{ __NR_mknod, -1, 0, NONE, -1, OP_PASS_ABS },
	{ __NR_mknodat, 0, 1, NONE, -1, OP_PASS_ABS },
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

/* A second name, as its path reads (see the first's in redirect_once). */
static enum where lexical_resolve(int dirfd, const char *path, struct target *t)
{
	enum where w = resolve(dirfd, path, 0, t);

	return t->kernel_first ? lexical(t) : w;
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
		w2 = lexical_resolve((int)arg(a, op->dirfd2), (const char *)a[(int)op->path2], &t2);
		if (w2 == W_ERROR)
			return t2.err;
		if (w2 == W_OUTSIDE || w2 == W_TREE)
			b[(int)op->path2] = (long)t2.buf;
	}
	return same_call(nr, b);
}

/*
 * rename, the first name at (w, t): both names beneath one grant, on its one fd (the kernel
 * takes a rename between two open directories as EXDEV, as between file systems: mv copies
 * then). Between two trees, or between a tree and a path outside every tree: EXDEV too.
 * Neither in a tree: the program's own call.
 */
static long do_rename(long nr, long *a, const struct rt_op *op, enum where w, struct target *t)
{
	long flags = nr == __NR_renameat2 ? a[4] : 0;
	struct target t2;
	enum where w2;

	w2 = lexical_resolve((int)arg(a, op->dirfd2), (const char *)a[(int)op->path2], &t2);
	if (w2 == W_ERROR)
		return t2.err;
	if (w != W_TREE && w2 != W_TREE)
		return w == W_PASS && w2 == W_PASS ? same_call(nr, a) : pass_abs(nr, a, op, w, t);
	if (w != W_TREE || w2 != W_TREE || t2.grant != t->grant)
		return E(EXDEV_);
	return SC5(__NR_renameat2, t->fd, t->rel, t->fd, t2.rel,
		   flags | AT_CRED_INHERIT_);
}

/*
 * link, linkat, the first name at (w, t): as rename, both names beneath one grant, else EXDEV
 * (ln then says so; no link leads into a tree or out of it). AT_EMPTY_PATH (a file by fd) is
 * the program's own call: the kernel lends no link of an fd.
 */
static long do_link(long nr, long *a, const struct rt_op *op, enum where w, struct target *t)
{
	long flags = nr == __NR_linkat ? a[4] : 0, ret;
	struct target t2;
	enum where w2;

	w2 = lexical_resolve((int)arg(a, op->dirfd2), (const char *)a[(int)op->path2], &t2);
	if (w2 == W_ERROR)
		return t2.err;
	if ((w != W_TREE && w2 != W_TREE) || (flags & AT_EMPTY_PATH_))
		return w == W_PASS && w2 == W_PASS ? same_call(nr, a) : pass_abs(nr, a, op, w, t);
	if (w != W_TREE || w2 != W_TREE || t2.grant != t->grant)
		return E(EXDEV_);
	ret = SC5(__NR_linkat, t->fd, t->rel, t->fd, t2.rel,
		  (flags & AT_SYMLINK_FOLLOW_) | AT_CRED_INHERIT_);
	/* A kernel without the lent linkat: the program's own call, as before. */
	return ret == E(EINVAL_) ? pass_abs(nr, a, op, w, t) : ret;
}

/*
 * openat2's struct open_how as the kernel reads it: at least its first version (24 bytes), at
 * most a page, and any bytes past the ones known zero (E2BIG), so that a program's newer
 * struct is refused as the kernel refuses it.
 */
static long how_get(struct open_how *how, const void *uhow, unsigned long size)
{
	const unsigned char *tail = (const unsigned char *)uhow + sizeof(*how);
	unsigned long i;

	if (size < sizeof(*how))
		return E(EINVAL_);
	if (size > 4096)
		return E(E2BIG_);
	for (i = 0; i < size - sizeof(*how); i++)
		if (tail[i])
			return E(E2BIG_);
	memcpy(how, uhow, sizeof(*how));
	return 0;
}

/* The kernel's own refusals of an open_how (build_open_flags): the same EINVAL in a tree. */
static long how_check(const struct open_how *how)
{
	if (how->flags & ~(uint64_t)VALID_OPEN_FLAGS)
		return E(EINVAL_);
	if (how->resolve & ~(uint64_t)RESOLVE_KNOWN)
		return E(EINVAL_);
	if ((how->resolve & RESOLVE_BENEATH) && (how->resolve & RESOLVE_IN_ROOT))
		return E(EINVAL_);
	if (how->mode & ~(uint64_t)07777)
		return E(EINVAL_);
	if (how->mode && !(how->flags & (O_CREAT | __O_TMPFILE)))
		return E(EINVAL_);
	return 0;
}

/*
 * RESOLVE_BENEATH from a directory fd in a tree: the walk may not leave that directory. The
 * grant's own open is scoped to the tree's top, so what lies between is checked here, on the
 * path as written: an absolute path or a ".." above the fd is the kernel's EXDEV. (A symbolic
 * link inside the directory that leads above it is still followed within the tree.)
 */
static int beneath_escapes(const char *path)
{
	long depth = 0;
	size_t i = 0, n;

	if (path[0] == '/')
		return 1;
	while (path[i]) {
		for (n = 0; path[i + n] && path[i + n] != '/'; n++)
			;
		if (n == 2 && path[i] == '.' && path[i + 1] == '.') {
			if (--depth < 0)
				return 1;
		} else if (n && !(n == 1 && path[i] == '.')) {
			depth++;
		}
		i += n;
		while (path[i] == '/')
			i++;
	}
	return 0;
}

/* Is @fd (or the working directory, for AT_FDCWD) a directory of a tree? @buf: scratch. */
static int tree_dir(int fd, char *buf)
{
	uint32_t kernel = 0;

	if (fd == AT_FDCWD_)
		return cwd_get(buf, &kernel, NULL, NULL) && !kernel;
	return dirfd_get(fd, buf, NULL) != 0;
}

/* A call whose path lies in a tree, made through its grant. */
static long grant_call(const struct rt_op *op, long nr, long *a, const struct target *t)
{
	long ret;

	switch (op->op) {
	case OP_OPEN:
		return do_open(t, op->dirfd < 0 ? a[1] : a[2], op->dirfd < 0 ? a[2] : a[3], 0);
	case OP_CREAT:
		return do_open(t, O_CREAT | O_WRONLY | O_TRUNC, a[1], 0);
	case OP_OPENAT2: {
		struct open_how how;

		ret = how_get(&how, (const void *)a[2], (unsigned long)a[3]);
		if (ret)
			return ret;
		/* Already through a grant, or scoped in a way a tree path cannot keep: as is. */
		if ((how.flags & OA2_CRED_INHERIT) || (how.resolve & RESOLVE_IN_ROOT))
			return same_call(nr, a);
		ret = how_check(&how);
		if (ret)
			return ret;
		return do_open(t, (long)how.flags, (long)how.mode, how.resolve);
	}
	case OP_STAT:
		return do_stat(t, nr, 0, 0, (void *)a[1]);
	case OP_LSTAT:
		return do_stat(t, nr, AT_SYMLINK_NOFOLLOW_, 0, (void *)a[1]);
	case OP_FSTATAT:
		/* "" with AT_EMPTY_PATH: the fd itself, which the kernel stats without a walk */
		return *(const char *)a[1] ? do_stat(t, nr, a[3], 0, (void *)a[2]) :
		       same_call(nr, a);
	case OP_STATX:
		return *(const char *)a[1] ? do_stat(t, nr, a[2], a[3], (void *)a[4]) :
		       same_call(nr, a);
	case OP_ACCESS:
		return do_access(t, a[1], 0);
	case OP_FACCESSAT:
		return do_access(t, a[2], nr == __NR_faccessat2 ? a[3] : 0);
	case OP_READLINK:
		return op->dirfd < 0 ? do_readlink(t, (char *)a[1], a[2]) :
		       do_readlink(t, (char *)a[2], a[3]);
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
	case OP_MKDIR:
		return do_mkdir(t, op->dirfd < 0 ? a[1] : a[2]);
	case OP_UNLINK:
		return SC3(__NR_unlinkat, t->fd, t->rel, AT_CRED_INHERIT_);
	case OP_RMDIR:
		return SC3(__NR_unlinkat, t->fd, t->rel, AT_REMOVEDIR_ | AT_CRED_INHERIT_);
	case OP_UNLINKAT:
		return SC3(__NR_unlinkat, t->fd, t->rel, a[2] | AT_CRED_INHERIT_);
	case OP_CHMOD:
		return do_chmod(t, op->dirfd < 0 ? a[1] : a[2], op->flags < 0 ? 0 : a[3]);
	case OP_UTIME:
		return do_utime(t, (const int64_t *)a[1], 0);
	case OP_UTIMES:
		return do_utime(t, (const int64_t *)(op->dirfd < 0 ? a[1] : a[2]), 1);
	case OP_UTIMENSAT:
		return do_utimens(t, (const struct rt_timespec *)a[2], a[3]);
	case OP_SYMLINK:
		return do_symlink((const char *)a[0], t);
	case OP_XATTR_SET:
		return do_xattr_set(t, nr);
	case OP_CHOWN:
		return do_chown(t, op->dirfd < 0 ? a[1] : a[2], op->dirfd < 0 ? a[2] : a[3],
				nr == __NR_lchown ? AT_SYMLINK_NOFOLLOW_ : op->flags < 0 ? 0 : a[4]);
	}
	return E(EINVAL_);
}

/*
 * EXDEV from the kernel's walk beneath the grant: the path left the tree on the way (a
 * symbolic link out of it, a mount in it). Then the call is the program's own, on its path,
 * as without the grant.
 */
static long through_grant(const struct rt_op *op, long nr, long *a, struct target *t)
{
	long ret = grant_call(op, nr, a, t);

	if (ret == E(EXDEV_) && t->kernel_first)
		return ret;	/* the caller takes it again as its path reads */

	if (ret == E(EXDEV_) && op->op != OP_CHDIR)
		return pass_abs(nr, a, op, W_TREE, t);
	/*
	 * A kernel without the lent modes, times and symlinks refuses the flag (EINVAL) or
	 * symlinkat2 (ENOSYS): the program's own call, as before them. An EINVAL of the
	 * arguments is the same EINVAL there.
	 */
	if ((ret == E(EINVAL_) || ret == E(ENOSYS_)) && op->op >= OP_CHMOD && op->op <= OP_SYMLINK)
		return pass_abs(nr, a, op, W_TREE, t);
	return ret;
}

/*
 * A directory fd the runtime does not know (a dup, one opened without O_DIRECTORY) that the
 * kernel refused a lookup from (EPERM: a borrowed directory starts no walk with the
 * program's own rights): learned if it lies in a tree, from a tracked fd of the same
 * directory (the one it is a dup of, whose path may be too long for any link to say), else
 * from its /proc/self/fd link. 1: learned, the call can be made again.
 */
static int learn_dirfd(int fd)
{
	char buf[RT_PATH_MAX];
	struct rt_stat st;
	const char *rel;
	uint32_t lends, twin = 0;
	size_t len;
	int i;

	if (fd < 0 || fd >= RT_FD_MAX || dirfd_get(fd, buf, NULL) ||
	    SC2(__NR_fstat, fd, &st) < 0 || (st.mode & S_IFMT_) != S_IFDIR_)
		return 0;
	lends = (SC2(__NR_fcntl, fd, F_GETFL) & O_CRED_ALLOW_) != 0;
	len = fd_path(fd, buf);
	/* Too deep for a link: the same directory recorded at another number, even closed
	 * since (a dup, then a close). */
	for (i = 0; i < RT_FD_MAX && !len; i++) {
		uint64_t dev, ino;
		size_t n;

		if (i == fd || rt_state.fds[i].ino != st.ino)
			continue;
		n = dirfd_entry(i, buf, &twin, &dev, &ino);
		if (n && dev == st.dev && ino == st.ino)
			len = n;
	}
	if (!len || (twin == RT_DEEP && !lends))
		return 0;	/* a deep one's path is its tree's root: for the kernel's walks */
	dirfd_put(fd, grant_of(buf, len, &rel), &st, buf, len, twin == RT_DEEP ? RT_DEEP : lends);
	return 1;
}

static long redirect_once(const struct rt_op *op, long nr, long *a);

/*
 * What the runtime reads of a call's arguments is readable: its paths to their NUL, openat2's
 * open_how, the times of utime and utimes. A bad pointer gets the kernel's EFAULT, not a
 * SIGSEGV in the handler. A NULL path is left to the call (the kernel's EFAULT, or
 * utimensat's fd form); what the kernel alone reads (a stat buffer, a symbolic link's
 * target) the kernel checks.
 */
static int args_readable(const struct rt_op *op, const long *a)
{
	long times = op->op == OP_UTIME ? a[1] : op->op == OP_UTIMES ? a[op->dirfd < 0 ? 1 : 2] : 0;

	if (op->path >= 0 && a[(int)op->path] &&
	    !rt_string_readable((const char *)a[(int)op->path], RT_PATH_MAX))
		return 0;
	if (op->path2 >= 0 && a[(int)op->path2] &&
	    !rt_string_readable((const char *)a[(int)op->path2], RT_PATH_MAX))
		return 0;
	if (op->op == OP_OPENAT2 && (unsigned long)a[3] >= sizeof(struct open_how) &&
	    (unsigned long)a[3] <= 4096 && !rt_readable((uintptr_t)a[2], (size_t)a[3]))
		return 0;
	return !times || rt_readable((uintptr_t)times, op->op == OP_UTIME ? 16 : 32);
}

static long redirect(long nr, long *a)
{
	const struct rt_op *op = op_find(nr);
	long ret;

	if (op && !args_readable(op, a))
		return E(EFAULT_);
	ret = redirect_once(op, nr, a);

	if (ret == E(EPERM_) && op && op->dirfd >= 0 &&
	    (learn_dirfd((int)a[(int)op->dirfd]) |
	     (op->dirfd2 >= 0 && learn_dirfd((int)a[(int)op->dirfd2]))))
		ret = redirect_once(op, nr, a);
	return ret;
}

static long redirect_once(const struct rt_op *op, long nr, long *a)
{
	struct target t;
	long flags, ret;
	enum where w;
	int fd;

	if (nr == __NR_getcwd) {
		ret = do_getcwd((char *)a[0], (unsigned long)a[1]);
		return ret == -1 ? same_call(nr, a) : ret;
	}
	if (nr == __NR_fchdir) {
		uint32_t lends = 0;
		size_t len = dirfd_get((int)a[0], t.buf, &lends);

		if (!len) {
			ret = same_call(nr, a);
			/* One not seen opened (a dup): the kernel refused it; its /proc link tells. */
			if (ret != E(EPERM_) || !learn_dirfd((int)a[0])) {
				if (ret == 0)
					kernel_cwd(NULL);
				return ret;
			}
			len = dirfd_get((int)a[0], t.buf, &lends);
			if (!len)
				return ret;
		}
		if (!lends)
			lends = (uint32_t)dirfd_lender((int)a[0], t.buf, len);
		cwd_set(t.buf, len, 0, lends ? cwd_lender(a[0]) : -1, lends == RT_DEEP);
		return 0;
	}

	if (nr == __NR_fchmod)
		return do_fchmod(a);
	if (nr == __NR_close_range)
		return do_close_range(a);
	if (!op)
		return same_call(nr, a);
	/* utimensat and futimesat with a NULL path are futimens, futimes: the file of the fd */
	if ((op->op == OP_UTIMENSAT || (op->op == OP_UTIMES && op->dirfd >= 0)) && !a[1] &&
	    (int)a[0] != AT_FDCWD_)
		return op->op == OP_UTIMENSAT ? do_futimens(nr, a) : do_futimes(nr, a);
	flags = op->flags >= 0 ? a[(int)op->flags] : 0;
	/* fchmodat2, utimensat (fd, "", AT_EMPTY_PATH): the same fd forms */
	if ((op->op == OP_CHMOD || op->op == OP_UTIMENSAT) && (flags & AT_EMPTY_PATH_) &&
	    (int)a[0] != AT_FDCWD_ && a[1] && !*(const char *)a[1])
		return op->op == OP_CHMOD ?
		       fd_form(nr, a, SC4(__NR_fchmodat2, a[0], "", a[2],
					  flags | AT_CRED_INHERIT_)) :
		       fd_form(nr, a, SC4(__NR_utimensat, a[0], "", a[2],
					  flags | AT_CRED_INHERIT_));
	/* openat2(RESOLVE_BENEATH) from a directory of a tree: never above that directory */
	if (op->op == OP_OPENAT2 && a[1] && (unsigned long)a[3] >= sizeof(struct open_how) &&
	    tree_dir((int)a[0], t.buf) &&
	    (((const struct open_how *)a[2])->resolve & RESOLVE_BENEATH) &&
	    beneath_escapes((const char *)a[1]))
		return E(EXDEV_);
	/* chmod("/proc/self/fd/N"), utimensat(AT_FDCWD, it): the same fd forms on N */
	if ((op->op == OP_CHMOD || op->op == OP_UTIMENSAT) && a[op->path] &&
	    !(flags & AT_SYMLINK_NOFOLLOW_) && (fd = proc_fd_name((const char *)a[op->path])) >= 0)
		return op->op == OP_CHMOD ?
		       fd_form(nr, a, SC4(__NR_fchmodat2, fd, "", a[op->dirfd < 0 ? 1 : 2],
					  AT_EMPTY_PATH_ | AT_CRED_INHERIT_)) :
		       fd_form(nr, a, SC4(__NR_utimensat, fd, "", a[2],
					  AT_EMPTY_PATH_ | AT_CRED_INHERIT_));
	/* /proc/self/exe: the program's file, not credbox (readlink, open, execve) */
	if ((op->op == OP_READLINK || op->op == OP_OPEN || op->op == OP_OPENAT2) &&
	    rt_self_exe((const char *)a[(int)op->path])) {
		long b[6] = { a[0], a[1], a[2], a[3], a[4], a[5] };
		size_t n = rt_strnlen(rt_state.exe, RT_PATH_MAX - 1);

		if (op->op != OP_READLINK) {
			b[(int)op->path] = (long)rt_state.exe;
			return same_call(nr, b);
		}
		b[0] = op->dirfd < 0 ? (long)a[2] : a[3];	/* the size */
		if (b[0] <= 0)
			return E(EINVAL_);
		if ((unsigned long)b[0] < n)
			n = (size_t)b[0];
		if (!rt_writable((uintptr_t)a[op->dirfd < 0 ? 1 : 2], n))
			return E(EFAULT_);
		memcpy((void *)a[op->dirfd < 0 ? 1 : 2], rt_state.exe, n);
		return (long)n;
	}
	w = resolve((int)arg(a, op->dirfd), (const char *)a[(int)op->path],
		    (flags & AT_EMPTY_PATH_) != 0, &t);
	/* Two names on one grant's fd, or a call made by its path: as the paths read. */
	if (t.kernel_first && (op->op == OP_RENAME || op->op == OP_LINK || op->op == OP_PASS_ABS))
		w = lexical(&t);
	if (w == W_TREE && t.kernel_first) {
		ret = through_grant(op, nr, a, &t);
		if (ret != E(EXDEV_))
			return ret;
		w = lexical(&t);	/* it left the tree on the way: as the path reads */
	}
	if (w == W_ERROR)
		return t.err;
	if (op->op == OP_CHDIR && w != W_TREE) {
		/* Out of the trees: the kernel's working directory from now on. */
		ret = w == W_OUTSIDE ? SC1(__NR_chdir, t.buf) : same_call(nr, a);
		if (ret == 0)
			kernel_cwd(w == W_OUTSIDE ? t.buf : NULL);
		return ret;
	}
	if (op->op == OP_RENAME)
		return do_rename(nr, a, op, w, &t);
	if (op->op == OP_LINK)
		return do_link(nr, a, op, w, &t);
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
 * A signal mask of the program's at p (size bytes), as the kernel would read it: -EINVAL for
 * a size other than 8, -EFAULT where it cannot be read.
 */
static long mask_get(const void *p, unsigned long size, uint64_t *m)
{
	if (size != 8)
		return E(EINVAL_);
	if (!rt_readable((uintptr_t)p, 8))
		return E(EFAULT_);
	memcpy(m, p, 8);
	return 0;
}

/* SIGSYS unblocked in this thread again: a SIGSYS of the program's held meanwhile, raised. */
static void sigsys_unblocked(struct rt_thread *t)
{
	if (__atomic_exchange_n(&t->sigsys_pending, 0, __ATOMIC_ACQ_REL))
		SC3(__NR_tgkill, SC0(__NR_getpid), SC0(__NR_gettid), SIGSYS_);
}

/* The mask the program runs with after this handler (its signal frame's), changed by how. */
static void mask_set(struct rt_ucontext *uc, struct rt_thread *t, long how, uint64_t set)
{
	if (how == 0)
		uc->sigmask |= set;
	else if (how == 1)
		uc->sigmask &= ~set;
	else
		uc->sigmask = set;
	if (how != 1 && (set & SIGBIT(SIGSYS_)))
		t->sigsys_blocked = 1;
	else if (how == 2 || (how == 1 && (set & SIGBIT(SIGSYS_))))
		t->sigsys_blocked = 0;
	uc->sigmask &= ~(SIGBIT(SIGSYS_) | SIGBIT(9) | SIGBIT(19));
	if (!t->sigsys_blocked)
		sigsys_unblocked(t);
}

/*
 * rt_sigaction and rt_sigprocmask: SIGSYS stays ours. The program's own SIGSYS action is kept
 * here and given the signals that are not the runtime's; SIGSYS never enters a blocked mask,
 * nor the mask of any handler (a trap while it is blocked would kill the process). Whether
 * the program believes it blocked is kept per thread (t->sigsys_blocked), and shown to it.
 */
static long mask_call(long nr, long *a, struct rt_ucontext *uc, struct rt_thread *t)
{
	struct rt_ksigaction act;
	uint64_t set = 0, old;
	long e;

	if (nr == __NR_rt_sigaction) {
		if (a[3] != 8)
			return E(EINVAL_);
		if (a[1] && !rt_readable((uintptr_t)a[1], sizeof(act)))
			return E(EFAULT_);
		if (a[0] == SIGSYS_) {
			memcpy(&act, rt_state.sigsys_act, sizeof(act));
			if (a[1])
				memcpy(rt_state.sigsys_act, (const void *)a[1], sizeof(act));
			if (a[2] && !rt_writable((uintptr_t)a[2], sizeof(act)))
				return E(EFAULT_);	/* as the kernel: the action is set */
			if (a[2])
				memcpy((void *)a[2], &act, sizeof(act));
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
	if (a[3] != 8)
		return E(EINVAL_);
	if (a[1] && (e = mask_get((const void *)a[1], 8, &set)) < 0)
		return e;
	if (a[1] && (a[0] < 0 || a[0] > 2))
		return E(EINVAL_);
	old = uc->sigmask | (t->sigsys_blocked ? SIGBIT(SIGSYS_) : 0);
	if (a[1])
		mask_set(uc, t, a[0], set);
	if (!a[2])
		return 0;
	if (!rt_writable((uintptr_t)a[2], 8))
		return E(EFAULT_);	/* as the kernel: the mask is changed */
	memcpy((void *)a[2], &old, 8);
	return 0;
}

/*
 * For what lets the program's signals in while the handler runs (a wait with a mask, the
 * program's own SIGSYS handler): the kernel puts their frames at the top of the program's
 * alternate stack, since the handler is not on it, where they would overwrite this trap's
 * own frame. Meanwhile the alternate stack is the part of the runtime's stack below the
 * handler, so their frames go there, nested; the program's is put back after (the handler's
 * stack pointer lies above that part, which the kernel requires of a change). Returns
 * whether it was changed.
 */
static int nested_stack_set(struct rt_thread *t, struct rt_altstack *old)
{
	struct rt_altstack ss = { 0, 0, 0, 0 };
	uintptr_t base, below = ((uintptr_t)&ss - 1024) & ~(uintptr_t)15;

	if (t == &rt_state.threads[RT_THREADS] ||
	    SC2(__NR_sigaltstack, 0, old) != 0 || (old->flags & SS_DISABLE_))
		return 0;	/* no alternate stack: frames go below the handler anyway */
	base = (uintptr_t)rt_stacks[t - rt_state.threads] + PAGE_;	/* above the guard */
	if (below <= base + 8192)
		return 0;
	ss.sp = base;
	ss.size = below - base;
	return SC2(__NR_sigaltstack, &ss, 0) == 0;
}

static void nested_stack_restore(const struct rt_altstack *old)
{
	struct rt_altstack ss = *old;

	ss.flags &= ~SS_ONSTACK_;
	SC2(__NR_sigaltstack, &ss, 0);
}

/*
 * The waits that take a mask for their duration (rt_sigsuspend, ppoll, pselect6,
 * epoll_pwait, epoll_pwait2): made with SIGSYS taken out of it, so that a trap from a handler
 * run during the wait does not meet a blocked SIGSYS (the kernel would kill the process). For
 * the wait, the thread's SIGSYS bit is the mask's: a handler of the program's asking its mask
 * sees SIGSYS blocked as it asked, and a SIGSYS of its own waits. The kernel saves and
 * restores the mask around the wait as it does for the program; the handlers it runs meanwhile
 * run nested in this one, on the runtime's stack.
 */
static long masked_wait(long nr, long *a, struct rt_thread *t)
{
	struct { const void *set; unsigned long size; } pset;
	struct rt_altstack old;
	uint32_t was = t->sigsys_blocked;
	int moved;
	int at = nr == __NR_rt_sigsuspend ? 0 : nr == __NR_ppoll ? 3 : 4;
	uint64_t m;
	long r, e;

	if (nr == __NR_pselect6) {
		if (!a[5])
			return same_call(nr, a);
		if (!rt_readable((uintptr_t)a[5], sizeof(pset)))
			return E(EFAULT_);
		memcpy(&pset, (const void *)a[5], sizeof(pset));
		if (!pset.set)
			return same_call(nr, a);
		e = mask_get(pset.set, pset.size, &m);
	} else {
		if (!a[at] && nr != __NR_rt_sigsuspend)
			return same_call(nr, a);
		e = mask_get((const void *)a[at], (unsigned long)a[at + 1], &m);
	}
	if (e < 0)
		return e;
	t->sigsys_blocked = (m & SIGBIT(SIGSYS_)) != 0;
	m &= ~SIGBIT(SIGSYS_);
	moved = nested_stack_set(t, &old);
	if (nr == __NR_pselect6) {
		pset.set = &m;
		r = rt_syscall6(nr, a[0], a[1], a[2], a[3], a[4], (long)&pset);
	} else if (nr == __NR_rt_sigsuspend) {
		r = rt_syscall6(nr, (long)&m, 8, 0, 0, 0, 0);
	} else {
		long b[6] = { a[0], a[1], a[2], a[3], a[4], a[5] };

		b[at] = (long)&m;
		r = rt_syscall6(nr, b[0], b[1], b[2], b[3], b[4], b[5]);
	}
	if (moved)
		nested_stack_restore(&old);
	t->sigsys_blocked = was;
	if (!was)
		sigsys_unblocked(t);
	return r;
}

static long signal_call(long nr, long *a, struct rt_ucontext *uc)
{
	struct rt_thread *t = thread_self();

	if (nr == __NR_rt_sigaction || nr == __NR_rt_sigprocmask)
		return mask_call(nr, a, uc, t);
	return masked_wait(nr, a, t);
}

/* A SIGSYS that is not ours: the program's own action, as the kernel would have taken it. */
static void pass_on(int sig, struct rt_siginfo *si, struct rt_ucontext *uc)
{
	struct rt_thread *t = thread_self();
	struct rt_ksigaction act;
	struct rt_altstack old;
	uint64_t saved;
	int moved;

	memcpy(&act, rt_state.sigsys_act, sizeof(act));
	if (act.handler == SIG_IGN_)
		return;
	if (t->sigsys_blocked) {
		__atomic_store_n(&t->sigsys_pending, 1, __ATOMIC_RELEASE);
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
	/* The mask the kernel would give the handler: the thread's, and the action's. */
	act.mask = (act.mask | uc->sigmask) & ~SIGBIT(SIGSYS_);
	moved = nested_stack_set(t, &old);
	SC4(__NR_rt_sigprocmask, 2, &act.mask, &saved, 8);
	if (act.flags & SA_SIGINFO_)
		((void (*)(int, void *, void *))act.handler)(sig, si, uc);
	else
		((void (*)(int))act.handler)(sig);
	SC4(__NR_rt_sigprocmask, 2, &saved, 0, 8);
	if (moved)
		nested_stack_restore(&old);
}

/* ---- the handler ------------------------------------------------------------------------ */

HIDDEN void rt_sigsys_entry(int sig, struct rt_siginfo *si, struct rt_ucontext *uc);
HIDDEN uintptr_t rt_stack_for(uintptr_t sp);
HIDDEN void rt_sigsys(int sig, struct rt_siginfo *si, struct rt_ucontext *uc);

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
	case RT_KIND_SPAWN:
		r->rax = (uint64_t)rt_spawn(nr, a, uc);
		break;
	default:
		r->rax = (uint64_t)deny(nr, a);
		break;
	}
}

/* Install the handler: called by credbox where its text lies (redirect_arm), before seccomp. */
HIDDEN long rt_arm(void)
{
	struct rt_ksigaction act = {
		.handler = (void *)rt_sigsys_entry,
		/*
		 * SA_ONSTACK: the kernel's frame goes where the program's own handlers' frames
		 * go, on its alternate stack when it has one (a goroutine's stack has no room for
		 * it; Go gives each thread an alternate stack for that); the handler itself then
		 * runs on the runtime's stack (rt_sigsys_entry). The program's other signals
		 * are blocked while it runs: one delivered then (Go preempts its threads with
		 * SIGURG) would find the handler off the alternate stack and have the kernel
		 * put its frame at that stack's top again, over this trap's frame, which the
		 * handler's return then restores as garbage. The waits that let them in run
		 * with an alternate stack of their own (nested_stack_set). SA_NODEFER: SIGSYS stays
		 * open, for the exec's signals and for a handler of the program's run during
		 * such a wait, which may make a trapped call of its own.
		 */
		.flags = SA_SIGINFO_ | SA_RESTORER_ | SA_NODEFER_ | SA_ONSTACK_,
		.restorer = (void *)rt_restorer,
		.mask = ~SIGBIT(SIGSYS_),
	};
	char buf[RT_PATH_MAX];
	struct target start;
	const char *rel;
	size_t len = rt_strnlen(rt_conf.cwd, RT_PATH_MAX - 1);
	uint32_t i;
	long e;

	/* Armed only to name the calls killed for: no grant, no exec in place to prepare. */
	if (rt_conf.kills_only)
		return SC4(__NR_rt_sigaction, SIGSYS_, &act, 0, 8);
	rt_state.mem_pid = (int32_t)SC0(__NR_getpid);
	memcpy(rt_state.exe, rt_conf.exe, sizeof(rt_state.exe));
	rt_state.exe[sizeof(rt_state.exe) - 1] = '\0';
	/* Every fd of a grant is a directory of its tree, at its root. */
	for (i = 0; i < rt_conf.ngrants; i++) {
		struct rt_stat st;
		const struct rt_grant *g = &rt_conf.grants[i];

		if (SC2(__NR_fstat, g->fd, &st) == 0)
			dirfd_put(g->fd, (int)i, &st, g->path, g->len, 1);
	}
	/* Started with the working directory in a tree: the program's is emulated from here. */
	memcpy(buf, rt_conf.cwd, len + 1);
	len = normalise(buf, len, NULL);
	if (buf[0] == '/' && (start.grant = grant_of(buf, len, &rel)) >= 0) {
		start.fd = rt_conf.grants[start.grant].fd;
		start.rel = rel;
		start.kernel_first = 0;
		cwd_set(buf, dir_len(buf, len), 0, cwd_open(&start, &e, NULL, NULL), 0);
	} else {
		kernel_cwd(buf);
	}
	rt_exec_arm();
	return SC4(__NR_rt_sigaction, SIGSYS_, &act, 0, 8);
}
