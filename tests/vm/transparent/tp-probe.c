// SPDX-License-Identifier: GPL-2.0
/*
 * tp-probe: an unmodified program (it knows nothing of credbox) run by credbox under
 * tests/vm/transparent/tp.ini, whose [dir drive] /srv/tp/drive is transparent. It uses plain
 * paths and raw system calls and prints "ok - ..." / "not ok - ..." lines for guest.sh.
 *
 *   tp-probe files      open, creat, stat family, access, readlink, opendir, *at calls on a
 *                       directory fd, chdir/fchdir/getcwd, truncate, xattrs, raw syscalls,
 *                       and what stays refused (.., outside the grant)
 *   tp-probe dirops     mkdir, unlink, rmdir, rename (and their *at forms, raw renameat2),
 *                       lstat, statx, faccessat2 and readlink of links, O_PATH, through the
 *                       kernel's directory operations with drive's credentials; a link out
 *                       of the tree and ".." above it get the program's own rights; a rename
 *                       between the tree and elsewhere EXDEV
 *   tp-probe attrs      modes and times by the names and calls glibc and the kernel offer
 *                       beside chmod and utimensat: fchmodat(AT_SYMLINK_NOFOLLOW), which
 *                       glibc makes through /proc/self/fd/N; chmod and utimensat of
 *                       /proc/self/fd/N; raw futimesat(fd, NULL); each on a file of the tree
 *                       as drive, and on a file of root's with the program's own rights
 *   tp-probe openat2    openat2's own guards in the tree: RESOLVE_BENEATH from a directory
 *                       fd or working directory in it (EXDEV above it), RESOLVE_NO_SYMLINKS
 *                       (ELOOP), unknown flag and resolve bits, mode without O_CREAT, a
 *                       longer struct (EINVAL, E2BIG); O_TMPFILE (EOPNOTSUPP); fstatat
 *                       and statx of a tree path with AT_EMPTY_PATH (the tree's file)
 *   tp-probe paths      the path state the kernel keeps: a directory fd and the working
 *                       directory follow renames (an impostor at the old name is not
 *                       reached), "LINK/.." is the kernel's "..", getcwd names the moved
 *                       directory and says ENOENT for a removed one, fchdir of a directory
 *                       opened without O_DIRECTORY and of a dup, relative walks in a tree
 *                       deeper than PATH_MAX
 *   tp-probe deep       makes drive/PD, a tree deeper than PATH_MAX, with a file f at its
 *                       bottom (for find); deep-clean removes it
 *   tp-probe threads    8 threads opening and stating in the tree at once
 *   tp-probe stacks     trapped calls from a coroutine's 8 KiB stack and a raw clone's
 *                       8 KiB stack (the handler runs on the runtime's stacks, not these);
 *                       160 threads at once (more than the runtime's 128 stacks), 300 in turn
 *   tp-probe altstack   trapped calls in the tree while another thread signals this one
 *                       without pause, its handler on an alternate stack (Go's preemption)
 *   tp-probe faults     bad pointers in the tree (getcwd's buffer, a path running into an
 *                       unreadable page, readlink's buffer): EFAULT, and the program goes on
 *   tp-probe masks      a handler that touches the tree run during sigsuspend, ppoll,
 *                       pselect, epoll_pwait and epoll_pwait2 with a mask of all but
 *                       SIGALRM: it works, sees SIGSYS blocked, and the mask is back after
 *   tp-probe spawn      /proc/self/exe names the program; posix_spawn, system and vfork,
 *                       whose children exec (the runtime makes them forks); a fork's fork
 *                       and an orphan keep the working directory in the tree (relative
 *                       read, relative create: drive's)
 *   tp-probe exec-keep  under exec = keep: execve of tp-probe keep-child, which reads the tree
 *                       and runs a shell that reads it and creates a file there
 *   tp-probe sigsys     the program's own SIGSYS handler and mask: redirection goes on, the
 *                       program's handler gets the SIGSYS it is sent
 *   tp-probe exempt     jump to the runtime's own syscall instruction: own rights only
 *   tp-probe fork       a forked child keeps the working directory and the redirection
 *   tp-probe exec       execve under the grant: refusals return their errno (EACCES for a
 *                       file sandbox cannot execute, in the tree or not; ENOENT) and the
 *                       caller goes on; then the runtime's execve of tp-probe (exec-static:
 *                       of tp-probe-static), which checks as exec-child what execve left
 *   tp-probe exec-child N   the grant (fd N) closed: openat2 with OA2_CRED_INHERIT on N
 *                       fails, the tree's paths give EACCES; close-on-exec fd 20 closed,
 *                       fd 21 kept; AT_SECURE; the runtime still there (a denial named);
 *                       one thread
 *   tp-probe exec-threads   as exec, with 4 more threads running: the new program has one
 *   tp-probe exec-cat   execve of GNU cat (dynamic) on a file outside the trees
 *   tp-probe exec-script    execve of a #! script whose interpreter is tp-probe script-child
 *   tp-probe deny       a call the profile denies with an errno (named on stderr)
 *   tp-probe kill       a call the profile denies with kill (named on stderr, SIGSYS)
 *
 * Built dynamic and static (-static): both run through credbox's loader.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <poll.h>
#include <ucontext.h>
#include <linux/futex.h>
#include <sys/auxv.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/select.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "tp-exempt.h"

#define T	"/srv/tp/drive"
#define OTHER	"/srv/tp/other"
#define TP	"/credbox/build/tests/tp/tp-probe"
#define DATA	"/credbox/transparent"
/* The kernel's ABI (kernel-patches/): a grant's fd shows it in F_GETFL. */
#define O_CRED_ALLOW		0400000000
#define OA2_CRED_INHERIT	(1ULL << 28)

static int failures;

static void check(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void check(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s - ", cond ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	failures += !cond;
}

static int read_all(int fd, char *buf, size_t size)
{
	ssize_t n = read(fd, buf, size - 1);

	buf[n > 0 ? n : 0] = '\0';
	return n < 0 ? -1 : (int)n;
}

static int has_name(const char *dir, const char *name)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		found |= !strcmp(e->d_name, name);
	closedir(d);
	return found;
}

