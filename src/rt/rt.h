/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rt.h: what the redirect runtime's files share inside the image (redirect_rt.c, the
 * handler and the redirection; rt_exec.c, the program's own execve). Not seen by credbox:
 * redirect_rt.h is the layout both sides agree on.
 */
#ifndef CREDBOX_RT_H
#define CREDBOX_RT_H

#include <stddef.h>
#include <stdint.h>

#include "redirect_rt.h"

#define HIDDEN		__attribute__((visibility("hidden")))

/* ---- the image's entry points and its one syscall instruction --------------------------- */

/*
 * rt_syscall6(nr, a..f): the only syscall instruction whose traps the filter lifts.
 * rt_restorer: the sigreturn trampoline the kernel requires (SA_RESTORER); rt_sigreturn is
 * never trapped, so it may sit anywhere.
 */
HIDDEN long rt_syscall6(long nr, long a, long b, long c, long d, long e, long f);
HIDDEN void rt_restorer(void);
HIDDEN extern const char rt_exempt_ret[];

#define SC0(n)			rt_syscall6(n, 0, 0, 0, 0, 0, 0)
#define SC1(n, a)		rt_syscall6(n, (long)(a), 0, 0, 0, 0, 0)
#define SC2(n, a, b)		rt_syscall6(n, (long)(a), (long)(b), 0, 0, 0, 0)
#define SC3(n, a, b, c)		rt_syscall6(n, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define SC4(n, a, b, c, d)	rt_syscall6(n, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)
#define SC5(n, a, b, c, d, e) \
	rt_syscall6(n, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), 0)
#define SC6(n, a, b, c, d, e, f) \
	rt_syscall6(n, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), (long)(f))

/* Filled by credbox, then read-only; and the runtime's own state. */
HIDDEN extern struct rt_conf rt_conf;
HIDDEN extern struct rt_state rt_state;

/* The kernel's structures, x86_64 (checked against the C library's in redirect.c). */
struct rt_altstack {		/* stack_t, for sigaltstack */
	uint64_t sp;
	int32_t flags, pad;
	uint64_t size;
};

#define SS_ONSTACK_	1
#define SS_DISABLE_	2

struct rt_ksigaction {
	void *handler;
	unsigned long flags;
	void *restorer;
	uint64_t mask;
};

#define SA_NODEFER_	0x40000000

struct rt_siginfo {
	int32_t signo, errnum, code, pad;
	void *call_addr;
	int32_t syscall;
	uint32_t arch;
};

struct rt_sigcontext {
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15, rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp;
	uint64_t rip, eflags;
	uint16_t cs, gs, fs, ss;
	uint64_t err, trapno, oldmask, cr2, fpstate, reserved[8];
};

struct rt_ucontext {
	uint64_t flags;
	uint64_t link;
	uint64_t ss_sp;
	int32_t ss_flags, ss_pad;
	uint64_t ss_size;
	struct rt_sigcontext mc;
	uint64_t sigmask;
};

/* ---- paths ------------------------------------------------------------------------------ */

/* Where (dirfd, path) leads. */
enum where {
	W_PASS,		/* make the call as it was: nothing of it concerns a tree */
	W_OUTSIDE,	/* outside every tree, but relative to an emulated directory: buf */
	W_TREE,		/* in tree *grant at *rel (pointing into buf) */
	W_ERROR,	/* *err */
};

/*
 * Where a path leads. W_TREE: the call walks from fd (a grant, or a directory that lends:
 * the working directory or the program's dirfd, kernel_first) to rel. A kernel-first walk
 * that leaves the tree (EXDEV) is taken again as the path reads (lex, lex_rel, lex_grant:
 * buf, made absolute and normalised).
 */
struct target {
	int grant;
	int fd;
	const char *rel;
	int kernel_first;
	enum where lex;
	int lex_grant;
	const char *lex_rel;
	long err;
	size_t len;
	char buf[RT_PATH_MAX];
};

/* "/proc/self/fd/N" written into buf (RT_FD_LINK_MAX bytes); returns its length. */
#define RT_FD_LINK_MAX	32
HIDDEN size_t rt_fd_link(char *buf, int fd);

/* A kernel-first target taken again as its path reads; returns where that leads. */
HIDDEN enum where lexical(struct target *t);

/*
 * Where (dirfd, path) leads, with the emulated working directory and the tracked directory
 * fds; empty_ok: "" with AT_EMPTY_PATH means the dirfd itself.
 */
HIDDEN enum where resolve(int dirfd, const char *path, int empty_ok, struct target *t);

/* Whether len bytes at p can be read (a bad pointer: EFAULT, not SIGSEGV). */
HIDDEN int rt_readable(uintptr_t p, size_t len);
/* Whether the string at s can be read to its NUL (or max bytes). */
HIDDEN int rt_string_readable(const char *s, size_t max);

/* Whether path is this process's /proc/.../exe (the runtime answers with the program). */
HIDDEN int rt_self_exe(const char *path);

/* Whether grant i was closed by the program's execve. */
HIDDEN int rt_grant_closed(uint32_t i);

/* After an exec in place: the runtime's entries of the threads that ended, freed. */
HIDDEN void rt_threads_exec(void);

/* "credbox: PROG called WHAT[EXTRA]\n" on the program's fd 2. */
HIDDEN void say(const char *what, const char *extra);

/* ---- rt_exec.c ---------------------------------------------------------------------------- */

/*
 * The program's execve or execveat (nr, arguments a, trapped with context uc), done in
 * place: does not return when it succeeds; else -errno, as execve.
 */
HIDDEN long rt_exec(long nr, const long *a, struct rt_ucontext *uc);
/* At rt_arm: what rt_exec needs set up before the program runs. */
HIDDEN void rt_exec_arm(void);
/* At every trap: a forked child claims its memory, for its execs, while it is alone in it. */
HIDDEN void rt_exec_claim(void);
/* vfork, or clone with CLONE_VFORK (nr, arguments a, trapped with context uc): a fork. */
HIDDEN long rt_spawn(long nr, const long *a, struct rt_ucontext *uc);
/* The memory is now pid's own, a fork's copy: what was kept for its parent becomes its. */
HIDDEN void rt_forked(int32_t pid);
/* First at every SIGSYS: while an exec ends the other threads, this one ends. */
HIDDEN void rt_exec_early(void);
/* A SIGSYS that is no trap: the exec's hand-over (the main thread takes it), or returns. */
HIDDEN void rt_exec_signal(const struct rt_siginfo *si);

#endif /* CREDBOX_RT_H */
