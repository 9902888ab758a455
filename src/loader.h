/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loader: start an ELF executable inside the current process, in place of execve(2).
 *
 * execve(2) would close every O_CRED_ALLOW directory fd, so credbox loads the program into its
 * own address space, removes itself, and jumps to the program's entry point (or to that of its
 * ELF interpreter). The program sees the state a fresh execve would give it, with the fds the
 * launcher left open still open at the same numbers.
 *
 * Two calls, split at the privilege drop:
 *
 *   loader_prepare()  before the privilege drop, with the fs identity of the program to be.
 *                     Opens, reads and checks the program (a #! script: its interpreters) and
 *                     its PT_INTERP interpreter as execve would for that identity, and maps
 *                     both images at their final addresses. Every check of the files happens
 *                     here. On return no fd is held by the loader: the launcher may close
 *                     every fd but its own.
 *   loader_enter()    last, after privilege drop, Landlock and seccomp. Builds the new stack,
 *                     resets what execve resets and hands over to the x86_64 stub, which unmaps
 *                     every mapping of credbox except its own page, switches stacks and jumps.
 *
 * Syscalls loader_enter() needs (a seccomp filter must allow them): mmap, munmap, mprotect,
 * getrandom, rt_sigaction, rt_sigprocmask, sigaltstack, prctl(PR_SET_NAME), rseq (to
 * unregister glibc's rseq area), getuid, geteuid, getgid, getegid, write and exit_group (only
 * for the message if an munmap fails after the point of no return); arch_prctl,
 * set_robust_list and set_tid_address reset the thread's state (a denial is ignored: the
 * program's libc sets them anyway). It opens no file.
 *
 * Errors: every call returns 0 or -errno, with err (failure.h) holding a one-line message (no
 * trailing newline, no program name) and the exit status the launcher should use:
 *   127  the program or an interpreter does not exist (-ENOENT), as a shell reports execve's
 *        ENOENT
 *   126  everything else: malformed, truncated or hostile ELF or #! line (-ENOEXEC), bad
 *        argument (-EINVAL), not a regular file, not executable or on a noexec mount
 *        (-EACCES), more than LOADER_MAX_SCRIPTS scripts (-ELOOP), address collision with
 *        credbox (-EEXIST), out of memory (-ENOMEM), I/O errors.
 *
 * Not reset (documented in credbox(1)): /proc/self/exe keeps naming the launcher (changing it
 * needs CAP_CHECKPOINT_RESTORE, and the kernel refuses while the old file is still mapped).
 * Unless loader_build_stack ran before seccomp: /proc/self/cmdline and environ read credbox's
 * former (unmapped) argument area and appear empty, /proc/self/auxv shows credbox's auxv, and
 * the brk heap starts where credbox's ended (it cannot collide: the kernel refuses to grow brk
 * into a mapping, and malloc then falls back to mmap). See loader.c for the details.
 *
 * The caller must be single-threaded (execve would kill the other threads; we cannot).
 */
#ifndef CREDBOX_LOADER_H
#define CREDBOX_LOADER_H

#include <stddef.h>
#include <stdint.h>

#include "failure.h"

/* More program headers than this is refused (-ENOEXEC); real programs have about 15. */
#define LOADER_MAX_PHNUM	64
/* Path of an ELF interpreter, NUL included. */
#define LOADER_MAX_INTERP	256
/* AT_EXECFN string kept for the new stack, NUL included. */
#define LOADER_MAX_EXECFN	4096
/* Address ranges kept at the jump: both images' segments, the vDSO and vvar pages. */
#define LOADER_MAX_KEEP		(2 * LOADER_MAX_PHNUM + 8)
/* What execve reads of a file to recognise it (BINPRM_BUF_SIZE): the #! line's limit. */
#define LOADER_BINPRM_BUF	256
/* Scripts in a chain of #! interpreters before the ELF file (execve: ELOOP past 5). */
#define LOADER_MAX_SCRIPTS	5

/* One range of the address space, page aligned. */
struct loader_range {
	uintptr_t start;
	uintptr_t len;
};

/* One mapped ELF image (the program or its interpreter). Filled by loader_prepare. */
struct loader_elf {
	uintptr_t bias;		/* load bias: runtime address - p_vaddr */
	uintptr_t entry;	/* runtime entry point */
	uintptr_t phdr;		/* runtime address of the program headers (AT_PHDR) */
	unsigned int phnum;
	unsigned int phent;
	int mapped;		/* its segments are in the address space */
	uintptr_t start_code, end_code;	/* for PR_SET_MM_MAP, as binfmt_elf computes them */
	uintptr_t start_data, end_data;
	uintptr_t end;		/* end of the highest segment, page aligned */
};

/* The program's initial stack, once built (by loader_build_stack or loader_enter). */
struct loader_stack {
	uintptr_t base, size;	/* the mapping */
	uintptr_t sp;		/* initial stack pointer: argc */
	uintptr_t arg_start, arg_end, env_end;	/* the strings, for /proc/PID/cmdline */
	uintptr_t auxv, auxv_bytes;
	uintptr_t brk;		/* where the program's heap starts */
	int ready;
	int mm_set;		/* PR_SET_MM_MAP succeeded: /proc and brk match the program */
};

/* One script of a #! chain: the interpreter it names and its optional argument. */
struct loader_script {
	char interp[LOADER_BINPRM_BUF];
	char arg[LOADER_BINPRM_BUF];
	int has_arg;
};

