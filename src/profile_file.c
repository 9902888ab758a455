// SPDX-License-Identifier: GPL-2.0
/* profile_file: find, trust and read the files of a profile; see profile_file.h. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile.h"
#include "profile_file.h"

#define MAX_SYMLINKS	40	/* as the kernel's path walk */

int profile_file_locate(const char *arg, const char *sysconfdir, char *path, size_t size)
{
	const char *s;

	if (strchr(arg, '/')) {
		if ((size_t)snprintf(path, size, "%s", arg) >= size)
			return -ENAMETOOLONG;
		return 0;
	}
	for (s = arg; *s; s++) {
		if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '-' ||
		      (*s == '.' && s > arg)))
			return -EINVAL;
	}
	if (s == arg || s - arg > PROFILE_NAME_MAX)
		return -EINVAL;
	/* "dosbox.ini" names the same profile as "dosbox", not dosbox.ini.ini */
	if (s - arg > 4 && !strcmp(s - 4, ".ini"))
		s -= 4;
	if ((size_t)snprintf(path, size, "%s/credbox/%.*s.ini", sysconfdir, (int)(s - arg), arg) >=
	    size)
		return -ENAMETOOLONG;
	return 0;
}

/* ---- trust: the walk from / ------------------------------------------------------------- */

struct walk {
	const char *file;	/* the path as given, for hints */
	int dir;		/* O_PATH fd of the directory reached */
	struct stat dst;	/* its stat */
	char real[PATH_MAX];	/* its path, symbolic links resolved ("" for /) */
	int links;
};

