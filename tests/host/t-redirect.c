// SPDX-License-Identifier: GPL-2.0
/*
 * t-redirect: the redirecting filter and the runtime on the host's stock kernel, in forked
 * children that arm the runtime and load the filters as credbox does: a plan with one
 * transparent "grant", a plain directory fd (the stock kernel has no O_CRED_ALLOW, so an open
 * redirected through it gets openat2's EINVAL for the unknown OA2_CRED_INHERIT: that is how
 * the test sees the redirection happen). TAP.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "plan.h"
#include "profile.h"
#include "redirect.h"
#include "tap.h"

#define TREE	"/tmp/credbox-t-redirect"

static const char profile[] =
	"[program]\npath = /x\n[identity]\nuser = nobody\n"
	"[seccomp]\npolicy = allow-list\n"
	"allow = @basic-io, @file-system, @memory, @signal, @process\n"
	"deny = uname:ENODATA\naction = kill\n";

static struct policy pol;
static struct plan plan;
static struct diag diag;	/* the plan's messages name t.ini */
static char self[4096];

static int setup(void)
{
	int e;

	diag_init(&diag, "t.ini");
	e = profile_parse_buffer(profile, strlen(profile), &pol, &diag);
	if (!e)
		e = filter_resolve(&pol.seccomp, &plan.filter, &diag);
	plan.pol = &pol;
	plan.program = "t-redirect";
	plan.diag = &diag;
	plan.ndirs = 1;
	plan.dirs[0].name = "tree";
	plan.dirs[0].path = TREE;
	plan.dirs[0].fd = 10;
	plan.dirs[0].rw = 1;
	plan.dirs[0].transparent = 1;
	return e;
}

/* Checks run under the filters; a bit per failure. */
static int checks(void)
{
	struct stat st;
	char buf[256];
	int bad = 0, fd;

	/* Outside the tree: made as asked, from the runtime's instruction. */
	fd = open("/etc/passwd", O_RDONLY);
	bad |= (fd < 0) << 0;
	/* glibc's fstat is newfstatat(fd, "", AT_EMPTY_PATH): not trapped, works. */
	bad |= (fstat(fd, &st) < 0) << 1;
	close(fd);
	bad |= (stat("/etc/passwd", &st) < 0) << 2;
	bad |= (access("/etc/passwd", R_OK) < 0) << 3;
	/* In the tree: through the grant, so the stock kernel's EINVAL for OA2_CRED_INHERIT. */
	errno = 0;
	fd = open(TREE "/file", O_RDONLY);
	bad |= !(fd < 0 && errno == EINVAL) << 4;
	fd = open(TREE "/../credbox-t-redirect-outside", O_RDONLY);
	bad |= (fd < 0) << 5;	/* lexically outside: made as asked */
	close(fd);
	/* rt_sigprocmask and rt_sigaction are trapped and emulated: they still work. */
	{
		sigset_t s;

		sigemptyset(&s);
		sigaddset(&s, SIGUSR1);
		bad |= (sigprocmask(SIG_BLOCK, &s, NULL) || sigprocmask(SIG_BLOCK, NULL, &s) ||
			!sigismember(&s, SIGUSR1)) << 6;
		bad |= (signal(SIGUSR2, SIG_IGN) == SIG_ERR) << 7;
	}
	/* A denied call: its errno. */
	bad |= !(syscall(SYS_uname, buf) < 0 && errno == ENODATA) << 8;
	/* getcwd outside any tree: the kernel's. */
	bad |= !getcwd(buf, sizeof(buf)) << 9;
	return bad;
}

/* -1 with errno EFAULT: the kernel's answer to a bad pointer (a bit per call otherwise). */
#define FAULTS(call)	(!((call) == -1 && errno == EFAULT))

/*
 * Bad pointers under the filters: each trapped call the runtime reads or writes for answers
 * EFAULT, as the kernel does, and the process lives (a SIGSEGV in the handler would end it).
 * A path that runs into a page that cannot be read, memory that cannot be written.
 */