static void files(void)
{
	char buf[4096];
	struct stat st;
	int fd, dfd, e;
	long r;

	fd = open(T "/README", O_RDONLY);
	check(fd >= 0 && read_all(fd, buf, sizeof(buf)) > 0 && !strcmp(buf, "hello\n"),
	      "open(\"" T "/README\") reads the drive's file (fd %d, \"%.5s\")", fd,
	      fd >= 0 ? buf : strerror(errno));
	close(fd);
	r = syscall(SYS_openat, AT_FDCWD, T "/README", O_RDONLY | O_CLOEXEC, 0);
	check(r >= 0, "a raw openat system call is redirected too (%ld)", r);
	close((int)r);
	check(stat(T "/README", &st) == 0 && st.st_size == 6 && st.st_uid == 1001,
	      "stat: size %lld, owner %u", (long long)st.st_size, st.st_uid);
	check(lstat(T "/sub", &st) == 0 && S_ISDIR(st.st_mode), "lstat of a directory");
	e = stat(T "/MISSING", &st) < 0 ? errno : 0;
	check(e == ENOENT, "stat of a missing file: ENOENT (%s)", strerror(e));
	check(access(T "/README", R_OK | W_OK) == 0, "access(R_OK | W_OK) for the owner's file");
	errno = 0;
	check(access(T "/README", X_OK) < 0 && errno == EACCES, "access(X_OK) of a 0600 file: EACCES");
	e = readlink(T "/README", buf, sizeof(buf)) < 0 ? errno : 0;
	check(e == EINVAL, "readlink of a regular file: EINVAL (%s)", strerror(e));
	check(has_name(T, "README") == 1 && has_name(T, "sub") == 1,
	      "opendir/readdir lists the drive");
	fd = open(T "/NEW.TXT", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	check(fd >= 0 && write(fd, "new file\n", 9) == 9, "creat NEW.TXT in the drive (%s)",
	      fd >= 0 ? "written" : strerror(errno));
	close(fd);
	check(truncate(T "/NEW.TXT", 3) == 0 && stat(T "/NEW.TXT", &st) == 0 && st.st_size == 3,
	      "truncate(NEW.TXT, 3)");
	/* (user.* would be EACCES: the kernel checks xattr reads against the caller, fd or not) */
	e = (int)getxattr(T "/README", "system.posix_acl_access", buf, sizeof(buf));
	check(e < 0 && (errno == ENODATA || errno == EOPNOTSUPP),
	      "getxattr reaches the file (%s, not EACCES)", strerror(errno));

	{
		struct statfs sf = { 0 };
		int sr = statfs(T "/README", &sf);

		check(sr == 0 && sf.f_bsize > 0, "statfs of a file in the tree (block size %ld)",
		      (long)sf.f_bsize);
	}

	/* A directory fd in the tree: *at calls relative to it, fchdir. */
	dfd = open(T "/sub", O_RDONLY | O_DIRECTORY);
	check(dfd >= 0, "open the subdirectory with O_DIRECTORY");
	fd = openat(dfd, "NESTED.TXT", O_RDONLY);
	check(fd >= 0 && read_all(fd, buf, sizeof(buf)) > 0 && !strcmp(buf, "nested\n"),
	      "openat(dirfd, \"NESTED.TXT\")");
	close(fd);
	check(fstatat(dfd, "../README", &st, 0) == 0 && st.st_size == 6,
	      "fstatat(dirfd, \"../README\"): .. within the tree");

	/* The working directory. */
	check(chdir(T) == 0, "chdir into the drive (%s)", strerror(errno));
	check(getcwd(buf, sizeof(buf)) && !strcmp(buf, T), "getcwd says %s", buf);
	fd = open("README", O_RDONLY);
	check(fd >= 0, "open(\"README\") relative to it");
	close(fd);
	check(chdir("sub/") == 0 && getcwd(buf, sizeof(buf)) && !strcmp(buf, T "/sub"),
	      "chdir(\"sub/\"): getcwd says %s", buf);
	e = open("../README/", O_RDONLY) < 0 ? errno : 0;
	check(e == ENOTDIR, "open(\"../README/\"): a trailing slash asks for a directory (%s)",
	      strerror(e));
	check(stat("NESTED.TXT", &st) == 0 && stat("../README", &st) == 0,
	      "stat relative to the subdirectory, and ..");
	check(fchdir(dfd) == 0 || 1, "fchdir(dirfd)");
	check(chdir("/") == 0 && getcwd(buf, sizeof(buf)) && !strcmp(buf, "/"),
	      "chdir out of the tree: the kernel's working directory again (%s)", buf);
	check(fchdir(dfd) == 0 && getcwd(buf, sizeof(buf)) && !strcmp(buf, T "/sub"),
	      "fchdir(dirfd) back into the tree: getcwd says %s", buf);
	check(access("NESTED.TXT", R_OK) == 0, "access relative to it");
	close(dfd);
	chdir("/");

	/* What stays refused: outside the grant, a .. leaving it, another user's tree. */
	errno = 0;
	fd = open(T "/../other/SECRET", O_RDONLY);
	check(fd < 0 && errno == EACCES, "open(\"" T "/../other/SECRET\"): EACCES (%s)",
	      strerror(errno));
	e = has_name(OTHER, "SECRET") < 0 ? errno : 0;
	check(e == EACCES, "opendir of the ungranted tree: EACCES (%s)", strerror(e));
	errno = 0;
	fd = open("/srv/tp/drive-not/README", O_RDONLY);
	check(fd < 0 && errno != 0, "a path that only starts like the grant is not in it (%s)",
	      strerror(errno));
	fd = open("/credbox/build/credbox", O_RDONLY);
	check(fd >= 0, "a path outside every tree opens as the program itself would (%s)",
	      fd >= 0 ? "ok" : strerror(errno));
	close(fd);
}

/* errno of a call that returned r (0 if it succeeded). */
static int err_of(long r)
{
	return r < 0 ? errno : 0;
}

static int is_drives(const char *path, mode_t type)
{
	struct stat st;

	return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == type && st.st_uid == 1001 &&
	       st.st_gid == 1001;
}

/* The kernel's directory operations with the grant's credentials, by the program's paths. */
static void dirops(void)
{
	struct statx sx;
	struct stat st;
	char buf[256];
	int dfd, fd, e;
	long n;

	e = err_of(mkdir(T "/NEWD", 0755));
	check(!e && is_drives(T "/NEWD", S_IFDIR), "mkdir in the tree: a directory of drive's (%s)",
	      strerror(e));
	e = err_of(mkdir(T "/NEWD", 0755));
	check(e == EEXIST, "mkdir of an existing name: EEXIST (%s)", strerror(e));
	e = err_of(mkdir(T "/NEWD/deeper/", 0700));
	check(!e && is_drives(T "/NEWD/deeper", S_IFDIR), "mkdir with a trailing slash (%s)",
	      strerror(e));
	dfd = open(T "/NEWD", O_RDONLY | O_DIRECTORY);
	e = err_of(mkdirat(dfd, "at", 0700));
	check(dfd >= 0 && !e && is_drives(T "/NEWD/at", S_IFDIR),
	      "mkdirat relative to a directory fd in the tree (%s)", strerror(e));
	fd = open(T "/NEWD/f1", O_CREAT | O_WRONLY, 0600);
	close(fd);
	e = err_of(rename(T "/NEWD/f1", T "/NEWD/f2"));
	check(fd >= 0 && !e && is_drives(T "/NEWD/f2", S_IFREG) && access(T "/NEWD/f1", F_OK) < 0,
	      "rename within the tree (%s)", strerror(e));
	e = err_of(renameat(dfd, "f2", AT_FDCWD, T "/f3"));
	check(!e && is_drives(T "/f3", S_IFREG),
	      "renameat from a directory fd in the tree to an absolute path in it (%s)",
	      strerror(e));
	close(open(T "/f4", O_CREAT | O_WRONLY, 0600));
	e = err_of(syscall(SYS_renameat2, AT_FDCWD, T "/f3", AT_FDCWD, T "/f4",
			   1 /* RENAME_NOREPLACE */));
	check(e == EEXIST, "raw renameat2(RENAME_NOREPLACE) onto an existing name: EEXIST (%s)",
	      strerror(e));
	e = err_of(rename(T "/f3", "/dev/null"));
	check(e == EXDEV, "rename out of the tree: EXDEV, as between file systems (%s)",
	      strerror(e));
	e = err_of(rename("/dev/null", T "/f5"));
	check(e == EXDEV, "rename into the tree: EXDEV (%s)", strerror(e));
	e = err_of(unlink(T "/f3"));
	check(!e && unlink(T "/f4") == 0 && stat(T "/f3", &st) < 0 && errno == ENOENT,
	      "unlink in the tree (%s)", strerror(e));
	e = err_of(unlink(T "/NEWD"));
	check(e == EISDIR, "unlink of a directory: EISDIR (%s)", strerror(e));
	e = err_of(rmdir(T "/NEWD"));
	check(e == ENOTEMPTY, "rmdir of a directory that is not empty: ENOTEMPTY (%s)",
	      strerror(e));
	e = chdir(T "/NEWD") ? errno : err_of(rmdir("deeper"));
	check(!e && access(T "/NEWD/deeper", F_OK) < 0,
	      "rmdir relative to the emulated working directory (%s)", strerror(e));
	chdir("/");
	e = err_of(unlinkat(dfd, "at", AT_REMOVEDIR));
	check(!e, "unlinkat(dirfd, AT_REMOVEDIR) (%s)", strerror(e));
	close(dfd);
	e = err_of(rmdir(T "/NEWD/"));
	check(!e && stat(T "/NEWD", &st) < 0 && errno == ENOENT, "rmdir of the emptied directory "
	      "(%s)", strerror(e));

	/* Links in the tree: LINK -> README, OUT -> a file outside it (guest.sh). */
	memset(buf, 0, sizeof(buf));
	n = readlink(T "/LINK", buf, sizeof(buf));
	check(n == 6 && !strcmp(buf, "README"), "readlink of a link in the tree: \"%s\" (%s)", buf,
	      n < 0 ? strerror(errno) : "ok");
	n = readlinkat(AT_FDCWD, T "/LINK", buf, 3);
	check(n == 3 && !memcmp(buf, "REA", 3), "readlinkat with a short buffer: %ld", n);
	check(lstat(T "/LINK", &st) == 0 && S_ISLNK(st.st_mode), "lstat of a link in the tree");
	check(stat(T "/LINK", &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 6,
	      "stat follows it within the tree");
	e = err_of(statx(AT_FDCWD, T "/LINK", AT_SYMLINK_NOFOLLOW, STATX_TYPE, &sx));
	check(!e && S_ISLNK(sx.stx_mode), "statx(AT_SYMLINK_NOFOLLOW) of it (%s)", strerror(e));
	e = err_of(syscall(SYS_faccessat2, AT_FDCWD, T "/LINK", R_OK, AT_SYMLINK_NOFOLLOW));
	check(!e, "faccessat2(AT_SYMLINK_NOFOLLOW) of it (%s)", strerror(e));
	fd = open(T "/README", O_PATH);
	check(fd >= 0 && fstat(fd, &st) == 0 && st.st_size == 6, "open(O_PATH) and fstat");
	close(fd);
	e = err_of(stat(T "/OUT", &st));
	check(e == EACCES, "stat of a link leading out of the tree: the program's own rights, "
	      "EACCES (%s)", strerror(e));
	check(lstat(T "/OUT", &st) == 0 && S_ISLNK(st.st_mode), "lstat of that link");
	/* ".." above the tree's root: outside it, the program's own rights (DOSBox stats it) */
	e = err_of(stat(T "/..", &st));
	check(!e && S_ISDIR(st.st_mode) && st.st_uid == 0, "stat(\"" T "/..\"): the directory "
	      "above, root's (%s)", strerror(e));
	dfd = open(T, O_RDONLY | O_DIRECTORY);
	e = err_of(fstatat(dfd, "..", &st, 0));
	check(!e && st.st_uid == 0, "fstatat(tree's fd, \"..\") (%s)", strerror(e));
	close(dfd);
}

/* Write text to dfd/name, a new file. */
static int put_at(int dfd, const char *name, const char *text)
{
	int fd = openat(dfd, name, O_CREAT | O_WRONLY | O_TRUNC, 0600), e = 0;

	if (fd < 0)
		return errno;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		e = errno ? errno : EIO;
	close(fd);
	return e;
}

/* What dfd/name holds ("" and the errno's name when it cannot be read). */
static const char *read_at(int dfd, const char *name, char *buf, size_t size)
{
	int fd = openat(dfd, name, O_RDONLY);

	if (fd < 0) {
		snprintf(buf, size, "(%s)", strerror(errno));
		return buf;
	}
	read_all(fd, buf, size);
	close(fd);
	return buf;
}

#define DEEP	40
#define LONG_NAME "d123456789012345678901234567890123456789012345678901234567890123456789" \
		  "0123456789012345678901234567890123456789012345678"

/*
 * T/PD/NAME/NAME/... DEEP levels, deeper than PATH_MAX, each made and opened from the fd of
 * the one above (chain[0] is PD, chain[DEEP] the deepest); what a run before left is reused.
 */
static int deep_make(int *chain)
{
	int i, e;

	mkdir(T "/PD", 0700);
	chain[0] = open(T "/PD", O_RDONLY | O_DIRECTORY);
	for (i = 0, e = chain[0] < 0 ? errno : 0; i < DEEP && !e; i++) {
		e = err_of(mkdirat(chain[i], LONG_NAME, 0700));
		if (e == EEXIST)
			e = 0;
		chain[i + 1] = e ? -1 : openat(chain[i], LONG_NAME, O_RDONLY | O_DIRECTORY);
		if (!e && chain[i + 1] < 0)
			e = errno;
	}
	return e;
}

/* Remove what deep_make made (and a file f at the bottom), bottom up, from the fds. */
static int deep_remove(int *chain)
{
	int i, e = err_of(unlinkat(chain[DEEP], "f", 0));

	if (e == ENOENT)
		e = 0;
	for (i = DEEP; i > 0 && !e; i--) {
		close(chain[i]);
		e = err_of(unlinkat(chain[i - 1], LONG_NAME, AT_REMOVEDIR));
	}
	close(chain[0]);
	return e ? e : err_of(rmdir(T "/PD"));
}

/*
 * The path state the kernel keeps for the program (issue 20, item 1): the runtime walks
 * from the program's directory fds and working directory in the tree as the kernel's
 * objects, not from their paths.
 */
static void paths(void)
{
	char buf[256], cwd[PATH_MAX];
	int d, d2, d3, cur, e, chain[DEEP + 1];
	struct stat st;
	char *r;

	/* A directory fd, then its name moved and an impostor put in its place. */
	mkdir(T "/PA", 0700);
	mkdir(T "/PA/sub", 0700);
	put_at(AT_FDCWD, T "/PA/sub/f", "real");
	d = open(T "/PA", O_RDONLY | O_DIRECTORY);
	d2 = open(T "/PA", O_RDONLY);	/* python's os.open(dir): no O_DIRECTORY */
	e = err_of(rename(T "/PA", T "/PB"));
	mkdir(T "/PA", 0700);
	mkdir(T "/PA/sub", 0700);
	put_at(AT_FDCWD, T "/PA/sub/f", "impostor");
	check(d >= 0 && !e && !strcmp(read_at(d, "sub/f", buf, sizeof(buf)), "real"),
	      "a directory fd whose name moved: openat reaches its own file, not the impostor "
	      "at its old name (%s)", buf);
	check(d2 >= 0 && !strcmp(read_at(d2, "sub/f", buf, sizeof(buf)), "real"),
	      "the same, opened without O_DIRECTORY (%s)", buf);
	e = err_of(fstatat(d, "../PB/sub/f", &st, 0));
	check(!e && st.st_size == 4, "fstatat(d, \"../PB/sub/f\"): \"..\" from it is the tree (%s)",
	      strerror(e));

	/* fchdir to a directory opened without O_DIRECTORY, and to a dup of one. */
	d3 = dup(d2);
	e = err_of(fchdir(d3));
	check(!e && !strcmp(read_at(AT_FDCWD, "sub/f", buf, sizeof(buf)), "real"),
	      "fchdir to a dup of it, then a relative open (%s, %s)", strerror(e), buf);
	r = getcwd(cwd, sizeof(cwd));
	check(r && !strcmp(cwd, T "/PB"), "getcwd names where it is now: %s", r ? cwd : "NULL");
	close(d3);
	e = err_of(rename(T "/PB", T "/PC"));
	check(!e && !strcmp(read_at(AT_FDCWD, "sub/f", buf, sizeof(buf)), "real"),
	      "the working directory renamed: a relative open still reaches it (%s)", buf);
	r = getcwd(cwd, sizeof(cwd));
	check(r && !strcmp(cwd, T "/PC"), "getcwd after the rename: %s", r ? cwd : "NULL");

	/* "LINK/..": the kernel's "..", from the link's target, not the lexical one. */
	mkdir("x", 0700);
	mkdir("x/y", 0700);
	put_at(AT_FDCWD, "x/f", "physical");
	put_at(AT_FDCWD, "f", "lexical");
	symlink("x/y", "L");
	check(!strcmp(read_at(AT_FDCWD, "L/../f", buf, sizeof(buf)), "physical"),
	      "\"L/../f\" from the working directory, L -> x/y: x/f, as the kernel (%s)", buf);
	check(!strcmp(read_at(d, "L/../f", buf, sizeof(buf)), "physical"),
	      "the same from a directory fd (%s)", buf);
	check(!strcmp(read_at(AT_FDCWD, T "/PC/L/../f", buf, sizeof(buf)), "physical"),
	      "the same by an absolute path (%s)", buf);
	d3 = open("L/..", O_RDONLY | O_DIRECTORY);
	check(d3 >= 0 && !strcmp(read_at(d3, "f", buf, sizeof(buf)), "physical"),
	      "a directory opened as \"L/..\" is x: its f (%s)", buf);
	close(d3);

	/* getcwd in a removed directory: ENOENT, as the kernel says. */
	mkdir("gone", 0700);
	e = err_of(chdir("gone"));
	rmdir(T "/PC/gone");
	errno = 0;
	r = getcwd(cwd, sizeof(cwd));
	check(!e && !r && errno == ENOENT, "getcwd in a removed directory: ENOENT (%s, %s)",
	      r ? cwd : "NULL", strerror(errno));
	chdir("/");
	close(d);
	close(d2);

	/* A tree deeper than PATH_MAX, walked by directory fds and fchdir; then removed so. */
	e = deep_make(chain);
	check(!e, "%d directories of 120 bytes, each made and opened from the one above (%s)",
	      DEEP, strerror(e));
	if (e)
		return;
	cur = chain[DEEP];
	e = put_at(cur, "f", "deep");
	check(!e && !strcmp(read_at(cur, "f", buf, sizeof(buf)), "deep"),
	      "a file past PATH_MAX, made and read from its directory's fd (%s, %s)",
	      strerror(e), buf);
	e = err_of(fstatat(cur, "../" LONG_NAME "/f", &st, 0));
	check(!e && st.st_size == 4, "fstatat(\"../NAME/f\") there (%s)", strerror(e));
	e = err_of(fchdir(cur));
	check(!e && !strcmp(read_at(AT_FDCWD, "f", buf, sizeof(buf)), "deep"),
	      "fchdir there, then a relative open (%s, %s)", strerror(e), buf);
	e = err_of(syscall(SYS_getcwd, cwd, sizeof(cwd)));
	check(e == ENAMETOOLONG, "the getcwd system call there: ENAMETOOLONG, as the kernel's "
	      "(%s)", strerror(e));
	chdir("/");
	e = deep_remove(chain);
	check(!e, "removed again from the directory fds (%s)", strerror(e));
}

/* The other names of a file's mode and times: /proc/self/fd/N, futimesat(fd, NULL). */
static void attrs(void)
{
	struct timeval tv[2] = { { 1000000000, 0 }, { 1000000000, 500000 } };
	struct timespec ts[2] = { { 1100000000, 0 }, { 1100000000, 0 } };
	char name[64];
	struct stat st;
	int fd, own, e;

	close(open(T "/ATTRS", O_CREAT | O_WRONLY, 0600));
	e = err_of(fchmodat(AT_FDCWD, T "/ATTRS", 0640, AT_SYMLINK_NOFOLLOW));
	check(!e && stat(T "/ATTRS", &st) == 0 && (st.st_mode & 07777) == 0640,
	      "fchmodat(AT_SYMLINK_NOFOLLOW) in the tree: 0640 (%s)", strerror(e));
	e = err_of(fchmodat(AT_FDCWD, T "/LINK", 0600, AT_SYMLINK_NOFOLLOW));
	check(e == EOPNOTSUPP, "fchmodat(AT_SYMLINK_NOFOLLOW) of a link: EOPNOTSUPP, as glibc "
	      "answers (%s)", strerror(e));
	fd = open(T "/ATTRS", O_RDONLY);
	snprintf(name, sizeof(name), "/proc/self/fd/%d", fd);
	e = err_of(chmod(name, 0604));
	check(fd >= 0 && !e && fstat(fd, &st) == 0 && (st.st_mode & 07777) == 0604,
	      "chmod(\"/proc/self/fd/N\") of a file opened in the tree (%s)", strerror(e));
	e = err_of(utimensat(AT_FDCWD, name, ts, 0));
	check(!e && fstat(fd, &st) == 0 && st.st_mtime == 1100000000,
	      "utimensat(AT_FDCWD, \"/proc/self/fd/N\") of it (%s)", strerror(e));
	e = err_of(syscall(SYS_futimesat, fd, NULL, tv));
	check(!e && fstat(fd, &st) == 0 && st.st_mtime == 1000000000 &&
	      st.st_mtim.tv_nsec == 500000000, "raw futimesat(fd, NULL, times) of it (%s)",
	      strerror(e));
	close(fd);
	/* a file of root's: the program's own rights, the kernel's EPERM */
	own = open("/dev/null", O_RDONLY);
	snprintf(name, sizeof(name), "/proc/self/fd/%d", own);
	e = err_of(chmod(name, 0600));
	check(e == EPERM, "chmod(\"/proc/self/fd/N\") of root's /dev/null: EPERM (%s)",
	      strerror(e));
	e = err_of(syscall(SYS_futimesat, own, NULL, tv));
	check(e == EPERM, "futimesat(fd, NULL, times) of root's /dev/null: EPERM (%s)",
	      strerror(e));
	close(own);
	unlink(T "/ATTRS");
}

static long oa2(int dfd, const char *path, unsigned long long flags, unsigned long long mode,
		unsigned long long resolve, size_t size)
{
	unsigned long long how[8] = { flags, mode, resolve };

	return syscall(SYS_openat2, dfd, path, how, size);
}

/* openat2's guards hold in a tree as in a directory of the program's own. */
static void openat2_guards(void)
{
	unsigned long long big[5] = { O_RDONLY, 0, 0, 0, 1 };
	int dfd = open(T "/sub", O_RDONLY | O_DIRECTORY), fd, e;

	fd = (int)oa2(dfd, "NESTED.TXT", O_RDONLY, 0, RESOLVE_BENEATH, 24);
	check(dfd >= 0 && fd >= 0, "openat2(sub, \"NESTED.TXT\", RESOLVE_BENEATH) (%s)",
	      fd < 0 ? strerror(errno) : "ok");
	close(fd);
	e = err_of(oa2(dfd, "../README", O_RDONLY, 0, RESOLVE_BENEATH, 24));
	check(e == EXDEV, "openat2(sub, \"../README\", RESOLVE_BENEATH): EXDEV (%s)", strerror(e));
	e = err_of(oa2(dfd, "x/../../README", O_RDONLY, 0, RESOLVE_BENEATH, 24));
	check(e == EXDEV, "openat2(sub, \"x/../../README\", RESOLVE_BENEATH): EXDEV (%s)",
	      strerror(e));
	e = err_of(oa2(dfd, T "/README", O_RDONLY, 0, RESOLVE_BENEATH, 24));
	check(e == EXDEV, "openat2(sub, an absolute path, RESOLVE_BENEATH): EXDEV (%s)",
	      strerror(e));
	e = chdir(T "/sub") ? errno : err_of(oa2(AT_FDCWD, "../README", O_RDONLY, 0,
						 RESOLVE_BENEATH, 24));
	check(e == EXDEV, "openat2(AT_FDCWD in sub, \"../README\", RESOLVE_BENEATH): EXDEV (%s)",
	      strerror(e));
	chdir("/");
	close(dfd);
	e = err_of(oa2(AT_FDCWD, T "/LINK", O_RDONLY, 0, RESOLVE_NO_SYMLINKS, 24));
	check(e == ELOOP, "openat2(a link in the tree, RESOLVE_NO_SYMLINKS): ELOOP (%s)",
	      strerror(e));
	fd = (int)oa2(AT_FDCWD, T "/README", O_RDONLY, 0, RESOLVE_NO_SYMLINKS, 24);
	check(fd >= 0, "openat2(a file in the tree, RESOLVE_NO_SYMLINKS) (%s)",
	      fd < 0 ? strerror(errno) : "ok");
	close(fd);
	e = err_of(oa2(AT_FDCWD, T "/README", O_RDONLY | (1ULL << 40), 0, 0, 24));
	check(e == EINVAL, "openat2 with an unknown flag bit: EINVAL (%s)", strerror(e));
	e = err_of(oa2(AT_FDCWD, T "/README", O_RDONLY, 0, 0x400, 24));
	check(e == EINVAL, "openat2 with an unknown resolve bit: EINVAL (%s)", strerror(e));
	e = err_of(oa2(AT_FDCWD, T "/README", O_RDONLY, 0600, 0, 24));
	check(e == EINVAL, "openat2 with a mode and no O_CREAT: EINVAL (%s)", strerror(e));
	e = err_of(syscall(SYS_openat2, AT_FDCWD, T "/README", big, sizeof(big)));
	check(e == E2BIG, "openat2 with a longer struct, a byte set past the known: E2BIG (%s)",
	      strerror(e));
	big[4] = 0;
	fd = (int)syscall(SYS_openat2, AT_FDCWD, T "/README", big, sizeof(big));
	check(fd >= 0, "openat2 with a longer struct, zero past the known (%s)",
	      fd < 0 ? strerror(errno) : "ok");
	close(fd);
	e = err_of(open(T, O_TMPFILE | O_RDWR, 0600));
	check(e == EOPNOTSUPP, "O_TMPFILE in the tree: EOPNOTSUPP, a file system without it (%s)",
	      strerror(e));
	/* AT_EMPTY_PATH with a path: the path is walked as without the flag, in the tree */
	{
		struct statx sx;
		struct stat st;

		e = err_of(fstatat(AT_FDCWD, T "/README", &st, AT_EMPTY_PATH));
		check(e == 0 && st.st_uid == 1001, "fstatat of a tree path with AT_EMPTY_PATH: "
		      "drive's file (%s, uid %u)", strerror(e), e ? 0 : (unsigned int)st.st_uid);
		e = err_of(statx(AT_FDCWD, T "/README", AT_EMPTY_PATH, STATX_UID, &sx));
		check(e == 0 && sx.stx_uid == 1001, "statx of a tree path with AT_EMPTY_PATH: "
		      "drive's file (%s, uid %u)", strerror(e), e ? 0 : sx.stx_uid);
	}
}

/* ---- threads ---------------------------------------------------------------------------------- */

static void *thread_main(void *arg)
{
	long bad = 0;
	int i;

	(void)arg;
	for (i = 0; i < 200; i++) {
		char buf[16];
		struct stat st;
		int fd = open(T "/README", O_RDONLY | O_CLOEXEC);

		if (fd < 0 || read_all(fd, buf, sizeof(buf)) != 6 || stat(T "/sub", &st))
			bad++;
		close(fd);
	}
	return (void *)bad;
}

static void threads(void)
{
	pthread_t t[8];
	long bad = 0;
	int i;

	for (i = 0; i < 8; i++)
		pthread_create(&t[i], NULL, thread_main, NULL);
	for (i = 0; i < 8; i++) {
		void *r;

		pthread_join(t[i], &r);
		bad += (long)r;
	}
	check(bad == 0, "8 threads x 200 opens, reads and stats in the tree: %ld failed", bad);
}

/* ---- stacks: the handler runs on the runtime's, not the program's ----------------------------- */

#define SMALL_STACK	8192

/* Opens, reads and stats in the tree, with raw calls (a clone child shares errno). */
static long tree_calls(int n)
{
	long bad = 0;
	int i;

	for (i = 0; i < n; i++) {
		char buf[16];
		struct stat st;
		long fd = syscall(SYS_openat, AT_FDCWD, T "/README", O_RDONLY | O_CLOEXEC);

		if (fd < 0 || syscall(SYS_read, fd, buf, sizeof(buf)) != 6 ||
		    syscall(SYS_newfstatat, AT_FDCWD, T "/sub", &st, 0) != 0)
			bad++;
		if (fd >= 0)
			syscall(SYS_close, fd);
	}
	return bad;
}

/* A stack of SMALL_STACK bytes above a PROT_NONE guard page, filled with a pattern. */
static unsigned char *small_stack(void)
{
	unsigned char *m = mmap(NULL, 4096 + SMALL_STACK, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED || mprotect(m, 4096, PROT_NONE))
		return NULL;
	memset(m + 4096, 0xa5, SMALL_STACK);
	return m + 4096;
}

/* How much of a small stack was ever written (the pattern gone). */
static size_t stack_used(const unsigned char *s)
{
	size_t i;

	for (i = 0; i < SMALL_STACK && s[i] == 0xa5; i++)
		;
	return SMALL_STACK - i;
}

static ucontext_t co_main, co_ctx;
static long co_bad = -1;

static void co_body(void)
{
	co_bad = tree_calls(50);
}

static volatile long clone_bad = -1;

static int clone_body(void *arg)
{
	(void)arg;
	clone_bad = tree_calls(50);
	return 0;
}

static pthread_barrier_t many_barrier;

static void *many_main(void *arg)
{
	long bad;

	pthread_barrier_wait(&many_barrier);
	bad = tree_calls((int)(long)arg);
	pthread_barrier_wait(&many_barrier);
	return (void *)bad;
}

/* n threads with 64 KiB stacks, all alive at once (together), or one after another. */
static long many_threads(int n, int together, int calls)
{
	pthread_t *t = calloc((size_t)n, sizeof(*t));
	pthread_attr_t attr;
	long bad = 0;
	int i, made = 0;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 << 10);
	if (together)
		pthread_barrier_init(&many_barrier, NULL, (unsigned int)n);
	for (i = 0; t && i < n; i++) {
		void *r;

		if (!together)
			pthread_barrier_init(&many_barrier, NULL, 1);
		if (pthread_create(&t[i], &attr, many_main, (void *)(long)calls))
			break;
		made++;
		if (!together) {
			pthread_join(t[i], &r);
			bad += (long)r;
			pthread_barrier_destroy(&many_barrier);
		}
	}
	for (i = 0; together && i < made; i++) {
		void *r;

		pthread_join(t[i], &r);
		bad += (long)r;
	}
	free(t);
	return made == n ? bad : -1;
}

static void stacks(void)
{
	unsigned char *co = small_stack(), *cl = small_stack();
	pid_t ctid = 1, ptid = 0;
	long bad;
	size_t used;

	if (!co || !cl) {
		check(0, "stacks: mmap: %s", strerror(errno));
		return;
	}
	/* A coroutine on an 8 KiB stack (makecontext), making trapped calls. */
	getcontext(&co_ctx);
	co_ctx.uc_stack.ss_sp = co;
	co_ctx.uc_stack.ss_size = SMALL_STACK;
	co_ctx.uc_link = &co_main;
	makecontext(&co_ctx, co_body, 0);
	swapcontext(&co_main, &co_ctx);
	used = stack_used(co);
	check(co_bad == 0, "a coroutine on an 8 KiB stack: 50 opens, reads and stats in the tree "
	      "(%ld failed; %zu bytes of its stack used)", co_bad, used);
	/*
	 * A thread made by a raw clone, which the runtime never sees being made, on an 8 KiB
	 * stack of its own; the parent waits for CLONE_CHILD_CLEARTID.
	 */
	if (clone(clone_body, cl + SMALL_STACK, CLONE_VM | CLONE_FS | CLONE_FILES |
		  CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM | CLONE_PARENT_SETTID |
		  CLONE_CHILD_CLEARTID, NULL, &ptid, NULL, &ctid) < 0) {
		check(0, "clone: %s", strerror(errno));
		return;
	}
	while (__atomic_load_n(&ctid, __ATOMIC_ACQUIRE))
		syscall(SYS_futex, &ctid, FUTEX_WAIT, ctid, NULL, NULL, 0);
	used = stack_used(cl);
	check(clone_bad == 0, "a thread of a raw clone on an 8 KiB stack: 50 opens, reads and "
	      "stats in the tree (%ld failed; %zu bytes of its stack used)", clone_bad, used);
	/* More threads at once than the runtime has stacks (128), then many one after another. */
	bad = many_threads(160, 1, 20);
	check(bad == 0, "160 threads at once, 20 opens, reads and stats each: %ld failed", bad);
	bad = many_threads(300, 0, 5);
	check(bad == 0, "300 threads one after another, 5 each: %ld failed", bad);
}

/* ---- masks set for a wait: SIGSYS stays deliverable ------------------------------------------ */

static volatile sig_atomic_t alrm_read, alrm_sysblocked;

/* A handler that runs during the wait and touches the tree (a trapped call). */
static void on_alrm(int sig)
{
	char buf[16];
	sigset_t cur;
	int fd = open(T "/README", O_RDONLY | O_CLOEXEC);

	(void)sig;
	alrm_read = fd >= 0 && read_all(fd, buf, sizeof(buf)) == 6;
	if (fd >= 0)
		close(fd);
	sigprocmask(SIG_BLOCK, NULL, &cur);
	alrm_sysblocked = sigismember(&cur, SIGSYS);
}

/*
 * Signals while the handler runs, as Go's preemption sends them: the program's handler on
 * an alternate stack (SA_ONSTACK), a thread signalling this one without pause while it makes
 * trapped calls in the tree. Each must return with its answer: a signal's frame put over the
 * trap's own on the alternate stack would corrupt the registers it returns with.
 */
static volatile sig_atomic_t pokes;
static volatile int poking;

static void on_poke(int sig)
{
	(void)sig;
	pokes++;
}

static void *poker(void *arg)
{
	pthread_t main_thread = *(pthread_t *)arg;

	while (poking)
		pthread_kill(main_thread, SIGUSR1);
	return NULL;
}

static void altstack(void)
{
	static char alt[65536];
	stack_t ss = { .ss_sp = alt, .ss_size = sizeof(alt) };
	struct sigaction sa = { .sa_handler = on_poke, .sa_flags = SA_ONSTACK | SA_RESTART };
	pthread_t self = pthread_self(), t;
	int i, bad = 0;
	struct stat st;

	if (sigaltstack(&ss, NULL) || sigaction(SIGUSR1, &sa, NULL)) {
		check(0, "altstack: set up: %s", strerror(errno));
		return;
	}
	poking = 1;
	pthread_create(&t, NULL, poker, &self);
	for (i = 0; i < 20000; i++) {
		int fd = open(T "/README", O_RDONLY);

		bad += fd < 0 || fstat(fd, &st) || st.st_uid != 1001;
		close(fd);
		bad += stat(T "/sub/NESTED.TXT", &st) != 0;
	}
	poking = 0;
	pthread_join(t, NULL);
	check(bad == 0 && pokes > 0, "altstack: 20000 opens and stats in the tree under a stream "
	      "of signals handled on an alternate stack: %d failed, %d signals", bad, (int)pokes);
}

/*
 * Bad pointers in a tree: EFAULT from each call the runtime answers itself or reads for, as
 * the kernel gives it, and the program lives on (a SIGSEGV in the handler would end it).
 */
static void faults(void)
{
	char *page = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), *edge;
	struct stat st;
	long r;

	if (page == MAP_FAILED || ro == MAP_FAILED || mprotect(page + 4096, 4096, PROT_NONE) ||
	    chdir(T)) {
		check(0, "faults: set up, in the tree: %s", strerror(errno));
		return;
	}
	edge = page + 4096 - 6;
	memcpy(edge, "README", 6);	/* its NUL would be past the page */
	r = syscall(SYS_getcwd, ro, 4096);
	check(r == -1 && errno == EFAULT, "getcwd in the tree into read-only memory: EFAULT "
	      "(%ld, %s)", r, strerror(errno));
	r = syscall(SYS_openat, AT_FDCWD, edge, O_RDONLY);
	check(r == -1 && errno == EFAULT, "open of a tree path running into an unreadable page: "
	      "EFAULT (%ld, %s)", r, strerror(errno));
	r = syscall(SYS_newfstatat, AT_FDCWD, (char *)8, &st, 0);
	check(r == -1 && errno == EFAULT, "stat of a bad pointer from the tree: EFAULT (%ld, %s)",
	      r, strerror(errno));
	r = syscall(SYS_readlink, "/proc/self/exe", ro, 64);
	check(r == -1 && errno == EFAULT, "readlink /proc/self/exe into read-only memory: EFAULT "
	      "(%ld, %s)", r, strerror(errno));
	r = syscall(SYS_openat, AT_FDCWD, "README", O_RDONLY);
	check(r >= 0, "and the program goes on: README opens (%ld)", r);
}

