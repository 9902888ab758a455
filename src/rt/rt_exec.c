// SPDX-License-Identifier: GPL-2.0
/*
 * rt_exec: the program's own execve and execveat under transparent grants, done in place.
 *
 * Why in place. The profile's filter survives execve, and so do its traps; the handler does
 * not. A new program started by the kernel would be killed by its first trapped call (its
 * ld.so's open). So the runtime starts the new program itself, in this process, with the
 * loader credbox started the first one with (src/loader.c, loader_elf.c, loader_script.c and
 * loader_x86_64.S, compiled into this image with the system calls below: loader_sys.h), and
 * stays mapped to go on redirecting the new program's calls. What execve does, in its order:
 *
 * Before the point of no return a failure is the caller's errno, and nothing has changed:
 *   - the process must own its memory: an exec in a vfork child (or any process sharing the
 *     memory of another) cannot replace it in place, and is refused with a message;
 *   - the path as the program means it (relative to an emulated working directory or a
 *     tracked directory fd: its absolute form), the argument and environment strings
 *     readable (EFAULT) and within execve's limits (E2BIG);
 *   - the file and each interpreter opened with the program's own rights, and checked by the
 *     kernel's own execve checks: execveat on the open file with an argv it cannot read
 *     fails with EFAULT only after every check execve makes of the file passed (a regular
 *     file, execute permission for the identity, no noexec mount, Landlock's execute right,
 *     ETXTBSY), and before anything changed. #! scripts as binfmt_script, PT_INTERP;
 *   - the images and the new stack mapped beside the old program; AT_SECURE set, as
 *     credbox's loader sets it (the dynamic loader ignores LD_PRELOAD and friends).
 * The point of no return, then:
 *   - every signal blocked while the process changes under the program; the other threads
 *     ended (de_thread);
 *   - the grants closed as the kernel closes them: the fd table made this process's own
 *     (unshare_files), then every confined file (O_CRED_ALLOW, borrowed directories), dups
 *     included, and every close-on-exec fd; from here on the tree paths get the program's
 *     own rights (grant_of finds no tree);
 *   - signal handlers reset (ignored signals stay ignored; the runtime's SIGSYS handler
 *     stays, the program's own SIGSYS action is reset the same way), the alternate stack
 *     off, the mask kept; the rseq area of the old libc unregistered (the kernel would write
 *     into unmapped memory); the process named after the new program;
 *   - the loader's stub: the new stack, FS and GS bases, robust list and clear_child_tid
 *     reset, every mapping but the new images, the stack, the vDSO and this image unmapped,
 *     and the jump.
 *
 * No new right: every call here is one the program could make itself from the exempt
 * instruction (the profile's verdicts apply to each; Landlock and no_new_privs are untouched),
 * set-id bits do nothing, and the new program runs with the same identity and fewer fds.
 *
 * Rules: as redirect_rt.c's (freestanding, async-signal-safe, no relocation). The loader's
 * state is one static block, taken by one exec at a time.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <asm/unistd.h>
#include <asm/stat.h>
#include <linux/errno.h>
#include <linux/fcntl.h>
#include <linux/mman.h>

#include "loader_sys.h"
#include "rt.h"

#define AT_FDCWD_		(-100)
#define AT_SYMLINK_NOFOLLOW_	0x100
#define AT_EMPTY_PATH_		0x1000
#define O_CRED_ALLOW_		0400000000
#define SIGKILL_		9
#define SIGSTOP_		19
#define SIGSYS_			31
#define SI_USER_		0
#define SI_TKILL_		(-6)
#define CLONE_VM_		0x00000100
#define CLONE_SIGHAND_		0x00000800
#define CLONE_VFORK_		0x00004000
#define CLONE_THREAD_		0x00010000
#define SIGCHLD_		17
#define CLOSE_RANGE_UNSHARE_	2
#define SIG_DFL_		((void *)0)
#define SIG_IGN_		((void *)1)
#define SIGBIT(s)		(1ULL << ((s) - 1))
#define RLIMIT_STACK_		3
#define RLIMIT_NOFILE_		7
#define ADDR_NO_RANDOMIZE_	0x0040000
#define ARCH_GET_FS_		0x1003
#define PR_SET_NAME_		15
#define MADV_WIPEONFORK_	18
#define POLLNVAL_		0x20
#define RSEQ_SIG_		0x53053053	/* glibc's on x86 */
#define PAGE			4096UL
#define ARGS_MAX		(6UL << 20)
#define POLL_CHUNK		512
/* The end of this image's text, and of its data (src/rt/redirect_rt.lds). */
extern const char rt_text_end[], rt_end[];
/* An address no user pointer can have: reading it fails with EFAULT. */
#define BAD_POINTER		((uintptr_t)-4096)

