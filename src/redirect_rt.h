/* SPDX-License-Identifier: GPL-2.0 */
/*
 * redirect_rt.h: the layout shared by credbox (src/redirect.c) and the redirect runtime
 * (src/rt/redirect_rt.c), the freestanding code that stays in the program's address space.
 *
 * The runtime is one position-independent image without relocations: the pages of
 * configuration that credbox fills and then makes read-only (struct rt_conf), then its state
 * (struct rt_state, zero at start, written only by the runtime), then, a fixed distance above
 * (src/rt/redirect_rt.lds), its text, which stays where credbox's own file maps it. Only
 * fixed-size types here: both sides must agree on every offset without a libc in common.
 */
#ifndef CREDBOX_REDIRECT_RT_H
#define CREDBOX_REDIRECT_RT_H

#include <stdint.h>

#define RT_VERSION		1
#define RT_MAX_GRANTS		16		/* transparent grants */
#define RT_PATH_MAX		4096		/* as the kernel's PATH_MAX */
#define RT_NR_MAX		512		/* x86_64 system call numbers below this */
#define RT_POOL_SIZE		(48 << 10)	/* denial messages */
#define RT_FD_MAX		1024		/* directory fds tracked: numbers below this */
#define RT_CWD_SLOTS		16		/* processes sharing the runtime's memory */
#define RT_AUXV_MAX		16		/* auxv entries passed on at an execve */
#define RT_MAX_SPECIAL		4		/* the vDSO's mappings */
#define RT_THREADS		128		/* threads with a stack of the runtime's */
#define RT_STACK_SIZE		(64 << 10)	/* each, its lowest page a guard */
#define RT_DEEP			2u		/* rt_dirfd.lends: lends, path unknown */

/* rt_conf.exec_may: calls the runtime makes only when the profile allows them. */
#define RT_EXEC_RSEQ		1u		/* else no rseq area can be registered */
#define RT_EXEC_PERSONALITY	2u		/* else ADDR_NO_RANDOMIZE is taken as unset */
#define RT_EXEC_POLL		4u		/* else each fd is asked with fcntl */
#define RT_EXEC_NANOSLEEP	8u		/* else waits are sched_yield only */
#define RT_MAY_MPROTECT		16u		/* else the handler's stacks have no guard page */

/*
 * SECCOMP_RET_TRAP data of the profile's filter: RT_TRAP_TAG | index. The index numbers the
 * patched return of the filter (redirect.c); the runtime only checks the tag, to tell its
 * own traps from a SIGSYS the program gets another way.
 */
#define RT_TRAP_TAG		0xc000u
#define RT_TRAP_TAG_MASK	0xf000u

/* What the handler does with a trapped system call (rt_conf.kind[nr]). */
enum rt_kind {
	RT_KIND_NONE = 0,	/* never trapped */
	RT_KIND_REDIRECT,	/* a path call: through a grant, or made as it was */
	RT_KIND_DENY,		/* the profile denies it: say so, then make it (profile's verdict) */
	RT_KIND_SIGNAL,		/* rt_sigaction, rt_sigprocmask: SIGSYS stays the runtime's */
	RT_KIND_EXEC,		/* execve, execveat: done in place by the runtime (rt_exec.c) */
	RT_KIND_SPAWN,		/* vfork, clone with CLONE_VFORK: made a fork (rt_exec.c) */
};

struct rt_grant {
	int32_t fd;			/* the O_CRED_ALLOW directory */
	int32_t rw;			/* access = rw */
	uint32_t len;			/* of path */
	uint32_t keep;			/* exec = keep: not closed at the program's execve */
	char name[64];			/* the [dir NAME], for messages */
	char path[RT_PATH_MAX];		/* absolute, no trailing '/', no "." or ".." */
};

/*
 * Ordered by use: a runtime armed only to name the calls killed for (kills_only) reads the
 * first part and a few pages of pool, and credbox writes nothing else of it.
 */
