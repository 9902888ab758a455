// SPDX-License-Identifier: GPL-2.0
/* sysnames: system call groups, errno names, deny entries; see sysnames.h. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <seccomp.h>

#include "diag.h"
#include "sysnames.h"
#include "sysnames_table.h"	/* generated: build/sysnames-gen */
#include "util.h"

/* ---- groups (after systemd's SystemCallFilter= sets, adapted) ------------------------------ */

#define G(...) ((const char *const[]){ __VA_ARGS__, NULL })

static const struct sysnames_group groups[] = {
	{ "@default", "What every program and credbox's loader need; part of every allow-list",
	  G("arch_prctl", "brk", "cacheflush", "clock_getres", "clock_getres_time64",
	    "clock_gettime", "clock_gettime64", "clock_nanosleep", "clock_nanosleep_time64",
	    "exit", "exit_group", "futex", "futex_time64", "futex_waitv", "get_robust_list",
	    "get_thread_area", "getegid", "getegid32", "geteuid", "geteuid32", "getgid",
	    "getgid32", "getgroups", "getgroups32", "getpgid", "getpgrp", "getpid", "getppid",
	    "getrandom", "getresgid", "getresgid32", "getresuid", "getresuid32", "getrlimit",
	    "getsid", "gettid", "gettimeofday", "getuid", "getuid32", "membarrier", "mmap",
	    "mmap2", "mprotect", "munmap", "nanosleep", "pause", "prctl", "prlimit64",
	    "restart_syscall", "rseq", "rt_sigaction", "rt_sigprocmask", "rt_sigreturn",
	    "sched_getaffinity", "sched_yield", "set_robust_list", "set_thread_area",
	    "set_tid_address", "set_tls", "sigaltstack", "sigreturn", "time", "ugetrlimit",
	    "write") },
	{ "@basic-io", "Reading, writing, seeking, duplicating and closing fds; ioctl",
	  G("_llseek", "close", "close_range", "dup", "dup2", "dup3", "ioctl", "lseek",
	    "pread64", "preadv", "preadv2", "pwrite64", "pwritev", "pwritev2", "read", "readv",
	    "write", "writev") },
	{ "@file-system", "Opening, creating, renaming, inspecting files and directories",
	  G("access", "chdir", "chmod", "close", "creat", "faccessat", "faccessat2",
	    "fallocate", "fchdir", "fchmod", "fchmodat", "fchmodat2", "fcntl", "fcntl64",
	    "fgetxattr", "flistxattr", "fremovexattr", "fsetxattr", "fstat", "fstat64",
	    "fstatat64", "fstatfs", "fstatfs64", "ftruncate", "ftruncate64", "futimesat",
	    "getcwd", "getdents", "getdents64", "getxattr", "inotify_add_watch", "inotify_init",
	    "inotify_init1", "inotify_rm_watch", "lgetxattr", "link", "linkat", "listxattr",
	    "llistxattr", "lremovexattr", "lsetxattr", "lstat", "lstat64", "mkdir", "mkdirat",
	    "mknod", "mknodat", "mmap", "mmap2", "munmap", "newfstatat", "oldfstat", "oldlstat",
	    "oldstat", "open", "openat", "openat2", "readlink", "readlinkat", "removexattr",
	    "rename", "renameat", "renameat2", "rmdir", "setxattr", "stat", "stat64", "statfs",
	    "statfs64", "statx", "symlink", "symlinkat", "truncate", "truncate64", "umask",
	    "unlink", "unlinkat", "utime", "utimensat", "utimensat_time64", "utimes") },
	{ "@cpu-emulation", "CPU emulation: LDT changes, virtual 8086 mode (where they exist)",
	  G("modify_ldt", "subpage_prot", "switch_endian", "vm86", "vm86old") },
	{ "@process", "Creating, running, waiting for and signalling processes",
	  G("capget", "clone", "clone3", "execve", "execveat", "fork", "getrusage", "kill",
	    "pidfd_open", "pidfd_send_signal", "prctl", "rt_sigqueueinfo",
	    "rt_tgsigqueueinfo", "setns", "swapcontext", "tgkill", "times", "tkill", "unshare",
	    "vfork", "wait4", "waitid", "waitpid") },
	{ "@signal", "Signal handling",
	  G("rt_sigaction", "rt_sigpending", "rt_sigprocmask", "rt_sigsuspend",
	    "rt_sigtimedwait", "rt_sigtimedwait_time64", "sigaction", "sigaltstack", "signal",
	    "signalfd", "signalfd4", "sigpending", "sigprocmask", "sigsuspend") },
	{ "@memory", "Mapping, locking and advising memory of the process itself",
	  G("brk", "get_mempolicy", "madvise", "mbind", "membarrier", "memfd_create",
	    "mincore", "mlock", "mlock2", "mlockall", "mmap", "mmap2", "mprotect", "mremap",
	    "msync", "munlock", "munlockall", "munmap", "pkey_alloc", "pkey_free",
	    "pkey_mprotect", "remap_file_pages", "set_mempolicy") },
	{ "@network-io", "Sockets: creating, connecting, sending, receiving",
	  G("accept", "accept4", "bind", "connect", "getpeername", "getsockname", "getsockopt",
	    "listen", "recv", "recvfrom", "recvmmsg", "recvmmsg_time64", "recvmsg", "send",
	    "sendmmsg", "sendmsg", "sendto", "setsockopt", "shutdown", "socket", "socketcall",
	    "socketpair") },
	{ "@ipc", "Pipes, SysV and POSIX IPC",
	  G("ipc", "memfd_create", "mq_getsetattr", "mq_notify", "mq_open", "mq_timedreceive",
	    "mq_timedreceive_time64", "mq_timedsend", "mq_timedsend_time64", "mq_unlink",
	    "msgctl", "msgget", "msgrcv", "msgsnd", "pipe", "pipe2", "process_madvise",
	    "process_vm_readv", "process_vm_writev", "semctl", "semget", "semop", "semtimedop",
	    "semtimedop_time64", "shmat", "shmctl", "shmdt", "shmget") },
	{ "@timer", "Timers and alarms",
	  G("alarm", "getitimer", "setitimer", "timer_create", "timer_delete",
	    "timer_getoverrun", "timer_gettime", "timer_gettime64", "timer_settime",
	    "timer_settime64", "timerfd_create", "timerfd_gettime", "timerfd_gettime64",
	    "timerfd_settime", "timerfd_settime64", "times") },
	{ "@io-event", "Waiting for events on fds",
	  G("_newselect", "epoll_create", "epoll_create1", "epoll_ctl", "epoll_ctl_old",
	    "epoll_pwait", "epoll_pwait2", "epoll_wait", "epoll_wait_old", "eventfd",
	    "eventfd2", "poll", "ppoll", "ppoll_time64", "pselect6", "pselect6_time64",
	    "select") },
	{ "@sync", "Flushing files to storage",
	  G("fdatasync", "fsync", "msync", "sync", "sync_file_range", "sync_file_range2",
	    "syncfs") },
	{ "@chown", "Changing file ownership",
	  G("chown", "chown32", "fchown", "fchown32", "fchownat", "lchown", "lchown32") },
	{ "@aio", "Asynchronous I/O (io_uring is always denied)",
	  G("io_cancel", "io_destroy", "io_getevents", "io_pgetevents",
	    "io_pgetevents_time64", "io_setup", "io_submit", "io_uring_enter",
	    "io_uring_register", "io_uring_setup") },
	{ "@resources", "Scheduling, priorities and resource limits",
	  G("ioprio_get", "ioprio_set", "nice", "sched_get_priority_max",
	    "sched_get_priority_min", "sched_getattr", "sched_getparam", "sched_getscheduler",
	    "sched_rr_get_interval", "sched_rr_get_interval_time64", "sched_setaffinity",
	    "sched_setattr", "sched_setparam", "sched_setscheduler", "getpriority",
	    "setpriority", "setrlimit") },
	{ "@setuid", "Changing user and group ids",
	  G("setfsgid", "setfsgid32", "setfsuid", "setfsuid32", "setgid", "setgid32",
	    "setgroups", "setgroups32", "setregid", "setregid32", "setresgid", "setresgid32",
	    "setresuid", "setresuid32", "setreuid", "setreuid32", "setuid", "setuid32") },
	{ "@clock", "Setting the system clock",
	  G("adjtimex", "clock_adjtime", "clock_adjtime64", "clock_settime",
	    "clock_settime64", "settimeofday", "stime") },
	{ "@debug", "Debugging and tracing (always denied where it reaches other processes)",
	  G("lookup_dcookie", "perf_event_open", "pidfd_getfd", "ptrace", "rtas",
	    "s390_runtime_instr", "sys_debug_setcontext") },
	{ "@keyring", "The kernel keyring", G("add_key", "keyctl", "request_key") },
	{ "@module", "Loading kernel modules", G("delete_module", "finit_module", "init_module") },
	{ "@mount", "Mounting and changing the root",
	  G("chroot", "fsconfig", "fsmount", "fsopen", "fspick", "mount", "mount_setattr",
	    "move_mount", "open_tree", "pivot_root", "umount", "umount2") },
	{ "@obsolete", "System calls nothing current uses",
	  G("_sysctl", "afs_syscall", "bdflush", "break", "create_module", "ftime",
	    "get_kernel_syms", "getpmsg", "gtty", "idle", "lock", "mpx", "prof", "profil",
	    "putpmsg", "query_module", "security", "sgetmask", "ssetmask", "stty", "sysfs",
	    "tuxcall", "ulimit", "uselib", "ustat", "vserver") },
	{ "@raw-io", "Raw I/O port and PCI access",
	  G("ioperm", "iopl", "pciconfig_iobase", "pciconfig_read", "pciconfig_write",
	    "s390_pci_mmio_read", "s390_pci_mmio_write") },
	{ "@reboot", "Rebooting and loading a new kernel",
	  G("kexec_file_load", "kexec_load", "reboot") },
	{ "@swap", "Swap devices", G("swapoff", "swapon") },
	{ "@privileged", "Calls that need a capability credbox has dropped",
	  G("_sysctl", "acct", "bpf", "capset", "chroot", "fanotify_init", "nfsservctl",
	    "open_by_handle_at", "pivot_root", "quotactl", "quotactl_fd", "setdomainname",
	    "sethostname", "vhangup") },
};