/*
 * Everything loader_enter needs; the fields are private to the loader. It lives wherever the
 * caller likes (heap or static storage: about 9 KiB): it is read before the jump and not after.
 */
struct loader_image {
	struct loader_elf prog;
	struct loader_elf interp;	/* interp.mapped == 0 for a static program */
	int exec_stack;			/* PT_GNU_STACK asks for PF_X */
	struct loader_stack stack;
	unsigned int nimage;		/* keep[0..nimage) are the images' segments */
	unsigned int nkeep;
	int signals_reset;		/* loader_reset_signals ran */
	int late_ok;			/* a fixed-address program may be mapped late */
	struct loader_range late;	/* that program's span, mapped after the jump's unmap */
	struct loader_range keep[LOADER_MAX_KEEP];
	unsigned int nscripts;		/* script[0] is the file started, if a script */
	char interp_path[LOADER_MAX_INTERP];
	/*
	 * Last, the two arrays a start rarely fills: a program path uses the beginning of
	 * execfn, and most programs are no script. So a start writes the first of the three
	 * pages of the structure and not the others (a fault each, where pages cost).
	 */
	char execfn[LOADER_MAX_EXECFN];
	struct loader_script script[LOADER_MAX_SCRIPTS];
};

/*
 * Open the file at path as execve(2) would, check it and map it: an ELF program and its
 * PT_INTERP interpreter, or a "#!" script, whose interpreter is followed as binfmt_script
 * follows it (up to LOADER_MAX_SCRIPTS scripts; their interpreters and arguments go before
 * the arguments, see loader_enter). Every file is opened with the caller's file system
 * identity (fsuid, fsgid, groups), so call it as the identity the program will run as:
 * execve would resolve the paths, and check execute permission, as that identity. Each open
 * is O_RDONLY | O_NONBLOCK | O_NOCTTY (a FIFO or a device never blocks it), and the file must
 * be a regular file, executable by the caller (faccessat2 with AT_EACCESS: modes, ACLs, LSMs)
 * and not on a noexec mount. Unlike execve, the identity must be able to read the files too.
 * path is the name the program was started by (AT_EXECFN; its basename becomes the process
 * name). On failure nothing is left mapped and nothing else in the process has changed.
 */
int loader_prepare(struct loader_image *img, const char *path, struct failure *err);

/*
 * Optional, between the privilege drop and seccomp (it reads the dropped ids for the auxv,
 * and uses prctl(PR_SET_MM, PR_SET_MM_MAP), which needs no privilege but which the seccomp
 * filter denies): build the program's stack with argv and envp now, and make the kernel's
 * view of the process match the program: /proc/PID/cmdline and environ show its arguments and
 * environment, /proc/PID/auxv its auxv, and its brk heap starts after its own image, as after
 * execve. Without it (or on a kernel without CONFIG_CHECKPOINT_RESTORE, where that prctl does
 * not exist: not an error), loader_enter builds the stack and those stay credbox's. From here
 * on the caller must not allocate: its glibc still caches the old break, and when the kernel
 * refuses a brk() below the new heap it returns the new, higher break, which glibc takes for
 * success, so malloc would hand out unmapped memory.
 */
int loader_build_stack(struct loader_image *img, char *const argv[], char *const envp[],
		       struct failure *err);

/*
 * Start the prepared program with argv and envp (NULL-terminated; copied onto the new stack,
 * so they may live in memory that is about to be unmapped; ignored if loader_build_stack
 * ran). For a script, the program's arguments are, as after execve: the last interpreter of
 * the chain and its argument, ..., the first interpreter and its argument, path, and then
 * argv[1], argv[2]...; argv[0] is dropped. Does not return on success. It
 * returns -errno only for failures before the point of no return (for example the new stack
 * cannot be allocated), with the process unharmed; the images stay mapped until
 * loader_release().
 */
int loader_enter(struct loader_image *img, char *const argv[], char *const envp[],
		 struct failure *err);

/*
 * Keep [start, start + len) (page aligned) mapped through the jump, as the vDSO is: code the
 * program runs that is not its own (the redirect runtime). 0, or -ENOSPC.
 */
int loader_keep(struct loader_image *img, uintptr_t start, uintptr_t len);

/*
 * What execve does to signals (handlers back to SIG_DFL, no alternate stack, an empty mask),
 * done ahead of loader_enter for a caller that installs a handler of its own after it and
 * before the seccomp filter: loader_enter then leaves signals alone.
 */
void loader_reset_signals(struct loader_image *img);

/*
 * The kernel's special mappings a program needs kept (the vDSO and its data pages) into out:
 * how many (at most max). loader_prepare keeps them; the redirect runtime is told them.
 */
#define LOADER_MAX_SPECIAL	4
unsigned int loader_special(struct loader_range *out, unsigned int max);
/*
 * One line of /proc/self/maps (no newline): its start and end, and its name field (after
 * the inode and the blanks, possibly ""). NULL if the line is not of that form.
 */
const char *loader_maps_line(const char *line, unsigned long *start, unsigned long *end);

/* Whether kernel.randomize_va_space asks for randomised load addresses (1 when unknown). */
int loader_randomize_va_space(void);

/* Unmap what loader_prepare mapped, for a launcher that gives up after preparing. */
void loader_release(struct loader_image *img);

#endif /* CREDBOX_LOADER_H */
