// SPDX-License-Identifier: GPL-2.0
/*
 * redirect: arm the runtime of src/rt/ (see redirect.h): which calls trap, the profile's
 * filter with its exempt instruction, the runtime's data and configuration.
 *
 * The filter. libseccomp compiles the profile's filter with a marker in place of each verdict
 * that must trap: SECCOMP_RET_TRACE | RT_TRAP_TAG | v (credbox never traces, so the value is
 * free), v numbering the distinct verdicts behind the markers. Each `ret` of a marker then
 * becomes a jump to a block appended for v:
 *
 *	ld  [instruction_pointer, low half]
 *	jeq #exempt_lo, 0, 3
 *	ld  [instruction_pointer, high half]
 *	jeq #exempt_hi, 0, 1
 *	ret VERDICT v			the profile's own verdict: from the runtime's instruction
 *	ret TRAP | RT_TRAP_TAG | v	from anywhere else
 *
 * so the instruction pointer is read only on the paths of trapped calls: every other call
 * still has a constant verdict, which the kernel's per-call cache keeps as before. A call the
 * profile denies gets that denial from the exempt instruction too: there is no exemption,
 * only a trap lifted. The always-denied filter is not touched.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include <seccomp.h>

#include "diag.h"
#include "loader.h"
#include "profile.h"
#include "redirect.h"
#include "redirect_rt.h"
#include "redirect_rt_image.h"	/* generated: src/rt/mkblob */
#include "sysnames.h"
#include "util.h"

/* The runtime declares the kernel's signal structures itself (no libc there): same layout. */
_Static_assert(offsetof(ucontext_t, uc_mcontext.gregs[REG_RAX]) == 40 + 13 * 8, "ucontext rax");
_Static_assert(offsetof(ucontext_t, uc_mcontext.gregs[REG_RIP]) == 40 + 16 * 8, "ucontext rip");
_Static_assert(offsetof(ucontext_t, uc_sigmask) == 296, "ucontext sigmask");
_Static_assert(offsetof(siginfo_t, si_call_addr) == 16 && offsetof(siginfo_t, si_syscall) == 24,
	       "siginfo of SIGSYS");
_Static_assert(sizeof(struct rt_conf) <= RT_STATE_START_OFF - RT_CONF_OFF, "rt_conf");
_Static_assert(sizeof(stack_t) == 24 && offsetof(stack_t, ss_flags) == 8 &&
	       offsetof(stack_t, ss_size) == 16 && SS_ONSTACK == 1 && SS_DISABLE == 2,
	       "stack_t, as struct rt_altstack");

/*
 * The calls the runtime looks at for transparent grants (its table in src/rt/redirect_rt.c);
 * close_range, made around the runtime's own descriptors (do_close_range).
 */
static const char *const path_calls[] = {
	"open", "openat", "creat", "openat2", "stat", "lstat", "newfstatat", "statx", "access",
	"faccessat", "faccessat2", "readlink", "readlinkat", "chdir", "fchdir", "getcwd",
	"truncate", "getxattr", "lgetxattr", "listxattr", "llistxattr", "mkdir", "mkdirat",
	"unlink", "unlinkat", "rmdir", "rename", "renameat", "renameat2", "link", "linkat",
	"symlink", "symlinkat", "chmod", "fchmodat", "fchmodat2", "fchmod", "chown", "lchown",
	"fchownat", "utime", "utimes", "futimesat", "utimensat", "mknod", "mknodat", "setxattr",
	"lsetxattr", "removexattr", "lremovexattr", "statfs", "inotify_add_watch", "close_range",
};

/*
 * The calls that set the signal mask, for good or for a wait: the runtime keeps SIGSYS out of
 * every mask (a trap while it is blocked kills the process), and shows the program the mask
 * it asked for.
 */
static const char *const signal_calls[] = {
	"rt_sigaction", "rt_sigprocmask", "rt_sigsuspend", "ppoll", "pselect6", "epoll_pwait",
	"epoll_pwait2",
};

