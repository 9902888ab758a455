// SPDX-License-Identifier: GPL-2.0
/*
 * t-filter: the seccomp filters loaded in forked children: the always-denied set whatever the
 * profile says, per-syscall errno, the kill action. TAP.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/filter.h>

#include "filter.h"
#include "filter_always.h"
#include "profile.h"
#include "tap.h"

static int spec_from(const char *seccomp_section, struct filter_spec *spec)
{
	char text[1024];
	struct policy *pol = calloc(1, sizeof(*pol));
	struct diag d;
	int e;

	snprintf(text, sizeof(text), "[program]\npath = /x\n[identity]\nuser = nobody\n"
		 "[seccomp]\n%s", seccomp_section);
	diag_init(&d, "t");
	e = profile_parse_buffer(text, strlen(text), pol, &d);
	if (!e)
		e = filter_resolve(&pol->seccomp, spec, &d);
	profile_free(pol);
	free(pol);
	diag_free(&d);
	return e;
}

/*
 * In a child: load the filters, run fn, exit 0 if it returned 0, else 1 after printing its
 * mask of failed checks (an exit status keeps 8 bits only); returns the wait status.
 */
static int under_filter_of(const char *section, int idmap, int (*fn)(void))
{
	struct filter_spec spec;
	int status;
	pid_t pid;

	if (spec_from(section, &spec))
		return -1;
	spec.idmap = idmap;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || filter_load(&spec))
			_exit(99);
		int bad = fn();

		if (bad)
			printf("# mask of failed checks 0x%x\n", bad);
		fflush(stdout);
		_exit(bad ? 1 : 0);
	}
	filter_spec_free(&spec);
	waitpid(pid, &status, 0);
	return status;
}

static int under_filter(const char *section, int (*fn)(void))
{
	return under_filter_of(section, 0, fn);
}

static int err_is(long r, int e)
{
	return r < 0 && errno == e;
}

/*
 * Under an ID-mapped grant's rows: no set-user-ID or set-group-ID mode by any call that takes
 * one, every other mode as before; openat2 ENOSYS. 0, or a mask of the checks that failed.
 */
static long with_mode(int call, const char *f, long mode)
{
	long r, fd = open(f, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);

	if (call >= 5 && call <= 7)
		unlink(f);	/* creat and mknod make it anew */
	switch (call) {
	case 0:
		r = syscall(SYS_chmod, f, mode);
		break;
	case 1:
		r = syscall(SYS_fchmod, fd, mode);
		break;
	case 2:
		r = syscall(SYS_fchmodat, AT_FDCWD, f, mode);
		break;
	case 3:
		r = syscall(SYS_open, f, O_CREAT | O_WRONLY | O_CLOEXEC, mode);
		break;
	case 4:
		r = syscall(SYS_openat, AT_FDCWD, f, O_CREAT | O_WRONLY | O_CLOEXEC, mode);
		break;
	case 5:
		r = syscall(SYS_creat, f, mode);
		break;
	case 6:
		r = syscall(SYS_mknod, f, S_IFREG | mode, 0);
		break;
	case 7:
		r = syscall(SYS_mknodat, AT_FDCWD, f, S_IFREG | mode, 0);
		break;
	default:
		r = syscall(452 /* fchmodat2 */, AT_FDCWD, f, mode, 0);
		break;
	}
	if (r > 2 && (call == 3 || call == 4 || call == 5))
		close((int)r);
	close((int)fd);
	return r;
}

static int setid_modes(void)
{
	static const long modes[] = { 04755, 02755, 06700 };
	char dir[] = "/tmp/credbox-setid-XXXXXX", f[64];
	int bad = 0, call;
	size_t m;

	if (!mkdtemp(dir))
		return 1 << 30;
	snprintf(f, sizeof(f), "%s/f", dir);
	for (call = 0; call < 9; call++) {
		for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
			if (!err_is(with_mode(call, f, modes[m]), EPERM))
				bad |= 1 << call;
		}
		/* the same call without the bits works */
		if (with_mode(call, f, 0755) < 0)
			bad |= 1 << (call + 10);
	}
	if (!err_is(syscall(SYS_openat2, AT_FDCWD, f, NULL, 0), ENOSYS))
		bad |= 1 << 20;
	unlink(f);
	rmdir(dir);
	return bad;
}

