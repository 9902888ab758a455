// SPDX-License-Identifier: GPL-2.0
/*
 * e2e-probe: the program tests/vm/40-e2e.t runs under credbox in the guest (and, for the
 * "attack" mode, next to it). Every mode prints one line per check, "ok - WHAT" or
 * "not ok - WHAT (got X, want Y)", which the test numbers; it exits 0 when all passed.
 *
 *   e2e-probe grants              granted trees a (drive), b (other, group dosemu), ro
 *   e2e-probe refuse              escapes, Landlock, fd passing, denied system calls
 *   e2e-probe exec                clear FD_CLOEXEC on the grants, then execve afterexec
 *   e2e-probe afterexec           (the exec'd program) the grants must be gone
 *   e2e-probe hold                print "ready PID", wait for SIGUSR1, check the grant works
 *   e2e-probe attack PID FD       another process of the same uid reaches for PID's FD
 *   e2e-probe kill                call a system call the profile kills for
 *   e2e-probe i386                getpid through int 0x80 (the i386 ABI): exit 0 if it works
 *   e2e-probe ran                 print RAN (bad profiles must never get here)
 *
 * The trees, made by tests/vm/e2e/guest.sh: /srv/e2e/a owned by drive (README "alpha",
 * ESC -> /etc, TOB -> ../b, sub/), /srv/e2e/b owned by other (README "bravo", GROUPONLY
 * root:dosemu 0040), /srv/e2e/ro owned by drive (README "readonly"); all 0700, files 0600.
 * Profiles: main.ini and kill.ini in tests/vm/e2e (a at fd 10, b at fd 11).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "credbox.h"
#include "uapi.h"

#define A_FD 10
#define B_FD 11
#define ID_DRIVE 1001
#define ID_OTHER 1003

static int failures;
static int check_alive = 1;	/* 0 outside credbox (the attacker has no grant) */
static const char *kind = "";	/* "dynamic: " or "static: " */

static void result(int good, const char *fmt, ...)
{
	va_list ap;

	printf("%sok - %s", good ? "" : "not ", kind);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	failures += !good;
}

static int ret(long r)
{
	return r < 0 ? -errno : (int)r;
}

static const char *ename(int r)
{
	static char buf[32];

	if (r >= 0) {
		snprintf(buf, sizeof(buf), "success (%d)", r);
		return buf;
	}
	return strerrorname_np(-r) ?: "?";
}

/* The grant still works: the process was not harmed by what it just tried. */
static int grant_works(void)
{
	char buf[16] = "";
	int fd = credbox_openat("a", "README", O_RDONLY | O_CLOEXEC, 0);

	if (fd < 0)
		return 0;
	if (read(fd, buf, sizeof(buf) - 1) < 0)
		buf[0] = '\0';
	close(fd);
	return strncmp(buf, "alpha", 5) == 0;
}

/* R must be -WANT; closes R if it is an fd. Checks that the grant still works afterwards. */
static void refused(int r, int want, const char *what)
{
	int alive;

	if (r >= 0)
		close(r);
	alive = check_alive ? grant_works() : 1;
	if (r == -want && alive)
		result(1, "%s: %s", what, ename(-want));
	else
		result(0, "%s (got %s, want %s%s)", what, ename(r), ename(-want),
		       alive ? "" : "; and the grant stopped working");
}

/*
 * For calls both credbox's always filter (EPERM) and the profile (its errno, ENODATA here)
 * deny: the kernel returns the verdict of the filter it evaluates first, either is a refusal.
 */
static void denied(int r, const char *what)
{
	printf("# %s: %s\n", what, ename(r));
	refused(r == -ENODATA ? -EPERM : r, EPERM, what);
}

static int read_all(int fd, char *buf, size_t size)
{
	ssize_t n = pread(fd, buf, size - 1, 0);

	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';	/* for the messages */
	return n < 0 ? -errno : (int)n;
}