/*
 * The one exec under way: its owner (the thread that prepared it), the thread ending the
 * others (killer) and the SIGSYS action it puts back after, the hand-over to the main thread
 * (handoff: 1 asked, 2 taken) with the caller's mask; the loader's state. And a page of its
 * own (see rt_exec_arm).
 */
static struct {
	int32_t owner, killer;
	uint32_t handoff;
	uint64_t mask;
	struct rt_ksigaction action;
	struct loader_image img;
	struct loader_file files[2];
	struct { int32_t fd; int16_t events, revents; } pfd[POLL_CHUNK];
	char exe[RT_PATH_MAX];
} S;

static struct {
	int32_t pid;
	char pad[PAGE - 4];
} rt_owner __attribute__((aligned(4096)));

/* ---- what the loader's shared part needs from the C library --------------------------------- */

HIDDEN void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (; n; n--, p++) {
		if (*p == (unsigned char)c)
			return (void *)p;
	}
	return NULL;
}

HIDDEN size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

/* ---- loader_sys.h: the program's own system calls, from the exempt instruction ------------- */

long loader_sys_open(const char *path, int flags)
{
	return SC4(__NR_openat, AT_FDCWD_, path, flags, 0);
}

void loader_sys_close(int fd)
{
	SC1(__NR_close, fd);
}

long loader_sys_pread(int fd, void *buf, size_t len, uint64_t off)
{
	long n;

	do
		n = SC4(__NR_pread64, fd, buf, len, off);
	while (n == -EINTR);
	return n;
}

int loader_sys_fstat(int fd, uint32_t *mode, uint64_t *size)
{
	struct stat st;
	long e = SC2(__NR_fstat, fd, &st);

	if (e < 0)
		return (int)e;
	*mode = (uint32_t)st.st_mode;
	*size = (uint64_t)st.st_size;
	return 0;
}

/*
 * The kernel's own answer: execveat on the file itself with an argv that cannot be read.
 * do_open_execat makes every check of the file first (regular file, MAY_EXEC for the
 * caller's identity, noexec mounts, the LSMs' file_open: Landlock's execute right, a writer:
 * ETXTBSY); then counting argv fails with EFAULT, before anything is changed.
 */
int loader_sys_may_exec(int fd, const char **why)
{
	long e = SC5(__NR_execveat, fd, "", BAD_POINTER, BAD_POINTER, AT_EMPTY_PATH_);

	return e == -EFAULT ? 0 : (int)e;
}

long loader_sys_mmap(uintptr_t addr, size_t len, int prot, int flags, int fd, uint64_t off)
{
	return rt_syscall6(__NR_mmap, (long)addr, (long)len, prot, flags, fd, (long)off);
}

void loader_sys_munmap(uintptr_t addr, size_t len)
{
	SC2(__NR_munmap, addr, len);
}

int loader_sys_random(void *buf, size_t len)
{
	long n = SC3(__NR_getrandom, buf, len, 0);

	return n == (long)len ? 0 : n < 0 ? (int)n : -EIO;
}

int loader_sys_randomize(void)
{
	long pers = rt_conf.exec_may & RT_EXEC_PERSONALITY ? SC1(__NR_personality, 0xffffffff) : 0;

	return rt_conf.aslr && (pers < 0 || !(pers & ADDR_NO_RANDOMIZE_));
}

uint64_t loader_sys_stack_limit(void)
{
	uint64_t rl[2];

	if (SC2(__NR_getrlimit, RLIMIT_STACK_, rl) < 0)
		return 8UL << 20;
	return rl[0];		/* RLIM_INFINITY is UINT64_MAX */
}

int loader_sys_auxval(unsigned long type, uintptr_t *value)
{
	uint32_t i;

	for (i = 0; i < rt_conf.nauxv && i < RT_AUXV_MAX; i++) {
		if (rt_conf.auxv[i][0] == type) {
			*value = rt_conf.auxv[i][1];
			return 1;
		}
	}
	return 0;
}

void loader_sys_ids(uintptr_t ids[4])
{
	ids[0] = (uintptr_t)SC0(__NR_getuid);
	ids[1] = (uintptr_t)SC0(__NR_geteuid);
	ids[2] = (uintptr_t)SC0(__NR_getgid);
	ids[3] = (uintptr_t)SC0(__NR_getegid);
}

/* ---- before the point of no return ------------------------------------------------------ */