/*
 * What the runtime calls from its own instruction, where the profile's verdict applies: each
 * must be allowed when its trigger is (NULL: whenever the runtime is armed; "*": whenever a
 * grant is transparent).
 */
static const struct {
	const char *call, *trigger;
} needs[] = {
	{ "write", NULL }, { "rt_sigaction", NULL }, { "rt_sigprocmask", NULL },
	{ "rt_sigreturn", NULL }, { "getpid", NULL }, { "gettid", NULL },
	{ "openat2", "*" }, { "close", "*" }, { "fstat", "*" }, { "getppid", "*" },
	{ "getpgid", "*" }, { "sched_yield", "*" }, { "ftruncate", "truncate" },
	{ "fgetxattr", "getxattr" }, { "fgetxattr", "lgetxattr" },
	{ "flistxattr", "listxattr" }, { "flistxattr", "llistxattr" },
	{ "fstatfs", "statfs" }, { "newfstatat", "stat" }, { "newfstatat", "lstat" },
	{ "faccessat2", "access" }, { "faccessat2", "faccessat" }, { "readlinkat", "*" },
	{ "unlinkat", "unlink" }, { "unlinkat", "rmdir" }, { "renameat2", "rename" },
	{ "renameat2", "renameat" }, { "getcwd", "chdir" }, { "getcwd", "fchdir" },
	{ "fchmodat2", "chmod" }, { "fchmodat2", "fchmodat" }, { "fchmodat2", "fchmod" },
	{ "utimensat", "utime" }, { "utimensat", "utimes" }, { "utimensat", "futimesat" },
	{ "linkat", "link" }, { "clone", "vfork" }, { "close_range", "close_range" },
};

/*
 * symlinkat2 (the series' patches 15 and 16), which the runtime makes for symlink and
 * symlinkat in a tree: libseccomp has no name for it, so no profile can allow it by name. It
 * takes symlinkat's verdict, for the runtime and the program alike: without AT_CRED_INHERIT it
 * is symlinkat, with it the link the runtime would make for the program's own symlinkat.
 */
#define REDIRECT_NR_SYMLINKAT2	463

/*
 * What the runtime's in-place execve calls from its instruction (src/rt/rt_exec.c): with one
 * of them denied, the program's execve is refused with a message instead; the calls of
 * exec_may only when they are allowed.
 */
static const char *const exec_calls[] = {
	"execveat", "openat", "fstat", "newfstatat", "pread64", "close", "close_range",
	"mmap", "munmap", "getrandom", "getrlimit", "getuid", "geteuid", "getgid", "getegid",
	"getpid", "gettid", "futex", "fcntl", "rt_sigaction", "rt_sigprocmask", "sigaltstack",
	"arch_prctl", "prctl", "unshare", "kill", "tgkill", "sched_yield", "madvise", "exit",
	"exit_group",
};

static const struct {
	const char *call;
	uint32_t bit;
} exec_may[] = {
	{ "rseq", RT_EXEC_RSEQ }, { "personality", RT_EXEC_PERSONALITY }, { "poll", RT_EXEC_POLL },
	{ "nanosleep", RT_EXEC_NANOSLEEP }, { "mprotect", RT_MAY_MPROTECT },
};

/* The auxv entries of credbox's that a program started in place gets too (loader.c). */
static const unsigned long exec_auxv[] = {
	AT_SYSINFO_EHDR, AT_MINSIGSTKSZ, AT_HWCAP, AT_CLKTCK, AT_HWCAP2, 27, 28, 29, 30,
};

/* The profile's verdict for nr, and the entry that decided it (NULL: the default). */
static struct filter_act verdict(const struct filter_spec *spec, int nr,
				 const struct filter_entry **from)
{
	size_t lo = 0, hi = spec->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (spec->e[mid].nr == nr) {
			*from = &spec->e[mid];
			return spec->e[mid].act;
		}
		if (spec->e[mid].nr < nr)
			lo = mid + 1;
		else
			hi = mid;
	}
	*from = NULL;
	return spec->dflt;
}