static void masks(void)
{
	static const char *const names[] = { "sigsuspend", "ppoll", "pselect", "epoll_pwait",
					     "epoll_pwait2" };
	struct sigaction sa = { .sa_handler = on_alrm };
	struct timespec ts = { 10, 0 };
	sigset_t alrm, wait, cur;
	int ev = eventfd(0, EFD_CLOEXEC), ep = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event e = { .events = EPOLLIN }, out;
	unsigned int i;

	if (ev < 0 || ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, ev, &e)) {
		check(0, "masks: eventfd, epoll: %s", strerror(errno));
		return;
	}
	sigaction(SIGALRM, &sa, NULL);
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	sigfillset(&wait);
	sigdelset(&wait, SIGALRM);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct pollfd pfd = { .fd = ev, .events = POLLIN };
		fd_set rd;
		int r, err;

		/* SIGALRM pending, blocked until the wait's mask ("all but SIGALRM") lets it in. */
		sigprocmask(SIG_BLOCK, &alrm, NULL);
		alrm_read = alrm_sysblocked = 0;
		raise(SIGALRM);
		FD_ZERO(&rd);
		FD_SET(ev, &rd);
		switch (i) {
		case 0: r = sigsuspend(&wait); break;
		case 1: r = ppoll(&pfd, 1, &ts, &wait); break;
		case 2: r = pselect(ev + 1, &rd, NULL, NULL, &ts, &wait); break;
		case 3: r = epoll_pwait(ep, &out, 1, 10000, &wait); break;
		default: r = epoll_pwait2(ep, &out, 1, &ts, &wait); break;
		}
		err = errno;
		sigprocmask(SIG_BLOCK, NULL, &cur);
		check(r < 0 && err == EINTR && alrm_read,
		      "%s with a mask of all but SIGALRM: its handler reads the tree (%s, read: %d)",
		      names[i], r < 0 ? strerror(err) : "returned", alrm_read);
		check(alrm_sysblocked, "%s: the handler sees SIGSYS blocked, as the wait's mask says",
		      names[i]);
		check(!sigismember(&cur, SIGSYS) && sigismember(&cur, SIGALRM),
		      "%s: afterwards the mask is the program's again (SIGSYS %d, SIGALRM %d)",
		      names[i], sigismember(&cur, SIGSYS), sigismember(&cur, SIGALRM));
		sigprocmask(SIG_UNBLOCK, &alrm, NULL);
	}
	close(ep);
	close(ev);
}

