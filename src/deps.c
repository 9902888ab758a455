// SPDX-License-Identifier: GPL-2.0
/* deps: the files the program opens by path under Landlock, for --check; see deps.h. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "deps.h"
#include "loader_elf.h"
#include "util.h"

/* Debian's x86_64 glibc: the directories searched after the cache (its SYSTEM_DIRS). */
static const char *const system_dirs[] = {
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib", "/usr/lib",
};
#define LD_CACHE	"/etc/ld.so.cache"
#define LD_CACHE_MAX	(16 << 20)
/* glibc's cache: "glibc-ld.so.cache1.1", then this; entries of 24 bytes follow. */
#define CACHE_MAGIC	"glibc-ld.so.cache1.1"
#define CACHE_OLD_MAGIC	"ld.so-1.7.0"
#define CACHE_X8664	0x0303		/* FLAG_ELF_LIBC6 | FLAG_X8664_LIB64 */

struct cache_header {
	char magic[sizeof(CACHE_MAGIC) - 1];
	uint32_t nlibs, len_strings;
	uint8_t flags, pad[3];
	uint32_t extension, unused[3];
};

struct cache_entry {
	int32_t flags;
	uint32_t key, value;
	uint32_t osversion;
	uint64_t hwcap;
};

/* pread all of len at off: 0, -errno, or -ENOEXEC for a file shorter than that. */
static int read_exact(int fd, void *buf, size_t len, uint64_t off)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = pread(fd, (char *)buf + done, len - done, (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENOEXEC;
		done += n;
	}
	return 0;
}

/* [off, off + len) lies within a file of size bytes. */
static int within(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

/* The file offset of vaddr, len bytes of which a PT_LOAD segment holds from the file; or -1. */
static int64_t vaddr_to_off(const Elf64_Phdr *ph, unsigned int n, uint64_t vaddr, uint64_t len)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (ph[i].p_type == PT_LOAD && vaddr >= ph[i].p_vaddr &&
		    within(vaddr - ph[i].p_vaddr, len, ph[i].p_filesz))
			return (int64_t)(ph[i].p_offset + (vaddr - ph[i].p_vaddr));
	}
	return -1;
}

/* The string at off of strtab (size bytes, NUL-terminated at [size]) into out. */
static int copy_str(const char *strtab, uint64_t size, uint64_t off, char *out, size_t outsize)
{
	size_t len;

	if (off >= size)
		return -ENOEXEC;
	len = strlen(strtab + off);
	if (len >= outsize)
		return -ENOEXEC;
	memcpy(out, strtab + off, len + 1);
	return 0;
}

/* The dynamic section dyn (n entries) with its string table: what it asks for. */
static int read_dynamic(int fd, uint64_t size, const Elf64_Phdr *ph, unsigned int phnum,
			const Elf64_Dyn *dyn, size_t n, struct deps_elf *out)
{
	uint64_t needed[DEPS_MAX_NEEDED], strtab = 0, strsz = 0, rpath = ~0ULL, runpath = ~0ULL;
	int64_t stroff;
	char *str;
	size_t i;
	int e = 0;

	for (i = 0; i < n && dyn[i].d_tag != DT_NULL; i++) {
		uint64_t v = dyn[i].d_un.d_val;

		if (dyn[i].d_tag == DT_NEEDED && out->nneeded == DEPS_MAX_NEEDED)
			return -ENOEXEC;
		if (dyn[i].d_tag == DT_NEEDED)
			needed[out->nneeded++] = v;
		else if (dyn[i].d_tag == DT_STRTAB)
			strtab = v;
		else if (dyn[i].d_tag == DT_STRSZ)
			strsz = v;
		else if (dyn[i].d_tag == DT_RPATH)
			rpath = v;
		else if (dyn[i].d_tag == DT_RUNPATH)
			runpath = v;
	}
	if (!out->nneeded && rpath == ~0ULL && runpath == ~0ULL)
		return 0;
	if (!strsz || strsz > DEPS_MAX_STRTAB)
		return -ENOEXEC;
	stroff = vaddr_to_off(ph, phnum, strtab, strsz);
	if (stroff < 0 || !within((uint64_t)stroff, strsz, size))
		return -ENOEXEC;
	str = malloc(strsz + 1);
	if (!str)
		return -ENOMEM;
	e = read_exact(fd, str, strsz, (uint64_t)stroff);
	str[strsz] = '\0';
	for (i = 0; !e && i < out->nneeded; i++)
		e = copy_str(str, strsz, needed[i], out->needed[i], sizeof(out->needed[i]));
	if (!e && rpath != ~0ULL)
		e = copy_str(str, strsz, rpath, out->rpath, sizeof(out->rpath));
	if (!e && runpath != ~0ULL) {
		e = copy_str(str, strsz, runpath, out->runpath, sizeof(out->runpath));
		out->has_runpath = 1;
	}
	free(str);
	return e;
}

