// SPDX-License-Identifier: GPL-2.0
/* apply: the checklist. Each step names the attack it stops. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "apply.h"
#include "filter.h"
#include "landlock.h"
#include "loader.h"
#include "preopen.h"
#include "privdrop.h"
#include "uapi.h"

/* Not the profile's doing (apply_error.line). */
#define NO_LINE	(-1)

/*
 * Record the failure for main: exit status, the profile line at fault, the fix when known.
 * Returns e (-errno), or -EPERM for e == 0. The message says what is wrong in words; a call's
 * strerror goes in only where nothing better can be said.
 */
static int fail(struct apply_error *err, int status, int line, const char *hint, int e,
		const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static int fail(struct apply_error *err, int status, int line, const char *hint, int e,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	err->status = status;
	err->line = line;
	err->hint = hint;
	return e ? e : -EPERM;
}

/* The line of the landlock key, else of [filesystem], else 0 (the default: the profile). */
static int landlock_line(const struct policy *pol)
{
	int line = profile_seen(&pol->fs.sec, SEC_FILESYSTEM, "landlock");

	return line ? line : pol->fs.sec.line;
}

/* The line that named a path Landlock failed on: a [dir] path, or a [filesystem] entry. */
static int path_line(const struct plan *plan, const char *path)
{
	size_t i;

	for (i = 0; i < plan->ndirs; i++) {
		if (plan->dirs[i].path == path)
			return plan->pol->dirs[i].path.line;
	}
	for (i = 0; i < plan->npaths; i++) {
		if (plan->paths[i].path == path)
			return plan->paths[i].line;
	}
	return landlock_line(plan->pol);
}

static const char *env_get(char *const *envp, const char *name)
{
	size_t len = strlen(name);

	for (; envp && *envp; envp++) {
		if (!strncmp(*envp, name, len) && (*envp)[len] == '=')
			return *envp + len + 1;
	}
	return NULL;
}

int apply_find_program(const struct plan *plan, char *out, size_t size)
{
	const char *path = env_get(plan->envp, "PATH"), *p;
	int e = -ENOENT;

	if (strchr(plan->program, '/')) {
		if ((size_t)snprintf(out, size, "%s", plan->program) >= size)
			return -ENAMETOOLONG;
		return access(out, F_OK) ? -errno : 0;
	}
	for (p = path; p && *p;) {
		const char *end = strchrnul(p, ':');
		int len = (int)(end - p);

		int n = len > 0 ? snprintf(out, size, "%.*s/%s", len, p, plan->program) : -1;

		if (n > 0 && (size_t)n < size && access(out, F_OK) == 0)
			return 0;
		p = *end ? end + 1 : end;
	}
	return e;
}

/* Step 1: open the program while still privileged; it must be runnable by the sandbox. */
static int open_program(const struct plan *plan, char *path, size_t size,
			struct apply_error *err)
{
	int line = plan->program_line ? plan->program_line : NO_LINE;
	int id_line = plan->pol->identity.user.line;
	struct preopen_fscred saved;
	struct stat st;
	int fd, e, x_ok;

	e = apply_find_program(plan, path, size);
	if ((e == -ENOENT || e == -ENOTDIR) && strchr(plan->program, '/'))
		return fail(err, APPLY_EXIT_NOT_FOUND, line, NULL, e, "%s does not exist",
			    plan->program);
	if (e == -ENOENT || e == -ENOTDIR)
		return fail(err, APPLY_EXIT_NOT_FOUND, line,
			    "the program's PATH is searched, not credbox's; give the absolute path",
			    e, "%s is in no directory of PATH", plan->program);
	if (e)
		return fail(err, APPLY_EXIT_CANNOT_RUN, line, NULL, e, "%s: %s", plan->program,
			    strerror(-e));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return fail(err, errno == ENOENT ? APPLY_EXIT_NOT_FOUND : APPLY_EXIT_CANNOT_RUN,
			    line, NULL, -errno, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return fail(err, APPLY_EXIT_CANNOT_RUN, line, NULL, -EACCES,
			    "%s is not a regular file", path);
	}
	/* execve would check execute permission for the dropped identity: so do we. */
	e = preopen_become(&plan->run, &saved);
	if (e) {
		close(fd);
		return fail(err, APPLY_EXIT_FAILURE, id_line,
			    e == -EPERM ? "start credbox as root" : NULL, e,
			    "cannot take on the identity of %s: %s", plan->run.name, strerror(-e));
	}
	x_ok = syscall(SYS_faccessat2, fd, "", X_OK, AT_EACCESS | AT_EMPTY_PATH) == 0;
	e = preopen_leave(&saved);
	if (e || !x_ok) {
		close(fd);
		return e ? fail(err, APPLY_EXIT_FAILURE, NO_LINE, NULL, e,
				"restoring credentials: %s", strerror(-e)) :
			   fail(err, APPLY_EXIT_CANNOT_RUN, line, NULL, -EACCES,
				"%s is not executable by %s, the sandboxed user", path,
				plan->run.name);
	}
	return fd;
}

/*
 * Step 0: everything that can fail without changing anything. The seccomp filters are
 * compiled here too: they are loaded after loader_build_stack has moved brk, when glibc's
 * sbrk points into memory that is no longer the heap and nothing may allocate any more.
 */
static int preflight(const struct plan *plan, struct filter_bpf *bpf, struct apply_error *err)
{
	const struct policy *pol = plan->pol;
	int e, abi;

	/* A kernel without the feature must stop us before the first change (fail closed). */
	if (plan->ndirs) {
		e = preopen_probe();
		if (e == -EOPNOTSUPP)
			return fail(err, APPLY_EXIT_FAILURE, pol->dirs[0].sec.line,
				    "boot a kernel with the credbox series (kernel-patches/), or "
				    "remove the [dir] sections", e,
				    "[dir %s]: this kernel lacks O_CRED_ALLOW (openat2 refuses the "
				    "flag), which every [dir] grant needs", plan->dirs[0].name);
		if (e)
			return fail(err, APPLY_EXIT_FAILURE, pol->dirs[0].sec.line, NULL, e,
				    "[dir %s]: cannot probe for O_CRED_ALLOW: %s",
				    plan->dirs[0].name, strerror(-e));
	}
	/* Running without the Landlock the admin required would widen the sandbox. */
	abi = landlock_abi();
	if (plan->landlock_required && abi < 0)
		return fail(err, APPLY_EXIT_FAILURE, landlock_line(pol),
			    "set \"landlock = best-effort\" in [filesystem] to run without it, or "
			    "boot a kernel with Landlock", abi,
			    "%s, but this kernel has no Landlock (%s)",
			    profile_seen(&pol->fs.sec, SEC_FILESYSTEM, "landlock") ?
			    "landlock = required" : "Landlock is required by default",
			    abi == -ENOSYS ? "not built in" : "not enabled at boot, see lsm=");
	e = filter_compile(&plan->filter, bpf);
	if (e)
		return fail(err, APPLY_EXIT_FAILURE, pol->seccomp.sec.line, NULL, e,
			    "[seccomp]: cannot compile the filters: %s", strerror(-e));
	return 0;
}

int apply(const struct plan *plan, struct apply_error *err)
{
	char path[4096];
	int dir_fds[PROFILE_MAX_DIRS];
	struct preopen_error perr;
	struct privdrop_error derr;
	const char *llpath;
	struct filter_bpf bpf;
	size_t i;
	int e, prog;
	struct loader_image img;
	struct loader_error lerr;

	err->changed = 0;
	err->line = NO_LINE;
	err->hint = NULL;
	e = preflight(plan, &bpf, err);
	if (e)
		return e;

	/* 1. Open and check the program while privileged: ELF errors give 126 before any change. */
	prog = open_program(plan, path, sizeof(path), err);
	if (prog < 0)
		return prog;
	e = loader_prepare(&img, prog, path, &lerr);
	close(prog);
	if (e)
		return fail(err, lerr.status, plan->program_line ? plan->program_line : NO_LINE,
			    NULL, e, "%s", lerr.msg);

	/* 2. Directories opened as their owners (no one can redirect the path or hand us more). */
	for (i = 0; i < plan->ndirs; i++) {
		e = preopen_dir(&plan->dirs[i], &plan->run, &dir_fds[i], &perr);
		if (e) {
			fail(err, APPLY_EXIT_FAILURE, plan->pol->dirs[i].path.line, perr.hint, e,
			     "[dir %s] %s: %s", plan->dirs[i].name, perr.path, perr.what);
			while (i--)
				close(dir_fds[i]);
			return e;
		}
	}
	/* ... and every other fd closed: nothing of credbox's parent leaks to the program. */
	err->changed = 1;
	e = preopen_place(plan, dir_fds);
	if (e)
		return fail(err, APPLY_EXIT_FAILURE, NO_LINE, NULL, e,
			    "moving the directories to their fds (up to %d): %s", plan->max_fd,
			    strerror(-e));

	/* 3. Drop privilege for good: a compromised program gets no root, no capability back. */
	e = privdrop_apply(&plan->run, &derr);
	if (e)
		return fail(err, APPLY_EXIT_FAILURE, plan->pol->identity.user.line, NULL, e,
			    "dropping privileges to %s: %s%s%s", plan->run.name, derr.step,
			    derr.call ? ": " : "", derr.call ? strerror(-e) : "");

	/* 4. Landlock: paths outside the grants stay out of reach even if DAC would allow. */
	e = landlock_apply(plan, dir_fds, &llpath);
	if (e == -EOPNOTSUPP && !plan->landlock_required)
		e = 0;
	if (e == -ENOENT && llpath)
		return fail(err, APPLY_EXIT_FAILURE, path_line(plan, llpath),
			    "mark a path that may be missing with a leading '-', as in "
			    "\"ro = -/lib64\"", e, "[filesystem] %s: does not exist", llpath);
	if (e)
		return fail(err, APPLY_EXIT_FAILURE, llpath ? path_line(plan, llpath) :
			    landlock_line(plan->pol), NULL, e, "Landlock%s%s: %s",
			    llpath ? " rule for " : "", llpath ? llpath : "", strerror(-e));

	/*
	 * The program's stack, and the kernel's view of it (/proc/PID/cmdline, auxv, the brk
	 * heap after its image), while PR_SET_MM is still allowed: a program must not find
	 * credbox's arguments or heap where execve would have given it its own.
	 */
	e = loader_build_stack(&img, plan->argv, plan->envp, &lerr);
	if (e)
		return fail(err, lerr.status ? lerr.status : APPLY_EXIT_FAILURE, NO_LINE, NULL, e,
			    "%s", lerr.msg);

	/* 5. Seccomp, last: the rights cannot leave the process, no other process reaches in. */
	e = filter_install(&bpf);
	if (e)
		return fail(err, APPLY_EXIT_FAILURE, NO_LINE, NULL, e,
			    "loading the seccomp filters: %s", strerror(-e));

	/* 6. The loader, never execve (it would close the granted fds). */
	e = loader_enter(&img, plan->argv, plan->envp, &lerr);
	return fail(err, lerr.status ? lerr.status : APPLY_EXIT_FAILURE, NO_LINE, NULL, e, "%s",
		    lerr.msg);
}