static int fail(struct profile_file_error *e, int err, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(struct profile_file_error *e, int err, const char *hint, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	snprintf(e->hint, sizeof(e->hint), "%s", hint ? hint : "");
	return err;
}

static const char *type_name(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" :
	       S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device" :
	       S_ISLNK(m) ? "a symbolic link" : "not a regular file";
}

static const char *writable_by(mode_t m)
{
	return (m & 022) == 022 ? "group- and world-writable" :
	       (m & 020) ? "group-writable" : "writable by others";
}

/*
 * Whoever owns a directory, or may write to it, can rename what is in it and put something
 * else in its place. strict: the file's own directory, where the sticky bit is not enough.
 */
static int check_dir(const char *path, const struct stat *st, int strict,
		     struct profile_file_error *e)
{
	char hint[PATH_MAX + 64];
	const char *p = *path ? path : "/";

	if (st->st_uid != 0) {
		snprintf(hint, sizeof(hint), "chown root %s, or keep the profile in a directory "
			 "of root's, such as /etc/credbox", p);
		return fail(e, -EPERM, hint, "directory %s: owned by uid %u, not by root", p,
			    (unsigned)st->st_uid);
	}
	if (!(st->st_mode & 022) || ((st->st_mode & S_ISVTX) && !strict))
		return 0;
	if (st->st_mode & S_ISVTX)
		return fail(e, -EPERM, "keep profiles in a directory only root can write to, "
			    "such as /etc/credbox", "directory %s: %s (mode %04o)", p,
			    writable_by(st->st_mode), (unsigned)st->st_mode & 07777);
	snprintf(hint, sizeof(hint), "chmod go-w %s", p);
	return fail(e, -EPERM, hint, "directory %s: %s (mode %04o)", p, writable_by(st->st_mode),
		    (unsigned)st->st_mode & 07777);
}

/* Make fd, a directory at real, the one reached, once it passed the check (known: its stat). */
static int walk_enter(struct walk *w, int fd, const char *real, const struct stat *known,
		      struct profile_file_error *e)
{
	struct stat st;
	int err;

	if (known)
		st = *known;	/* the walk's own fstat of fd */
	else if (fstat(fd, &st) < 0) {
		err = -errno;
		close(fd);
		return fail(e, err, NULL, "%s: %s", real, strerror(-err));
	}
	err = check_dir(real, &st, 0, e);
	if (err) {
		close(fd);
		return err;
	}
	if (w->dir >= 0)
		close(w->dir);
	w->dir = fd;
	w->dst = st;
	if (real != w->real)
		snprintf(w->real, sizeof(w->real), "%s", real);
	return 0;
}

/* Enter fd, the directory c of w->real (st: its stat): w->real grows by "/c" where it is. */
static int walk_down(struct walk *w, int fd, const char *c, const struct stat *st,
		     struct profile_file_error *e)
{
	size_t n = strlen(w->real);
	int err;

	if ((size_t)snprintf(w->real + n, sizeof(w->real) - n, "/%s", c) >=
	    sizeof(w->real) - n) {
		w->real[n] = '\0';
		close(fd);
		return fail(e, -ENAMETOOLONG, NULL, "path too long");
	}
	err = walk_enter(w, fd, w->real, st, e);
	if (err)
		w->real[n] = '\0';	/* the path of w->dir again */
	return err;
}

static int walk_root(struct walk *w, struct profile_file_error *e)
{
	int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return fail(e, -errno, NULL, "/: %s", strerror(errno));
	return walk_enter(w, fd, "", NULL, e);
}

static int walk_dotdot(struct walk *w, struct profile_file_error *e)
{
	char up[PATH_MAX];
	int fd = openat(w->dir, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return fail(e, -errno, NULL, "%s/..: %s", w->real, strerror(errno));
	snprintf(up, sizeof(up), "%s", w->real);
	if (strrchr(up, '/'))		/* "" is /, whose .. is itself */
		*strrchr(up, '/') = '\0';
	return walk_enter(w, fd, up, NULL, e);
}

/*
 * The walk's path buffers (20 KiB): on the heap, since credbox must run on a small stack. A
 * start writes the first bytes of todo only (a page: each page first touched costs a fault).
 */
struct walk_buf {
	char todo[2 * PATH_MAX], target[PATH_MAX], tail[2 * PATH_MAX];
};

/*
 * The symbolic link fd (at w->real/name, whose stat is st): its target, then rest, become the
 * path still to walk, in b->todo.
 */
static int walk_symlink(struct walk *w, int fd, const struct stat *st, const char *name,
			struct walk_buf *b, const char *rest, struct profile_file_error *e)
{
	char *target = b->target, *tail = b->tail, *todo = b->todo;
	size_t size = sizeof(b->todo);
	ssize_t n;

	if (st->st_uid != 0)
		return fail(e, -EPERM, "give the path the link points to",
			    "%s/%s: a symbolic link owned by uid %u, not by root", w->real, name,
			    (unsigned)st->st_uid);
	if (++w->links > MAX_SYMLINKS)
		return fail(e, -ELOOP, NULL, "too many symbolic links");
	n = readlinkat(fd, "", target, sizeof(b->target));
	if (n < 0 || (size_t)n >= sizeof(b->target))
		return fail(e, n < 0 ? -errno : -ENAMETOOLONG, NULL, "%s/%s: cannot read the link",
			    w->real, name);
	target[n] = '\0';
	snprintf(tail, sizeof(b->tail), "%s", rest);
	if ((size_t)snprintf(todo, size, "%s/%s", target, tail) >= size)
		return fail(e, -ENAMETOOLONG, NULL, "path too long");
	return target[0] == '/' ? walk_root(w, e) : 0;
}

/* The next component of *p (NULL: none left); *p moves past it. */
static char *next_component(char **p)
{
	char *s = *p, *end;

	while (*s == '/')
		s++;
	if (!*s)
		return NULL;
	end = strchrnul(s, '/');
	*p = *end ? end + 1 : end;
	*end = '\0';
	return s;
}

static int last_component(const char *rest)
{
	return !rest[strspn(rest, "/")];
}

/*
 * Walk to path: on success, w->dir is its directory (checked, w->real its path), *fd an O_PATH
 * descriptor of the last component, not followed if a link, with its stat, and name its name.
 */
static int walk_in(struct walk *w, struct walk_buf *b, const char *path, int *fd,
		   struct stat *st, char *name, struct profile_file_error *e)
{
	char *todo = b->todo, *rest = todo, *c;
	size_t len = 0;
	int err, last;

	/* todo: the current directory (for a relative path), then "/" and path */
	if (path[0] != '/') {
		if (!getcwd(todo, sizeof(b->todo)))
			return fail(e, -errno, NULL, "the current directory: %s",
				    strerror(errno));
		len = strlen(todo);
	}
	if ((size_t)snprintf(todo + len, sizeof(b->todo) - len, "/%s", path) >=
	    sizeof(b->todo) - len)
		return fail(e, -ENAMETOOLONG, NULL, "path too long");
	err = walk_root(w, e);
	while (!err && (c = next_component(&rest))) {
		last = last_component(rest);
		if (!strcmp(c, ".") || !strcmp(c, "..")) {
			err = c[1] ? walk_dotdot(w, e) : 0;
			if (!err && last)
				err = fail(e, -EISDIR, NULL, "a directory, not a profile");
			continue;
		}
		*fd = openat(w->dir, c, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (*fd < 0 || fstat(*fd, st) < 0) {
			err = -errno;
			if (*fd >= 0)
				close(*fd);
			*fd = -1;
			return last ? fail(e, err, NULL, "%s", strerror(-err)) :
				      fail(e, err, NULL, "directory %s/%s: %s", w->real, c,
					   strerror(-err));
		}
		if (S_ISLNK(st->st_mode)) {
			err = walk_symlink(w, *fd, st, c, b, rest, e);
			rest = todo;
		} else if (last) {
			memcpy(name, c, strnlen(c, NAME_MAX));
			name[strnlen(c, NAME_MAX)] = '\0';
			return 0;
		} else if (!S_ISDIR(st->st_mode)) {
			err = fail(e, -ENOTDIR, NULL, "%s/%s: not a directory", w->real, c);
		} else {
			err = walk_down(w, *fd, c, st, e);
			*fd = -1;	/* w->dir now, or closed */
		}
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
	}
	return err ? err : fail(e, -EISDIR, NULL, "a directory, not a profile");
}

static int walk(struct walk *w, const char *path, int *fd, struct stat *st, char *name,
		struct profile_file_error *e)
{
	struct walk_buf *b = malloc(sizeof(*b));
	int err;

	if (!b)
		return fail(e, -ENOMEM, NULL, "out of memory");
	err = walk_in(w, b, path, fd, st, name, e);
	free(b);
	return err;
}

/* The checks of the file itself (st: not followed). */
static int check_file(const struct walk *w, const struct stat *st, struct profile_file_error *e)
{
	char hint[PATH_MAX + 64];

	if (!S_ISREG(st->st_mode))
		return fail(e, S_ISDIR(st->st_mode) ? -EISDIR : -EINVAL,
			    S_ISDIR(st->st_mode) ? "name the profile file; the .ini files of "
			    "a directory NAME.d are read after NAME.ini" : NULL,
			    "%s, not a profile", type_name(st->st_mode));
	if (st->st_uid != 0) {
		snprintf(hint, sizeof(hint), "chown root %s", w->file);
		return fail(e, -EPERM, hint, "owned by uid %u, not by root (the profile decides "
			    "what root hands out)", (unsigned)st->st_uid);
	}
	if (st->st_mode & 022) {
		snprintf(hint, sizeof(hint), "chmod go-w %s", w->file);
		return fail(e, -EPERM, hint, "%s (mode %04o)", writable_by(st->st_mode),
			    (unsigned)st->st_mode & 07777);
	}
	if (st->st_size > PROFILE_MAX_SIZE)
		return fail(e, -EFBIG, NULL, "larger than %d bytes", PROFILE_MAX_SIZE);
	return 0;
}

int profile_file_open(const char *path, struct stat *st, char *real, size_t size,
		      struct profile_file_error *e)
{
	struct walk w = { .file = path, .dir = -1 };
	char name[NAME_MAX + 1];
	struct stat rst;
	int opath = -1, fd, err;

	err = walk(&w, path, &opath, st, name, e);
	if (!err)
		err = check_dir(w.real, &w.dst, 1, e);
	if (!err)
		err = check_file(&w, st, e);
	if (opath >= 0)
		close(opath);
	fd = err ? err : openat(w.dir, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY |
				O_CLOEXEC);
	if (!err && fd < 0)
		err = fail(e, -errno, NULL, "%s", strerror(errno));
	else if (!err && (fstat(fd, &rst) < 0 || rst.st_dev != st->st_dev ||
			  rst.st_ino != st->st_ino))
		err = fail(e, -EAGAIN, NULL, "replaced while it was opened");
	if (!err && real)
		snprintf(real, size, "%s/%s", w.real, name);
	if (w.dir >= 0)
		close(w.dir);
	if (err && fd >= 0)
		close(fd);
	return err ? err : fd;
}

/* ---- reading the files of a profile ------------------------------------------------------ */

/*
 * What a start writes comes first, so that it shares pages: each page first touched costs a
 * fault. trust_seen is read once trust_noted says it was written; e once a failure filled it
 * (every failure of profile_file_open and open_dropins does, through fail()).
 */
struct loader {
	struct policy *pol;
	struct diag *d;
	struct diag *trust;	/* NULL: a file root may not trust is an error; else noted here */
	struct profile_include inc;
	size_t nseen;
	int depth;
	const char *name;	/* the NAME the profile was found by, or NULL */
	int open_err;		/* of the last file that could not be opened */
	int binary;		/* a file was no text (profile_parse_file) */
	int trust_noted;	/* trust_seen holds something */
	struct {
		dev_t dev;
		ino_t ino;
		int line;	/* where it was included; 0: the profile or a drop-in */
	} seen[PROFILE_MAX_FILES];
	char real[PATH_MAX];
	char dir[PROFILE_MAX_DEPTH + 1][PATH_MAX];	/* of each file being read */
	char trust_seen[4200];	/* the last problem noted there: a directory is named once */
	struct profile_file_error e;
};

/*
 * Read all of fd (at most PROFILE_MAX_SIZE bytes; the file is regular), into a buffer the size
 * fstat gave (size) and grown if the file grew: not the largest a profile may be, which malloc
 * would map and unmap again at every start. NULL: errno.
 */
static char *read_all(int fd, off_t size, size_t *len)
{
	size_t cap = size >= 0 && size < PROFILE_MAX_SIZE ? (size_t)size + 1 : PROFILE_MAX_SIZE + 1;
	char *buf = malloc(cap), *nb;
	ssize_t n;

	*len = 0;
	while (buf && (n = read(fd, buf + *len, cap - *len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || *len + n > PROFILE_MAX_SIZE) {
			errno = n < 0 ? errno : EFBIG;
			free(buf);
			return NULL;
		}
		*len += n;
		if (*len == cap && cap < PROFILE_MAX_SIZE + 1) {
			cap = cap * 2 < PROFILE_MAX_SIZE + 1 ? cap * 2 : PROFILE_MAX_SIZE + 1;
			nb = realloc(buf, cap);
			if (!nb)
				free(buf);
			buf = nb;
		}
	}
	return buf;
}

static int count_lines(const char *buf, size_t len)
{
	int n = 0;
	size_t i;

	for (i = 0; i < len; i++)
		n += buf[i] == '\n';
	return n + (len && buf[len - 1] != '\n');
}

/* Record why a file cannot be read, in d: in the profile (line 0), or at the include's line. */
static int report_to(struct loader *l, struct diag *d, int line, const char *what,
		     const char *path)
{
	const char *hint = l->e.hint[0] ? l->e.hint : NULL;

	if (!what && l->name && l->open_err == -ENOENT) {
		char here[PROFILE_NAME_MAX + 8];
		int found;

		/* a file of that name in the current directory is what was meant, most likely */
		snprintf(here, sizeof(here), "./%s", l->name);
		found = access(here, F_OK) == 0;
		if (!found) {
			snprintf(here, sizeof(here), "./%s.ini", l->name);
			found = access(here, F_OK) == 0;
		}
		if (!found)
			snprintf(l->e.hint, sizeof(l->e.hint), "--profile %s reads %s; a file is "
				 "given by a path with a '/', such as ./%s", l->name, path, l->name);
		else
			snprintf(l->e.hint, sizeof(l->e.hint), "--profile %s reads %s; for the file "
				 "%s of this directory, give its path: --profile %s", l->name, path,
				 here + 2, here);
		hint = l->e.hint;
	}
	if (!what)
		return diag_err(d, 0, hint, "%s", l->e.msg);
	return diag_err(d, line, hint, "%s %s: %s", what, path, l->e.msg);
}

static int report(struct loader *l, int line, const char *what, const char *path)
{
	return report_to(l, l->d, line, what, path);
}

/* What root may not trust, noted for --check: once for a directory that several files share. */
static void note_trust(struct loader *l, int line, const char *what, const char *path)
{
	if (l->trust_noted && !strcmp(l->trust_seen, l->e.msg))
		return;
	l->trust_noted = 1;
	snprintf(l->trust_seen, sizeof(l->trust_seen), "%s", l->e.msg);
	report_to(l, l->trust, line, what, path);
}

/*
 * A draft that root may not trust, read for --check all the same (as sshd -t reads any file):
 * opened as a plain file, its problem noted in l->trust by the caller. The same rules as
 * profile_file_open otherwise: a regular file, not too large; real: its resolved path.
 */
static int open_draft(const char *path, struct stat *st, char *real,
		      struct profile_file_error *e)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return fail(e, -errno, NULL, "%s", strerror(errno));
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode) || st->st_size > PROFILE_MAX_SIZE ||
	    !realpath(path, real)) {
		close(fd);
		return fail(e, -EINVAL, NULL, "not a regular file of at most %d bytes",
			    PROFILE_MAX_SIZE);
	}
	return fd;
}

/* The file path (what: "include", "drop-in", or NULL for the profile) into the policy. */
static int read_one(struct loader *l, const char *path, int line, const char *what)
{
	struct stat st;
	char *buf, *slash;
	size_t len, i;
	int fd, base, err;

	fd = profile_file_open(path, &st, l->real, sizeof(l->real), &l->e);
	if (fd == -EPERM && l->trust) {
		note_trust(l, line, what, path);
		fd = open_draft(path, &st, l->real, &l->e);
	}
	if (fd < 0) {
		l->open_err = fd;
		return report(l, line, what, path);
	}
	for (i = 0; i < l->nseen; i++) {
		if (l->seen[i].dev == st.st_dev && l->seen[i].ino == st.st_ino) {
			close(fd);
			return diag_err(l->d, line, NULL, "%s %s: already read as part of this "
					"profile", what ? what : "", path);
		}
	}
	if (l->nseen == PROFILE_MAX_FILES) {
		close(fd);
		return diag_err(l->d, line, NULL, "%s %s: more than %d files in one profile",
				what ? what : "", path, PROFILE_MAX_FILES);
	}
	l->seen[l->nseen].dev = st.st_dev;
	l->seen[l->nseen].ino = st.st_ino;
	l->seen[l->nseen++].line = line;
	buf = read_all(fd, st.st_size, &len);
	close(fd);
	if (!buf)
		return errno == ENOMEM ? -ENOMEM :
		       diag_err(l->d, line, NULL, "%s%s%s: %s", what ? what : "", what ? " " : "",
				what ? path : "cannot read", strerror(errno));
	base = diag_add_source(l->d, path, count_lines(buf, len));
	snprintf(l->dir[l->depth], sizeof(l->dir[0]), "%s", l->real);
	slash = strrchr(l->dir[l->depth], '/');
	*slash = '\0';
	err = base < 0 ? base : profile_parse_file(l->pol, buf, len, base, &l->inc, l->d);
	free(buf);
	if (err == -ENOEXEC) {
		l->binary = 1;
		err = -EINVAL;
	}
	return err;
}

static int on_include(void *ctx, const char *file, int line)
{
	struct loader *l = ctx;
	char path[PATH_MAX];
	int err;

	if (l->depth == PROFILE_MAX_DEPTH)
		return diag_err(l->d, line, NULL, "include %s: includes nested more than %d deep",
				file, PROFILE_MAX_DEPTH);
	if ((size_t)snprintf(path, sizeof(path), "%s%s%s", file[0] == '/' ? "" :
			     l->dir[l->depth], file[0] == '/' ? "" : "/", file) >= sizeof(path))
		return diag_err(l->d, line, NULL, "include %s: path too long", file);
	l->depth++;
	err = read_one(l, path, line, "include");
	l->depth--;
	return err;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_dropin(const struct dirent *de)
{
	size_t n = strlen(de->d_name);

	return de->d_name[0] != '.' && n > 4 && !strcmp(de->d_name + n - 4, ".ini");
}

/*
 * The directory of drop-ins, if there is one: an fd to list it, once it passed the checks of a
 * profile's own directory (the checks of each file come when it is read). -ENOENT: none.
 */
static int open_dropins(const char *dir, struct profile_file_error *e)
{
	struct walk w = { .file = dir, .dir = -1 };
	char name[NAME_MAX + 1], real[PATH_MAX];
	struct stat st, rst;
	int opath = -1, fd = -1, err;

	err = walk(&w, dir, &opath, &st, name, e);
	if (!err && !S_ISDIR(st.st_mode))
		err = fail(e, -ENOTDIR, NULL, "%s, not a directory", type_name(st.st_mode));
	if (!err && (size_t)snprintf(real, sizeof(real), "%s/%s", w.real, name) >= sizeof(real))
		err = fail(e, -ENAMETOOLONG, NULL, "path too long");
	if (!err)
		err = check_dir(real, &st, 1, e);
	if (!err) {
		fd = openat(w.dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			err = fail(e, -errno, NULL, "%s", strerror(errno));
		else if (fstat(fd, &rst) < 0 || rst.st_ino != st.st_ino || rst.st_dev != st.st_dev)
			err = fail(e, -EAGAIN, NULL, "replaced while it was opened");
	}
	if (opath >= 0)
		close(opath);
	if (w.dir >= 0)
		close(w.dir);
	if (err && fd >= 0)
		close(fd);
	return err ? err : fd;
}

/* NAME.ini's drop-ins: the .ini files of NAME.d in order, each under the rules of a profile. */
static int read_dropins(struct loader *l, const char *profile)
{
	char dir[PATH_MAX], path[PATH_MAX];
	struct dirent **names;
	struct stat st;
	size_t len = strlen(profile);
	int n, i, fd, err = 0;

	if (len > 4 && !strcmp(profile + len - 4, ".ini"))
		len -= 4;
	if ((size_t)snprintf(dir, sizeof(dir), "%.*s.d", (int)len, profile) >= sizeof(dir))
		return diag_err(l->d, 0, NULL, "%s.d: path too long", profile);
	/*
	 * Most profiles have none: one lstat tells, where the walk from / costs a dozen calls and
	 * the pages of its buffer and message. Its ENOENT is the walk's answer: the directories
	 * above NAME.d are the profile's own, which its walk has just let through. Anything
	 * found, a dangling link included, is walked and checked as before.
	 */
	if (fstatat(AT_FDCWD, dir, &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT)
		return 0;
	fd = open_dropins(dir, &l->e);
	if (fd == -EPERM && l->trust) {
		/* the walk stopped at a directory on the way, before it learnt whether dir exists */
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		fd = fd < 0 ? -errno : fd;
		if (fd != -ENOENT)
			note_trust(l, 0, "drop-ins", dir);
	}
	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return report(l, 0, "drop-ins", dir);
	n = scandirat(fd, ".", &names, is_dropin, by_name);
	close(fd);
	if (n < 0)
		return diag_err(l->d, 0, NULL, "drop-ins %s: %s", dir, strerror(errno));
	for (i = 0; i < n; i++) {
		if (err != -ENOMEM &&
		    (size_t)snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name) <
		    sizeof(path)) {
			int e = read_one(l, path, 0, "drop-in");

			err = e ? e : err;
		}
		free(names[i]);
	}
	free(names);
	return err;
}

int profile_file_load(const char *path, const char *name, struct policy *pol, struct diag *d,
		      struct diag *trust)
{
	/* Neither calloc nor a memset: the buffers are written before they are read. */
	struct loader *l = malloc(sizeof(*l));
	int err, e, binary;

	profile_parse_begin(pol);
	if (!l)
		return -ENOMEM;
	l->pol = pol;
	l->d = d;
	l->trust = trust;
	l->inc = (struct profile_include){ on_include, l };
	l->nseen = 0;
	l->depth = 0;
	l->name = name;
	l->open_err = 0;
	l->binary = 0;
	l->trust_noted = 0;
	l->real[0] = '\0';
	err = read_one(l, path, 0, NULL);
	if (d->nsrc && err != -ENOMEM) {
		e = read_dropins(l, path);
		err = e ? e : err;
	}
	binary = l->binary;
	free(l);
	if (err == -ENOMEM || !d->nsrc || binary)
		return err;
	e = profile_parse_end(pol, d);
	return err ? err : e;
}