/*
 * The owner page: MADV_WIPEONFORK, holding the pid of the process whose memory this is. A
 * vfork child (or any CLONE_VM sibling) finds its parent's pid, and knows the memory is not
 * its own to replace. A forked child finds it zero: it claims the page at its first trap or
 * exec, but only while it is alone in its memory (unshare(CLONE_VM), which unshares nothing,
 * says so), since a vfork child of a forked child that has not trapped yet finds zero too.
 */
HIDDEN void rt_exec_arm(void)
{
	if (rt_conf.exec_refused[0])
		return;
	if (SC3(__NR_madvise, &rt_owner, sizeof(rt_owner), MADV_WIPEONFORK_) == 0)
		rt_owner.pid = (int32_t)SC0(__NR_getpid);
	else
		rt_owner.pid = -1;	/* no page to tell: an exec needs the process alone */
}

/*
 * A fork made while its parent's exec was ending the threads: the copy's SIGSYS action is the
 * killer's (kill_threads), and S.killer names the parent's main thread. Both put back.
 */
static void forked_mid_kill(void)
{
	if (!__atomic_load_n(&S.killer, __ATOMIC_ACQUIRE))
		return;
	__atomic_store_n(&S.killer, 0, __ATOMIC_RELEASE);
	SC4(__NR_rt_sigaction, SIGSYS_, &S.action, 0, 8);
}

static int claim(void)
{
	int32_t pid = (int32_t)SC0(__NR_getpid), owner = 0;

	if (SC1(__NR_unshare, CLONE_VM_) != 0)
		return 0;
	if (__atomic_compare_exchange_n(&rt_owner.pid, &owner, pid, 0, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE)) {
		rt_forked(pid);
		forked_mid_kill();
		return 1;
	}
	return owner == pid;
}

/* At every trap: a forked child claims its memory as soon as it can (before its threads). */
void rt_exec_claim(void)
{
	if (!rt_conf.kills_only && !rt_conf.exec_refused[0] &&
	    !__atomic_load_n(&rt_owner.pid, __ATOMIC_RELAXED))
		claim();
}

static int own_memory(void)
{
	int32_t owner = __atomic_load_n(&rt_owner.pid, __ATOMIC_ACQUIRE);

	if (owner == -1)
		return SC1(__NR_unshare, CLONE_VM_) == 0;
	if (!owner)
		return claim();
	return owner == (int32_t)SC0(__NR_getpid);
}

/* Whether the page holding p can be read (rt_readable), the last page found so cached. */
static int readable(uintptr_t p, uintptr_t *checked)
{
	uintptr_t page = p & ~(PAGE - 1);

	if (page == *checked)
		return 1;
	if (!rt_readable(page, 1))
		return 0;
	*checked = page;
	return 1;
}

/*
 * A NULL-terminated vector of strings in the program's memory, as execve reads it: -EFAULT if
 * any part cannot be read, -E2BIG past what execve would ever take. The loader then reads it
 * again (a thread of the program changing it meanwhile only hurts the program).
 */
static int vector_ok(char *const *v)
{
	uintptr_t checked = 0, total = 0, i;
	const char *s;

	for (i = 0; v; i++) {
		if (!readable((uintptr_t)&v[i], &checked) ||
		    !readable((uintptr_t)&v[i] + sizeof(v[i]) - 1, &checked))
			return -EFAULT;
		s = v[i];
		if (!s)
			return 0;
		do {
			if (!readable((uintptr_t)s, &checked))
				return -EFAULT;
			if (++total > ARGS_MAX)
				return -E2BIG;
		} while (*s++);
	}
	return 0;
}

/* The file execve would open: an absolute form when the runtime knows it better. */
static long exec_path(const char *path, int dirfd, int flags, struct target *t,
		      const char **out)
{
	enum where w;
	size_t len;

	/* /proc/self/exe names credbox: the program's own file is meant (rt_self_exe). */
	if (rt_self_exe(path)) {
		*out = rt_state.exe;
		return 0;
	}
	/* The file is opened by its path, with the program's own rights: as the path reads. */
	w = resolve(dirfd, path, (flags & AT_EMPTY_PATH_) != 0, t);
	if (t->kernel_first)
		w = lexical(t);
	if (w == W_ERROR)
		return t->err;
	if (w != W_PASS || !path || path[0] == '/' || dirfd == AT_FDCWD_) {
		*out = w == W_PASS ? path : t->buf;
		return 0;
	}
	/* Relative to an fd of the program's own: through /proc/self/fd, as fexecve. */
	if (dirfd < 0)
		return -EBADF;
	len = rt_fd_link(t->buf, dirfd);
	if (len + 1 + strlen(path) >= sizeof(t->buf))
		return -ENAMETOOLONG;
	if (path[0]) {
		t->buf[len++] = '/';
		memcpy(t->buf + len, path, strlen(path) + 1);
	} else {
		t->buf[len] = '\0';
	}
	*out = t->buf;
	return 0;
}

