// SPDX-License-Identifier: GPL-2.0
/*
 * filter_always: the table of what every profile denies, and the libseccomp steps both of
 * credbox's filters share (see filter_always.h). Nothing here depends on the BPF compiled
 * at build time, so that its generator can link this file.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/filter.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sched.h>

#include <seccomp.h>

#include "filter.h"
#include "filter_always.h"
#include "util.h"

/* ---- the always-denied table -------------------------------------------------------------- */

/*
 * Each row: a system call, optionally restricted to calls whose argument `arg`, masked with
 * `mask`, equals `datum` (or, with TEST_NOT_0_OR_ONES, whose low 32 bits are neither all clear
 * nor all set; with TEST_NE, whose whole argument is anything but `datum`); the errno
 * returned; why. Arguments the kernel reads as int are compared on their low 32 bits only,
 * so that junk in the upper half cannot slip past.
 */
enum { TEST_MASKED_EQ, TEST_NOT_0_OR_ONES, TEST_NE };

struct always_rule {
	const char *name;
	int arg;		/* -1: unconditional */
	uint64_t mask;
	uint64_t datum;
	int errnum;
	const char *condition;
	const char *why;
	int test;		/* TEST_* */
};

#define ALL(n, why)	{ n, -1, 0, 0, EPERM, NULL, why, 0 }
#define LOW32		0xffffffffULL
#ifdef __s390x__
#define CLONE_FLAGS_ARG	1
#else
#define CLONE_FLAGS_ARG	0
#endif
#define CLONE_NS(flag) \
	{ "clone", CLONE_FLAGS_ARG, flag, flag, EPERM, "flags & " #flag, \
	  "new namespaces: user namespaces give capabilities over new mounts and ids", 0 }

static const struct always_rule always_rules[] = {
	ALL("ptrace", "another process reaching in, or the program reaching out"),
	ALL("process_vm_readv", "reading another process's memory"),
	ALL("process_vm_writev", "writing another process's memory"),
	ALL("pidfd_getfd", "taking fds from another process"),
	ALL("kcmp", "comparing kernel objects of other processes (fd probing)"),
	{ "prctl", 0, LOW32, PR_SET_DUMPABLE, EPERM, "option == PR_SET_DUMPABLE",
	  "a dumpable process can be ptraced and its fds read by its uid", 0 },
	{ "prctl", 0, LOW32, PR_SET_MM, EPERM, "option == PR_SET_MM",
	  "rewriting the memory map descriptors (exe file, auxv, stack)", 0 },
	{ "prctl", 0, LOW32, PR_SET_PTRACER, EPERM, "option == PR_SET_PTRACER",
	  "inviting another process to ptrace this one", 0 },
	ALL("io_uring_setup", "io_uring works on fds outside the seccomp filter"),
	ALL("io_uring_enter", "io_uring works on fds outside the seccomp filter"),
	ALL("io_uring_register", "io_uring registers fds"),
	ALL("bpf", "kernel attack surface, maps shared with other processes"),
	ALL("userfaultfd", "stalling the kernel at will (race amplifier)"),
	ALL("perf_event_open", "observing other processes, kernel attack surface"),
	/*
	 * unshare(CLONE_VM) alone unshares nothing (the kernel pretends when there is nothing to
	 * unshare): it only says whether the caller is alone in its memory, no other thread and
	 * no vfork child or parent (EINVAL if not). The runtime's execve in place asks it.
	 */
	{ "unshare", 0, ~0ULL, CLONE_VM, EPERM, "flags != CLONE_VM",
	  "new namespaces (and unsharing the fd table)", TEST_NE },
	ALL("setns", "entering other namespaces"),
	CLONE_NS(CLONE_NEWNS), CLONE_NS(CLONE_NEWCGROUP), CLONE_NS(CLONE_NEWUTS),
	CLONE_NS(CLONE_NEWIPC), CLONE_NS(CLONE_NEWUSER), CLONE_NS(CLONE_NEWPID),
	CLONE_NS(CLONE_NEWNET),
	{ "clone3", -1, 0, 0, ENOSYS, NULL,
	  "its flags are in memory where a filter cannot see them; libc falls back to clone", 0 },
	ALL("mount", "changing what paths mean"), ALL("umount", "changing what paths mean"),
	ALL("umount2", "changing what paths mean"), ALL("open_tree", "changing what paths mean"),
	ALL("move_mount", "changing what paths mean"), ALL("fsopen", "changing what paths mean"),
	ALL("fsconfig", "changing what paths mean"), ALL("fsmount", "changing what paths mean"),
	ALL("fspick", "changing what paths mean"),
	ALL("mount_setattr", "changing what paths mean"),
	ALL("pivot_root", "changing what paths mean"), ALL("chroot", "changing what paths mean"),
	ALL("keyctl", "the keyring is shared with the user's other processes"),
	ALL("add_key", "the keyring is shared with the user's other processes"),
	ALL("request_key", "the keyring is shared with the user's other processes"),
	/* PER_LINUX (0) and the query, nothing else: as systemd's LockPersonality= */
	{ "personality", 0, LOW32, 0, EPERM, "persona other than PER_LINUX or the query 0xffffffff",
	  "other execution domains, and flags that weaken address space randomisation or W^X",
	  TEST_NOT_0_OR_ONES },
	{ "ioctl", 1, LOW32, TIOCSTI, EPERM, "request == TIOCSTI",
	  "typing commands into the terminal credbox was started from", 0 },
	{ "ioctl", 1, LOW32, TIOCLINUX, EPERM, "request == TIOCLINUX",
	  "console selection can type into the terminal too", 0 },
	ALL("open_by_handle_at", "opening files by handle, around every path check"),
	ALL("name_to_handle_at", "file handles for open_by_handle_at elsewhere"),
	ALL("kexec_load", "replacing the kernel"), ALL("kexec_file_load", "replacing the kernel"),
	ALL("init_module", "loading kernel code"), ALL("finit_module", "loading kernel code"),
	ALL("delete_module", "unloading kernel code"),
	ALL("iopl", "raw hardware access"), ALL("ioperm", "raw hardware access"),
	ALL("uselib", "obsolete loader path, kernel attack surface"),
	ALL("vhangup", "hanging up the terminal of others"),
	ALL("fanotify_init", "watching files of other processes"),
};