static int allowed(const struct filter_spec *spec, const char *name)
{
	const struct filter_entry *from;
	int nr = seccomp_syscall_resolve_name(name);

	return nr >= 0 && !filter_act_denies(verdict(spec, nr, &from));
}

static uint32_t raw(struct filter_act a)
{
	switch (a.kind) {
	case FILTER_ALLOW:
		return SECCOMP_RET_ALLOW;
	case FILTER_LOG:
		return SECCOMP_RET_LOG;
	case FILTER_ERRNO:
		return SECCOMP_RET_ERRNO | (a.errnum & SECCOMP_RET_DATA);
	default:
		return SECCOMP_RET_KILL_PROCESS;
	}
}

static int in_list(const char *const *list, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!strcmp(list[i], name))
			return 1;
	}
	return 0;
}

#define MAX_VERDICTS	64

/* The marker standing for verdict a: its index among the distinct verdicts seen. */
static int marker(struct filter_act a, uint32_t *vals, unsigned int *n, struct filter_act *out)
{
	uint32_t v = raw(a);
	unsigned int i;

	for (i = 0; i < *n && vals[i] != v; i++)
		;
	if (i == *n) {
		if (*n == MAX_VERDICTS)
			return -E2BIG;
		vals[(*n)++] = v;
	}
	*out = (struct filter_act){ FILTER_MARK, (int)(RT_TRAP_TAG | i) };
	return 0;
}

/* Replace each marker's ret with a jump to its block (see the top of this file). */
static int patch(struct filter_bpf *bpf, uint64_t ip, const uint32_t *vals, unsigned int nvals)
{
	const uint32_t ip_off = offsetof(struct seccomp_data, instruction_pointer);
	unsigned int n = bpf->len[1], i, total = n + 6 * nvals;
	struct sock_filter *p;

	if (total > BPF_MAXINSNS)
		return -E2BIG;
	p = realloc(bpf->insns[1], total * sizeof(*p));
	if (!p)
		return -ENOMEM;
	bpf->insns[1] = p;
	for (i = 0; i < nvals; i++) {
		struct sock_filter *b = p + n + 6 * i;

		b[0] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ip_off);
		b[1] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)ip, 0, 3);
		b[2] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ip_off + 4);
		b[3] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						    (uint32_t)(ip >> 32), 0, 1);
		b[4] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, vals[i]);
		b[5] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						    SECCOMP_RET_TRAP | RT_TRAP_TAG | i);
	}
	for (i = 0; i < n; i++) {
		uint32_t k = p[i].k;

		if (p[i].code != (BPF_RET | BPF_K) ||
		    (k & SECCOMP_RET_ACTION_FULL) != SECCOMP_RET_TRACE)
			continue;
		if ((k & RT_TRAP_TAG_MASK) != RT_TRAP_TAG || (k & 0xfff) >= nvals)
			return -EINVAL;
		p[i] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA,
						    n + 6 * (k & 0xfff) - (i + 1), 0, 0);
	}
	bpf->len[1] = (unsigned short)total;
	return 0;
}

/* "FILE:LINE" of a line of the profile, in the file that holds it (an include, a drop-in). */
static const char *where(const struct plan *plan, int line, char *buf, size_t size)
{
	if (plan->diag)
		return diag_location(plan->diag, line, buf, size);
	snprintf(buf, size, "the profile");
	return buf;
}

/*
 * What a denial message says after the call's name: the same for every call one profile
 * line denies, so formatted once a line (a group such as @privileged names dozens of calls).
 */
struct msg_tail {
	int line;
	const char *from;
	size_t len;
	char text[PATH_MAX + 64];
};

