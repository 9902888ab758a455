// SPDX-License-Identifier: GPL-2.0
/*
 * nss_none: linked into credbox alone (not libcredbox.a, which the tests link dynamically,
 * nor credbox-nss, which has the name service).
 *
 * credbox is a static executable: it reads /etc/passwd and /etc/group itself, and runs
 * credbox-nss in its place for what only the name service can answer (main.c, ident.c).
 * glibc's static name service would instead dlopen the installed glibc's NSS modules into
 * credbox, which works only while that glibc is the very version credbox was linked with.
 * libcap-ng's cap-ng.o refers to two of its functions, for a flag of capng_change_id
 * (CAPNG_INIT_SUPP_GRP) that credbox never passes; defined here, they keep it out. The link is
 * made with --fatal-warnings, so that glibc's "requires at runtime the shared libraries"
 * warning for any other one stops the build.
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stddef.h>

struct passwd *getpwuid(uid_t uid)
{
	errno = ENOSYS;
	return NULL;
}

int initgroups(const char *user, gid_t group)
{
	errno = ENOSYS;
	return -1;
}
