// SPDX-License-Identifier: GPL-2.0
/* apply: the checklist. Each step names the attack it stops. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>

#include "apply.h"
#include "deps.h"
#include "dedicated.h"
#include "filter.h"
#include "idmap.h"
#include "landlock.h"
#include "loader.h"
#include "preopen.h"
#include "privdrop.h"
#include "redirect.h"
#include "session.h"
#include "uapi.h"
#include "util.h"

/*
 * The failure is the profile's: record the exit status and the line at fault (FAILURE_NO_LINE:
 * not the profile's doing). Returns the -errno recorded.
 */
#define NO_LINE	FAILURE_NO_LINE

static int fail(struct failure *err, int status, int line, const char *hint, int e,
		const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static int fail(struct failure *err, int status, int line, const char *hint, int e,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	failure_vset(err, e, hint, fmt, ap);
	va_end(ap);
	return failure_at(err, status, line);
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

/* Like execvp: the first candidate that exists for the caller; EACCES if one was refused. */
int apply_find_program(const struct plan *plan, char *out, size_t size)
{
	const char *path = env_get(plan->envp, "PATH"), *p;
	int e = -ENOENT;

	if (!*plan->program)
		return -ENOENT;		/* as execvp(""), not a directory of PATH */
	if (strchr(plan->program, '/')) {
		if ((size_t)snprintf(out, size, "%s", plan->program) >= size)
			return -ENAMETOOLONG;
		return faccessat(AT_FDCWD, out, F_OK, AT_EACCESS) ? -errno : 0;
	}
	for (p = path; p && *p;) {
		const char *end = strchrnul(p, ':');
		int len = (int)(end - p);

		int n = len > 0 ? snprintf(out, size, "%.*s/%s", len, p, plan->program) : -1;

		if (n > 0 && (size_t)n < size) {
			if (faccessat(AT_FDCWD, out, F_OK, AT_EACCESS) == 0)
				return 0;
			if (errno == EACCES)
				e = -EACCES;
		}
		p = *end ? end + 1 : end;
	}
	return e;
}

/*
 * Each path the profile does not mark as optional exists: found here, before any change, not
 * by Landlock after the privilege drop.
 */
static int check_path(const struct plan *plan, size_t i, struct failure *err)
{
	const struct plan_path *p = &plan->paths[i];
	struct stat st;
	int e = 0;

	if ((!p->optional || (plan->dyn_last && p->rw)) && stat(p->path, &st) < 0)
		e = -errno;
	if (!p->optional && (e == -ENOENT || e == -ENOTDIR))
		return fail(err, EXIT_CREDBOX, p->line,
			    "mark a path that may be missing with a leading '-', as in "
			    "\"ro = -/lib64\"", -ENOENT, "[filesystem] %s: does not exist",
			    p->path);
	/* A dynamic user's files there would be the next run's, given the same uid. */
	if (plan->dyn_last && p->rw && !e && S_ISDIR(st.st_mode))
		return fail(err, EXIT_CREDBOX, p->line, "grant it as a [dir] owned by an account "
			    "of its own, or make it ro", -EPERM, "[filesystem] rw = %s: a directory a "
			    "dynamic user may write outside its grants keeps its files for the next "
			    "run given the same uid", p->path);
	return 0;
}

/* The first writable [filesystem] directory on the filesystem of the tree at dir, or NULL. */
static const struct plan_path *writable_beside(const struct plan *plan, const char *dir)
{
	struct stat tree, w;
	size_t j;

	if (stat(dir, &tree) < 0)
		return NULL;		/* preopen says what is wrong with it */
	for (j = 0; j < plan->npaths; j++) {
		const struct plan_path *p = &plan->paths[j];

		if (p->rw && stat(p->path, &w) == 0 && S_ISDIR(w.st_mode) &&
		    w.st_dev == tree.st_dev)
			return p;
	}
	return NULL;
}

/*
 * A file the program makes through a grant belongs to the grant's owner, with the content and
 * mode the program chose. If the program can also reach that file by path with its own rights
 * (it may search the way to the tree's top), it can hard-link it into a directory it may write,
 * and the owner's file is then outside the tree, where the owner trusts its files. The kernel
 * refuses every link made through the grant itself; a path it cannot tell from any other. A
 * link stays on one filesystem: refuse a writable [filesystem] directory on the filesystem of
 * a tree the sandboxed identity can reach by path. (Only root can take on that identity: --check
 * run by a user leaves it out.)
 */
static int check_link_out(const struct plan *plan, size_t i, struct failure *err)
{
	const struct plan_path *p = writable_beside(plan, plan->dirs[i].path);
	struct preopen_fscred saved;
	int e, reach;

	/* an ID-mapped tree is a mount of its own: a link across its edge is EXDEV */
	if (!p || geteuid() != 0 || plan->dirs[i].idmap)
		return 0;
	e = preopen_become(&plan->run, &saved);
	if (e)
		return fail(err, EXIT_CREDBOX, NO_LINE, NULL, e, "cannot take on the identity of "
			    "%s: %s", plan->run.name, strerror(-e));
	reach = faccessat(AT_FDCWD, plan->dirs[i].path, X_OK, AT_EACCESS) == 0;
	if (preopen_leave(&saved))
		return fail(err, EXIT_CREDBOX, NO_LINE, NULL, -EPERM, "restoring credentials");
	if (reach)
		return fail(err, EXIT_CREDBOX, p->line,
			    "make the tree's top directory one only its owner can search (chmod "
			    "0700), or the writable path one on another filesystem", -EPERM,
			    "[filesystem] rw = %s is on the filesystem of [dir %s] (%s), which %s "
			    "can reach by path: it could hard-link a file it makes through the "
			    "grant, owned by %s, into %s", p->path, plan->dirs[i].name,
			    plan->dirs[i].path, plan->run.name, plan->dirs[i].id.name, p->path);
	return 0;
}

/*
 * A read-only grant is enforced by Landlock and nothing else: the fd carries its owner's
 * credentials, and the owner may write. A kernel without Landlock, or whose Landlock lacks
 * the truncate right, cannot hold it to reading, whatever "landlock =" says: refuse it.
 */
static int check_ro_grant(const struct plan *plan, size_t i, struct failure *err)
{
	int abi = landlock_abi();
	char why[64];

	/* an ID-mapped ro grant is a read-only mount: the kernel keeps it */
	if (plan->dirs[i].rw || plan->dirs[i].idmap || landlock_enforces_ro(abi))
		return 0;
	if (abi < 0)
		snprintf(why, sizeof(why), "no Landlock: %s",
			 abi == -ENOSYS ? "not built in" : "not enabled at boot, see lsm=");
	else
		snprintf(why, sizeof(why), "Landlock ABI %d has no truncate right", abi);
	return fail(err, EXIT_CREDBOX, profile_seen(&plan->pol->dirs[i].sec, SEC_DIR, "access"),
		    "boot a kernel with Landlock ABI 3 or newer (Linux 6.2), or remove the grant",
		    -EOPNOTSUPP, "[dir %s] access = ro: the fd carries %s's credentials, and "
		    "nothing on this kernel would keep them from writing (%s)", plan->dirs[i].name,
		    plan->dirs[i].id.name, why);
}

/*
 * A transparent grant makes the program's stat, mkdir, unlink and rename with the kernel's
 * directory operations: a kernel without them stops the run here, not each call later.
 */
static int check_dirops(const struct plan *plan, size_t i, struct failure *err)
{
	if (!plan->dirs[i].transparent || plan->dirs[i].idmap ||
	    preopen_probe_dirops() != -EOPNOTSUPP)
		return 0;
	return fail(err, EXIT_CREDBOX, plan->dirs[i].transparent_line,
		    "boot a kernel with the whole credbox series (kernel-patches/), "
		    "or set transparent = no", -EOPNOTSUPP,
		    "[dir %s] transparent = yes: this kernel lacks the directory "
		    "operations (AT_CRED_INHERIT) through which the program's stat, "
		    "mkdir, unlink and rename reach the tree", plan->dirs[i].name);
}

/* A limit as the profile writes it, for messages. */
static const char *limit_str(unsigned long long v, char *buf, size_t size)
{
	if (v == PLIMIT_INFINITY)
		return "infinity";
	snprintf(buf, size, "%llu", v);
	return buf;
}

/*
 * What the kernel would refuse set_limits as root, found before any change: more open files
 * than fs.nr_open, and a hard limit above the caller's without CAP_SYS_RESOURCE (a container's
 * root may lack it). Not root (--check): only the first, a run has root's capabilities.
 */
static int check_limit(const struct plan *plan, size_t i, struct failure *err)
{
	const struct plan_limit *l = &plan->limits[i];
	unsigned long long nr_open = 0;
	char b1[24], b2[24];
	struct rlimit cur;
	FILE *f;

	if (l->resource == RLIMIT_NOFILE && (f = fopen("/proc/sys/fs/nr_open", "re"))) {
		if (fscanf(f, "%llu", &nr_open) != 1)
			nr_open = 0;
		fclose(f);
		if (nr_open && l->hard > nr_open)
			return fail(err, EXIT_CREDBOX, l->line, "lower it, or raise sysctl fs.nr_open",
				    -EPERM, "[limits] nofile: %s is above the kernel's limit on open "
				    "files, fs.nr_open (%llu)", limit_str(l->hard, b1, sizeof(b1)),
				    nr_open);
	}
	if (geteuid() != 0 || getrlimit(l->resource, &cur) < 0 || cur.rlim_max == RLIM_INFINITY ||
	    l->hard <= cur.rlim_max || privdrop_capable(CAP_SYS_RESOURCE) > 0)
		return 0;
	return fail(err, EXIT_CREDBOX, l->line ? l->line : NO_LINE,
		    "lower it, or raise the caller's hard limit (ulimit -H)", -EPERM,
		    "[limits] %s: %s is above the caller's hard limit (%s), which only "
		    "CAP_SYS_RESOURCE may raise, and credbox does not have it", l->name,
		    limit_str(l->hard, b1, sizeof(b1)), limit_str(cur.rlim_max, b2, sizeof(b2)));
}

/* Running without the Landlock the admin required would widen the sandbox. */
static int check_landlock(const struct plan *plan, size_t i, struct failure *err)
{
	const struct policy *pol = plan->pol;
	int abi = landlock_abi();

	if (!plan->landlock_required || abi >= 0)
		return 0;
	return fail(err, EXIT_CREDBOX, landlock_line(pol),
		    "set \"landlock = best-effort\" in [filesystem] to run without it, or boot a "
		    "kernel with Landlock", abi, "%s, but this kernel has no Landlock (%s)",
		    profile_seen(&pol->fs.sec, SEC_FILESYSTEM, "landlock") ?
		    "landlock = required" : "Landlock is required by default",
		    abi == -ENOSYS ? "not built in" : "not enabled at boot, see lsm=");
}

/* A kernel without the feature must stop us before the first change (fail closed). */
static int check_cred_allow(const struct plan *plan, size_t i, struct failure *err)
{
	const struct plan_dir *dir = &plan->dirs[i];
	int e, line = plan->pol->dirs[i].sec.line;

	if (dir->idmap)
		return 0;
	e = preopen_probe();
	if (e == -EOPNOTSUPP)
		return fail(err, EXIT_CREDBOX, line, "boot a kernel with the credbox series "
			    "(kernel-patches/), or set \"method = auto\" to grant it by an "
			    "ID-mapped mount here", e,
			    "[dir %s]: this kernel lacks O_CRED_ALLOW (openat2 refuses the flag), "
			    "which a cred-fd grant needs", dir->name);
	return e ? fail(err, EXIT_CREDBOX, line, NULL, e, "[dir %s]: cannot probe for "
			"O_CRED_ALLOW: %s", dir->name, strerror(-e)) : 0;
}

#define HINT_IDMAP_FS	"grant a tree on a file system that takes them (ext4, xfs, btrfs, tmpfs " \
			"since 6.3; never NFS or overlayfs), or boot a kernel with the credbox series"

/* The refusal of an ID-mapped mount by the file system of dir (the kernel's e). */
static int fs_refuses(const struct plan *plan, size_t i, int e, struct failure *err)
{
	const struct plan_dir *dir = &plan->dirs[i];

	fail(err, EXIT_CREDBOX, dir->method_line ? dir->method_line :
	     plan->pol->dirs[i].sec.line, e == -EINVAL ? HINT_IDMAP_FS : NULL, e,
	     "%s: its file system takes no ID-mapped mount: %s", dir->path, strerror(-e));
	failure_prefix(err, "[dir %s] %s", dir->name, dir->method == METHOD_AUTO ?
		       "method = auto: this kernel lacks O_CRED_ALLOW, and an ID-mapped grant "
		       "cannot be made: " : "method = idmap: ");
	return e;
}

/*
 * --check: whether the file system of an ID-mapped grant takes the mount, tried on a detached
 * copy (nothing is mounted). A run finds it out by mounting, and says the same.
 */
static int check_idmap_fs(const struct plan *plan, size_t i, struct failure *err)
{
	const struct plan_dir *dir = &plan->dirs[i];
	struct idmap_ids ids = { dir->id.uid, plan->run.uid, dir->id.gid, plan->run.gid };
	int fd, userns = -1, e;

	if (!dir->idmap || geteuid() != 0)
		return 0;
	fd = open(dir->path, O_PATH | O_DIRECTORY | O_CLOEXEC |
		  (dir->trust_symlinks ? 0 : O_NOFOLLOW));
	if (fd < 0)
		return 0;	/* check_idmap said why */
	e = idmap_userns(&ids, &userns, NULL);
	if (!e)
		e = idmap_probe(fd, userns);
	if (userns >= 0)
		close(userns);
	close(fd);
	return e ? fs_refuses(plan, i, e, err) : 0;
}

/*
 * An ID-mapped grant is a weaker object than a lent fd (credbox.ini(5), SECURITY): its rights
 * go with a uid and a mount, not with the process, and through it the program is the tree's
 * owner. It runs only where each of these makes up for a part of that, checked in this order:
 *   dedicated  no other process of the uid can use the mount (a directory fd passed out over
 *              a socket; /proc/PID/root of a dumpable process): the user is credbox's alone
 *   Landlock   no FIFO or socket made in the tree for others to block on or connect to
 *   owner      the tree's top is the owner's on disk: the map's direction is verified on it
 *   closed     some directory above the tree is closed to all but root and the owner, so that
 *              nothing the program makes the tree (a chmod of its top, a file mode) reaches
 *              anyone new
 * and, by --check on a detached copy (check_idmap_fs) or by the run's mount, that its file
 * system takes an ID-mapped mount.
 * The rest is the apply path's: set-ID modes refused by the always filter, the program's
 * execve made in place (it stays undumpable), the mount nosuid and nodev.
 */
static int check_idmap(const struct plan *plan, size_t i, struct failure *err)
{
	const struct plan_dir *dir = &plan->dirs[i];
	int line = dir->method_line ? dir->method_line : plan->pol->dirs[i].sec.line, fd = -1;
	int e = 0;
	char where[PATH_MAX];
	struct stat st;

	if (!dir->idmap)
		return 0;
	if (!plan->dedicated)
		e = fail(err, EXIT_CREDBOX, plan->dedicated_line ? plan->dedicated_line : line,
			 "give the program a user of its own, that nothing else runs as, and say so "
			 "with \"dedicated = yes\" in [identity]", -EPERM, "an ID-mapped grant's "
			 "rights go with the uid of %s, to any process of it that reaches the mount, "
			 "and [identity] does not say the user is credbox's alone", plan->run.name);
	else if (landlock_abi() < 0)
		e = fail(err, EXIT_CREDBOX, line, "boot a kernel with Landlock", -EOPNOTSUPP,
			 "no Landlock: nothing would keep the program from making FIFOs and "
			 "sockets in the tree as its owner");
	else if ((fd = open(dir->path, O_PATH | O_DIRECTORY | O_CLOEXEC |
			    (dir->trust_symlinks ? 0 : O_NOFOLLOW))) < 0)
		e = fail(err, EXIT_CREDBOX, plan->pol->dirs[i].path.line, NULL, -errno,
			 "%s: %s", dir->path, strerror(errno));
	if (e)
		goto out;
	if (fstat(fd, &st) < 0 || st.st_uid != dir->id.uid)
		e = fail(err, EXIT_CREDBOX, line, "chown the tree's top directory to its [dir] "
			 "owner", -EPERM, "%s is owned by uid %u, not by %s: the map's direction "
			 "is verified on it", dir->path, (unsigned)st.st_uid, dir->id.name);
	else if ((e = idmap_closed_above(fd, dir->id.uid, where, sizeof(where))) < 0)
		e = fail(err, EXIT_CREDBOX, line, NULL, e, "cannot look above %s: %s", dir->path,
			 strerror(-e));
	else if (e == 0)
		e = fail(err, EXIT_CREDBOX, line, "make a directory above the tree one that only "
			 "root or its owner can search, as with chmod 0700 on the owner's home",
			 -EPERM, "%s: no directory above it is closed to everyone but root and %s, "
			 "so what the program makes of the tree as its owner (a chmod of its top, "
			 "say) would reach others", dir->path, dir->id.name);
	else
		e = 0;
	close(fd);
out:
	if (e) {
		failure_prefix(err, "[dir %s] %s", dir->name, dir->method == METHOD_AUTO ?
			       "method = auto: this kernel lacks O_CRED_ALLOW, and an ID-mapped "
			       "grant cannot be made: " : "method = idmap: ");
	}
	return e;
}

/*
 * access = ro is lent for reading only (OA2_CRED_RDONLY), so that the kernel itself refuses
 * every change through the grant: Landlock cannot forbid a chmod or a utimes. A kernel that
 * refuses the flag stops the run here, never with a writable loan.
 */
static int check_ro_loan(const struct plan *plan, size_t i, struct failure *err)
{
	const struct psec *sec = &plan->pol->dirs[i].sec;
	int e, line = profile_seen(sec, SEC_DIR, "access") ?: sec->line;

	if (plan->dirs[i].rw || plan->dirs[i].idmap || preopen_probe() == -EOPNOTSUPP)
		return 0;
	e = preopen_probe_rdonly();
	if (e == -EOPNOTSUPP)
		return fail(err, EXIT_CREDBOX, line,
			    "boot a kernel with the whole credbox series (kernel-patches/, patch 17), "
			    "or grant it with access = rw", e, "[dir %s] access = ro: this kernel "
			    "cannot lend for reading only (openat2 refuses OA2_CRED_RDONLY), and a "
			    "writable loan would let the program change modes and times in the tree",
			    plan->dirs[i].name);
	return e ? fail(err, EXIT_CREDBOX, line, NULL, e,
			"[dir %s]: cannot probe for OA2_CRED_RDONLY: %s", plan->dirs[i].name,
			strerror(-e)) : 0;
}

#define HINT_CWD "the working directory must be one the sandboxed user may search"

/* Whether path lies in an ID-mapped tree: reachable by the program only once it is mounted. */
static int in_idmap_tree(const struct plan *plan, const char *path)
{
	size_t i, len;

	for (i = 0; i < plan->ndirs; i++) {
		const char *p = plan->dirs[i].path;

		len = strlen(p);
		while (len > 1 && p[len - 1] == '/')
			len--;
		if (plan->dirs[i].idmap && !strncmp(path, p, len) &&
		    (path[len] == '\0' || path[len] == '/'))
			return 1;
	}
	return 0;
}

/*
 * The program's working directory exists and the sandboxed user may enter it (apply enters it
 * after the drop, when nothing can be undone). Not root (--check): that it is a directory. In
 * a transparent tree the runtime keeps it, and checks it as the program's own chdir would.
 */
static int check_cwd(const struct plan *plan, size_t i, struct failure *err)
{
	int line = plan->cwd_line ? plan->cwd_line : NO_LINE, e = 0;
	struct preopen_fscred saved;
	struct stat st;

	if (redirect_in_tree(plan, plan->cwd) || in_idmap_tree(plan, plan->cwd))
		return 0;
	if (stat(plan->cwd, &st) < 0)
		return fail(err, EXIT_CREDBOX, line, HINT_CWD, -errno, "[program] cwd %s: %s",
			    plan->cwd, errno == ENOENT ? "does not exist" : strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return fail(err, EXIT_CREDBOX, line, HINT_CWD, -ENOTDIR, "[program] cwd %s: not a "
			    "directory", plan->cwd);
	if (geteuid() != 0)
		return 0;
	e = preopen_become(&plan->run, &saved);
	if (e)
		return fail(err, EXIT_CREDBOX, NO_LINE, NULL, e, "cannot take on the identity of "
			    "%s: %s", plan->run.name, strerror(-e));
	if (faccessat(AT_FDCWD, plan->cwd, X_OK, AT_EACCESS) < 0)
		e = -errno;
	if (preopen_leave(&saved))
		return fail(err, EXIT_CREDBOX, NO_LINE, NULL, -EPERM, "restoring credentials");
	return e ? fail(err, EXIT_CREDBOX, line, HINT_CWD, e, "[program] cwd %s: %s cannot "
			"enter it: %s", plan->cwd, plan->run.name, strerror(-e)) : 0;
}

/* How many items a check of the table looks at. */
static size_t once(const struct plan *plan)
{
	return 1;
}

static size_t each_dir(const struct plan *plan)
{
	return plan->ndirs;
}

static size_t each_path(const struct plan *plan)
{
	return plan->npaths;
}

static size_t each_limit(const struct plan *plan)
{
	return plan->nlimits;
}

/*
 * Step 0: everything that can fail without changing anything, item by item: a run stops at the
 * first failure, --check reports them all. (The seccomp filters are compiled after these, in
 * preflight: they are loaded after loader_build_stack has moved brk, when glibc's sbrk points
 * into memory that is no longer the heap and nothing may allocate any more.)
 */
static const struct {
	size_t (*count)(const struct plan *plan);
	int (*check)(const struct plan *plan, size_t i, struct failure *err);
} checks[] = {
	{ once, check_landlock },
	{ each_dir, check_ro_grant },
	{ each_dir, check_link_out },
	{ each_dir, check_cred_allow },
	{ each_dir, check_idmap },
	{ each_dir, check_dirops },
	{ each_dir, check_ro_loan },
	{ each_path, check_path },
	{ each_limit, check_limit },
	{ once, check_cwd },
};

static int preflight(const struct plan *plan, struct filter_bpf *bpf, struct redirect *rd,
		     struct failure *err)
{
	size_t c, i;
	int e;

	for (c = 0; c < ARRAY_SIZE(checks); c++) {
		for (i = 0; i < checks[c].count(plan); i++) {
			e = checks[c].check(plan, i, err);
			if (e)
				return e;
		}
	}
	/* The profile's filter, with the traps of the redirect runtime when it is armed. */
	return redirect_prepare(plan, rd, bpf, err);
}

/* What a refused program, interpreter or #! interpreter needs; the loader says which. */
#define HINT_EXEC_PERM	"the sandboxed user opens the program as execve would: it needs search " \
			"permission on the directories, read and execute permission on the " \
			"program and its interpreters"

/* Why the program was not found (apply_find_program's error e). */
static int not_found(const struct plan *plan, int e, int line, struct failure *err)
{
	if (!*plan->program)
		return fail(err, EXIT_NOT_FOUND, line, "name the program after --", e,
			    "the program's name is empty");
	if ((e == -ENOENT || e == -ENOTDIR) && strchr(plan->program, '/'))
		return fail(err, EXIT_NOT_FOUND, line, NULL, e, "%s does not exist",
			    plan->program);
	if (e == -ENOENT || e == -ENOTDIR)
		return fail(err, EXIT_NOT_FOUND, line,
			    "the program's PATH is searched, not credbox's; give the absolute path",
			    e, "%s is in no directory of PATH", plan->program);
	return fail(err, EXIT_CANNOT_RUN, line, e == -EACCES ? HINT_EXEC_PERM : NULL, e,
		    "%s: %s", plan->program, strerror(-e));
}

/*
 * The program starts in [program] cwd, not where credbox was started: a relative name (from
 * the command line, or a relative PATH entry) is made absolute against the directory it was
 * meant from, or a script's interpreter, which reopens the script by that name, would miss
 * it. Not resolved further: the name of a symbolic link stays the program's (busybox).
 */
static int make_absolute(char *path, size_t size)
{
	size_t skip = 0, len, n;
	char *cwd;

	if (path[0] == '/')
		return 0;
	while (path[skip] == '.' && path[skip + 1] == '/')
		skip += 2;			/* "./prog": "/dir/prog", not "/dir/./prog" */
	len = strlen(path + skip);
	cwd = getcwd(NULL, 0);
	if (!cwd)
		return -errno;
	n = strcmp(cwd, "/") ? strlen(cwd) : 0;
	if (n + 1 + len >= size) {
		free(cwd);
		return -ENAMETOOLONG;
	}
	memmove(path + n + 1, path + skip, len + 1);
	memcpy(path, cwd, n);
	path[n] = '/';
	free(cwd);
	return 0;
}

/*
 * Step 1: find, open, check and map the program as execve would for the sandboxed identity:
 * PATH searched, the program, a script's #! interpreters and the ELF interpreter opened with
 * its fsuid, fsgid and groups, so a program or interpreter only root can reach does not run
 * because credbox started as root (and a FIFO put in their place never blocks). Before any
 * change: a bad file gives 126 or 127 with nothing changed.
 */
static int load_program(const struct plan *plan, struct loader_image *img,
			struct failure *err)
{
	int line = plan->program_line ? plan->program_line : NO_LINE;
	struct preopen_fscred saved;
	char path[4096];
	int e, found;

	e = preopen_become(&plan->run, &saved);
	if (e)
		return fail(err, EXIT_CREDBOX, plan->pol->identity.user.line,
			    e == -EPERM ? "start credbox as root" : NULL, e,
			    "cannot take on the identity of %s: %s", plan->run.name, strerror(-e));
	found = apply_find_program(plan, path, sizeof(path));
	if (!found)
		found = make_absolute(path, sizeof(path));
	e = found ? found : loader_prepare(img, path, err);
	if (preopen_leave(&saved)) {
		if (!e)
			loader_release(img);
		return fail(err, EXIT_CREDBOX, NO_LINE, NULL, -EPERM, "restoring credentials");
	}
	if (found)
		return not_found(plan, found, line, err);
	if (e == -EACCES)
		err->hint = HINT_EXEC_PERM;
	return e ? failure_at(err, err->status, line) : 0;
}

/* Step 2: the directories, each opened as its owner and checked (preopen.h says what). */
static int open_dirs(const struct plan *plan, int *dir_fds, struct failure *err)
{
	size_t i;
	int e;

	for (i = 0; i < plan->ndirs; i++) {
		e = preopen_dir(&plan->dirs[i], &plan->run, &dir_fds[i], err);
		if (e) {
			failure_prefix(err, "[dir %s] ", plan->dirs[i].name);
			failure_at(err, EXIT_CREDBOX, plan->pol->dirs[i].path.line);
			while (i--)
				close(dir_fds[i]);
			return e;
		}
	}
	return 0;
}

/*
 * Step 2a, with an ID-mapped grant: a mount namespace of credbox's own, made before the
 * directories are opened (the kernel clones only mounts of the caller's namespace). It takes
 * the host's mount events and gives none: what is mounted for the program is never seen
 * outside, and it ends with the program's last process.
 */
static int private_ns(const struct plan *plan, struct failure *err)
{
	int e = plan->filter.idmap ? idmap_private_ns() : 0;

	return e ? fail(err, EXIT_CREDBOX, NO_LINE, NULL, e, "a mount namespace for the "
			"ID-mapped grants: %s", strerror(-e)) : 0;
}

/*
 * Step 2c: the ID-mapped grants mounted, each the directory checked in step 2 (idmap.h): nosuid,
 * nodev, read-only for access = ro, each map's direction verified before anything is
 * attached. Its fd becomes the mounted tree's root: the program's grant fd as with cred-fd.
 */
static int mount_idmaps(const struct plan *plan, int *dir_fds, struct failure *err)
{
	struct idmap_tree t[PROFILE_MAX_DIRS];
	struct idmap_holder held[PROFILE_MAX_DIRS] = { { 0, NULL } };
	size_t idx[PROFILE_MAX_DIRS], n = 0, i, k, at = 0;
	const struct plan_dir *dir;
	struct stat st;
	int e = 0, fs;

	for (i = 0; !e && i < plan->ndirs; i++) {
		dir = &plan->dirs[i];
		if (!dir->idmap)
			continue;
		t[n] = (struct idmap_tree){
			.dirfd = dir_fds[i], .userns_fd = -1, .rdonly = !dir->rw, .grant_fd = -1,
			.ids = { dir->id.uid, plan->run.uid, dir->id.gid, plan->run.gid },
			/* check_idmap's closed directory, again above the directory mounted */
			.closed = 1,
		};
		at = n;
		idx[n++] = i;
		/* and its owner */
		if (fstat(dir_fds[i], &st) || st.st_uid != dir->id.uid)
			e = -ESTALE;
		/* one namespace for each map: the grants of one owner share it */
		for (k = 0; !e && k < at && t[at].userns_fd < 0; k++) {
			if (!memcmp(&t[k].ids, &t[at].ids, sizeof(t[at].ids)))
				t[at].userns_fd = t[k].userns_fd;
		}
		/* its holder reaped below, its exit made meanwhile */
		if (!e && t[at].userns_fd < 0)
			e = idmap_userns(&t[at].ids, &t[at].userns_fd, &held[at]);
	}
	if (!e && n)
		e = idmap_mount_all(t, n, &plan->run, &at);
	/* the file system's refusal, told apart from the rest by a try on a detached copy */
	fs = e == -EINVAL && at < n && idmap_probe(t[at].dirfd, t[at].userns_fd) == -EINVAL;
	for (i = 0; i < n; i++) {
		idmap_reap(&held[i]);
		for (k = 0; k < i && t[i].userns_fd >= 0; k++) {
			if (t[k].userns_fd == t[i].userns_fd)
				t[i].userns_fd = -1;	/* shared: closed once */
		}
		if (t[i].userns_fd >= 0)
			close(t[i].userns_fd);
		if (!e) {
			close(dir_fds[idx[i]]);
			dir_fds[idx[i]] = t[i].grant_fd;
		}
	}
	if (!e)
		return 0;
	if (fs)
		return fs_refuses(plan, idx[at], e, err);
	dir = &plan->dirs[idx[at]];
	return fail(err, EXIT_CREDBOX, plan->pol->dirs[idx[at]].path.line, NULL, e,
		    "[dir %s] method = idmap: mounting %s: %s", dir->name, dir->path,
		    e == -EPROTO ? "the mount does not show the tree's owner as the program's "
		    "user: refused" : e == -ESTALE ? "the tree or a directory above it changed "
		    "since it was checked" : strerror(-e));
}

/*
 * Step 3a, with an ID-mapped grant: the dedicated user held for this run (dedicated.h), from
 * a check that no process runs as it until the drop makes the program one: two runs, or any
 * other process of the uid, never share the mount's rights.
 */
static int claim_user(const struct plan *plan, int *lock, struct failure *err)
{
	pid_t pid = 0;
	int e;

	/* held already: a dynamic user's uid, taken at the start (take_dynamic) */
	if (!plan->filter.idmap || *lock >= 0)
		return 0;
	e = dedicated_claim(plan->run.uid, lock, &pid);
	if (e == -EBUSY)
		return fail(err, EXIT_CREDBOX, plan->dedicated_line, "stop it, or give this "
			    "profile a user of its own", e, "[identity] dedicated = yes, but "
			    "process %d runs as %s: it could reach the ID-mapped grants",
			    (int)pid, plan->run.name);
	if (e == -EWOULDBLOCK)
		return fail(err, EXIT_CREDBOX, plan->dedicated_line, "wait for it to start, or "
			    "give this profile a user of its own", e, "[identity] dedicated = yes, "
			    "but another credbox run is taking %s", plan->run.name);
	return e ? fail(err, EXIT_CREDBOX, NO_LINE, NULL, e, "holding %s for this run (%s): %s",
			plan->run.name, DEDICATED_LOCK_DIR, strerror(-e)) : 0;
}

/* Step 4: Landlock, with the line of the path it failed on. */
static int confine(const struct plan *plan, const int *dir_fds, struct failure *err)
{
	const char *llpath;
	int e = landlock_apply(plan, dir_fds, &llpath);

	if (e == -EOPNOTSUPP && plan->dyn_last)
		return fail(err, EXIT_CREDBOX, plan->dyn_line, "run it where the kernel has "
			    "Landlock (Linux 5.13 and later, enabled at boot)", e, "[identity] user = "
			    "dynamic: no Landlock here, and without it the user could leave files "
			    "wherever any user may write (/tmp) for the next run given the same uid");
	if (e == -EOPNOTSUPP && !plan->landlock_required)
		return 0;
	if (e == -ENOENT && llpath)
		return fail(err, EXIT_CREDBOX, path_line(plan, llpath),
			    "mark a path that may be missing with a leading '-', as in "
			    "\"ro = -/lib64\"", e, "[filesystem] %s: does not exist", llpath);
	if (e)
		return fail(err, EXIT_CREDBOX, llpath ? path_line(plan, llpath) :
			    landlock_line(plan->pol), NULL, e, "Landlock%s%s: %s",
			    llpath ? " rule for " : "", llpath ? llpath : "", strerror(-e));
	return 0;
}

/*
 * The program never outlives the process that started credbox (bwrap's --die-with-parent):
 * the kernel sends SIGKILL when this process's parent ends. parent: the pid it must still
 * have, read before it could end unseen; had it ended before the signal was asked for, no
 * signal would ever come, and getppid() now names another process. The kernel forgets the
 * signal at every change of the effective or fs ids: apply asks for it after the last.
 */
static int tie_to_parent(const struct plan *plan, pid_t parent, struct failure *err)
{
	int line = profile_seen(&plan->pol->program.sec, SEC_PROGRAM, "die_with_parent");

	if (!plan->die_with_parent)
		return 0;
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
		return fail(err, EXIT_CREDBOX, NO_LINE, NULL, -errno,
			    "prctl(PR_SET_PDEATHSIG): %s", strerror(errno));
	if (getppid() != parent)
		return fail(err, EXIT_CREDBOX, line ? line : NO_LINE,
			    "set \"die_with_parent = no\" in [program] for a program that outlives "
			    "its caller", -ESRCH,
			    "the process that started credbox (pid %d) ended: the program does not "
			    "outlive it", (int)parent);
	return 0;
}

int apply_session(const struct plan *plan, pid_t *parent, int *wait_status,
		  struct failure *err)
{
	int line = profile_seen(&plan->pol->program.sec, SEC_PROGRAM, "new_session");
	pid_t child, self = getpid();
	int e;

	if (!plan->new_session)
		return 0;
	e = session_new(&child);
	if (e < 0)
		return fail(err, EXIT_CREDBOX, line ? line : NO_LINE,
			    "set \"new_session = no\" in [program] to keep the caller's session", e,
			    "cannot start a new session: %s", strerror(-e));
	if (!e && getpid() != self)
		*parent = self;		/* the child: the program dies with the waiting parent */
	if (e > 0) {
		/* ... which dies with credbox's parent, itself (it keeps its ids to the end) */
		e = tie_to_parent(plan, *parent, err);
		if (e) {
			kill(child, SIGKILL);
			waitpid(child, NULL, 0);
			return e;
		}
		*wait_status = session_wait(child);
		if (*wait_status < 0)
			return fail(err, EXIT_CREDBOX, NO_LINE, NULL, *wait_status,
				    "waiting for the program: %s", strerror(-*wait_status));
		return 1;
	}
	return 0;
}

/*
 * Step 3b, as the sandboxed user: the program's working directory, which it must be allowed
 * to enter itself (credbox's own would leak where root was), and its umask.
 */
static int enter_cwd(const struct plan *plan, struct failure *err)
{
	umask(plan->umask);
	/* In a transparent tree the runtime keeps the program's directory; the kernel's is /. */
	if (redirect_in_tree(plan, plan->cwd))
		return chdir("/") < 0 ? fail(err, EXIT_CREDBOX, NO_LINE, NULL, -errno,
					     "chdir /: %s", strerror(errno)) : 0;
	if (chdir(plan->cwd) < 0)
		return fail(err, EXIT_CREDBOX, plan->cwd_line ? plan->cwd_line : NO_LINE,
			    HINT_CWD, -errno,
			    "[program] cwd %s: %s cannot enter it: %s", plan->cwd, plan->run.name,
			    strerror(errno));
	return 0;
}

/* --verbose: the summary, written whole (it is not allocated: the heap is no more). */
static void write_summary(const char *s)
{
	size_t len = s ? strlen(s) : 0;
	ssize_t n;

	while (len) {
		n = write(STDERR_FILENO, s, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		s += n;
		len -= n;
	}
}

/*
 * Step 1 with the program's image (9 KiB) on the heap: credbox must run on a small stack
 * (ulimit -s) too. *imgp is set only on success.
 */
static int open_program(const struct plan *plan, struct loader_image **imgp,
			struct failure *err)
{
	struct loader_image *img = calloc(1, sizeof(*img));
	int e;

	if (!img)
		return fail(err, EXIT_CREDBOX, NO_LINE, NULL, -ENOMEM, "out of memory");
	e = load_program(plan, img, err);
	if (e) {
		free(img);
		return e;
	}
	*imgp = img;
	return 0;
}

/*
 * Step 2b: [limits], what a hostile program may take from the machine. While still root, since
 * raising a hard limit above the caller's needs CAP_SYS_RESOURCE, and after the directories
 * took their fd numbers, which nofile may lie below. Each stops an attack:
 *   nproc   a fork bomb: the processes of the program's uid, all of them counted, taking
 *           every pid and CPU (the kernel enforces it once the uid is no longer root)
 *   as      a memory hog driving the machine into the OOM killer, which may pick another
 *   fsize   filling a file system through a writable grant or path (SIGXFSZ, then EFBIG)
 *   nofile  taking the kernel's open files from everyone else
 *   cpu     a program spinning on a CPU forever (SIGXCPU at the soft limit, SIGKILL at the
 *           hard one)
 *   core    a core dump writing the program's memory, with what it read through the grants,
 *           to disk (0 unless the profile says otherwise; being non-dumpable stops most too)
 */
static int set_limits(const struct plan *plan, struct failure *err)
{
	size_t i;

	for (i = 0; i < plan->nlimits; i++) {
		const struct plan_limit *l = &plan->limits[i];
		struct rlimit rl = {
			.rlim_cur = l->soft == PLIMIT_INFINITY ? RLIM_INFINITY : l->soft,
			.rlim_max = l->hard == PLIMIT_INFINITY ? RLIM_INFINITY : l->hard,
		};

		if (setrlimit(l->resource, &rl) < 0)
			return fail(err, EXIT_CREDBOX, l->line ? l->line : NO_LINE, NULL, -errno,
				    "[limits] %s: setrlimit: %s", l->name, strerror(errno));
	}
	return 0;
}

/* Step 3: privileges dropped for good, then, as the sandboxed user, its cwd and umask. */
static int drop_privileges(const struct plan *plan, struct failure *err)
{
	int e = privdrop_apply(&plan->run, err);

	if (e) {
		failure_prefix(err, "dropping privileges to %s: ", plan->run.name);
		return failure_at(err, EXIT_CREDBOX, plan->pol->identity.user.line);
	}
	return enter_cwd(plan, err);
}

/*
 * The redirect runtime's SIGSYS handler, before seccomp (whose traps need it) and after the
 * loader reset the launcher's handlers (apply, before Landlock); the loader keeps the runtime
 * mapped.
 */
static int arm_runtime(struct loader_image *img, const struct redirect *rd,
		       struct failure *err)
{
	int e;

	if (!rd->armed)
		return 0;
	e = redirect_keep(rd, img);
	if (!e)
		e = redirect_arm(rd);
	return e ? fail(err, EXIT_CREDBOX, NO_LINE, NULL, e, "arming the redirect runtime: %s",
			strerror(-e)) : 0;
}

/*
 * Step 0, for "user = dynamic:FIRST-LAST": a uid of the range no process has (so nothing of an
 * earlier run still runs as it) and no other run holds, held until the program has it; the
 * plan, copied, says that uid from here on, for every check made as the sandboxed user.
 */
static int take_dynamic(const struct plan **plan, struct plan **copy, int *lock,
			struct failure *err)
{
	const struct plan *p = *plan;
	uid_t uid = 0;
	int e;

	*lock = -1;
	if (!p->dyn_last)
		return 0;
	e = dedicated_take(p->dyn_first, p->dyn_last, &uid, lock);
	if (e == -EBUSY)
		return fail(err, EXIT_CREDBOX, p->dyn_line, "wait for a run to end, or widen the "
			    "range", e, "[identity] user: every uid of %u-%u is held by a run or "
			    "used by a process", (unsigned)p->dyn_first, (unsigned)p->dyn_last);
	if (e == -EEXIST)
		return fail(err, EXIT_CREDBOX, p->dyn_line, "reserve a range no account uses", e,
			    "[identity] user: uid %u of the dynamic range has an account",
			    (unsigned)uid);
	if (e)
		return fail(err, EXIT_CREDBOX, p->dyn_line, NULL, e, "[identity] user: taking a "
			    "uid of %u-%u (%s): %s", (unsigned)p->dyn_first, (unsigned)p->dyn_last,
			    DEDICATED_LOCK_DIR, strerror(-e));
	*copy = malloc(sizeof(**copy));
	if (!*copy) {
		close(*lock);
		*lock = -1;
		return fail(err, EXIT_CREDBOX, NO_LINE, NULL, -ENOMEM, "out of memory");
	}
	memcpy(*copy, p, sizeof(**copy));
	(*copy)->run.uid = uid;
	(*copy)->run.gid = (gid_t)uid;
	*plan = *copy;
	return 0;
}

int apply(const struct plan *plan, pid_t parent, const char *summary, struct failure *err)
{
	int dir_fds[PROFILE_MAX_DIRS];
	struct loader_image *img;
	struct plan *taken = NULL;
	struct filter_bpf bpf;
	struct redirect rd;
	int e, lock;

	e = take_dynamic(&plan, &taken, &lock, err);
	if (e)
		return e;
	e = preflight(plan, &bpf, &rd, err);
	if (e)
		return e;

	/* 1. The program, as execve would open it for the sandboxed identity; nothing changed. */
	e = open_program(plan, &img, err);
	if (e)
		return e;

	/* 2. Directories opened as their owners (no one can redirect the path or hand us more) */
	e = private_ns(plan, err);
	if (!e)
		e = open_dirs(plan, dir_fds, err);
	/* ... an ID-mapped grant's, mounted for the program alone (no one else sees it) ... */
	if (!e)
		e = mount_idmaps(plan, dir_fds, err);
	if (e)
		return e;
	/* ... and every other fd closed: nothing of credbox's parent leaks to the program. */
	e = preopen_place(plan, dir_fds, &lock);
	if (e)
		return fail(err, EXIT_CREDBOX, NO_LINE, NULL, e,
			    "moving the directories to their fds (up to %d): %s", plan->max_fd,
			    strerror(-e));

	/* ... the limits on what it may consume (each stops a way to take the machine down) ... */
	e = set_limits(plan, err);
	if (e)
		return e;

	/* 3. Drop privilege for good: a compromised program gets no root, no capability back. */
	e = claim_user(plan, &lock, err);
	if (!e)
		e = drop_privileges(plan, err);
	if (lock >= 0)
		close(lock);
	if (e)
		return e;

	/* ... and, the ids final, no program left running, reparented, once its caller is gone. */
	e = tie_to_parent(plan, parent, err);
	if (e)
		return e;

	/*
	 * The signal actions as execve leaves them, while /proc/self/status still says which
	 * are set (Landlock comes next): nothing below sets one but the runtime's SIGSYS.
	 */
	loader_reset_signals(img);

	/* 4. Landlock: paths outside the grants stay out of reach even if DAC would allow. */
	e = confine(plan, dir_fds, err);
	if (e)
		return e;

	/*
	 * The program's stack, and the kernel's view of it (/proc/PID/cmdline, auxv, the brk
	 * heap after its image), while PR_SET_MM is still allowed: a program must not find
	 * credbox's arguments or heap where execve would have given it its own.
	 */
	e = loader_build_stack(img, plan->argv, plan->envp, err);
	if (!e)
		e = arm_runtime(img, &rd, err);
	if (e)
		return e;

	write_summary(summary);

	/* 5. Seccomp, last: the rights cannot leave the process, no other process reaches in. */
	e = filter_install(&bpf);
	if (e)
		return fail(err, EXIT_CREDBOX, NO_LINE, NULL, e,
			    "loading the seccomp filters: %s", strerror(-e));

	/* 6. The loader, never execve (it would close the granted fds). */
	return loader_enter(img, plan->argv, plan->envp, err);
}

int apply_check(const struct plan *plan, struct failure_list *out, unsigned int *skipped)
{
	struct loader_image *img;
	struct filter_bpf bpf;
	struct failure err;
	struct redirect rd;
	char path[PATH_MAX];
	size_t c, i;
	int e;

	*skipped = 0;
	for (c = 0; c < ARRAY_SIZE(checks); c++) {
		for (i = 0; i < checks[c].count(plan); i++) {
			if (checks[c].check(plan, i, &err))
				failure_add(out, &err);
		}
	}
	if (redirect_prepare(plan, &rd, &bpf, &err)) {
		failure_add(out, &err);
	} else {
		filter_bpf_free(&bpf);
		redirect_release(&rd);
	}
	if (!plan->argv)
		*skipped |= APPLY_CHECK_NO_PROGRAM;
	if (geteuid() != 0) {
		/* taking on the identity and the owners' needs root: the program is found */
		*skipped |= APPLY_CHECK_NOT_ROOT;
		e = plan->argv ? apply_find_program(plan, path, sizeof(path)) : 0;
		if (e) {
			not_found(plan, e, plan->program_line ? plan->program_line : NO_LINE, &err);
			failure_add(out, &err);
		}
		return out->oom ? -ENOMEM : 0;
	}
	if (plan->argv && !open_program(plan, &img, &err)) {
		/* what the program opens by path matters where Landlock keeps it to its paths */
		e = landlock_abi() >= 0 ? deps_check(plan, img, out) : 0;
		loader_release(img);
		free(img);
		if (e)
			return e;
	} else if (plan->argv) {
		failure_add(out, &err);
	}
	/* An ID-mapped grant's file system, tried on a detached copy; the trees, opened and
	 * checked as their owners, on any kernel: nothing is lent. */
	for (i = 0; i < plan->ndirs; i++) {
		if (check_idmap_fs(plan, i, &err))
			failure_add(out, &err);
	}
	for (i = 0; i < plan->ndirs; i++) {
		if (preopen_dir_check(&plan->dirs[i], &plan->run, &err)) {
			failure_prefix(&err, "[dir %s] ", plan->dirs[i].name);
			failure_at(&err, EXIT_CREDBOX, plan->pol->dirs[i].path.line);
			failure_add(out, &err);
		}
	}
	return out->oom ? -ENOMEM : 0;
}