static void tail_for(struct msg_tail *t, const struct plan *plan,
		     const struct filter_entry *from)
{
	const struct policy_seccomp *sc = &plan->pol->seccomp;
	int line = from && from->line > 0 ? from->line : 0, n;
	const char *by = line ? from->from : NULL;
	char loc[PATH_MAX + 16];

	if (t->len && t->line == line && t->from == by)
		return;
	t->line = line;
	t->from = by;
	if (line)
		n = snprintf(t->text, sizeof(t->text), ", denied by %s (%s)",
			     where(plan, line, loc, sizeof(loc)), by ? by : "");
	else if (plan->filter.allow_list)
		n = snprintf(t->text, sizeof(t->text), ", not allowed by %s (policy = allow-list)",
			     where(plan, profile_seen(&sc->sec, SEC_SECCOMP, "policy"), loc,
				   sizeof(loc)));
	else
		n = snprintf(t->text, sizeof(t->text), ", denied by %s (action)",
			     where(plan, profile_seen(&sc->sec, SEC_SECCOMP, "action"), loc,
				   sizeof(loc)));
	t->len = n > 0 && (size_t)n < sizeof(t->text) ? (size_t)n : 0;
}

/* Append "NAME, denied by ..." for nr to the pool; its offset + 1 (0: no room). */
static uint32_t message(struct rt_conf *c, size_t *used, const struct plan *plan, int nr,
			const struct filter_entry *from, struct msg_tail *t)
{
	const char *name = sysnames_syscall_name(nr);
	size_t at = *used, n;
	char num[16];

	if (!name) {
		snprintf(num, sizeof(num), "call %d", nr);
		name = num;
	}
	tail_for(t, plan, from);
	n = strlen(name);
	if (!t->len || n + t->len >= RT_POOL_SIZE - at)
		return 0;
	memcpy(c->pool + at, name, n);
	memcpy(c->pool + at + n, t->text, t->len + 1);
	*used = at + n + t->len + 1;
	return (uint32_t)at + 1;
}