int deps_elf_read(int fd, struct deps_elf *out)
{
	Elf64_Phdr ph[LOADER_MAX_PHNUM];
	const Elf64_Phdr *dp = NULL;
	Elf64_Ehdr eh;
	struct stat st;
	Elf64_Dyn *dyn;
	unsigned int i;
	int e;

	memset(out, 0, sizeof(*out));
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -ENOEXEC;
	e = read_exact(fd, &eh, sizeof(eh), 0);
	if (e)
		return e;
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_machine != LOADER_ELF_MACHINE ||
	    eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum > LOADER_MAX_PHNUM ||
	    !within(eh.e_phoff, eh.e_phnum * sizeof(Elf64_Phdr), (uint64_t)st.st_size))
		return -ENOEXEC;
	e = read_exact(fd, ph, eh.e_phnum * sizeof(Elf64_Phdr), eh.e_phoff);
	if (e)
		return e;
	for (i = 0; i < eh.e_phnum; i++) {
		if (ph[i].p_type == PT_DYNAMIC)
			dp = &ph[i];
	}
	if (!dp)
		return 0;
	out->dynamic = 1;
	if (dp->p_filesz > DEPS_MAX_DYNAMIC || dp->p_filesz < sizeof(Elf64_Dyn) ||
	    !within(dp->p_offset, dp->p_filesz, (uint64_t)st.st_size))
		return -ENOEXEC;
	dyn = malloc(dp->p_filesz);
	if (!dyn)
		return -ENOMEM;
	e = read_exact(fd, dyn, dp->p_filesz, dp->p_offset);
	if (!e)
		e = read_dynamic(fd, (uint64_t)st.st_size, ph, eh.e_phnum, dyn,
				 dp->p_filesz / sizeof(Elf64_Dyn), out);
	free(dyn);
	return e;
}

/* ---- finding a library as the dynamic linker does ------------------------------------------- */

struct search {
	const struct plan *plan;
	struct failure_list *out;
	char *cache;			/* /etc/ld.so.cache, or NULL */
	size_t cache_len;
	const struct cache_header *ch;	/* its header, within cache */
	char (*fs_real)[PATH_MAX];	/* [filesystem] paths, resolved ("" if missing) */
	char (*missing_dir)[PATH_MAX];	/* directories already reported */
	size_t nmissing;
	struct failure f;
};

static void cache_load(struct search *s)
{
	struct cache_header *h;
	size_t off = 0;
	int fd = open(LD_CACHE, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;

	if (fd < 0)
		return;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    st.st_size <= LD_CACHE_MAX && (s->cache = malloc(st.st_size)) &&
	    read_exact(fd, s->cache, st.st_size, 0) == 0)
		s->cache_len = st.st_size;
	close(fd);
	/* the old format's header and entries first, in a cache made for both */
	if (s->cache_len > 16 && !memcmp(s->cache, CACHE_OLD_MAGIC, sizeof(CACHE_OLD_MAGIC) - 1)) {
		uint32_t n;

		memcpy(&n, s->cache + 12, sizeof(n));
		off = (16 + (size_t)n * 12 + 7) & ~(size_t)7;
	}
	if (off > s->cache_len || s->cache_len - off < sizeof(*h) ||
	    memcmp(s->cache + off, CACHE_MAGIC, sizeof(CACHE_MAGIC) - 1))
		return;
	h = (struct cache_header *)(s->cache + off);
	if (h->nlibs <= (s->cache_len - off - sizeof(*h)) / sizeof(struct cache_entry))
		s->ch = h;
}