struct rt_conf {
	uint32_t version;
	uint32_t ngrants;
	uint64_t exempt_ip;		/* what seccomp_data.instruction_pointer reads from
					 * the runtime's own syscall instruction */
	uint64_t base;			/* where the image's text lies (in credbox's file) */
	uint32_t kills_only;		/* armed only to name the calls the profile kills for:
					 * no exec in place, no working directory, no grants */
	uint32_t default_msg;		/* pool offset + 1 for numbers >= RT_NR_MAX */
	char prog[64];			/* the program's name, for messages */
	uint8_t kind[RT_NR_MAX];	/* enum rt_kind */
	uint32_t msg[RT_NR_MAX];	/* offset + 1 in pool of "NAME, denied by ..."; 0: none */
	/* For the program's own execve, done in place (src/rt/rt_exec.c): */
	char exec_refused[128];		/* why it cannot be done ("": it can) */
	uint32_t exec_may;		/* RT_EXEC_*: calls it makes only if the profile allows */
	uint32_t aslr;			/* kernel.randomize_va_space is not 0 */
	uint32_t nauxv, nspecial;
	uint64_t auxv[RT_AUXV_MAX][2];	/* credbox's: the vDSO, hardware capabilities */
	uint64_t special[RT_MAX_SPECIAL][2];	/* the vDSO's ranges, to keep: start, length */
	char pool[RT_POOL_SIZE];
	char cwd[RT_PATH_MAX];		/* credbox's working directory at the jump */
	char exe[RT_PATH_MAX];		/* the program's file, as /proc/self/exe would name it */
	struct rt_grant grants[RT_MAX_GRANTS];
};

/*
 * A directory fd the runtime opened in a tree: valid while fd still is that inode. One that
 * lends (O_CRED_ALLOW, lent on beneath its grant's root) is where the kernel starts the walks
 * relative to it; the path is what a walk that leaves the tree is taken from.
 */
struct rt_dirfd {
	uint32_t seq;			/* odd while being written */
	int32_t grant;			/* -1: empty */
	uint64_t dev, ino;
	uint32_t len;
	uint32_t lends;			/* fd is O_CRED_ALLOW: walks start there; RT_DEEP:
					 * its path is too long to keep (path: its tree's root) */
	char path[RT_PATH_MAX - 32];	/* absolute, normalised */
};

/*
 * The working directory of one process, when it lies in a tree (len > 0): as a directory
 * that lends (fd, in the process's fd table, still that inode), where the kernel starts the
 * relative walks, and as the path a walk that leaves the tree is taken from (rt_state.cwd_path,
 * apart: every trap looks up its process's slot by pid, and with the paths inline each slot
 * it passed was a page of its own, a fault at the first look).
 */
struct rt_cwd {
	uint32_t seq;
	int32_t pid;			/* 0: free */
	uint32_t len;			/* 0: the kernel's own working directory */
	uint32_t kernel;		/* path is the kernel's one: a tree lies beneath it */
	int32_t fd;			/* -1: none (the path only) */
	uint32_t deep;			/* fd's path is too long to keep (path: its tree's) */
	uint64_t dev, ino;		/* of fd */
};

/*
 * A thread the runtime has seen trap: the handler runs on its stack (rt_stacks[index]), and
 * keeps SIGSYS's place in the mask the program believes it has set.
 */
struct rt_thread {
	uint64_t id;			/* tgid << 32 | tid; 0: free */
	uint32_t sigsys_blocked;	/* the program asked to block SIGSYS in this thread */
	uint32_t sigsys_pending;	/* a SIGSYS of the program's arrived meanwhile */
	uint32_t guarded;		/* the stack's lowest page is PROT_NONE */
	uint32_t pad;
};

struct rt_state {
	uint32_t grants_closed;		/* bit i: grant i closed by the program's execve */
	int32_t mem_pid;		/* the process this memory is, or was copied from */
	char exe[RT_PATH_MAX];		/* the program's file now ("": /proc/self/exe is right) */
	/* threads[RT_THREADS]: no stack of its own, for a thread that found no slot */
	struct rt_thread threads[RT_THREADS + 1];
	uint64_t sigsys_act[4];		/* the program's own SIGSYS action (kernel layout) */
	uint64_t explained[RT_NR_MAX / 64];	/* denials already named on stderr */
	struct rt_cwd cwd[RT_CWD_SLOTS];
	char cwd_path[RT_CWD_SLOTS][RT_PATH_MAX];	/* cwd[i]'s path */
	struct rt_dirfd fds[RT_FD_MAX];
};

/* The offsets of the image's symbols: build/redirect_rt_image.h (src/rt/mkblob). */
#endif /* CREDBOX_REDIRECT_RT_H */