static int fault_checks(void)
{
	char *page = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *bad = (void *)8, *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
					   -1, 0);
	char *edge, *argv[] = { self, NULL };
	struct stat st;
	int bad_bits = 0;

	if (page == MAP_FAILED || ro == MAP_FAILED || mprotect(page + 4096, 4096, PROT_NONE))
		return 1 << 15;
	/* TREE "/file", its NUL past the page's end */
	edge = page + 4096 - strlen(TREE "/file");
	memcpy(edge, TREE "/file", strlen(TREE "/file"));
	bad_bits |= FAULTS(syscall(SYS_open, bad, O_RDONLY)) << 0;
	bad_bits |= FAULTS(syscall(SYS_open, edge, O_RDONLY)) << 1;
	bad_bits |= FAULTS(syscall(SYS_newfstatat, AT_FDCWD, edge, &st, 0)) << 2;
	bad_bits |= FAULTS(syscall(SYS_openat2, AT_FDCWD, "/etc/passwd", bad, 24)) << 3;
	bad_bits |= FAULTS(syscall(SYS_utimes, TREE "/file", bad)) << 4;
	bad_bits |= FAULTS(syscall(SYS_rename, TREE "/file", edge)) << 5;
	bad_bits |= FAULTS(syscall(SYS_readlink, "/proc/self/exe", ro, 64)) << 6;
	bad_bits |= FAULTS(syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, ro, 8)) << 7;
	bad_bits |= FAULTS(syscall(SYS_rt_sigprocmask, SIG_BLOCK, bad, NULL, 8)) << 8;
	bad_bits |= FAULTS(syscall(SYS_rt_sigaction, SIGSYS, NULL, ro, 8)) << 9;
	bad_bits |= FAULTS(syscall(SYS_rt_sigaction, SIGUSR1, bad, NULL, 8)) << 10;
	bad_bits |= FAULTS(syscall(SYS_execve, bad, argv, environ)) << 11;
	bad_bits |= FAULTS(syscall(SYS_execve, edge, argv, environ)) << 12;
	bad_bits |= FAULTS(syscall(SYS_getcwd, ro, 4096)) << 13;
	/* and the good calls still work after them */
	bad_bits |= (stat("/etc/passwd", &st) != 0) << 14;
	return bad_bits;
}

static void on_usr1(int sig)
{
	(void)sig;
}

static int count_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static void *spin(void *arg)
{
	for (;;)
		pause();
	return arg;
}

/*
 * A word the exec must leave alone: a thread's clear_child_tid, which the kernel writes 0 to
 * when the thread ends, pointed at a shared page of a file the new program reads (fd 13).
 * Ended by an exec, a thread must end without the kernel writing there: by then the old
 * program's memory may be the new one's.
 */
#define WORD_FILE	"/tmp/credbox-t-redirect-word"
#define WORD_FD		13
#define WORD_VALUE	0x5a5a5a5au

static volatile uint32_t *word_map(int fd)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

static volatile uint32_t *word_setup(void)
{
	int fd = open(WORD_FILE, O_RDWR | O_CREAT | O_TRUNC, 0600);
	volatile uint32_t *w;

	if (fd < 0 || ftruncate(fd, 4096) || dup2(fd, WORD_FD) < 0)
		return NULL;
	close(fd);
	w = word_map(WORD_FD);
	if (w)
		*w = WORD_VALUE;
	return w;
}

static void *spin_word(void *arg)
{
	syscall(SYS_set_tid_address, arg);
	return spin(arg);
}

/*
 * Run by the runtime's in-place execve (t-redirect --exec-child): what execve leaves and what
 * the runtime keeps. Exit status 1 if a check failed (the mask on stdout).
 */