/*
 * What an ID-mapped grant adds (credbox.ini(5), SECURITY): through the mount the program is
 * the tree's owner, so the kernel would let it make a set-user-ID or set-group-ID file there,
 * owned by that owner on disk. Every mode argument that can carry the bits is refused them;
 * openat2's mode is in memory, where a filter cannot see it (glibc never makes openat2 for
 * open(); ENOSYS sends a program that does back to openat).
 */
#define SETID_WHY	"a set-ID file made in an ID-mapped tree would run as its owner"
#define SETID(n, a) \
	{ n, a, S_ISUID, S_ISUID, EPERM, "mode & S_ISUID", SETID_WHY, 0 }, \
	{ n, a, S_ISGID, S_ISGID, EPERM, "mode & S_ISGID", SETID_WHY, 0 }

static const struct always_rule idmap_rules[] = {
	SETID("chmod", 1), SETID("fchmod", 1), SETID("fchmodat", 2), SETID("fchmodat2", 2),
	SETID("open", 2), SETID("openat", 3), SETID("creat", 1), SETID("mknod", 1),
	SETID("mknodat", 2),
	{ "openat2", -1, 0, 0, ENOSYS, NULL,
	  "its mode is in memory, where the filter cannot refuse set-ID bits", 0 },
};

static int rule_info(const struct always_rule *r, struct filter_always_info *out)
{
	out->name = r->name;
	out->condition = r->condition;
	out->why = r->why;
	return 0;
}

int filter_idmap(size_t i, struct filter_always_info *out)
{
	return i < ARRAY_SIZE(idmap_rules) ? rule_info(&idmap_rules[i], out) : -ENOENT;
}

int filter_always(size_t i, struct filter_always_info *out)
{
	return i < ARRAY_SIZE(always_rules) ? rule_info(&always_rules[i], out) : -ENOENT;
}

