/* SPDX-License-Identifier: GPL-2.0 */
/*
 * filter: seccomp filters with libseccomp.
 *
 * Two filters are loaded; the kernel applies the stricter verdict of the two:
 *   1. the "always" filter, the same for every profile: denies what would let the granted
 *      directory rights leave the process or let another process reach in (the table in
 *      filter_always.c), whatever the profile says; compiled when credbox is built;
 *   2. the profile's filter: an allow-list or a deny-list of system calls and @groups
 *      (systemd-style group tables in sysnames.c), with per-syscall errno and a violation action.
 */
#ifndef CREDBOX_FILTER_H
#define CREDBOX_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"

struct policy_seccomp;

/* FILTER_MARK: a placeholder the redirect patches (redirect.c); errnum is its 16-bit datum. */
enum filter_kind { FILTER_ALLOW, FILTER_KILL, FILTER_ERRNO, FILTER_LOG, FILTER_MARK };

struct filter_act {
	int kind;		/* enum filter_kind */
	int errnum;		/* FILTER_ERRNO */
};

/* Whether a verdict refuses the call (kills, or fails it with an errno). */
static inline int filter_act_denies(struct filter_act a)
{
	return a.kind == FILTER_KILL || a.kind == FILTER_ERRNO;
}

struct filter_entry {
	int nr;
	char *name;
	struct filter_act act;
	int line;		/* of the profile's entry that decided it */
	const char *from;	/* that entry as written ("@clock", "ptrace:EPERM"), in the policy */
	/* has_cond: calls whose argument cond_arg has the bit cond_bit set get cond_act instead */
	int has_cond, cond_arg;
	uint64_t cond_bit;
	struct filter_act cond_act;
	/*
	 * has_cond_fd: and only when argument cond_fd_arg, a dirfd (its low 32 bits, an int as
	 * the kernel reads it), is not AT_FDCWD
	 */
	int has_cond_fd, cond_fd_arg;
};

/* The profile's filter, resolved for the native architecture. */
struct filter_spec {
	int allow_list;
	struct filter_act dflt;		/* for system calls not listed */
	struct filter_entry *e;		/* every rule that differs from dflt, sorted by nr */
	size_t n;
	size_t always_overrides;	/* listed as allowed, yet always denied */
	int idmap;			/* an ID-mapped grant: set-ID modes refused too */
};

/* policy -> spec. Pure (libseccomp's name tables only). 0, -EINVAL (reasons in d), -ENOMEM. */
int filter_resolve(const struct policy_seccomp *sc, struct filter_spec *spec, struct diag *d);
void filter_spec_free(struct filter_spec *spec);

/* One row of the always-denied table, for --check and the man page. */
struct filter_always_info {
	const char *name;
	const char *condition;	/* NULL: every call */
	const char *why;
};
/* Row i of the table into *out: 0, or -ENOENT past the end. */
int filter_always(size_t i, struct filter_always_info *out);
/* Row i of what an ID-mapped grant adds to it (set-ID modes): 0, or -ENOENT past the end. */
int filter_idmap(size_t i, struct filter_always_info *out);
/* Whether the syscall is denied unconditionally by the always filter. */
int filter_always_denies(const char *name);

/* Write both filters as libseccomp's PFC text to fd. 0 or -errno. */
int filter_print(const struct filter_spec *spec, int fd);
/* Load both filters into the calling process (no_new_privs must be set). 0 or -errno. */
int filter_load(const struct filter_spec *spec);

/*
 * The same in two steps, for a caller whose heap must not be touched between them:
 * filter_compile builds both BPF programs (allocating); filter_install loads
 * them with seccomp(2) and allocates nothing. After the loader moved brk with PR_SET_MM_MAP,
 * glibc's sbrk would hand out unmapped memory: nothing may call malloc any more.
 */
struct filter_bpf {
	void *insns[2];			/* struct sock_filter[], always filter first */
	unsigned short len[2];
};
int filter_compile(const struct filter_spec *spec, struct filter_bpf *out);
/*
 * The profile's program alone (struct sock_filter[], malloc'ed): as credbox writes it at every
 * start (filter_bpf.c), and as libseccomp compiles the same spec, whose verdicts it gives for
 * every number and argument (tests/host/t-filter-bpf.c). 0, -EINVAL (an entry out of order, or
 * a condition other than one bit), -E2BIG, -ENOMEM.
 */
int filter_bpf_build(const struct filter_spec *spec, void **insns, unsigned short *len);
int filter_libseccomp_build(const struct filter_spec *spec, void **insns, unsigned short *len);
int filter_install(const struct filter_bpf *bpf);
void filter_bpf_free(struct filter_bpf *bpf);

#endif /* CREDBOX_FILTER_H */