static int always(void)
{
	int bad = 0;

	bad |= !err_is(ptrace(PTRACE_TRACEME, 0, 0, 0), EPERM) << 0;
	bad |= !err_is(prctl(PR_SET_DUMPABLE, 1, 0, 0, 0), EPERM) << 1;
	bad |= !err_is(syscall(SYS_prctl, (1UL << 32) | PR_SET_DUMPABLE, 1, 0, 0, 0), EPERM) << 2;
	bad |= (prctl(PR_SET_NAME, "t", 0, 0, 0) != 0) << 3;
	bad |= !err_is(syscall(SYS_unshare, 0x10000000 /* CLONE_NEWUSER */), EPERM) << 4;
	bad |= !err_is(syscall(SYS_clone3, NULL, 0), ENOSYS) << 5;
	bad |= !err_is(syscall(SYS_io_uring_setup, 1, NULL), EPERM) << 6;
	bad |= !err_is(syscall(SYS_personality, 0x0040000 /* ADDR_NO_RANDOMIZE */), EPERM) << 7;
	bad |= !err_is(syscall(SYS_personality, 0x0008 /* PER_LINUX32 */), EPERM) << 11;
	bad |= (syscall(SYS_personality, 0xffffffffUL) < 0) << 12;	/* the query */
	bad |= (syscall(SYS_personality, 0) < 0) << 13;		/* PER_LINUX */
	bad |= !err_is(syscall(SYS_ioctl, 0, 0x5412 /* TIOCSTI */ | (1UL << 32), "x"), EPERM) << 8;
	bad |= !err_is(syscall(SYS_mount, "none", "/", "tmpfs", 0, NULL), EPERM) << 9;
	bad |= (getpid() <= 0) << 10;
	/* unshare(CLONE_VM) alone passes (alone in its memory: nothing to unshare, 0); any
	 * other flag, CLONE_THREAD included, or junk in the upper half, does not. */
	bad |= (syscall(SYS_unshare, 0x00000100 /* CLONE_VM */) != 0) << 14;
	bad |= !err_is(syscall(SYS_unshare, 0x00000400 /* CLONE_FILES */), EPERM) << 15;
	bad |= !err_is(syscall(SYS_unshare, 0x00000100 | (1UL << 32)), EPERM) << 16;
	bad |= !err_is(syscall(SYS_unshare, 0x00000500), EPERM) << 17;
	bad |= !err_is(syscall(SYS_unshare, 0x00010000 /* CLONE_THREAD */), EPERM) << 18;
	return bad;
}

static int profile_errno(void)
{
	return err_is(syscall(SYS_fdatasync, 1), EIO) &&
	       err_is(syscall(SYS_sync_file_range, 1, 0, 0, 0), EIO) ? 0 : 1;
}

static int killed(void)
{
	syscall(SYS_settimeofday, NULL, NULL);
	return 0;	/* not reached under a kill filter */
}

static int allowlist(void)
{
	/* allowed: write, getpid; not allowed: getcwd -> errno EACCES */
	char buf[64];

	return getpid() > 0 && err_is(syscall(SYS_getcwd, buf, sizeof(buf)), EACCES) ? 0 : 1;
}

/* getpid through the i386 ABI: the pid, or what the kernel made of an int 0x80. */
static long getpid_i386(void)
{
	long r;

	__asm__ volatile("int $0x80" : "=a"(r) : "a"(20L /* i386 __NR_getpid */) : "memory");
	return r;
}

/* getpid with the x32 ABI's bit set: whatever the kernel does with it, a filter must kill it. */
static int x32_call(void)
{
	syscall(0x40000000 | SYS_getpid);
	return 0;	/* not reached under either filter */
}

static int i386_call(void)
{
	return getpid_i386() == getpid() ? 0 : 1;
}

/* Whether this kernel runs i386 calls at all (IA32_EMULATION, not disabled at boot). */
static int i386_supported(void)
{
	return tap_child_ok(i386_call);
}

