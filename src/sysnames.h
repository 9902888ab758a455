/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysnames: the names a profile's [seccomp] section is written in: system calls (libseccomp's
 * tables), the @groups of system calls, errno names, and "name:ERRNO" entries. A leaf: the
 * parser checks names with it, the filter resolves them with it, neither needs the other.
 */
#ifndef CREDBOX_SYSNAMES_H
#define CREDBOX_SYSNAMES_H

#include <stddef.h>

struct sysnames_group {
	const char *name;		/* "@basic-io" */
	const char *doc;
	const char *const *syscalls;	/* NULL-terminated; names unknown here are skipped */
};

const struct sysnames_group *sysnames_groups(size_t *n);
const struct sysnames_group *sysnames_group_find(const char *name);
/*
 * The native name of system call nr, or NULL: libseccomp's, from a table the build made
 * (src/gen/sysnames-gen.c), without its search and its allocation.
 */
const char *sysnames_syscall_name(int nr);
/* Whether libseccomp knows the name (on any architecture). */
int sysnames_syscall_known(const char *name);
/*
 * The system call of this architecture (or, for "@...", the group) nearest to a name that is
 * none, at most two edits away, into out: 0, or -ENOENT.
 */
int sysnames_suggest(const char *name, char *out, size_t size);
/* "EPERM" or "1" -> 1; -1 if neither. */
int sysnames_errno_parse(const char *s);
const char *sysnames_errno_name(int e);
/* Split a [seccomp] deny entry "name:ERRNO" (errno -1 when absent); 0 or -EINVAL. */
int sysnames_entry(const char *entry, char *name, size_t size, int *errnum);

#endif /* CREDBOX_SYSNAMES_H */
