// SPDX-License-Identifier: GPL-2.0
/*
 * probe-bare: a program without libc (-nostdlib -static, no stack protector), which prints at
 * its very first instructions the per-thread state a libc would overwrite before main():
 *
 *   fsbase=0x... gsbase=0x... robust_list=0x... clear_child_tid=0x... fd2_rdev=0x...
 *
 * After execve(2) every one is 0: the kernel starts a new thread with zero FS and GS bases,
 * and execve forgets the robust futex list and the clear_child_tid address of the old image.
 * The loader must leave the same state behind, not its launcher's (loader.t compares both).
 * clear_child_tid is read with PR_GET_TID_ADDRESS (CONFIG_CHECKPOINT_RESTORE); "n/a" without.
 * fd2_rdev is the device of what fd 2 is ("n/a": closed; 0x103: /dev/null), which no libc
 * reopened (credbox-exec.t: credbox started with fd 2 closed gives the program /dev/null).
 */
#include <asm/prctl.h>
#include <asm/stat.h>
#include <linux/prctl.h>
#include <stddef.h>
#include <sys/syscall.h>

static long sys(long nr, long a, long b, long c)
{
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return ret;
}

static char *put(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	return p;
}

static char *hex(char *p, const char *name, long ret, unsigned long v)
{
	int shift, started = 0;

	p = put(p, name);
	if (ret < 0)
		return put(p, "n/a ");
	p = put(p, "0x");
	for (shift = 60; shift >= 0; shift -= 4) {
		unsigned int d = (v >> shift) & 15;

		if (d || started || shift == 0) {
			*p++ = "0123456789abcdef"[d];
			started = 1;
		}
	}
	*p++ = ' ';
	return p;
}

__attribute__((used)) void probe_main(void)
{
	unsigned long fs = 1, gs = 1, tid = 1, head = 1, len = 0;
	char buf[192], *p = buf;
	struct stat st;
	long r;

	r = sys(SYS_arch_prctl, ARCH_GET_FS, (long)&fs, 0);
	p = hex(p, "fsbase=", r, fs);
	r = sys(SYS_arch_prctl, ARCH_GET_GS, (long)&gs, 0);
	p = hex(p, "gsbase=", r, gs);
	r = sys(SYS_get_robust_list, 0, (long)&head, (long)&len);
	p = hex(p, "robust_list=", r, head);
	r = sys(SYS_prctl, PR_GET_TID_ADDRESS, (long)&tid, 0);
	p = hex(p, "clear_child_tid=", r, tid);
	r = sys(SYS_fstat, 2, (long)&st, 0);
	p = hex(p, "fd2_rdev=", r, st.st_rdev);
	p[-1] = '\n';
	sys(SYS_write, 1, (long)buf, p - buf);
	sys(SYS_exit_group, 0, 0, 0);
}

/* The kernel's entry state: %rsp at argc, 16-byte aligned; call keeps the ABI's alignment. */
__asm__(".globl _start\n"
	"_start:\n"
	"	xor %ebp, %ebp\n"
	"	and $-16, %rsp\n"
	"	call probe_main\n"
	"	hlt\n");
