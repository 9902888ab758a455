// SPDX-License-Identifier: GPL-2.0
/*
 * t-sysnames: the table of native system call names the build made (sysnames_syscall_name)
 * names each number as libseccomp does at run time, and names nothing libseccomp does not. TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <seccomp.h>

#include "sysnames.h"
#include "tap.h"

int main(void)
{
	int nr, differ = 0, named = 0;
	char what[128];

	for (nr = -2; nr < 4096; nr++) {
		char *want = nr < 0 ? NULL : seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
		const char *got = sysnames_syscall_name(nr);

		named += want != NULL;
		if ((!want && !got) || (want && got && !strcmp(want, got))) {
			free(want);
			continue;
		}
		if (differ++ < 5)
			printf("# %d: table %s, libseccomp %s\n", nr, got ? got : "(none)",
			       want ? want : "(none)");
		free(want);
	}
	snprintf(what, sizeof(what), "numbers -2 to 4095 named as libseccomp names them (%d names)",
		 named);
	tap_ok(!differ && named > 300, what);
	tap_is_str(sysnames_syscall_name(0), "read", "0 is read");
	tap_ok(sysnames_syscall_name(1024) == NULL, "1024 and beyond: no name");
	return tap_done();
}