/* ---- process trees: vfork, posix_spawn, system, a fork's fork, an orphan -------------------- */

/* The status a child's wait gives, or -1. */
static int child_status(pid_t pid)
{
	int st;

	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Read NESTED.TXT by its relative name: 0 when it says "nested". */
static int read_nested(void)
{
	char buf[16];
	int fd = open("NESTED.TXT", O_RDONLY | O_CLOEXEC), ok;

	ok = fd >= 0 && read_all(fd, buf, sizeof(buf)) == 7 && !memcmp(buf, "nested\n", 7);
	if (fd >= 0)
		close(fd);
	return ok ? 0 : 1;
}

/* After an exec in place under exec = keep: the tree is still the grant's, for a shell too. */
static void keep_child(void)
{
	char buf[16];
	int fd = open(T "/README", O_RDONLY | O_CLOEXEC), st;

	check(fd >= 0 && read_all(fd, buf, sizeof(buf)) == 6,
	      "exec = keep: after the execve, %s/README is read through the grant (%s)", T,
	      fd < 0 ? strerror(errno) : "ok");
	if (fd >= 0)
		close(fd);
	fflush(stdout);
	st = system("cat " T "/README >/dev/null && echo x >" T "/SHELL.TXT");
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0 && is_drives(T "/SHELL.TXT", S_IFREG),
	      "exec = keep: a shell's cat reads the tree and its redirection creates SHELL.TXT, "
	      "drive's (%#x)", st);
}