/* The string at off of the cache (offsets count from its header), or NULL. */
static const char *cache_str(const struct search *s, uint32_t off)
{
	const char *base = (const char *)s->ch;
	size_t room = s->cache_len - (size_t)(base - s->cache);

	if (off >= room || !memchr(base + off, '\0', room - off))
		return NULL;
	return base + off;
}

/* An open fd of path if it is a library the linker would take: an x86_64 ELF object. */
static int open_candidate(const char *path)
{
	struct deps_elf probe;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0)
		return -1;
	if (deps_elf_read(fd, &probe) == -ENOEXEC) {
		close(fd);
		return -1;
	}
	return fd;
}

/* name in each directory of list (colon-separated); $ORIGIN and the like skipped. */
static int search_list(const char *list, const char *name, char *out)
{
	const char *p = list, *end;
	int fd;

	for (; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		if (end == p || memchr(p, '$', end - p) ||
		    (size_t)snprintf(out, PATH_MAX, "%.*s/%s", (int)(end - p), p, name) >= PATH_MAX)
			continue;
		fd = open_candidate(out);
		if (fd >= 0)
			return fd;
	}
	return -1;
}

/* Find name, as obj needs it: an open fd, the path in out; or -1. */
static int find_lib(const struct search *s, const struct deps_elf *obj, const char *name,
		    char *out)
{
	const struct cache_entry *ce = s->ch ? (const void *)(s->ch + 1) : NULL;
	uint32_t i;
	size_t k;
	int fd;

	if (strchr(name, '/')) {
		snprintf(out, PATH_MAX, "%s", name);
		return open_candidate(out);
	}
	if (!obj->has_runpath && (fd = search_list(obj->rpath, name, out)) >= 0)
		return fd;
	if ((fd = search_list(obj->runpath, name, out)) >= 0)
		return fd;
	for (i = 0; ce && i < s->ch->nlibs; i++) {
		const char *key = cache_str(s, ce[i].key), *value = cache_str(s, ce[i].value);

		if ((ce[i].flags & 0xffff) != CACHE_X8664 || !key || !value || strcmp(key, name))
			continue;
		snprintf(out, PATH_MAX, "%s", value);
		fd = open_candidate(out);
		if (fd >= 0)
			return fd;
	}
	for (k = 0; k < ARRAY_SIZE(system_dirs); k++) {
		if ((fd = search_list(system_dirs[k], name, out)) >= 0)
			return fd;
	}
	return -1;
}

/* ---- beneath [filesystem] ----------------------------------------------------------------- */

/* Whether the file at path (resolved) lies beneath a path of [filesystem]. */
static int reachable(const struct search *s, const char *path)
{
	char real[PATH_MAX];
	size_t i, len;

	if (!realpath(path, real))
		return 0;
	for (i = 0; i < s->plan->npaths; i++) {
		len = strlen(s->fs_real[i]);
		if (len && !strncmp(real, s->fs_real[i], len) &&
		    (real[len] == '/' || !real[len] || (len == 1 && real[0] == '/')))
			return 1;
	}
	return 0;
}

/* One failure for the directory of path (once per directory): msg built by the caller. */
static int report_dir(struct search *s, const char *path, const char *hint, const char *fmt,
		      const char *a, const char *b)
{
	char dir[PATH_MAX], *slash;
	size_t i;

	if (!realpath(path, dir))
		snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	for (i = 0; i < s->nmissing; i++) {
		if (!strcmp(s->missing_dir[i], dir))
			return 0;
	}
	if (s->nmissing < DEPS_MAX_LIBS)
		snprintf(s->missing_dir[s->nmissing++], PATH_MAX, "%s", dir);
	failure_set(&s->f, -EACCES, hint, fmt, a, b, dir);
	failure_at(&s->f, EXIT_CREDBOX, s->plan->pol->fs.sec.line);
	return failure_add(s->out, &s->f);
}

#define HINT_ADD_DIR	"add the directory, or one above it, to [filesystem] ro"

