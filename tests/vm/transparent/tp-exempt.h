/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tp-exempt.h: find the redirect runtime's own syscall instruction in the test program's
 * address space, as a hostile program would: rt_syscall6's bytes in a readable, executable
 * mapping (/proc/self/maps; the runtime's text is pages of credbox's file). tp-probe jumps
 * there to show it gives the program's own rights only; tp-bench makes the untrapped open
 * through it.
 */
#ifndef TP_EXEMPT_H
#define TP_EXEMPT_H

#include <stdio.h>
#include <string.h>

/* rt_syscall6's first bytes: the mov sequence before the runtime's syscall instruction. */
static const unsigned char tp_rt_code[] = { 0x48, 0x89, 0xf8, 0x48, 0x89, 0xf7, 0x48, 0x89, 0xd6,
					    0x48, 0x89, 0xca, 0x4d, 0x89, 0xc2, 0x4d, 0x89, 0xc8,
					    0x4c, 0x8b, 0x4c, 0x24, 0x08, 0x0f, 0x05, 0xc3 };

typedef long (*tp_rawsys_t)(long, long, long, long, long, long, long);

static inline tp_rawsys_t tp_find_exempt(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	tp_rawsys_t found = NULL;

	while (f && !found && fgets(line, sizeof(line), f)) {
		unsigned long s, e;
		char perm[8];

		if (sscanf(line, "%lx-%lx %7s", &s, &e, perm) != 3 || perm[0] != 'r' ||
		    perm[2] != 'x' || strstr(line, "[vdso]"))
			continue;
		for (; s + sizeof(tp_rt_code) <= e && !found; s++) {
			if (!memcmp((void *)s, tp_rt_code, sizeof(tp_rt_code)))
				found = (tp_rawsys_t)s;
		}
	}
	if (f)
		fclose(f);
	return found;
}

#endif /* TP_EXEMPT_H */
