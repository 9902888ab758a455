/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loader_sys: what the loader's shared part (loader.c, loader_elf.c, loader_script.c) asks of
 * the program it runs in, so that one source serves two builds:
 *
 *   credbox               src/loader_libc.c, through the C library;
 *   the redirect runtime  src/rt/rt_exec.c, freestanding (LOADER_FREESTANDING): raw system
 *                         calls from its exempt instruction, and no messages (loader_fail
 *                         keeps only the errno, see loader_elf.h).
 *
 * The shared part calls nothing else: no C library function but memcpy, memset, memmove,
 * memcmp, memchr and strlen, which the runtime defines itself. Each call returns like the
 * kernel: a value >= 0, or -errno.
 */
#ifndef CREDBOX_LOADER_SYS_H
#define CREDBOX_LOADER_SYS_H

#include <stddef.h>
#include <stdint.h>

#include "loader_elf.h"

/* open(path, flags) with the caller's own rights, resolved from its working directory. */
long loader_sys_open(const char *path, int flags);
void loader_sys_close(int fd);
/* pread, restarted on EINTR. */
long loader_sys_pread(int fd, void *buf, size_t len, uint64_t off);
/* The file's st_mode and st_size. */
int loader_sys_fstat(int fd, uint32_t *mode, uint64_t *size);
/*
 * Whether execve would run the open regular file fd for the caller (execute permission, the
 * mount's noexec, and what else the build can ask): 0, or -errno with *why set to a
 * description of the refusal (NULL: the errno's text says it).
 */
int loader_sys_may_exec(int fd, const char **why);
/* mmap: the address, or -errno. */
long loader_sys_mmap(uintptr_t addr, size_t len, int prot, int flags, int fd, uint64_t off);
void loader_sys_munmap(uintptr_t addr, size_t len);
/* len random bytes (len <= 256). */
int loader_sys_random(void *buf, size_t len);
/* Whether load addresses are randomised: the personality, kernel.randomize_va_space. */
int loader_sys_randomize(void);
/* RLIMIT_STACK's soft limit (UINT64_MAX: unlimited). */
uint64_t loader_sys_stack_limit(void);
/* The value of an auxv entry the kernel gave this process: 1 and *value, or 0. */
int loader_sys_auxval(unsigned long type, uintptr_t *value);
/* The real and effective uid and gid, in that order (AT_UID, AT_EUID, AT_GID, AT_EGID). */
void loader_sys_ids(uintptr_t ids[4]);

/*
 * And what the shared part offers both: the steps of loader_prepare, loader_build_stack and
 * loader_enter that do not depend on the host.
 */

/*
 * Open, check and map path (a #! script: its chain of interpreters) and its PT_INTERP
 * interpreter into img; files is scratch for the two files read. On failure nothing is
 * left mapped. The vDSO, the runtime and the stub are the host's to keep (loader_keep).
 */
int loader_load(struct loader_image *img, const char *path, struct loader_file files[2],
		struct failure *err);
/* Map and fill the new stack (the picture in loader.c). */
int loader_stack(struct loader_image *img, char *const argv[], char *const envp[],
		 struct failure *err);

/*
 * With img->late_ok, a program at fixed addresses that the running program occupies is mapped
 * late (img->late): after the old program is unmapped, by the stub's after() calling
 * loader_map_late with the file loader_load left open (files[0]). loader_late_check, before
 * the point of no return: -EEXIST if its span covers a range that must survive.
 */
int loader_map_late(struct loader_image *img, struct loader_file *f);
int loader_late_check(const struct loader_image *img);

/* Table handed to the per-architecture stub (loader_x86_64.S); lives on the new stack. */
struct loader_stub_args {
	uintptr_t sp;		/* initial stack pointer: points at argc */
	uintptr_t entry;	/* where to jump */
	void (*after)(void *);	/* called once the ranges are unmapped (NULL: none) */
	void *after_arg;
	uintptr_t nranges;
	struct loader_range range[];	/* to munmap, in order */
};

/* The stub's table, below the new stack's sp: everything but img's kept ranges unmapped. */
struct loader_stub_args *loader_stub_table(const struct loader_image *img);
_Noreturn void loader_stub_jump(const struct loader_stub_args *args);

#endif /* CREDBOX_LOADER_SYS_H */