/*
 * The closure of the ELF program at prog: each library found, and beneath [filesystem]. interp:
 * its ELF interpreter (PT_INTERP), which is the dynamic linker, loaded by credbox: a DT_NEEDED
 * of its name (libc's) is the linker itself, not looked for.
 */
static int check_libs(struct search *s, const char *prog, const char *interp)
{
	char (*queue)[PATH_MAX] = calloc(DEPS_MAX_LIBS, PATH_MAX);
	char (*names)[256] = calloc(DEPS_MAX_LIBS, 256);
	struct deps_elf *obj = malloc(sizeof(*obj));
	size_t nq = 1, nnames = 0, q, i, j;
	char found[PATH_MAX];
	int fd, e = 0;

	if (!queue || !names || !obj) {
		e = -ENOMEM;
		goto out;
	}
	snprintf(queue[0], PATH_MAX, "%s", prog);
	if (*interp)
		snprintf(names[nnames++], 256, "%s", strrchr(interp, '/') ? strrchr(interp, '/') + 1 :
			 interp);
	for (q = 0; q < nq && e != -ENOMEM; q++) {
		fd = open(queue[q], O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
		if (fd < 0)
			continue;
		e = deps_elf_read(fd, obj);
		close(fd);
		if (e == -ENOMEM)
			break;
		for (i = 0; !e && i < obj->nneeded; i++) {
			for (j = 0; j < nnames && strcmp(names[j], obj->needed[i]); j++)
				;
			if (j < nnames || nnames == DEPS_MAX_LIBS)
				continue;	/* the linker loads a soname once */
			snprintf(names[nnames++], 256, "%s", obj->needed[i]);
			fd = find_lib(s, obj, obj->needed[i], found);
			if (fd < 0) {
				failure_set(&s->f, -ENOENT, "install the library, or see where the "
					    "program looks for it (readelf -d)",
					    "%s needs %s, which the dynamic linker will not find "
					    "(RUNPATH, " LD_CACHE ", the system directories)",
					    queue[q], obj->needed[i]);
				failure_at(&s->f, EXIT_CREDBOX, s->plan->pol->fs.sec.line);
				failure_add(s->out, &s->f);
				continue;
			}
			close(fd);
			if (!reachable(s, found))
				report_dir(s, found, HINT_ADD_DIR, "%s needs %s, which the dynamic "
					   "linker cannot open once Landlock is on: %s is under no "
					   "path of [filesystem]", queue[q], found);
			if (nq < DEPS_MAX_LIBS)
				snprintf(queue[nq++], PATH_MAX, "%s", found);
		}
		e = e == -ENOMEM ? e : 0;	/* an unreadable object is the loader's to report */
	}
out:
	free(queue);
	free(names);
	free(obj);
	return e == -ENOMEM ? e : 0;
}

int deps_check(const struct plan *plan, const struct loader_image *img,
	       struct failure_list *out)
{
	struct search s = { .plan = plan, .out = out };
	const char *prog = img->nscripts ? img->script[img->nscripts - 1].interp : img->execfn;
	size_t i;
	int e = -ENOMEM;

	s.fs_real = calloc(plan->npaths + 1, PATH_MAX);
	s.missing_dir = calloc(DEPS_MAX_LIBS, PATH_MAX);
	if (!s.fs_real || !s.missing_dir)
		goto out;
	for (i = 0; i < plan->npaths; i++) {
		if (!realpath(plan->paths[i].path, s.fs_real[i]))
			s.fs_real[i][0] = '\0';
	}
	/* Each interpreter of a #! chain is given the script before it by name, and opens it. */
	for (i = 0; i < img->nscripts; i++) {
		const char *script = i ? img->script[i - 1].interp : img->execfn;

		if (!reachable(&s, script))
			report_dir(&s, script, HINT_ADD_DIR, "%s opens the script %s by its name, "
				   "which it cannot once Landlock is on: %s is under no path of "
				   "[filesystem]", img->script[i].interp, script);
	}
	cache_load(&s);
	e = check_libs(&s, prog, img->interp_path);
out:
	free(s.cache);
	free(s.fs_real);
	free(s.missing_dir);
	return e;
}