static int exec_child(void)
{
	struct sigaction sa;
	char buf[256];
	sigset_t s;
	int bad = 0, fd;

	/* Started by the runtime's loader: AT_SECURE, which an execve by root would not set. */
	bad |= (getauxval(AT_SECURE) != 1) << 0;
	errno = 0;
	bad |= !(fcntl(11, F_GETFD) < 0 && errno == EBADF) << 1;	/* close-on-exec: closed */
	bad |= (fcntl(12, F_GETFD) != 0) << 2;				/* the plain fd kept */
	/* The grant is closed: the tree path is opened with the program's own rights now. */
	fd = open(TREE "/file", O_RDONLY);
	bad |= (fd < 0) << 3;
	close(fd);
	/* The runtime still redirects and explains: a denied call, a signal call emulated. */
	bad |= !(syscall(SYS_uname, buf) < 0 && errno == ENODATA) << 4;
	sigaction(SIGUSR1, NULL, &sa);
	bad |= (sa.sa_handler != SIG_DFL) << 5;		/* a handled signal reset */
	sigaction(SIGUSR2, NULL, &sa);
	bad |= (sa.sa_handler != SIG_IGN) << 6;		/* an ignored one stays ignored */
	sigprocmask(SIG_BLOCK, NULL, &s);
	bad |= !sigismember(&s, SIGUSR1) << 7;		/* the mask kept */
	bad |= (count_threads() != 1) << 8;		/* the other threads ended */
	bad |= (getpid() != syscall(SYS_gettid)) << 9;	/* in the main thread */
	{
		volatile uint32_t *w = word_map(WORD_FD);	/* an ended thread's word */

		bad |= !(w && *w == WORD_VALUE) << 10;
	}
	if (bad)
		printf("# exec-child: failed checks: mask 0x%x\n", bad);
	return bad != 0;
}

/* Under the filters: refused execs return their errno, then an exec in place (exec_child). */
static int exec_checks(void)
{
	char *argv[] = { self, "--exec-child", NULL };
	struct sigaction sa = { .sa_handler = on_usr1 };
	int bad = 0, fd = open("/dev/null", O_RDONLY);
	volatile uint32_t *word;
	sigset_t s;

	errno = 0;
	execv(TREE "/file", argv);		/* in the tree, mode 0644: not executable */
	bad |= (errno != EACCES) << 0;
	execv(TREE "/nothing", argv);
	bad |= (errno != ENOENT) << 1;
	/* A vfork child: made a fork by the runtime, its exec runs, the parent unharmed. */
	{
		char *spawn_argv[] = { self, "--spawn-child", NULL };
		int status = -1;
		pid_t pid = vfork();

		if (pid == 0) {
			execv(self, spawn_argv);
			_exit(1);
		}
		waitpid(pid, &status, 0);
		bad |= !(WIFEXITED(status) && WEXITSTATUS(status) == 7) << 5;
	}
	if (fd < 0 || dup3(fd, 11, O_CLOEXEC) < 0 || dup2(fd, 12) < 0)
		return 1 << 2;
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGUSR2, SIG_IGN);
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	sigprocmask(SIG_BLOCK, &s, NULL);
	word = word_setup();
	if (!word)
		return 1 << 6;
	for (fd = 0; fd < 3; fd++) {
		pthread_t t;

		pthread_create(&t, NULL, fd ? spin : spin_word, (void *)word);
	}
	bad |= (count_threads() != 4) << 4;
	if (bad)
		return bad;
	execv(self, argv);
	return 1 << 3;
}

static void *exec_thread(void *arg)
{
	char *argv[] = { self, "--exec-child", NULL };

	syscall(SYS_set_tid_address, arg);
	execv(self, argv);
	return arg;
}

/* The same from a thread that is not the main one: the main thread takes the exec over. */
static int exec_checks_thread(void)
{
	int fd = open("/dev/null", O_RDONLY);
	volatile uint32_t *word = word_setup();
	pthread_t t;

	if (fd < 0 || dup3(fd, 11, O_CLOEXEC) < 0 || dup2(fd, 12) < 0 || !word)
		return 1 << 2;
	sigset_t s;

	signal(SIGUSR1, on_usr1);
	signal(SIGUSR2, SIG_IGN);
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	sigprocmask(SIG_BLOCK, &s, NULL);	/* the thread's mask: the exec keeps it */
	pthread_create(&t, NULL, exec_thread, (void *)word);
	sigprocmask(SIG_UNBLOCK, &s, NULL);
	for (;;)
		pause();
}

