/* SPDX-License-Identifier: GPL-2.0 */
/*
 * landlock: restrict the process to the granted directories and the profile's system paths,
 * with raw syscalls and the best ABI the kernel offers.
 */
#ifndef CREDBOX_LANDLOCK_H
#define CREDBOX_LANDLOCK_H

#include <stddef.h>
#include <stdint.h>

struct plan;

/* The running kernel's Landlock ABI version: > 0, or -EOPNOTSUPP / -ENOSYS. */
int landlock_abi(void);

/* What an ABI lacks, compared with the newest one credbox knows; one line per item. */
struct landlock_gap {
	int abi;		/* first ABI that has it */
	const char *what;
	const char *consequence;
};
/* Row i of the gaps of `abi`: 0, or -ENOENT past the last one. */
int landlock_missing(int abi, size_t i, struct landlock_gap *out);

/*
 * Whether Landlock at abi can hold a read-only grant to reading: it needs the truncate right
 * (ABI 3), or O_TRUNC through the fd would still empty a file. 1 or 0.
 */
int landlock_enforces_ro(int abi);

/* Access masks credbox uses for abi (exported for tests). */
uint64_t landlock_handled_fs(int abi);
uint64_t landlock_access_ro(int abi, int exec);
uint64_t landlock_access_rw(int abi);

/*
 * Restrict the calling process: dir_fds[i] (the granted directories, in plan order) with
 * their access, the plan's paths, nothing else; signals and abstract unix sockets scoped to
 * the sandbox where the kernel can. Needs no_new_privs. Returns 0, or -errno; with
 * missing_path set to the path that failed when opening a path failed.
 * A kernel without Landlock gives -EOPNOTSUPP (the caller decides per the profile).
 */
int landlock_apply(const struct plan *plan, const int *dir_fds, const char **failed_path);

#endif /* CREDBOX_LANDLOCK_H */