/* ---- grants --------------------------------------------------------------------------- */

static void grant_rw(const char *name, int want_fd, const char *readme, uid_t uid, gid_t gid)
{
	static const char text[] = "hello from the sandbox\n";
	char path[64], buf[64];
	struct stat st;
	int fd, r;

	fd = credbox_dir(name);
	result(fd == want_fd, "[%s] credbox_dir finds the grant at fd %d (got %s)", name, want_fd,
	       ename(fd));

	fd = credbox_openat(name, "README", O_RDONLY | O_CLOEXEC, 0);
	r = fd >= 0 ? read_all(fd, buf, sizeof(buf)) : fd;
	result(r > 0 && !strncmp(buf, readme, strlen(readme)),
	       "[%s] read README (0600, its owner's), got %s", name, r > 0 ? buf : ename(r));
	if (fd >= 0)
		close(fd);

	snprintf(path, sizeof(path), "new-%.*s", (int)strcspn(kind, ":"), kind);
	fd = credbox_openat(name, path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	result(fd >= 0, "[%s] create %s (O_CREAT|O_EXCL) (%s)", name, path, ename(fd));
	if (fd < 0)
		return;
	r = ret(write(fd, text, sizeof(text) - 1));
	result(r == sizeof(text) - 1, "[%s] write to it (%s)", name, ename(r));
	r = ret(fstat(fd, &st));
	result(!r && st.st_uid == uid && st.st_gid == gid,
	       "[%s] the new file is owned by %u:%u, the grant's identity (got %u:%u)", name, uid,
	       gid, st.st_uid, st.st_gid);
	close(fd);

	fd = credbox_openat(name, path, O_RDWR | O_TRUNC | O_CLOEXEC, 0);
	r = fd >= 0 ? ret(fstat(fd, &st)) : fd;
	result(!r && st.st_size == 0, "[%s] reopen with O_TRUNC: size 0 (%s, size %lld)", name,
	       ename(r), r ? -1LL : (long long)st.st_size);
	if (fd < 0)
		return;
	r = ret(ftruncate(fd, 4096));
	if (!r)
		r = ret(fstat(fd, &st));
	result(!r && st.st_size == 4096, "[%s] ftruncate to 4096 (%s)", name, ename(r));
	r = ret(pwrite(fd, "abc", 3, 0));
	close(fd);
	fd = credbox_openat(name, path, O_RDONLY | O_CLOEXEC, 0);
	r = fd >= 0 ? read_all(fd, buf, 4) : fd;
	result(r == 3 && !strcmp(buf, "abc"), "[%s] read back what was written (%s)", name,
	       ename(r));
	if (fd >= 0)
		close(fd);
}

/*
 * Modes, times and links through the library (credbox_mkdirat(3), patches 13-17): in a, as
 * drive, without set-id bits, never the grant's own directory's mode, no link to another
 * grant; the fd forms on a file opened through the grant only; in ro, EROFS for each (the
 * kernel's read-only loan: Landlock cannot refuse a chmod or a utimes). Leaves a as it was.
 */
static void grant_treeops(void)
{
	struct timespec ts[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
	char buf[64];
	struct stat st = { 0 };
	int fd, own, r, s2;

	fd = credbox_openat("a", "MODE", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
	r = credbox_fchmodat("a", "MODE", 04755, 0);
	s2 = credbox_fstatat("a", "MODE", &st, 0);
	result(r == 0 && s2 == 0 && (st.st_mode & 07777) == 0755,
	       "[a] credbox_fchmodat MODE 04755: 0755, no set-uid bit (%s, mode 0%o)", ename(r),
	       (unsigned int)st.st_mode & 07777);
	refused(credbox_fchmodat("a", ".", 0777, 0), EPERM,
		"[a] credbox_fchmodat of the grant's own directory");
	r = credbox_utimensat("a", "MODE", ts, 0);
	s2 = credbox_fstatat("a", "MODE", &st, 0);
	result(r == 0 && s2 == 0 && st.st_mtime == 1000000000,
	       "[a] credbox_utimensat MODE: mtime 1000000000 (%s, %lld)", ename(r),
	       (long long)st.st_mtime);
	r = credbox_linkat("a", "MODE", "MODE2", 0);
	s2 = credbox_fstatat("a", "MODE", &st, 0);
	result(r == 0 && s2 == 0 && st.st_nlink == 2,
	       "[a] credbox_linkat MODE MODE2: 2 links (%s, %lu)", ename(r),
	       (unsigned long)st.st_nlink);
	refused(ret(syscall(SYS_linkat, A_FD, "MODE", B_FD, "STOLEN", AT_CRED_INHERIT)), EXDEV,
		"[a] linkat into grant b: another tree");
	refused(credbox_linkat("a", "MODE", "TOB/STOLEN", 0), EXDEV,
		"[a] credbox_linkat MODE TOB/STOLEN (symlink to another grant)");
	r = credbox_symlinkat("../b/README", "a", "SL");
	result(r == 0 && credbox_readlinkat("a", "SL", buf, sizeof(buf)) == 11 &&
	       !memcmp(buf, "../b/README", 11) && credbox_fstatat("a", "SL", &st,
	       AT_SYMLINK_NOFOLLOW) == 0 && st.st_uid == ID_DRIVE,
	       "[a] credbox_symlinkat SL -> ../b/README, drive's, the target as given (%s)", ename(r));
	fd = credbox_openat("a", "MODE", O_RDONLY | O_CLOEXEC, 0);
	refused(ret(fchmod(fd, 0600)), EPERM, "[a] plain fchmod of a borrowed file (own identity)");
	r = credbox_fchmod(fd, 02600);
	s2 = fstat(fd, &st);
	result(r == 0 && s2 == 0 && (st.st_mode & 07777) == 0600,
	       "[a] credbox_fchmod 02600 on a file opened through the grant: 0600 (%s, 0%o)",
	       ename(r), (unsigned int)st.st_mode & 07777);
	r = credbox_futimens(fd, NULL);
	s2 = fstat(fd, &st);
	result(r == 0 && s2 == 0 && st.st_mtime > 1000000000,
	       "[a] credbox_futimens now on it (%s)", ename(r));
	if (fd >= 0)
		close(fd);
	own = open("/dev/null", O_RDWR | O_CLOEXEC);
	refused(credbox_fchmod(own, 0600), EPERM, "credbox_fchmod on an fd of one's own (/dev/null)");
	if (own >= 0)
		close(own);
	credbox_unlinkat("a", "SL", 0);
	credbox_unlinkat("a", "MODE2", 0);
	credbox_unlinkat("a", "MODE", 0);

	refused(credbox_fchmodat("ro", "README", 0600, 0), EROFS, "[ro] credbox_fchmodat");
	refused(credbox_utimensat("ro", "README", ts, 0), EROFS, "[ro] credbox_utimensat");
	refused(credbox_linkat("ro", "README", "LINK", 0), EROFS, "[ro] credbox_linkat");
	refused(credbox_symlinkat("README", "ro", "SL"), EROFS, "[ro] credbox_symlinkat");
	fd = credbox_openat("ro", "README", O_RDONLY | O_CLOEXEC, 0);
	refused(credbox_fchmod(fd, 0600), EROFS, "[ro] credbox_fchmod on a file opened through it");
	refused(credbox_futimens(fd, ts), EROFS, "[ro] credbox_futimens on it");
	if (fd >= 0)
		close(fd);
}

/*
 * The directory operations through the library (credbox_mkdirat(3)): what a DOS drive does
 * with MD, REN, DEL, RD, DIR. The rw grant hands out Landlock's MAKE_DIR, REMOVE_FILE,
 * REMOVE_DIR and REFER, the read-only one none of them. Each probe run leaves the tree as it
 * found it (the dynamic and the static probe share it).
 */
static void grant_dirops(void)
{
	char buf[64];
	struct stat st;
	int fd, r;

	mode_t mask = umask(0);

	umask(mask);	/* the profile's, which mkdir applies */
	r = credbox_mkdirat("a", "MD", 0750);
	result(r == 0, "[a] credbox_mkdirat MD (%s)", ename(r));
	r = credbox_fstatat("a", "MD", &st, 0);
	result(r == 0 && S_ISDIR(st.st_mode) && st.st_uid == ID_DRIVE &&
	       (st.st_mode & 07777) == (0750 & ~mask),
	       "[a] credbox_fstatat MD: drive's directory, mode 0750 less the umask 0%o (%s, uid %u, "
	       "mode 0%o)", (unsigned int)mask, ename(r), (unsigned int)st.st_uid,
	       (unsigned int)st.st_mode & 07777);
	r = credbox_renameat("a", "MD", "RD", RENAME_NOREPLACE);
	result(r == 0, "[a] credbox_renameat MD RD (%s)", ename(r));
	fd = credbox_openat("a", "RD/DEL", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
	r = credbox_faccessat("a", "RD/DEL", R_OK | W_OK, 0);
	result(r == 0, "[a] credbox_faccessat RD/DEL R_OK|W_OK (%s)", ename(r));
	refused(credbox_unlinkat("a", "RD", AT_REMOVEDIR), ENOTEMPTY,
		"[a] credbox_unlinkat RD while it holds a file");
	r = credbox_unlinkat("a", "RD/DEL", 0);
	result(r == 0, "[a] credbox_unlinkat RD/DEL (%s)", ename(r));
	r = credbox_unlinkat("a", "RD", AT_REMOVEDIR);
	result(r == 0, "[a] credbox_unlinkat RD AT_REMOVEDIR (%s)", ename(r));
	r = (int)credbox_readlinkat("a", "ESC", buf, sizeof(buf));
	result(r == 4 && !memcmp(buf, "/etc", 4), "[a] credbox_readlinkat ESC (%s)", ename(r));
	refused(credbox_unlinkat("a", "../b/README", 0), EXDEV, "[a] credbox_unlinkat ../b/README");
	refused(credbox_renameat("a", "README", "TOB/STOLEN", 0), EXDEV,
		"[a] credbox_renameat README TOB/STOLEN (symlink to another grant)");
	refused(ret(syscall(SYS_renameat2, A_FD, "README", B_FD, "STOLEN",
			    AT_CRED_INHERIT)), EXDEV, "[a] renameat2 into grant b: another tree");

	r = credbox_fstatat("ro", "README", &st, 0);
	result(r == 0 && st.st_uid == ID_DRIVE, "[ro] credbox_fstatat README (%s)", ename(r));
	refused(credbox_mkdirat("ro", "MD", 0700), EROFS, "[ro] credbox_mkdirat (read-only loan)");
	refused(credbox_unlinkat("ro", "README", 0), EROFS,
		"[ro] credbox_unlinkat (read-only loan)");
	refused(credbox_renameat("ro", "README", "MOVED", 0), EROFS,
		"[ro] credbox_renameat (read-only loan)");
	grant_treeops();
}

static int mode_grants(void)
{
	char buf[64];
	int fd, r;

	grant_rw("a", A_FD, "alpha", ID_DRIVE, ID_DRIVE);
	grant_rw("b", B_FD, "bravo", ID_OTHER, ID_OTHER);

	/* b's identity carries the supplementary group dosemu: a 0040 root:dosemu file. */
	fd = credbox_openat("b", "GROUPONLY", O_RDONLY | O_CLOEXEC, 0);
	r = fd >= 0 ? read_all(fd, buf, sizeof(buf)) : fd;
	result(r > 0, "[b] read GROUPONLY (root:dosemu 0040) through b's supplementary group (%s)",
	       ename(r));
	if (fd >= 0)
		close(fd);

	/*
	 * Only calls with the flag borrow the identity.  A plain open on the grant
	 * fd uses the program's own; any other plain call on it is refused.
	 */
	fd = credbox_dir("a");
	refused(ret(openat(fd, "README", O_RDONLY | O_CLOEXEC)), EACCES,
		"[a] plain openat() on the grant fd uses the program's own identity");
	refused(ret(mkdirat(fd, "newdir", 0700)), EPERM,
		"[a] mkdirat() on the grant fd: the grant starts no plain call but an open");

	/* The read-only grant: drive's identity could write, the read-only loan says no. */
	fd = credbox_openat("ro", "README", O_RDONLY | O_CLOEXEC, 0);
	r = fd >= 0 ? read_all(fd, buf, sizeof(buf)) : fd;
	result(r > 0 && !strncmp(buf, "readonly", 8), "[ro] read README (%s)", ename(r));
	if (fd >= 0)
		close(fd);
	refused(credbox_openat("ro", "README", O_WRONLY | O_CLOEXEC, 0), EROFS,
		"[ro] open README for writing (read-only loan)");
	refused(credbox_openat("ro", "README", O_RDONLY | O_TRUNC | O_CLOEXEC, 0), EROFS,
		"[ro] truncate README with O_TRUNC (read-only loan)");
	refused(credbox_openat("ro", "NEW", O_WRONLY | O_CREAT | O_CLOEXEC, 0600), EROFS,
		"[ro] create a file (read-only loan)");
	grant_dirops();
	return failures ? 1 : 0;
}

/* ---- refusals ------------------------------------------------------------------------- */

static int send_fd(int fd)
{
	char data = '.', ctl[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec io = { .iov_base = &data, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &io, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof(ctl),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
	int sv[2], r;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	r = ret(sendmsg(sv[0], &msg, 0));
	if (r >= 0) {
		/* Sent: receive it, so that the caller sees a real fd crossed over. */
		msg.msg_controllen = sizeof(ctl);
		r = ret(recvmsg(sv[1], &msg, MSG_CMSG_CLOEXEC));
		if (r >= 0 && (cm = CMSG_FIRSTHDR(&msg)) && cm->cmsg_type == SCM_RIGHTS) {
			memcpy(&r, CMSG_DATA(cm), sizeof(int));
			close(r);
			r = 0;
		}
	}
	close(sv[0]);
	close(sv[1]);
	return r;
}

static int raw_openat2(int dirfd, const char *path, __u64 flags, __u64 resolve)
{
	struct open_how how = { .flags = flags, .resolve = resolve };

	return ret(syscall(SYS_openat2, dirfd, path, &how, sizeof(how)));
}

static int mode_refuse(void)
{
	int a = credbox_dir("a"), fd, r, pidfd;
	char path[64];

	result(a == A_FD && grant_works(), "grant a works before the attempts");

	/* Outside every grant: Landlock (DAC alone would allow the 0644 files). */
	refused(ret(open("/etc/passwd", O_RDONLY | O_CLOEXEC)), EACCES,
		"open /etc/passwd, outside every grant (Landlock)");
	refused(ret(open("/srv/e2e/pub/pub.txt", O_RDONLY | O_CLOEXEC)), EACCES,
		"open a world-readable file outside every grant (Landlock)");
	refused(ret(open("/srv/e2e/a/README", O_RDONLY | O_CLOEXEC)), EACCES,
		"open a granted file by its path, without the grant");

	/* Out of the tree through the grant: RESOLVE_BENEATH. */
	refused(credbox_openat("a", "../b/README", O_RDONLY | O_CLOEXEC, 0), EXDEV,
		"credbox_openat a ../b/README");
	refused(credbox_openat("a", "sub/../../b/README", O_RDONLY | O_CLOEXEC, 0), EXDEV,
		"credbox_openat a sub/../../b/README");
	refused(credbox_openat("a", "../ESCAPED", O_WRONLY | O_CREAT | O_CLOEXEC, 0600), EXDEV,
		"credbox_openat a ../ESCAPED with O_CREAT");
	refused(credbox_openat("a", "/etc/passwd", O_RDONLY | O_CLOEXEC, 0), EXDEV,
		"credbox_openat a /etc/passwd (absolute path)");
	refused(credbox_openat("a", "ESC/passwd", O_RDONLY | O_CLOEXEC, 0), EXDEV,
		"credbox_openat a ESC/passwd (symlink to /etc)");
	refused(credbox_openat("a", "TOB/README", O_RDONLY | O_CLOEXEC, 0), EXDEV,
		"credbox_openat a TOB/README (symlink to ../b, another grant)");
	snprintf(path, sizeof(path), "/proc/self/fd/%d/README", a);
	refused(credbox_openat("a", path, O_RDONLY | O_CLOEXEC, 0), EXDEV,
		"credbox_openat a /proc/self/fd/N/README");

	/* The kernel's own rules for the flag, whatever the client library does. */
	refused(raw_openat2(a, "README", O_RDONLY | O_CLOEXEC | OA2_CRED_INHERIT, 0), EPERM,
		"openat2 OA2_CRED_INHERIT without RESOLVE_BENEATH");
	refused(raw_openat2(AT_FDCWD, "/srv/e2e/a/README", O_RDONLY | OA2_CRED_INHERIT,
			    RESOLVE_BENEATH), EINVAL,
		"openat2 OA2_CRED_INHERIT from AT_FDCWD");

	/* The kernel follows no /proc/self/fd link of a granted directory. */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", a);
	refused(ret(open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)), EPERM,
		"reopen the grant through /proc/self/fd/N");
	snprintf(path, sizeof(path), "/proc/self/fd/%d/README", a);
	refused(ret(open(path, O_RDONLY | O_CLOEXEC)), EPERM,
		"open /proc/self/fd/N/README");

	/* The rights never leave the process. */
	refused(send_fd(a), EPERM, "send the grant fd over a unix socket (SCM_RIGHTS)");
	fd = dup(a);
	refused(send_fd(fd), EPERM, "send a dup of the grant fd over a unix socket");
	close(fd);
	fd = credbox_openat("a", "README", O_RDONLY | O_CLOEXEC, 0);
	r = send_fd(fd);
	result(r == 0, "control: a file opened through the grant can be sent (%s)", ename(r));
	if (fd >= 0)
		close(fd);
	pidfd = ret(syscall(SYS_pidfd_open, getpid(), 0));
	denied(pidfd < 0 ? pidfd : ret(syscall(SYS_pidfd_getfd, pidfd, a, 0)),
	       "pidfd_getfd on its own grant fd");
	if (pidfd >= 0)
		close(pidfd);
	denied(ret(ptrace(PTRACE_TRACEME, 0, 0, 0)), "ptrace(PTRACE_TRACEME)");
	refused(ret(prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)), EPERM, "prctl(PR_SET_DUMPABLE, 1)");
	r = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
	result(r == 0, "the process is not dumpable (PR_GET_DUMPABLE %d)", r);
	denied(ret(syscall(SYS_io_uring_setup, 1, NULL)), "io_uring_setup");

	/* What the profile denies: a per-call errno, and the profile's action = errno. */
	fd = credbox_openat("a", "README", O_RDONLY | O_CLOEXEC, 0);
	refused(fd < 0 ? fd : ret(fchown(fd, ID_DRIVE, ID_DRIVE)), EROFS,
		"fchown, denied by the profile as @chown:EROFS");
	if (fd >= 0)
		close(fd);
	refused(ret(sethostname("x", 1)), ENODATA,
		"sethostname, not in the allow-list: action = errno, errno = ENODATA");
	refused(ret(setuid(0)), ENODATA, "setuid(0), not in the allow-list");
	result(getuid() == 1002 && geteuid() == 1002 && getgid() == 1002,
	       "still uid/gid 1002 (sandbox) at the end");
	return failures ? 1 : 0;
}

/* ---- execve ---------------------------------------------------------------------------- */

static int mode_exec(const char *self)
{
	char *const argv[] = { (char *)self, "afterexec", NULL };
	extern char **environ;
	int a = credbox_dir("a"), r, ctl;

	/* Every way to ask for the fd to survive: FD_CLOEXEC cleared, a dup without it. */
	r = fcntl(a, F_SETFD, 0);
	result(a == A_FD && r == 0, "clear FD_CLOEXEC on grant a (fd %d)", a);
	r = dup2(a, 20);
	/* F_GETFD tells what execve() does: it closes a grant whatever the bit says. */
	result(r == 20 && fcntl(20, F_GETFD) == FD_CLOEXEC,
	       "dup2 grant a to fd 20 without FD_CLOEXEC: F_GETFD still reports FD_CLOEXEC");
	/* Control: a file opened through the grant, without O_CLOEXEC, survives execve. */
	ctl = credbox_openat("a", "README", O_RDONLY, 0);
	r = ctl >= 0 ? dup2(ctl, 30) : ctl;
	if (ctl >= 0)
		close(ctl);
	result(r == 30, "control: README opened through the grant at fd 30, no FD_CLOEXEC");
	fflush(stdout);
	execve(self, argv, environ);
	result(0, "execve %s (%s)", self, ename(-errno));
	return 1;
}

static int mode_afterexec(void)
{
	char seen[256] = "", buf[16];
	struct dirent *de;
	int has[1024] = { 0 }, cred = 0, r;
	DIR *d = opendir("/proc/self/fd");

	result(d != NULL, "after execve: /proc/self/fd can be listed (%s)", d ? "yes" : "no");
	if (!d)
		return 1;
	while ((de = readdir(d))) {
		int n = atoi(de->d_name);

		if (de->d_name[0] == '.' || n == dirfd(d))
			continue;
		if (n >= 0 && n < 1024)
			has[n] = 1;
		r = fcntl(n, F_GETFL);
		cred += r >= 0 && (r & O_CRED_ALLOW);
		if (strlen(seen) + strlen(de->d_name) + 2 < sizeof(seen))
			strcat(strcat(seen, " "), de->d_name);
	}
	closedir(d);
	printf("# after execve, /proc/self/fd lists:%s\n", seen);
	result(!has[A_FD], "after execve: fd %d (the grant, FD_CLOEXEC cleared) is gone", A_FD);
	result(!has[20], "after execve: fd 20 (a dup of the grant) is gone");
	result(!has[B_FD], "after execve: fd %d (grant b) is gone", B_FD);
	result(!cred, "after execve: no open fd has O_CRED_ALLOW (%d found)", cred);
	result(has[30] && read_all(30, buf, sizeof(buf)) > 0 && !strncmp(buf, "alpha", 5),
	       "after execve: control fd 30 (an ordinary file) is still open and readable");
	r = ret(fcntl(A_FD, F_GETFD));
	result(r == -EBADF, "after execve: fcntl(%d, F_GETFD) is EBADF (%s)", A_FD, ename(r));
	r = credbox_dir("a");
	result(r == -EBADF, "after execve: credbox_dir(\"a\") is -EBADF although CREDBOX_DIRS "
	       "still names it (%s)", ename(r));
	return failures ? 1 : 0;
}

/* ---- another process of the same uid --------------------------------------------------- */

static volatile sig_atomic_t go;

static void on_usr1(int sig)
{
	go = 1;
}

static int mode_hold(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	sigset_t none;

	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&none);
	printf("# ready %d %d\n", getpid(), credbox_dir("a"));
	fflush(stdout);
	alarm(300);	/* never hang a test run */
	while (!go)
		sigsuspend(&none);
	result(grant_works(), "the held process's grant still works after the attacks");
	result(prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 0, "the held process is still not dumpable");
	return failures ? 1 : 0;
}

static int mode_attack(pid_t pid, int fd)
{
	char path[64], buf[64];
	struct iovec local = { .iov_base = buf, .iov_len = 8 };
	struct iovec remote = { .iov_base = (void *)0x400000, .iov_len = 8 };
	int pidfd, r;

	result(getuid() == 1002 && geteuid() == 1002, "attacker runs as sandbox (uid 1002), "
	       "the sandboxed program's uid");
	refused(ret(open("/srv/e2e/a/README", O_RDONLY)), EACCES,
		"attacker: open the granted file by its path");
	pidfd = ret(syscall(SYS_pidfd_open, pid, 0));
	printf("# attacker: pidfd_open(%d) gives %s\n", pid, ename(pidfd));
	refused(pidfd < 0 ? pidfd : ret(syscall(SYS_pidfd_getfd, pidfd, fd, 0)), EPERM,
		"attacker: pidfd_getfd of the grant fd");
	if (pidfd >= 0)
		close(pidfd);
	refused(ret(ptrace(PTRACE_ATTACH, pid, 0, 0)), EPERM, "attacker: ptrace(PTRACE_ATTACH)");
	refused(ret(ptrace(PTRACE_SEIZE, pid, 0, 0)), EPERM, "attacker: ptrace(PTRACE_SEIZE)");
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, fd);
	refused(ret(open(path, O_RDONLY | O_DIRECTORY)), EACCES, "attacker: open /proc/PID/fd/N");
	snprintf(path, sizeof(path), "/proc/%d/fd/%d/README", pid, fd);
	refused(ret(open(path, O_RDONLY)), EACCES, "attacker: open /proc/PID/fd/N/README");
	r = ret(syscall(SYS_process_vm_readv, pid, &local, 1, &remote, 1, 0));
	refused(r, EPERM, "attacker: process_vm_readv");
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";
	unsigned long execfn = getauxval(AT_EXECFN);

#ifdef E2E_STATIC
	kind = "static: ";
#else
	kind = "dynamic: ";
#endif
	if (!strcmp(m, "attack") || !strcmp(m, "hold"))
		kind = "";
	if (!strcmp(m, "attack"))
		check_alive = 0;
	if (!strcmp(m, "grants"))
		return mode_grants();
	if (!strcmp(m, "refuse"))
		return mode_refuse();
	if (!strcmp(m, "exec"))
		return mode_exec(execfn ? (const char *)execfn : argv[0]);
	if (!strcmp(m, "afterexec"))
		return mode_afterexec();
	if (!strcmp(m, "hold"))
		return mode_hold();
	if (!strcmp(m, "attack") && argc == 4)
		return mode_attack(atoi(argv[2]), atoi(argv[3]));
	if (!strcmp(m, "kill")) {
		printf("# calling sethostname, which the profile kills for\n");
		fflush(stdout);
		sethostname("x", 1);
		printf("still alive after sethostname\n");
		return 1;
	}
	if (!strcmp(m, "i386")) {
		long r;

		printf("# calling getpid through int 0x80, the i386 ABI\n");
		fflush(stdout);
		__asm__ volatile("int $0x80" : "=a"(r) : "a"(20L /* i386 getpid */) : "memory");
		printf("still alive after int 0x80: getpid gave %ld, the pid is %d\n", r,
		       (int)getpid());
		return r == getpid() ? 0 : 1;
	}
	if (!strcmp(m, "ran")) {
		printf("RAN\n");
		return 0;
	}
	fprintf(stderr, "usage: e2e-probe grants|refuse|exec|afterexec|hold|attack PID FD|kill|i386|ran\n");
	return 2;
}