/* execveat's AT_SYMLINK_NOFOLLOW: ELOOP for a symbolic link. */
static long not_a_link(const char *path)
{
	struct stat st;

	if (SC4(__NR_newfstatat, AT_FDCWD_, path, &st, AT_SYMLINK_NOFOLLOW_) == 0 &&
	    (st.st_mode & 0170000) == 0120000)
		return -ELOOP;
	return 0;
}

/* "execve("PATH"), refused: WHY" on stderr; EPERM, as a profile's denial. */
static long refuse(long nr, const char *path, const char *why)
{
	char msg[512];
	size_t n = 0, i;
	const char *parts[] = { nr == __NR_execve ? "execve(\"" : "execveat(\"",
				path ? path : "", "\"), refused: ", why };

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		const char *p = parts[i];

		while (*p && n < sizeof(msg) - 1)
			msg[n++] = *p++;
	}
	msg[n] = '\0';
	say(msg, NULL);
	return -EPERM;
}

/* ---- the point of no return ------------------------------------------------------------- */

/* The fd of a grant of exec = keep (whatever the program has put at its number since). */
static int kept_grant(int fd)
{
	uint32_t i;

	for (i = 0; i < rt_conf.ngrants; i++) {
		if (rt_conf.grants[i].keep && rt_conf.grants[i].fd == fd)
			return 1;
	}
	return 0;
}

static void close_fd_on_exec(int fd)
{
	long fdfl = SC2(__NR_fcntl, fd, F_GETFD), fl;

	if (fdfl < 0 || (S.img.late.len && fd == S.files[0].fd))
		return;		/* a late program's file: closed once it is mapped */
	fl = SC2(__NR_fcntl, fd, F_GETFL);
	if (fl >= 0 && (fl & O_CRED_ALLOW_) && kept_grant(fd))
		return;
	if ((fdfl & FD_CLOEXEC) || (fl >= 0 && (fl & O_CRED_ALLOW_)))
		SC1(__NR_close, fd);
}

/*
 * execve's unshare_files and do_close_on_exec, which in this kernel closes every confined file
 * too (O_CRED_ALLOW and borrowed directories, which F_GETFD shows close-on-exec). First the fd
 * table is made this process's own, as execve makes it (a clone(CLONE_FILES) sibling keeps the
 * shared one, and could put a grant into it), and every fd at or above the RLIMIT_NOFILE soft
 * limit closed: only a program that lowered the limit has one, and it may be a dup of a grant.
 * Then the open fds below the limit, found POLL_CHUNK at a time by poll (POLLNVAL: not open), or
 * one by one if the profile denies poll.
 */
static void close_on_exec(void)
{
	uint64_t rl[2], limit, base;
	long r;
	int i, n;

	limit = SC2(__NR_getrlimit, RLIMIT_NOFILE_, rl) == 0 ? rl[0] : 1024;
	if (limit > (1U << 30))
		limit = 1U << 30;
	if (SC3(__NR_close_range, limit, ~0U, CLOSE_RANGE_UNSHARE_) != 0) {
		say("execve: the fd table could not be made the process's own; the process ends",
		    NULL);
		SC1(__NR_exit_group, 126);
	}
	for (base = 0; base < limit; base += POLL_CHUNK) {
		n = limit - base < POLL_CHUNK ? (int)(limit - base) : POLL_CHUNK;
		for (i = 0; i < n; i++) {
			S.pfd[i].fd = (int32_t)(base + (uint64_t)i);
			S.pfd[i].events = 0;
			S.pfd[i].revents = 0;
		}
		r = rt_conf.exec_may & RT_EXEC_POLL ? SC3(__NR_poll, S.pfd, n, 0) : -ENOSYS;
		for (i = 0; i < n; i++) {
			if (r < 0 || !(S.pfd[i].revents & POLLNVAL_))
				close_fd_on_exec((int)(base + (uint64_t)i));
		}
	}
}

/*
 * The grants are closed, but those of exec = keep: no path is in their trees from now on
 * (grant_of). A directory fd the old program opened through one, if it stays open, still
 * gives its path to the calls made relative to it: they are made on that path with the
 * program's own rights. (Its entry is not cleared: the table is 4 MiB, mostly never touched,
 * and stays so.)
 */