static void spawn(void)
{
	char *const child_argv[] = { TP, "spawn-child", NULL };
	int p[2], st;
	pid_t pid;
	char c = 0;

	char exe[256];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	exe[n > 0 ? n : 0] = '\0';
	check(!strncmp(exe, TP, strlen(TP)), "readlink /proc/self/exe names tp-probe, not "
	      "credbox (%s)", exe);
	/* posix_spawn and system use clone(CLONE_VM | CLONE_VFORK): the child's exec. */
	st = posix_spawn(&pid, TP, NULL, NULL, child_argv, environ);
	if (st == 0)
		st = child_status(pid);
	check(st == 7, "posix_spawn of tp-probe spawn-child: exit status 7 (%d)", st);
	st = system("exit 3");
	check(WIFEXITED(st) && WEXITSTATUS(st) == 3, "system(\"exit 3\"): status 3 (%#x)", st);
	pid = vfork();
	if (pid == 0) {
		execv(TP, child_argv);
		_exit(99);
	}
	st = child_status(pid);
	check(st == 7, "vfork, then execv of tp-probe spawn-child: exit status 7 (%d)", st);

	/* The working directory in the tree, through a fork's fork, and for an orphan. */
	if (chdir(T "/sub")) {
		check(0, "chdir %s/sub: %s", T, strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		pid_t g = fork();

		_exit(g == 0 ? read_nested() : child_status(g));
	}
	st = child_status(pid);
	check(st == 0, "a fork's fork reads NESTED.TXT from the working directory %s/sub (%d)", T,
	      st);
	if (pipe(p)) {
		check(0, "pipe: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		pid_t me = getpid();

		if (fork() != 0)
			_exit(0);
		/* The orphan: once its parent has gone, a relative create and read. */
		while (getppid() == me)
			sched_yield();
		c = read_nested() == 0 ? 'r' : 'x';
		if (c == 'r') {
			int fd = open("ORPHAN.TXT", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

			c = fd >= 0 && write(fd, "o\n", 2) == 2 ? 'w' : 'c';
			close(fd);
		}
		if (write(p[1], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	child_status(pid);
	if (read(p[0], &c, 1) != 1)
		c = '?';
	close(p[0]);
	check(c == 'w' && is_drives(T "/sub/ORPHAN.TXT", S_IFREG),
	      "an orphan reads NESTED.TXT and creates ORPHAN.TXT, drive's, in %s/sub (%c)", T, c);
}

/* ---- the program's own SIGSYS handler -------------------------------------------------------- */

static volatile sig_atomic_t got_sigsys, got_code;

static void on_sigsys(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	got_sigsys++;
	got_code = si->si_code;
}

static void sigsys(void)
{
	struct sigaction sa = { 0 }, old;
	sigset_t set, cur;
	int fd;

	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	sigfillset(&sa.sa_mask);
	check(sigaction(SIGSYS, &sa, NULL) == 0, "the program installs its own SIGSYS handler");
	check(sigaction(SIGSYS, NULL, &old) == 0 && old.sa_sigaction == on_sigsys,
	      "sigaction reads back the program's handler");
	fd = open(T "/README", O_RDONLY);
	check(fd >= 0 && got_sigsys == 0, "redirection goes on; the program's handler saw nothing");
	close(fd);
	kill(getpid(), SIGSYS);
	check(got_sigsys == 1 && got_code == SI_USER,
	      "a SIGSYS sent by kill() reaches the program's handler (%d, code %d)",
	      (int)got_sigsys, (int)got_code);
	sigemptyset(&set);
	sigaddset(&set, SIGSYS);
	check(sigprocmask(SIG_BLOCK, &set, NULL) == 0, "the program blocks SIGSYS");
	fd = open(T "/README", O_RDONLY);
	check(fd >= 0, "redirection goes on with SIGSYS blocked");
	close(fd);
	check(sigprocmask(SIG_BLOCK, NULL, &cur) == 0 && sigismember(&cur, SIGSYS),
	      "sigprocmask reports SIGSYS blocked, as the program asked");
	kill(getpid(), SIGSYS);
	check(got_sigsys == 1, "a SIGSYS sent while blocked waits");
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	check(got_sigsys == 2, "and arrives when the program unblocks it (%d)", (int)got_sigsys);
	/* An 8 KiB alternate stack over a guard page, as programs set up for SIGSEGV. */
	{
		char *m = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		stack_t ss = { .ss_sp = m + 4096, .ss_size = 2 * 4096 };

		mprotect(m, 4096, PROT_NONE);
		check(sigaltstack(&ss, NULL) == 0, "the program sets an 8 KiB alternate stack");
		fd = open(T "/README", O_RDONLY);
		check(fd >= 0, "redirection goes on: the runtime's handler does not run on it");
		close(fd);
		ss.ss_flags = SS_DISABLE;
		sigaltstack(&ss, NULL);
	}
	/* A handler whose mask blocks everything, SIGSYS included, may still open in the tree. */
	signal(SIGUSR1, SIG_IGN);
	sa.sa_handler = SIG_DFL;
	sa.sa_flags = 0;
	check(sigaction(SIGSYS, &sa, NULL) == 0, "the program restores SIGSYS to SIG_DFL");
	fd = open(T "/README", O_RDONLY);
	check(fd >= 0, "redirection goes on after that");
	close(fd);
}

/* ---- the exempt instruction ------------------------------------------------------------------ */


static void exempt(void)
{
	tp_rawsys_t sc = tp_find_exempt();
	long r;

	check(sc != NULL, "found the runtime's syscall instruction in an executable mapping");
	if (!sc)
		return;
	r = sc(SYS_openat, AT_FDCWD, (long)T "/README", O_RDONLY, 0, 0, 0);
	check(r == -EACCES, "openat of the tree from the exempt instruction: the program's own "
	      "rights, EACCES (%ld)", r);
	r = sc(SYS_uname, (long)&(struct utsname){ 0 }, 0, 0, 0, 0, 0);
	check(r == -ENODATA, "a call the profile denies (uname:ENODATA) stays denied from it (%ld)",
	      r);
	r = sc(SYS_unshare, 0, 0, 0, 0, 0, 0);
	check(r == -EPERM, "a call the profile allows and the always filter denies (unshare) "
	      "stays denied from it (%ld)", r);
	r = sc(SYS_getpid, 0, 0, 0, 0, 0, 0);
	check(r == getpid(), "an allowed call from it works (%ld)", r);
	if (fork() == 0) {
		sc(SYS_sethostname, (long)"x", 1, 0, 0, 0, 0);
		_exit(0);
	} else {
		int status;

		wait(&status);
		check(WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS,
		      "a kill-denied call from it kills the process by SIGSYS (status 0x%x)",
		      status);
	}
}

static void forked(void)
{
	pid_t pid;
	int status;

	chdir(T "/sub");
	pid = fork();
	if (pid == 0) {
		char buf[256];
		int fd = open("NESTED.TXT", O_RDONLY);

		_exit(!(fd >= 0 && getcwd(buf, sizeof(buf)) && !strcmp(buf, T "/sub")));
	}
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "a forked child starts in the emulated directory and opens relative to it");
	/* vfork: the child shares the runtime's memory, not the parent's directory. */
	pid = vfork();
	if (pid == 0) {
		int fd = open("NESTED.TXT", O_RDONLY);

		if (fd < 0 || chdir(T) < 0)
			_exit(1);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	{
		char buf[256];

		check(WIFEXITED(status) && WEXITSTATUS(status) == 0 && getcwd(buf, sizeof(buf)) &&
		      !strcmp(buf, T "/sub"),
		      "a vfork child opens relative to the emulated directory, and its chdir "
		      "leaves the parent's alone (%s)", buf);
	}
	chdir("/");
}

/*
 * The fd of the grant: an O_CRED_ALLOW directory, or -1. Up to HIGH_FD_MAX, beyond the soft
 * RLIMIT_NOFILE: a program that lowered it after a dup keeps the fds above.
 */
#define HIGH_FD		2000
#define HIGH_FD_MAX	4096
#define SIBLING_FD_LOW	30
#define SIBLING_FD	900
static int grant_fd(void)
{
	int fd, fl;

	for (fd = 3; fd < HIGH_FD_MAX; fd++) {
		fl = fcntl(fd, F_GETFL);
		if (fl >= 0 && (fl & O_CRED_ALLOW))
			return fd;
	}
	return -1;
}

static int count_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static void *spin(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

/* The caller's side of an execve under the grant: refusals first, then target exec-child. */
static void exec_caller(const char *target, int threads)
{
	char fdarg[16], *args[] = { "tp-probe", "exec-child", fdarg, NULL };
	int g = grant_fd(), null = open("/dev/null", O_RDONLY), i, e;
	pid_t sib;
	pthread_t t;

	check(g >= 0, "the grant is an O_CRED_ALLOW fd (%d)", g);
	errno = 0;
	execv(T "/README", args);
	e = errno;
	check(e == EACCES, "execve of a 0600 file in the tree: EACCES, the caller goes on (%s)",
	      strerror(e));
	errno = 0;
	execv(DATA "/tp.ini", args);
	e = errno;
	check(e == EACCES, "execve of a readable file without x: EACCES (%s)", strerror(e));
	errno = 0;
	execv(DATA "/missing", args);
	e = errno;
	check(e == ENOENT, "execve of a missing file: ENOENT (%s)", strerror(e));
	{
		int status = -1;
		char *child[] = { "tp-probe", "spawn-child", NULL };
		pid_t pid = vfork();

		if (pid == 0) {
			execv(target, child);
			_exit(1);
		}
		waitpid(pid, &status, 0);
		check(WIFEXITED(status) && WEXITSTATUS(status) == 7,
		      "execve in a vfork child (made a fork by the runtime) runs tp-probe "
		      "spawn-child: exit status 7 (status 0x%x)", status);
	}
	check(null >= 0 && dup3(null, 20, O_CLOEXEC) == 20 && dup2(null, 21) == 21,
	      "fd 20 close-on-exec, fd 21 not");
	/* A vfork child of a forked child that has not trapped yet: the same. */
	{
		char *child[] = { "tp-probe", "spawn-child", NULL };
		int status = -1;
		pid_t pid = fork();

		if (pid == 0) {
			pid_t v = vfork();

			if (v == 0) {
				execv(target, child);
				_exit(1);
			}
			waitpid(v, &status, 0);
			_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 2);
		}
		waitpid(pid, &status, 0);
		check(WIFEXITED(status) && WEXITSTATUS(status) == 7,
		      "execve in a vfork child of a forked child runs: exit status 7 (status 0x%x)",
		      status);
	}
	/* A dup of the grant above the soft RLIMIT_NOFILE, lowered after the dup. */
	{
		struct rlimit rl, low;

		if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_max > HIGH_FD &&
		    rl.rlim_cur <= HIGH_FD) {
			low = rl;
			rl.rlim_cur = rl.rlim_max;
			check(setrlimit(RLIMIT_NOFILE, &rl) == 0 && dup2(g, HIGH_FD) == HIGH_FD &&
			      setrlimit(RLIMIT_NOFILE, &low) == 0,
			      "a dup of the grant at fd %d, above the soft limit %lu", HIGH_FD,
			      (unsigned long)low.rlim_cur);
		} else {
			printf("# no dup above the soft limit: RLIMIT_NOFILE %lu/%lu\n",
			       (unsigned long)rl.rlim_cur, (unsigned long)rl.rlim_max);
		}
	}
	/*
	 * A process sharing the fd table (clone(CLONE_FILES)) that keeps two dups of the grant
	 * in it for two seconds, each put back from the other when it is closed: a scan of a
	 * shared table closing them one at a time leaves one behind. The exec makes the table
	 * the new program's own first, as execve does.
	 */
	check(dup2(g, SIBLING_FD_LOW) == SIBLING_FD_LOW && dup2(g, SIBLING_FD) == SIBLING_FD,
	      "dups of the grant at fds %d and %d", SIBLING_FD_LOW, SIBLING_FD);
	sib = syscall(SYS_clone, CLONE_FILES | SIGCHLD, 0, NULL, NULL, 0);
	if (sib == 0) {
		struct timespec t0, now;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		do {
			dup2(SIBLING_FD, SIBLING_FD_LOW);
			dup2(SIBLING_FD_LOW, SIBLING_FD);
			clock_gettime(CLOCK_MONOTONIC, &now);
		} while (now.tv_sec - t0.tv_sec < 2);
		_exit(0);
	}
	check(sib > 0, "a process sharing the fd table, keeping them");
	for (i = 0; i < threads; i++)
		pthread_create(&t, NULL, spin, NULL);
	if (threads)
		check(count_threads() == threads + 1, "%d threads before the execve",
		      count_threads());
	snprintf(fdarg, sizeof(fdarg), "%d", g);
	execv(target, args);
	check(0, "execve of %s: %s", target, strerror(errno));
}

/* What the program started by the runtime's execve finds. */
static void exec_child(int g)
{
	struct open_how how = { .flags = O_RDONLY | OA2_CRED_INHERIT, .resolve = RESOLVE_BENEATH };
	char buf[64];
	long r;
	int e;

	errno = 0;
	r = syscall(SYS_openat2, g, "README", &how, sizeof(how));
	e = errno;
	check(r < 0 && e == EBADF, "after execve the grant's fd %d is closed: openat2 with "
	      "OA2_CRED_INHERIT fails (%s)", g, strerror(e));
	usleep(100000);		/* the fd-table sibling's dups, had it kept the table */
	e = grant_fd();
	check(e < 0, "no O_CRED_ALLOW fd is left below %d (%d)", HIGH_FD_MAX, e);
	errno = 0;
	r = open(T "/README", O_RDONLY);
	e = errno;
	check(r < 0 && e == EACCES, "the tree's paths give the program's own rights: EACCES (%s)",
	      strerror(e));
	errno = 0;
	check(fcntl(20, F_GETFD) < 0 && errno == EBADF, "the close-on-exec fd 20 is closed");
	check(fcntl(21, F_GETFD) == 0, "fd 21 is kept");
	check(getauxval(AT_SECURE) == 1, "AT_SECURE is set, as credbox's loader sets it");
	check(count_threads() == 1, "one thread (%d)", count_threads());
	errno = 0;
	check(syscall(SYS_uname, buf) < 0 && errno == ENODATA,
	      "the runtime is still there: uname gets the profile's errno");
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(what, "files"))
		files();
	else if (!strcmp(what, "dirops"))
		dirops();
	else if (!strcmp(what, "attrs"))
		attrs();
	else if (!strcmp(what, "paths"))
		paths();
	else if (!strcmp(what, "deep")) {
		int chain[DEEP + 1], e = deep_make(chain);

		e = e ? e : put_at(chain[DEEP], "f", "deep");
		check(!e, "a tree deeper than PATH_MAX made, f at its bottom (%s)", strerror(e));
	} else if (!strcmp(what, "deep-clean")) {
		int chain[DEEP + 1], e = deep_make(chain);

		e = e ? e : deep_remove(chain);
		check(!e, "the tree deeper than PATH_MAX removed (%s)", strerror(e));
	}
	else if (!strcmp(what, "openat2"))
		openat2_guards();
	else if (!strcmp(what, "threads"))
		threads();
	else if (!strcmp(what, "sigsys"))
		sigsys();
	else if (!strcmp(what, "stacks"))
		stacks();
	else if (!strcmp(what, "masks"))
		masks();
	else if (!strcmp(what, "faults"))
		faults();
	else if (!strcmp(what, "altstack"))
		altstack();
	else if (!strcmp(what, "spawn"))
		spawn();
	else if (!strcmp(what, "spawn-child"))
		return 7;
	else if (!strcmp(what, "exec-keep")) {
		execl(TP, TP, "keep-child", (char *)NULL);
		check(0, "execve of tp-probe keep-child: %s", strerror(errno));
	} else if (!strcmp(what, "keep-child"))
		keep_child();
	else if (!strcmp(what, "exempt"))
		exempt();
	else if (!strcmp(what, "fork"))
		forked();
	else if (!strcmp(what, "exec"))
		exec_caller(TP, 0);
	else if (!strcmp(what, "exec-static"))
		exec_caller(TP "-static", 0);
	else if (!strcmp(what, "exec-threads"))
		exec_caller(TP, 4);
	else if (!strcmp(what, "exec-child") && argc > 2)
		exec_child(atoi(argv[2]));
	else if (!strcmp(what, "exec-cat")) {
		execl("/gnu/bin/cat", "cat", DATA "/exec.txt", (char *)NULL);
		check(0, "execve of /gnu/bin/cat: %s", strerror(errno));
	} else if (!strcmp(what, "exec-script")) {
		execl(DATA "/exec-script", "exec-script", "one", "two words", (char *)NULL);
		check(0, "execve of a #! script: %s", strerror(errno));
	} else if (!strcmp(what, "script-child")) {
		/* #!TP script-child: TP, "script-child", the script, then its arguments */
		check(argc == 5 && !strcmp(argv[0], TP) && !strcmp(argv[2], DATA "/exec-script") &&
		      !strcmp(argv[3], "one") && !strcmp(argv[4], "two words"),
		      "a #! script runs its interpreter with binfmt_script's arguments (%d: %s %s "
		      "%s)", argc, argv[0], argc > 2 ? argv[2] : "", argc > 3 ? argv[3] : "");
	} else if (!strcmp(what, "deny")) {
		struct utsname u;
		int r = uname(&u), e = errno;

		check(r < 0 && e == ENODATA, "uname: the profile's errno (%s)", strerror(e));
	} else if (!strcmp(what, "kill")) {
		sethostname("x", 1);
		printf("still alive\n");
	} else {
		fprintf(stderr, "usage: tp-probe files|dirops|attrs|paths|deep|deep-clean|openat2|threads|stacks|masks|faults|altstack|spawn|sigsys|exempt|fork|exec|exec-static|"
			"exec-threads|exec-cat|exec-script|deny|kill\n");
		return 2;
	}
	return failures ? 1 : 0;
}