const struct sysnames_group *sysnames_groups(size_t *n)
{
	*n = ARRAY_SIZE(groups);
	return groups;
}

const struct sysnames_group *sysnames_group_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(groups); i++) {
		if (!strcmp(groups[i].name, name))
			return &groups[i];
	}
	return NULL;
}

int sysnames_syscall_known(const char *name)
{
	return seccomp_syscall_resolve_name(name) != __NR_SCMP_ERROR;
}

const char *sysnames_syscall_name(int nr)
{
	return nr >= 0 && nr < SYSNAMES_TABLE_NR && sysnames_off[nr] ?
	       sysnames_pool + sysnames_off[nr] - 1 : NULL;
}

int sysnames_suggest(const char *name, char *out, size_t size)
{
	int best = 3, nr, d;
	size_t i;

	for (i = 0; name[0] == '@' && i < ARRAY_SIZE(groups); i++) {
		d = diag_distance(groups[i].name, name);
		if (d < best) {
			best = d;
			snprintf(out, size, "%s", groups[i].name);
		}
	}
	for (nr = 0; name[0] != '@' && nr < SYSNAMES_TABLE_NR; nr++) {
		const char *s = sysnames_syscall_name(nr);

		if (s && (d = diag_distance(s, name)) < best) {
			best = d;
			snprintf(out, size, "%s", s);
		}
	}
	return best < 3 ? 0 : -ENOENT;
}