static void forget_grants(void)
{
	uint32_t i, closed = 0;

	for (i = 0; i < rt_conf.ngrants; i++)
		closed |= rt_conf.grants[i].keep ? 0 : 1u << i;
	__atomic_fetch_or(&rt_state.grants_closed, closed, __ATOMIC_RELEASE);
}

/*
 * execve's flush_signal_handlers: handled signals back to SIG_DFL, ignored ones stay ignored
 * (flags and mask cleared); the alternate stack off. SIGSYS's handler stays the runtime's,
 * and the program's own SIGSYS action, kept by the runtime, is reset the same way.
 */
static void reset_signals(void)
{
	struct rt_ksigaction old, dfl = { SIG_DFL_, 0, 0, 0 }, ign = { SIG_IGN_, 0, 0, 0 };
	struct rt_altstack ss = { 0, SS_DISABLE_, 0, 0 };
	int sig;

	for (sig = 1; sig <= 64; sig++) {
		if (sig == SIGKILL_ || sig == SIGSTOP_ || sig == SIGSYS_ ||
		    SC4(__NR_rt_sigaction, sig, 0, &old, 8) != 0)
			continue;
		if (old.handler == SIG_IGN_ && (old.flags || old.mask))
			SC4(__NR_rt_sigaction, sig, &ign, 0, 8);
		else if (old.handler != SIG_IGN_ && old.handler != SIG_DFL_)
			SC4(__NR_rt_sigaction, sig, &dfl, 0, 8);
	}
	memcpy(&old, rt_state.sigsys_act, sizeof(old));
	memcpy(rt_state.sigsys_act, old.handler == SIG_IGN_ ? &ign : &dfl, sizeof(old));
	SC2(__NR_sigaltstack, &ss, 0);
}

/*
 * The old libc's rseq area: the kernel writes the CPU number into it on every return to
 * user space, and it is about to be unmapped. Unregistering needs its address, which only
 * that libc knows: it lies near the thread pointer (glibc: in struct pthread, or since 2.40
 * below it in the static TLS), 32-byte aligned; the kernel says EINVAL for every other
 * address, so each candidate is asked in turn. Another libc's, or none: nothing to do.
 */
static void rseq_unregister(void)
{
	uintptr_t fs = 0, off;
	long e;

	if (!(rt_conf.exec_may & RT_EXEC_RSEQ) || SC2(__NR_arch_prctl, ARCH_GET_FS_, &fs) < 0 ||
	    !fs)
		return;
	for (off = 0; off < 0x5000; off += 32) {
		uintptr_t p = off < 0x1000 ? fs + off : fs - (off - 0x1000) - 32;

		e = SC4(__NR_rseq, p & ~(uintptr_t)31, 32, 1 /* RSEQ_FLAG_UNREGISTER */,
			RSEQ_SIG_);
		if (e != -EINVAL)
			return;	/* done, or a signature not glibc's, or rseq refused */
	}
}

static void set_name(const char *execfn)
{
	const char *base = execfn, *p;

	for (p = execfn; *p; p++) {
		if (*p == '/')
			base = p + 1;
	}
	SC2(__NR_prctl, PR_SET_NAME_, base);
}

/*
 * The stub's after(): a fixed-address program whose addresses the old program held is mapped
 * now that they are free, as the kernel maps it after the point of no return; a failure there
 * ends the process, as the kernel's does.
 */
static void map_late(void *arg)
{
	(void)arg;
	if (loader_map_late(&S.img, &S.files[0]) < 0) {
		say("execve: the new program could not be mapped after the point of no return",
		    NULL);
		SC1(__NR_exit_group, 127);
	}
}

/* ---- threads ------------------------------------------------------------------------------- */

/*
 * Wait for a while: sched_yield at first, then, when the profile allows it, a millisecond's
 * sleep. Returns 0 once round has passed the limit of about five seconds.
 */
static int wait_round(unsigned int round)
{
	static const struct { long sec, nsec; } ms = { 0, 1000000 };

	if (round < 1000 || !(rt_conf.exec_may & RT_EXEC_NANOSLEEP))
		SC0(__NR_sched_yield);
	else
		SC2(__NR_nanosleep, &ms, 0);
	return round < ((rt_conf.exec_may & RT_EXEC_NANOSLEEP) ? 6000u : 5000000u);
}