/* A failure at line of the profile (0: the profile as a whole). */
static int fail(struct failure *err, int line, const char *hint, int e, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int fail(struct failure *err, int line, const char *hint, int e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	failure_vset(err, e, hint, fmt, ap);
	va_end(ap);
	return failure_at(err, EXIT_CREDBOX, line);
}

/* The first transparent grant's key line, for messages. */
static int transparent_line(const struct plan *plan)
{
	size_t i;

	for (i = 0; i < plan->ndirs; i++) {
		if (plan->dirs[i].transparent)
			return plan->dirs[i].transparent_line;
	}
	return 0;
}

/* Every call the runtime makes for the program is allowed; armed decides which. */
static const char *missing_need(const struct plan *plan, int transparent)
{
	size_t i;

	for (i = 0; i < sizeof(needs) / sizeof(needs[0]); i++) {
		const char *t = needs[i].trigger;

		if (t && (!transparent || (strcmp(t, "*") && !allowed(&plan->filter, t))))
			continue;
		if (!allowed(&plan->filter, needs[i].call))
			return needs[i].call;
	}
	return NULL;
}

/*
 * What the in-place execve needs to know, or why it cannot be done. in_place: the runtime
 * may do one (ARM_FULL); armed for the profile's kills alone, it never does, and the
 * kernel's special mappings (a read of /proc/self/maps, a twentieth of a start of credbox),
 * ASLR and auxv go unread.
 */
static void fill_exec(const struct plan *plan, struct rt_conf *c, int in_place)
{
	struct loader_range special[RT_MAX_SPECIAL];
	unsigned int i, n;

	for (i = 0; i < ARRAY_SIZE(exec_calls) && !c->exec_refused[0]; i++) {
		if (!allowed(&plan->filter, exec_calls[i]))
			snprintf(c->exec_refused, sizeof(c->exec_refused), "exec in place under "
				 "transparent grants needs %s, which [seccomp] denies",
				 exec_calls[i]);
	}
	for (i = 0; i < ARRAY_SIZE(exec_may); i++)
		c->exec_may |= allowed(&plan->filter, exec_may[i].call) ? exec_may[i].bit : 0;
	if (!in_place)
		return;
	c->aslr = loader_randomize_va_space();
	for (i = 0; i < ARRAY_SIZE(exec_auxv) && c->nauxv < RT_AUXV_MAX; i++) {
		errno = 0;
		c->auxv[c->nauxv][1] = getauxval(exec_auxv[i]);
		if (c->auxv[c->nauxv][1] || errno != ENOENT)
			c->auxv[c->nauxv++][0] = exec_auxv[i];
	}
	n = loader_special(special, RT_MAX_SPECIAL);
	for (i = 0; i < n; i++) {
		c->special[i][0] = special[i].start;
		c->special[i][1] = special[i].len;
	}
	c->nspecial = n;
}

static void fill_grants(const struct plan *plan, struct rt_conf *c)
{
	size_t i;

	for (i = 0; i < plan->ndirs && c->ngrants < RT_MAX_GRANTS; i++) {
		const struct plan_dir *d = &plan->dirs[i];
		struct rt_grant *g = &c->grants[c->ngrants];

		if (!d->transparent)
			continue;
		g->fd = d->fd;
		g->rw = d->rw;
		g->keep = (uint32_t)d->exec_keep;
		snprintf(g->name, sizeof(g->name), "%s", d->name);
		snprintf(g->path, sizeof(g->path), "%s", d->path);
		g->len = (uint32_t)strlen(g->path);
		while (g->len > 1 && g->path[g->len - 1] == '/')
			g->path[--g->len] = '\0';
		c->ngrants++;
	}
}

/*
 * How much of the runtime a plan arms. ARM_FULL: a transparent grant, or the program cannot
 * execve. ARM_KILLS: the program may execve, and a new program keeps the filter's traps
 * without the handler, so only calls the profile kills for trap: after an execve they still
 * end the process by SIGSYS (the handler's default action), as before, only unnamed.
 */
enum { ARM_NONE, ARM_KILLS, ARM_FULL };

/*
 * What the handler does with a call named name, whose profile verdict is a. in_place: the
 * program's execve is done in place (a transparent grant, whose handler a new program must
 * keep; an ID-mapped one, whose program must stay undumpable: credbox.ini(5), SECURITY).
 */
static int kind_of(const char *name, struct filter_act a, size_t transparent, int in_place,
		   int mode)
{
	if (mode == ARM_KILLS)
		return a.kind == FILTER_KILL ? RT_KIND_DENY : RT_KIND_NONE;
	if (filter_act_denies(a))
		return RT_KIND_DENY;
	if (in_list(signal_calls, ARRAY_SIZE(signal_calls), name))
		return RT_KIND_SIGNAL;
	if (in_place && (!strcmp(name, "execve") || !strcmp(name, "execveat")))
		return RT_KIND_EXEC;
	if (in_place && (!strcmp(name, "vfork") || !strcmp(name, "clone")))
		return RT_KIND_SPAWN;
	if (transparent && in_list(path_calls, sizeof(path_calls) / sizeof(path_calls[0]), name))
		return RT_KIND_REDIRECT;
	return RT_KIND_NONE;
}

/*
 * The arming of a plan (ARM_*). With a transparent grant the runtime does the program's
 * execve in place (the kernel's would start a program without the handler, which its first
 * trapped call would kill); with an ID-mapped one too (the kernel's would make the process
 * dumpable again, its tree reachable through /proc/PID/root by another process of its
 * uid). *need: a call the runtime makes that the profile denies (NULL:
 * none).
 */
static int armed(const struct plan *plan, size_t *transparent, const char **need)
{
	const struct filter_spec *spec = &plan->filter;
	size_t i;
	int kills = spec->dflt.kind == FILTER_KILL;

	*transparent = 0;
	for (i = 0; i < plan->ndirs; i++)
		*transparent += plan->dirs[i].transparent != 0;
	*need = missing_need(plan, *transparent > 0);
	if (*transparent || plan->filter.idmap)
		return ARM_FULL;
	if (*need)
		return ARM_NONE;
	if (!allowed(spec, "execve") && !allowed(spec, "execveat"))
		return ARM_FULL;
	for (i = 0; i < spec->n; i++)
		kills |= spec->e[i].act.kind == FILTER_KILL;
	return kills ? ARM_KILLS : ARM_NONE;
}

void redirect_describe(const struct plan *plan, FILE *out, const char *prefix)
{
	static const char *const what[] = {
		[RT_KIND_REDIRECT] = "through a transparent grant, or made as asked",
		[RT_KIND_SIGNAL] = "emulated: SIGSYS stays the runtime's",
		[RT_KIND_EXEC] = "done in place by the runtime: the grants close, the traps stay",
		[RT_KIND_SPAWN] = "made a fork, so that the child's exec can be done in place",
	};
	const char *need;
	size_t transparent;
	int kind, nr, col, mode = armed(plan, &transparent, &need);

	if (mode == ARM_NONE)
		return;
	if (mode == ARM_KILLS) {
		fprintf(out, "%sredirect runtime: armed for the calls the profile kills for: they are\n"
			"%s  named on stderr first (after an execve of the program's, only killed)\n",
			prefix, prefix);
		return;
	}
	fprintf(out, "%sredirect runtime: armed (%s); from anywhere but its instruction, these\n"
		"%s  calls trap to its SIGSYS handler:\n", prefix,
		transparent ? "a transparent grant" : plan->filter.idmap ?
		"an ID-mapped grant: its execve in place" : "the program cannot execve", prefix);
	for (kind = RT_KIND_REDIRECT; kind <= RT_KIND_SPAWN; kind++) {
		if (kind == RT_KIND_DENY)
			continue;
		/* a kind without a call gets no heading, rather than an empty line */
		for (nr = 0, col = 0; nr < RT_NR_MAX; nr++) {
			const struct filter_entry *from;
			const char *name = sysnames_syscall_name(nr);

			if (name && kind_of(name, verdict(&plan->filter, nr, &from), transparent,
					    transparent || plan->filter.idmap, mode) == kind) {
				if (!col) {
					fprintf(out, "%s  %s:\n%s   ", prefix, what[kind], prefix);
					col = 4;
				}
				if (col + strlen(name) > 90) {
					fprintf(out, "\n%s   ", prefix);
					col = 4;
				}
				col += fprintf(out, " %s", name);
			}
		}
		if (col)
			fputc('\n', out);
	}
	if (transparent)
		fprintf(out, "%s  (newfstatat and statx only from AT_FDCWD or without AT_EMPTY_PATH:\n"
			"%s  with it and a dirfd, fstat; clone only with CLONE_VFORK)\n", prefix,
			prefix);
	fprintf(out, "%s  named on stderr, then given the profile's verdict: every call it denies\n",
		prefix);
}

/*
 * The address of the runtime's symbol at offset off (build/redirect_rt_image.h): its text is
 * where credbox's file maps it (redirect_rt_text.S), so the image's origin is fixed by that.
 */
#define RT_AT(rd, off)	((rd)->base - RT_TEXT_START_OFF + (off))
/* Its configuration and state: the mapping credbox makes for it. */
#define RT_DATA_SIZE	(RT_END_OFF - RT_CONF_OFF)

/*
 * Map the runtime's configuration and state, and fill the configuration (not yet read-only).
 * Its text is not copied: it runs where credbox's file maps it, pages of its own that the
 * loader keeps for the program, as it keeps the stub's. The code reaches its data at a fixed
 * distance below itself (the image's link: src/rt/redirect_rt.lds), under credbox's image,
 * where nothing has been mapped; NOREPLACE makes a collision a clean failure, never an
 * overwrite.
 */
static struct rt_conf *map_runtime(const struct plan *plan, struct redirect *rd)
{
	const char *slash = strrchr(plan->program, '/');
	struct rt_conf *c;
	void *m, *at;

	rd->base = (uintptr_t)redirect_rt_text;
	rd->data = RT_AT(rd, RT_CONF_OFF);
	at = (void *)rd->data;
	m = mmap(at, RT_DATA_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (m != at) {
		if (m != MAP_FAILED) {		/* a kernel before 4.17: a hint */
			munmap(m, RT_DATA_SIZE);
			errno = EEXIST;
		}
		rd->data = 0;
		return NULL;
	}
	c = (struct rt_conf *)rd->data;
	c->version = RT_VERSION;
	c->base = rd->base;
	c->exempt_ip = RT_AT(rd, RT_EXEMPT_RET_OFF);
	snprintf(c->prog, sizeof(c->prog), "%s", slash ? slash + 1 : plan->program);
	fill_exec(plan, c, rd->armed == ARM_FULL);
	if (rd->armed == ARM_KILLS) {
		/* Nothing below is read: their pages stay untouched. */
		c->kills_only = 1;
		return c;
	}
	/* The program starts in [program] cwd: in a tree, the runtime keeps it (apply.c). */
	snprintf(c->cwd, sizeof(c->cwd), "%s", plan->cwd ? plan->cwd : "/");
	/* /proc/self/exe names credbox: the runtime answers for it with the program's file. */
	if (!realpath(plan->program, c->exe))
		snprintf(c->exe, sizeof(c->exe), "%s", plan->program);
	fill_grants(plan, c);
	return c;
}

/*
 * Which calls trap (c->kind, c->msg), and the profile's filter with a marker in place of the
 * verdict of each, compiled into bpf and patched (the top of this file).
 */
static int compile_traps(const struct plan *plan, const struct redirect *rd,
			 struct rt_conf *c, struct filter_bpf *bpf)
{
	const struct filter_spec *spec = &plan->filter;
	struct filter_spec trapped = { .allow_list = spec->allow_list, .dflt = spec->dflt,
				       .idmap = spec->idmap };
	uint32_t vals[MAX_VERDICTS];
	unsigned int nvals = 0;
	struct msg_tail tail = { .len = 0 };
	size_t used = 0;
	int nr, e;

	/* Each entry is written whole before trapped.n counts it: no need to clear 32 KiB. */
	trapped.e = malloc(RT_NR_MAX * sizeof(*trapped.e));
	e = trapped.e ? 0 : -ENOMEM;
	if (!e && (rd->armed == ARM_KILLS ? spec->dflt.kind == FILTER_KILL :
		   filter_act_denies(spec->dflt)))
		e = marker(spec->dflt, vals, &nvals, &trapped.dflt);
	for (nr = 0; !e && nr < RT_NR_MAX; nr++) {
		const struct filter_entry *from;
		struct filter_act a = verdict(spec, nr, &from), act = a;
		const char *name = sysnames_syscall_name(nr);
		int kind;

		if (!name && nr == REDIRECT_NR_SYMLINKAT2 && rd->transparent) {
			a = verdict(spec, SCMP_SYS(symlinkat), &from);
			if (a.kind != trapped.dflt.kind || a.errnum != trapped.dflt.errnum)
				trapped.e[trapped.n++] = (struct filter_entry){ .nr = nr, .act = a };
			continue;
		}
		if (!name)
			continue;
		kind = kind_of(name, a, rd->transparent, rd->transparent || plan->filter.idmap,
			       rd->armed);
		c->kind[nr] = (uint8_t)kind;
		if (kind == RT_KIND_DENY)
			c->msg[nr] = message(c, &used, plan, nr, from, &tail);
		if (kind != RT_KIND_NONE)
			e = marker(a, vals, &nvals, &act);
		if (e || (act.kind == trapped.dflt.kind && act.errnum == trapped.dflt.errnum))
			continue;
		trapped.e[trapped.n] = (struct filter_entry){ .nr = nr, .act = act };
		/*
		 * With AT_EMPTY_PATH and a dirfd, newfstatat and statx are glibc's fstat: fd
		 * calls, left untrapped (so with a path as well they are made with the program's
		 * own rights). From AT_FDCWD they name a path, and trap.
		 */
		if (kind == RT_KIND_REDIRECT && (nr == SCMP_SYS(newfstatat) || nr == SCMP_SYS(statx))) {
			struct filter_entry *t = &trapped.e[trapped.n];

			t->has_cond = 1;
			t->cond_arg = nr == SCMP_SYS(statx) ? 2 : 3;
			t->cond_bit = AT_EMPTY_PATH;
			t->cond_act = a;
			t->has_cond_fd = 1;
			t->cond_fd_arg = 0;
		}
		/* clone traps only as a vfork (CLONE_VFORK): threads and forks are left alone. */
		if (kind == RT_KIND_SPAWN && nr == SCMP_SYS(clone)) {
			struct filter_entry *t = &trapped.e[trapped.n];

			t->act = a;
			t->has_cond = 1;
			t->cond_arg = 0;
			t->cond_bit = CLONE_VFORK;
			t->cond_act = act;
		}
		trapped.n++;
	}
	if (!e)
		e = filter_compile(&trapped, bpf);
	free(trapped.e);
	if (!e) {
		e = patch(bpf, c->exempt_ip, vals, nvals);
		if (e)
			filter_bpf_free(bpf);
	}
	return e;
}

int redirect_prepare(const struct plan *plan, struct redirect *rd, struct filter_bpf *bpf,
		     struct failure *err)
{
	const char *need;
	struct rt_conf *c;
	int e;

	memset(rd, 0, sizeof(*rd));
	rd->armed = armed(plan, &rd->transparent, &need);
	if (rd->transparent > RT_MAX_GRANTS)
		return fail(err, transparent_line(plan), NULL, -E2BIG,
			    "more than %d transparent grants", RT_MAX_GRANTS);
	if (need && rd->transparent)
		return fail(err, transparent_line(plan),
			    "allow it in [seccomp], or set transparent = no", -EPERM,
			    "transparent = yes: the redirection calls %s, which [seccomp] denies",
			    need);
	if (!rd->armed)
		return (e = filter_compile(&plan->filter, bpf)) ?
		       fail(err, plan->pol->seccomp.sec.line, NULL, e,
			    "[seccomp]: cannot compile the filters: %s", strerror(-e)) : 0;
	c = map_runtime(plan, rd);
	if (!c)
		return fail(err, FAILURE_NO_LINE, NULL, -errno,
			    "cannot map the redirect runtime: %s", strerror(errno));
	e = compile_traps(plan, rd, c, bpf);
	/* Its configuration read-only (its code is credbox's, read-only and executable). */
	if (!e && mprotect((void *)rd->data, RT_STATE_START_OFF - RT_CONF_OFF, PROT_READ))
		e = -errno;
	if (e) {
		redirect_release(rd);
		return fail(err, plan->pol->seccomp.sec.line, NULL, e,
			    "[seccomp]: cannot build the redirecting filter: %s", strerror(-e));
	}
	return 0;
}

int redirect_in_tree(const struct plan *plan, const char *path)
{
	size_t i, len;

	for (i = 0; path && path[0] == '/' && i < plan->ndirs; i++) {
		const char *p = plan->dirs[i].path;

		if (!plan->dirs[i].transparent)
			continue;
		len = strlen(p);
		while (len > 1 && p[len - 1] == '/')
			len--;
		if (!strncmp(path, p, len) && (path[len] == '\0' || path[len] == '/'))
			return 1;
	}
	return 0;
}

int redirect_keep(const struct redirect *rd, struct loader_image *img)
{
	int e;

	if (!rd->armed)
		return 0;
	e = loader_keep(img, rd->base, RT_TEXT_END_OFF - RT_TEXT_START_OFF);
	return e ? e : loader_keep(img, rd->data, RT_DATA_SIZE);
}

void redirect_release(struct redirect *rd)
{
	if (rd->data)
		munmap((void *)rd->data, RT_DATA_SIZE);
	memset(rd, 0, sizeof(*rd));
}

int redirect_arm(const struct redirect *rd)
{
	long (*arm)(void);

	if (!rd->armed)
		return 0;
	arm = (long (*)(void))RT_AT(rd, RT_ARM_OFF);
	return (int)arm();
}