int filter_always_denies(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(always_rules); i++) {
		if ((always_rules[i].arg < 0 || always_rules[i].test == TEST_NE) &&
		    !strcmp(always_rules[i].name, name))
			return 1;
	}
	return 0;
}

int filter_ctx_new(uint32_t dflt, scmp_filter_ctx *out)
{
	scmp_filter_ctx ctx = seccomp_init(dflt);
	int err;

	if (!ctx)
		return -ENOMEM;
	/* Calls of another ABI (int 0x80, x32 on x86_64) would bypass the numbers below. */
	err = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
	/*
	 * A binary search on the syscall number, not libseccomp's default linear chain: every
	 * call the program makes runs a few comparisons instead of up to a hundred, and the
	 * kernel's per-syscall verdict cache, built at load, is ready in half the time.
	 */
	if (!err)
		err = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	if (err) {
		seccomp_release(ctx);
		return err;
	}
	*out = ctx;
	return 0;
}

/*
 * Deny unless the argument's low 32 bits are all clear or all set. A 32-bit word that is
 * neither, read as a ring, has a set bit followed by a clear one, and one rule per position
 * finds it: libseccomp compares an argument once per rule, so "!= 0 && != ~0" takes 32 rules.
 */
static int add_not_0_or_ones(scmp_filter_ctx ctx, const struct always_rule *r, int nr)
{
	int bit, err = 0;

	for (bit = 0; !err && bit < 32; bit++) {
		uint64_t set = 1ULL << bit, clear = 1ULL << ((bit + 1) % 32);

		err = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(r->errnum), nr, 1,
				       SCMP_CMP(r->arg, SCMP_CMP_MASKED_EQ, set | clear, set));
	}
	return err;
}

static int add_rules(scmp_filter_ctx ctx, const struct always_rule *rules, size_t n)
{
	size_t i;
	int err = 0;

	for (i = 0; !err && i < n; i++) {
		const struct always_rule *r = &rules[i];
		int nr = seccomp_syscall_resolve_name(r->name);

		if (nr < 0)
			continue;	/* not on this architecture */
		if (r->arg < 0)
			err = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(r->errnum), nr, 0);
		else if (r->test == TEST_NOT_0_OR_ONES)
			err = add_not_0_or_ones(ctx, r, nr);
		else if (r->test == TEST_NE)
			err = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(r->errnum), nr, 1,
					       SCMP_CMP(r->arg, SCMP_CMP_NE, r->datum));
		else
			err = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(r->errnum), nr, 1,
					       SCMP_CMP(r->arg, SCMP_CMP_MASKED_EQ, r->mask,
							r->datum));
	}
	return err;
}

int filter_always_ctx(int idmap, scmp_filter_ctx *out)
{
	scmp_filter_ctx ctx;
	int err = filter_ctx_new(SCMP_ACT_ALLOW, &ctx);

	if (err)
		return err;
	err = add_rules(ctx, always_rules, ARRAY_SIZE(always_rules));
	if (!err && idmap)
		err = add_rules(ctx, idmap_rules, ARRAY_SIZE(idmap_rules));
	if (err) {
		seccomp_release(ctx);
		return err;
	}
	*out = ctx;
	return 0;
}

/* Through a memfd: libseccomp 2.5 cannot export into memory. */
int filter_export(scmp_filter_ctx ctx, void **insns, unsigned short *len)
{
	struct stat st;
	void *buf = NULL;
	int fd, err;

	fd = memfd_create("credbox-bpf", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = seccomp_export_bpf(ctx, fd);
	if (!err && fstat(fd, &st))
		err = -errno;
	if (!err && (st.st_size <= 0 || st.st_size % sizeof(struct sock_filter) ||
		     st.st_size / sizeof(struct sock_filter) > BPF_MAXINSNS))
		err = -E2BIG;
	if (!err && !(buf = malloc(st.st_size)))
		err = -ENOMEM;
	if (!err && pread(fd, buf, st.st_size, 0) != st.st_size)
		err = -EIO;
	close(fd);
	if (err) {
		free(buf);
		return err;
	}
	*insns = buf;
	*len = (unsigned short)(st.st_size / sizeof(struct sock_filter));
	return 0;
}