/*
 * execve's de_thread, from the main thread with every signal blocked: SIGSYS to the process
 * until no other thread is left. A thread that gets it while an exec is under way ends itself
 * (rt_exec_signal); SIGSYS is never blocked in the program's threads (the runtime keeps it out
 * of every mask), so each one is reached. unshare(CLONE_VM), which the always-denied
 * filter lets through alone because it unshares nothing, says when the main thread is alone in
 * its memory. A thread that will not end (SIGSYS held off by a sigsuspend mask), or a process
 * sharing the memory (clone(CLONE_VM) without CLONE_THREAD, which no signal here reaches),
 * ends the process: there is no going back now.
 *
 * Meanwhile SIGSYS's action blocks every signal, SIGSYS too, while its handler runs. The
 * kernel sends each process-wide kill to the thread it chose last for as long as that one
 * takes SIGSYS; under the runtime's own action (SA_NODEFER) each kill that came before the
 * thread had ended nested one more frame on its stack, before it could run an instruction,
 * until the runtime's stack overran its guard page. Blocked on delivery, the next kill goes
 * to another thread, and the one reached ends (rt_exec_early).
 */
static void kill_threads(void)
{
	struct rt_ksigaction ending, ign = { SIG_IGN_, 0, 0, 0 };
	long pid = SC0(__NR_getpid);
	unsigned int round;

	SC4(__NR_rt_sigaction, SIGSYS_, 0, &S.action, 8);
	ending = S.action;
	ending.flags &= ~(uint64_t)SA_NODEFER_;
	ending.mask = ~0ULL;
	__atomic_store_n(&S.killer, (int32_t)SC0(__NR_gettid), __ATOMIC_RELEASE);
	SC4(__NR_rt_sigaction, SIGSYS_, &ending, 0, 8);
	for (round = 0; SC1(__NR_unshare, CLONE_VM_) != 0; round++) {
		if (!wait_round(round)) {
			say("execve: a thread of the program, or a process sharing its memory, "
			    "would not end; the process ends", NULL);
			SC1(__NR_exit_group, 126);
		}
		SC2(__NR_kill, pid, SIGSYS_);
	}
	/* A last SIGSYS may be pending for no one: SIG_IGN discards it. */
	SC4(__NR_rt_sigaction, SIGSYS_, &ign, 0, 8);
	SC4(__NR_rt_sigaction, SIGSYS_, &S.action, 0, 8);
	__atomic_store_n(&S.killer, 0, __ATOMIC_RELEASE);
}

/*
 * A thread other than the exec's ends. The killer learns it is alone (unshare) once this
 * thread is counted out, which the kernel does before it lets go of the memory; and while
 * letting go, it walks the robust futex list and writes 0 to the clear_child_tid address,
 * both in the old program's memory, which the new program may by then have mapped again
 * (a word of its data zeroed, a futex marked as its owner's death). With both unset first,
 * the kernel touches nothing of the memory after the count, as execve's de_thread ensures.
 */
static _Noreturn void exit_for_exec(void)
{
	SC2(__NR_set_robust_list, 0, 24 /* sizeof(struct robust_list_head) */);
	SC1(__NR_set_tid_address, 0);
	for (;;)
		SC1(__NR_exit, 0);
}

/* The exec's own SIGSYS, not a trap: sent by this process with kill or tgkill. */
static int ours(const struct rt_siginfo *si)
{
	return (si->code == SI_USER_ || si->code == SI_TKILL_) &&
	       ((const int32_t *)si)[4] == (int32_t)SC0(__NR_getpid);
}

/* Take the exec: one at a time, from a thread alive in this process (not a fork's parent). */
static int take(void)
{
	int32_t tid = (int32_t)SC0(__NR_gettid), owner;
	unsigned int round;

	for (round = 0;; round++) {
		owner = 0;
		if (__atomic_compare_exchange_n(&S.owner, &owner, tid, 0, __ATOMIC_ACQUIRE,
						__ATOMIC_ACQUIRE))
			return 0;
		if (SC3(__NR_tgkill, SC0(__NR_getpid), owner, 0) == -ESRCH &&
		    __atomic_compare_exchange_n(&S.owner, &owner, tid, 0, __ATOMIC_ACQUIRE,
						__ATOMIC_ACQUIRE))
			return 0;
		/* Another thread's exec: it ends this one, or fails and lets go. */
		if (!wait_round(round))
			return -EAGAIN;
	}
}

static void give_back(void)
{
	__atomic_store_n(&S.owner, 0, __ATOMIC_RELEASE);
}

static _Noreturn void point_of_no_return(uint64_t mask);