/* ---- errno names -------------------------------------------------------------------------- */

#define E(x) { #x, x }
static const struct {
	const char *name;
	int value;
} errnos[] = {
	E(EPERM), E(ENOENT), E(ESRCH), E(EINTR), E(EIO), E(ENXIO), E(E2BIG), E(ENOEXEC),
	E(EBADF), E(ECHILD), E(EAGAIN), E(ENOMEM), E(EACCES), E(EFAULT), E(EBUSY), E(EEXIST),
	E(EXDEV), E(ENODEV), E(ENOTDIR), E(EISDIR), E(EINVAL), E(ENFILE), E(EMFILE),
	E(ENOTTY), E(ETXTBSY), E(EFBIG), E(ENOSPC), E(ESPIPE), E(EROFS), E(EMLINK), E(EPIPE),
	E(ERANGE), E(ENAMETOOLONG), E(ENOSYS), E(ENOTEMPTY), E(ELOOP), E(ENODATA),
	E(EOPNOTSUPP), E(EAFNOSUPPORT), E(EADDRINUSE), E(ENETUNREACH), E(ECONNREFUSED),
	E(ENOTSOCK), E(EPROTONOSUPPORT), E(ETIMEDOUT),
};

int sysnames_errno_parse(const char *s)
{
	size_t i;

	if (isdigit((unsigned char)*s)) {
		char *end;
		long v = strtol(s, &end, 10);

		return (*end || v < 1 || v > 4095) ? -1 : (int)v;
	}
	for (i = 0; i < ARRAY_SIZE(errnos); i++) {
		if (!strcmp(errnos[i].name, s))
			return errnos[i].value;
	}
	return -1;
}

const char *sysnames_errno_name(int e)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(errnos); i++) {
		if (errnos[i].value == e)
			return errnos[i].name;
	}
	return NULL;
}

/* ---- entries of [seccomp] lists ---------------------------------------------------------- */

int sysnames_entry(const char *entry, char *name, size_t size, int *errnum)
{
	const char *colon = strchr(entry, ':');
	size_t len = colon ? (size_t)(colon - entry) : strlen(entry);

	*errnum = -1;
	if (len == 0 || len >= size)
		return -EINVAL;
	memcpy(name, entry, len);
	name[len] = '\0';
	if (colon) {
		*errnum = sysnames_errno_parse(colon + 1);
		if (*errnum < 0)
			return -EINVAL;
	}
	return 0;
}
