/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uapi.h: kernel interfaces credbox uses that Debian 12's headers may lack.
 *
 * O_CRED_ALLOW and OA2_CRED_INHERIT come from the project's kernel series (kernel-patches/);
 * the rest is upstream ABI newer than linux-libc-dev 6.1. Every definition is guarded so
 * that newer headers win.
 */
#ifndef CREDBOX_UAPI_H
#define CREDBOX_UAPI_H

#include <fcntl.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <linux/types.h>

/* The opened file carries its opener's fs credentials (bit 26: bit 25 is taken on 6.12). */
#ifndef O_CRED_ALLOW
#define O_CRED_ALLOW		0400000000
#endif

/* open_how.flags: open with the fs credentials captured by the O_CRED_ALLOW dir fd. */
#ifndef OA2_CRED_INHERIT
#define OA2_CRED_INHERIT	(1ULL << 28)
#endif

/*
 * unlinkat, renameat2, newfstatat, statx, faccessat2: walk and act with the fs credentials
 * of the O_CRED_ALLOW dirfd, beneath it. openat2 with OA2_CRED_INHERIT also takes
 * O_CREAT | O_DIRECTORY | O_EXCL (mkdir, returns the new directory's fd) and O_PATH.
 */
#ifndef AT_CRED_INHERIT
#define AT_CRED_INHERIT		0x20000
#endif

/*
 * open_how.flags, with O_CRED_ALLOW: the directory lends for reading only; every borrowed
 * write, create, remove, rename, chmod, utimes or link through it is EROFS (patch 17).
 */
#ifndef OA2_CRED_RDONLY
#define OA2_CRED_RDONLY		(1ULL << 29)
#endif

/*
 * fchmodat2 (upstream, 6.6), and symlinkat2(target, newdfd, linkpath, flags) of the series
 * (patches 15 and 16): symlinkat with AT_CRED_INHERIT. x86_64 numbers.
 */
#ifndef SYS_fchmodat2
#define SYS_fchmodat2		452
#endif
#ifndef SYS_symlinkat2
#define SYS_symlinkat2		463
#endif

#ifndef SYS_openat2
#define SYS_openat2		437
#endif
#ifndef SYS_close_range
#define SYS_close_range		436
#endif
#ifndef SYS_faccessat2
#define SYS_faccessat2		439
#endif
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset	444
#define SYS_landlock_add_rule		445
#define SYS_landlock_restrict_self	446
#endif

#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#else
struct open_how {
	__u64 flags;
	__u64 mode;
	__u64 resolve;
};
#endif
#ifndef RESOLVE_NO_XDEV
#define RESOLVE_NO_XDEV		0x01
#define RESOLVE_NO_MAGICLINKS	0x02
#define RESOLVE_NO_SYMLINKS	0x04
#define RESOLVE_BENEATH		0x08
#define RESOLVE_IN_ROOT		0x10
#endif

#endif /* CREDBOX_UAPI_H */