/*
 * First at every SIGSYS, before the switch to the runtime's stack: while an exec ends the
 * threads, any other thread of its process that gets here ends (as execve ends them), by the
 * killer's signal or by a trap of its own. Its memory may be a fork's copy made meanwhile,
 * which forked_mid_kill sets right at its first trap: its pid is not the killer's.
 */
void rt_exec_early(void)
{
	int32_t killer = __atomic_load_n(&S.killer, __ATOMIC_ACQUIRE);

	if (killer && killer == (int32_t)SC0(__NR_getpid) &&
	    killer != (int32_t)SC0(__NR_gettid))
		exit_for_exec();
}

/*
 * From rt_sigsys, for a SIGSYS that is no trap: the exec's hand-over. In the main thread,
 * takes over the exec another thread prepared. Returns when the signal is not the exec's.
 */
void rt_exec_signal(const struct rt_siginfo *si)
{
	uint32_t asked = 1;

	if (!ours(si))
		return;
	if (SC0(__NR_gettid) == SC0(__NR_getpid) &&
	    __atomic_compare_exchange_n(&S.handoff, &asked, 2, 0, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE))
		point_of_no_return(S.mask);
}

/*
 * A thread other than the main one: the main thread must do the exec, since only it can learn
 * when it is alone, and execve gives the new program the main thread's id. Ask it, then wait
 * to be ended. A main thread that does not answer (it has exited, or blocks SIGSYS in a
 * sigsuspend): -EAGAIN, nothing changed.
 */