/* The built-in always filter against a fresh compile of its table: 0 when equal. */
static int always_builtin_matches(int idmap)
{
	struct filter_spec spec;
	struct filter_bpf bpf;
	scmp_filter_ctx ctx;
	unsigned short len;
	void *fresh;
	int differ;

	if (spec_from("policy = deny-list\n", &spec))
		return -1;
	spec.idmap = idmap;
	if (filter_compile(&spec, &bpf))
		return -1;
	if (filter_always_ctx(idmap, &ctx) || filter_export(ctx, &fresh, &len))
		return -1;
	seccomp_release(ctx);
	differ = len != bpf.len[0] ||
		 memcmp(fresh, bpf.insns[0], len * sizeof(struct sock_filter)) != 0;
	if (differ)
		printf("# built-in %u instructions, libseccomp now %u\n", bpf.len[0], len);
	free(fresh);
	filter_bpf_free(&bpf);
	filter_spec_free(&spec);
	return differ;
}

/* The verdict of nr 463 in the spec of SECTION is KIND (errnum); -1: none (the default). */
static int symlinkat2_follows(const char *section, int kind, int errnum)
{
	struct filter_spec spec;
	size_t i;
	int bad = 1;

	if (spec_from(section, &spec))
		return 1;
	for (i = 0; i < spec.n && spec.e[i].nr != 463; i++)
		;
	if (i == spec.n)
		bad = kind != -1;
	else
		bad = (int)spec.e[i].act.kind != kind ||
		      (kind == FILTER_ERRNO && spec.e[i].act.errnum != errnum);
	filter_spec_free(&spec);
	return bad;
}

int main(void)
{
	int st;

	st = under_filter("policy = deny-list\n", always);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "an empty deny-list still denies ptrace, dumpable, namespaces, clone3, io_uring, "
	       "personality other than PER_LINUX and the query, TIOCSTI (upper bits set), mount, "
	       "unshare but unshare(CLONE_VM)");
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		printf("# status 0x%x\n", st);
	st = under_filter("policy = deny-list\naction = log\ndeny = @debug, @process\n"
			  "allow = getpid\n", always);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "action = log does not open the always-denied set");
	st = under_filter("policy = deny-list\ndeny = @sync:EIO\n", profile_errno);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "deny @sync:EIO returns EIO");
	st = under_filter("policy = deny-list\ndeny = @clock\naction = kill\n", killed);
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS, "action = kill kills with SIGSYS");
	st = under_filter("policy = allow-list\nallow = @basic-io\naction = errno\n"
			  "errno = EACCES\n", allowlist);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "allow-list with @default: allowed calls work, others return the errno");
	tap_ok(always_builtin_matches(0) == 0,
	       "the built-in always filter is what libseccomp makes of the table now");
	tap_ok(always_builtin_matches(1) == 0,
	       "the same for its ID-mapped grant's form");
	st = under_filter_of("policy = deny-list\n", 1, setid_modes);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "with an ID-mapped grant: chmod, fchmod, fchmodat, fchmodat2, open, openat, creat, "
	       "mknod and mknodat refuse set-user-ID and set-group-ID modes (EPERM), allow the rest; "
	       "openat2 is ENOSYS");
	st = under_filter("policy = deny-list\n", setid_modes);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 1,
	       "without one, set-ID modes are not refused (the control)");
	st = under_filter("policy = deny-list\n", x32_call);
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS,
	       "a call through the x32 ABI (nr | 0x40000000) is killed, not allowed");
	if (!i386_supported()) {
		tap_skip("a call through the i386 ABI is killed", "this kernel has no int 0x80");
	} else {
		st = under_filter("policy = deny-list\n", i386_call);
		tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS,
		       "a call through the i386 ABI (int 0x80, getpid) is killed, not allowed");
		/* i386's getpid is 20, x86_64's writev, which @basic-io allows */
		st = under_filter("policy = allow-list\nallow = @basic-io\n", i386_call);
		tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS,
		       "... under an allow-list that allows x86_64's call 20 (writev) too");
	}
	tap_ok(symlinkat2_follows("policy = allow-list\nallow = @file-system\n",
				  FILTER_ALLOW, 0) == 0 &&
	       symlinkat2_follows("policy = deny-list\ndeny = symlinkat:EROFS\n",
				  FILTER_ERRNO, EROFS) == 0 &&
	       symlinkat2_follows("policy = allow-list\nallow = read\n", -1, 0) == 0,
	       "symlinkat2 (463, no libseccomp name) takes symlinkat's verdict, named or by group");
	return tap_done();
}