static int run_armed(int (*fn)(void), int *armed)
{
	struct redirect rd;
	struct filter_bpf bpf;
	struct failure err;
	int status, e;
	pid_t pid;

	memset(&err, 0, sizeof(err));
	e = redirect_prepare(&plan, &rd, &bpf, &err);
	if (e) {
		printf("# redirect_prepare: %s\n", err.msg);
		return -1;
	}
	*armed = rd.armed;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int dfd = open(TREE, O_RDONLY | O_DIRECTORY);

		if (dfd < 0 || dup2(dfd, 10) < 0 || redirect_arm(&rd) ||
		    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || filter_install(&bpf))
			_exit(99);
		e = fn();
		if (e)
			printf("# failed checks: mask 0x%x\n", e);
		fflush(stdout);
		_exit(e ? 1 : 0);
	}
	waitpid(pid, &status, 0);
	filter_bpf_free(&bpf);
	redirect_release(&rd);
	return status;
}

/* The patched filter: no marker left, every appended block as the comment in redirect.c. */
static void check_bpf(void)
{
	struct redirect rd;
	struct filter_bpf bpf;
	struct failure err;
	const struct sock_filter *p;
	unsigned int i, markers = 0, traps = 0;

	memset(&err, 0, sizeof(err));
	if (redirect_prepare(&plan, &rd, &bpf, &err)) {
		tap_ok(0, "redirect_prepare compiles the profile");
		return;
	}
	p = bpf.insns[1];
	for (i = 0; i < bpf.len[1]; i++) {
		if (p[i].code != (BPF_RET | BPF_K))
			continue;
		markers += (p[i].k & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_TRACE;
		if ((p[i].k & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_TRAP)
			traps += i >= 5 && p[i - 1].code == (BPF_RET | BPF_K) &&
				 p[i - 5].code == (BPF_LD | BPF_W | BPF_ABS) &&
				 p[i - 5].k == offsetof(struct seccomp_data, instruction_pointer);
	}
	tap_ok(markers == 0, "no marker of the compile is left in the filter");
	tap_ok(traps > 1, "every trap follows its instruction-pointer test and the verdict");
	filter_bpf_free(&bpf);
	redirect_release(&rd);
}

/* A child of run_armed passed: exit status 0 (its failed checks are on stdout). */
static void child_ok(int status, const char *what)
{
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, what);
	if (WIFEXITED(status) && WEXITSTATUS(status))
		printf("# failed checks: mask 0x%x\n", WEXITSTATUS(status));
	if (!WIFEXITED(status))
		printf("# child killed by signal %d\n", WTERMSIG(status));
}

int main(int argc, char **argv)
{
	int status, armed = 0;

	if (argc > 1 && !strcmp(argv[1], "--exec-child"))
		return exec_child();
	if (argc > 1 && !strcmp(argv[1], "--spawn-child"))
		return 7;
	if (!realpath(argv[0], self))
		return 1;

	mkdir(TREE, 0755);
	close(open(TREE "/file", O_CREAT | O_WRONLY, 0644));
	close(open(TREE "/../credbox-t-redirect-outside", O_CREAT | O_WRONLY, 0644));
	if (!tap_ok(setup() == 0, "the test profile parses"))
		return 1;
	check_bpf();
	status = run_armed(checks, &armed);
	tap_ok(armed, "a transparent grant arms the runtime");
	child_ok(status, "under the filters: opens, stat, access, fstat, signal calls, a denial, "
		 "getcwd behave; a tree path is opened through the grant");
	child_ok(run_armed(fault_checks, &armed),
		 "bad pointers: paths (one running into an unreadable page), open_how, times, "
		 "readlink's buffer, masks and actions, execve's path and getcwd's buffer: EFAULT, "
		 "the process alive");
	child_ok(run_armed(exec_checks, &armed),
		 "execve under transparent grants: EACCES and ENOENT returned to the caller, a vfork "
		 "child's exec run (made a fork), then "
		 "the program replaced in place: AT_SECURE, close-on-exec fd closed, plain fd "
		 "kept, grant closed, runtime still redirecting, handlers reset, mask kept, the "
		 "3 other threads ended, the kernel writing nothing at their end");
	child_ok(run_armed(exec_checks_thread, &armed),
		 "execve from a thread that is not the main one: the main thread takes it over, "
		 "the new program runs alone in it, the ended thread's memory left alone");
	unlink(TREE "/file");
	unlink(TREE "/../credbox-t-redirect-outside");
	unlink(WORD_FILE);
	rmdir(TREE);
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