static long hand_over(uint64_t mask)
{
	long pid = SC0(__NR_getpid);
	uint32_t asked = 1;
	unsigned int round;

	S.mask = mask;
	__atomic_store_n(&S.handoff, 1, __ATOMIC_RELEASE);
	SC3(__NR_tgkill, pid, pid, SIGSYS_);
	for (round = 0; wait_round(round); round++) {
		if (__atomic_load_n(&S.handoff, __ATOMIC_ACQUIRE) == 2)
			for (;;)	/* taken: the main thread ends this one */
				SC0(__NR_sched_yield);
	}
	if (!__atomic_compare_exchange_n(&S.handoff, &asked, 0, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		for (;;)
			SC0(__NR_sched_yield);
	return -EAGAIN;
}

/* ---- vfork --------------------------------------------------------------------------------- */

/*
 * vfork, and clone with CLONE_VFORK (glibc's posix_spawn and system, python's subprocess):
 * made a fork. A vfork child shares its parent's memory, so its exec could not be done in
 * place; a forked child has a copy, which its exec replaces. The child runs on the stack it
 * was given, in its copy (what the parent wrote there before the call, such as the function
 * glibc's clone wrapper pops, is copied with it), or on its copy of the caller's stack. What
 * differs from vfork: the parent goes on at once instead of when the child has exec'd or
 * exited, and what the child writes stays in its copy (posix_spawn reports an exec that fails
 * by the child's exit status 127, not by its errno). A vfork that would be a thread
 * (CLONE_THREAD) has no fork to be: EINVAL.
 */
long rt_spawn(long nr, const long *a, struct rt_ucontext *uc)
{
	unsigned long flags = nr == __NR_vfork ? CLONE_VM_ | CLONE_VFORK_ | SIGCHLD_ :
			      (unsigned long)a[0];
	long r;

	if (nr == __NR_clone && (flags & CLONE_THREAD_))
		return -EINVAL;
	flags &= ~(unsigned long)(CLONE_VM_ | CLONE_VFORK_ | CLONE_SIGHAND_);
	if (nr == __NR_vfork)
		r = SC5(__NR_clone, flags, 0, 0, 0, 0);
	else
		r = SC5(__NR_clone, flags, 0, a[2], a[3], a[4]);
	if (r == 0 && nr == __NR_clone && a[1])
		uc->mc.rsp = (uint64_t)a[1];
	return r;
}

/* ---- rt_exec ------------------------------------------------------------------------------- */

/* Undo prepare: the new images and stack unmapped, a late program's file closed. */
static void unprepare(void)
{
	if (S.img.late.len)
		loader_sys_close(S.files[0].fd);
	loader_release(&S.img);
}

/*
 * S.exe: the new program's file as the kernel's /proc/self/exe would name it, the path of
 * the file its descriptor names (symbolic links resolved); for a #! script, its interpreter.
 */
static void exe_of(const struct loader_image *img)
{
	const char *name = img->nscripts ? img->script[img->nscripts - 1].interp : img->execfn;
	char link[RT_FD_LINK_MAX];
	long fd = SC4(__NR_openat, AT_FDCWD_, name, O_PATH | O_CLOEXEC, 0), n = -1;

	if (fd >= 0) {
		rt_fd_link(link, (int)fd);
		n = SC4(__NR_readlinkat, AT_FDCWD_, link, S.exe, sizeof(S.exe) - 1);
		SC1(__NR_close, fd);
	}
	if (n <= 0 || S.exe[0] != '/') {
		n = (long)strlen(name);
		if (n > (long)sizeof(S.exe) - 1)
			n = sizeof(S.exe) - 1;
		memcpy(S.exe, name, (size_t)n);
	}
	S.exe[n] = '\0';
}

/* Open, check and map the new program and its stack, beside the old one. */
static long prepare(const char *path, char *const *argv, char *const *envp)
{
	uint32_t i;
	long e;

	S.img.late_ok = 1;
	e = loader_load(&S.img, path, S.files, NULL);
	if (e)
		return e;
	for (i = 0; !e && i < rt_conf.nspecial && i < RT_MAX_SPECIAL; i++)
		e = loader_keep(&S.img, rt_conf.special[i][0], rt_conf.special[i][1]);
	/* This runtime: its text (credbox's pages), and its configuration and state. */
	if (!e)
		e = loader_keep(&S.img, rt_conf.base, (uintptr_t)rt_text_end - rt_conf.base);
	if (!e)
		e = loader_keep(&S.img, (uintptr_t)&rt_conf,
				(uintptr_t)rt_end - (uintptr_t)&rt_conf);
	if (!e)
		e = loader_stack(&S.img, argv, envp, NULL);
	if (!e)
		e = loader_late_check(&S.img);
	if (e)
		unprepare();
	else
		exe_of(&S.img);
	return e;
}

long rt_exec(long nr, const long *a, struct rt_ucontext *uc)
{
	const int at = nr == __NR_execveat;
	const char *arg_path = (const char *)a[at], *path = NULL;
	char *const *argv = (char *const *)a[at + 1], *const *envp = (char *const *)a[at + 2];
	int dirfd = at ? (int)a[0] : AT_FDCWD_, flags = at ? (int)a[4] : 0;
	uint64_t mask = uc->sigmask & ~SIGBIT(SIGSYS_);
	char empty[1] = "", *empty_argv[2] = { empty, NULL };
	struct target t;
	long e;

	if (rt_conf.exec_refused[0])
		return refuse(nr, arg_path, rt_conf.exec_refused);
	if (flags & ~(AT_EMPTY_PATH_ | AT_SYMLINK_NOFOLLOW_))
		return -EINVAL;
	if (!arg_path || !rt_string_readable(arg_path, RT_PATH_MAX))
		return -EFAULT;
	if (!own_memory())
		return refuse(nr, arg_path, "the memory is shared with another process (a vfork "
			      "child): under transparent grants exec in place needs its own; "
			      "use fork");
	e = exec_path(arg_path, dirfd, flags, &t, &path);
	if (!e && (flags & AT_SYMLINK_NOFOLLOW_))
		e = not_a_link(path);
	if (!e)
		e = vector_ok(argv);
	if (!e)
		e = vector_ok(envp);
	if (e)
		return e;
	if (!argv || !argv[0])
		argv = empty_argv;	/* as execve: argc is never 0 */
	e = take();
	if (e)
		return e;
	e = prepare(path, argv, envp);
	if (!e && SC0(__NR_gettid) != SC0(__NR_getpid)) {
		e = hand_over(mask);
		if (e)
			unprepare();
		if (e)
			refuse(nr, arg_path, "the main thread did not take it over (has it "
			       "exited?): under transparent grants it makes the exec");
	}
	if (e) {
		give_back();
		return e;
	}
	point_of_no_return(mask);
}

static _Noreturn void point_of_no_return(uint64_t mask)
{
	uint64_t all = ~0ULL;
	struct loader_stub_args *stub;

	SC4(__NR_rt_sigprocmask, 2 /* SIG_SETMASK */, &all, 0, 8);
	kill_threads();
	rt_threads_exec();
	memcpy(rt_state.exe, S.exe, sizeof(rt_state.exe));
	close_on_exec();
	forget_grants();
	reset_signals();
	rseq_unregister();
	set_name(S.img.execfn);
	stub = loader_stub_table(&S.img);
	if (S.img.late.len)
		stub->after = map_late;
	__atomic_store_n(&S.handoff, 0, __ATOMIC_RELEASE);
	give_back();
	SC4(__NR_rt_sigprocmask, 2 /* SIG_SETMASK */, &mask, 0, 8);
	loader_stub_jump(stub);
}
