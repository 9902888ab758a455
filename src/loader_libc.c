// SPDX-License-Identifier: GPL-2.0
/*
 * loader_libc: credbox's side of the loader (loader.c is the part shared with the redirect
 * runtime): the loader_sys.h calls through the C library, the vDSO's ranges, the kernel's
 * record of the process (PR_SET_MM_MAP), and what credbox leaves behind at the jump: its
 * glibc's rseq area, its signal handlers, its name.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <linux/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>
#if __has_include(<sys/rseq.h>)
#include <sys/rseq.h>
#endif

#include "loader_elf.h"
#include "loader_sys.h"
#include "util.h"

#define PAGE		LOADER_PAGE

/* ---- loader_sys.h through the C library ---------------------------------------------------- */

long loader_sys_open(const char *path, int flags)
{
	int fd = open(path, flags);

	return fd < 0 ? -errno : fd;
}

void loader_sys_close(int fd)
{
	close(fd);
}

long loader_sys_pread(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n;

	do
		n = pread(fd, buf, len, (off_t)off);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

int loader_sys_fstat(int fd, uint32_t *mode, uint64_t *size)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	*mode = st.st_mode;
	*size = (uint64_t)st.st_size;
	return 0;
}

/*
 * faccessat2 with AT_EACCESS: the fsuid, fsgid and groups credbox took on for the program,
 * ACLs and LSMs; and the mount's noexec. Landlock is not on yet: the profile's own rules
 * are what credbox opens the program with.
 */
int loader_sys_may_exec(int fd, const char **why)
{
	struct statvfs vfs;

	if (syscall(SYS_faccessat2, fd, "", X_OK, AT_EACCESS | AT_EMPTY_PATH) != 0) {
		if (errno == EACCES)
			*why = "not executable (no execute permission)";
		return -errno;
	}
	if (fstatvfs(fd, &vfs) == 0 && (vfs.f_flag & ST_NOEXEC)) {
		*why = "on a noexec mount";
		return -EACCES;
	}
	return 0;
}

long loader_sys_mmap(uintptr_t addr, size_t len, int prot, int flags, int fd, uint64_t off)
{
	void *m = mmap((void *)addr, len, prot, flags, fd, (off_t)off);

	return m == MAP_FAILED ? -errno : (long)m;
}

void loader_sys_munmap(uintptr_t addr, size_t len)
{
	munmap((void *)addr, len);
}

int loader_sys_random(void *buf, size_t len)
{
	return getrandom(buf, len, 0) == (ssize_t)len ? 0 : errno ? -errno : -EIO;
}

int loader_randomize_va_space(void)
{
	int fd = open("/proc/sys/kernel/randomize_va_space", O_RDONLY | O_CLOEXEC);
	char va = '2';

	if (fd >= 0) {
		if (read(fd, &va, 1) != 1)
			va = '2';
		close(fd);
	}
	return va != '0';
}

int loader_sys_randomize(void)
{
	int pers = personality(0xffffffff);

	return loader_randomize_va_space() && (pers == -1 || !(pers & ADDR_NO_RANDOMIZE));
}

uint64_t loader_sys_stack_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_STACK, &rl) != 0)
		return 8UL << 20;
	return rl.rlim_cur == RLIM_INFINITY ? UINT64_MAX : rl.rlim_cur;
}

int loader_sys_auxval(unsigned long type, uintptr_t *value)
{
	errno = 0;
	*value = getauxval(type);
	return !(*value == 0 && errno == ENOENT);
}

void loader_sys_ids(uintptr_t ids[4])
{
	ids[0] = getuid();
	ids[1] = geteuid();
	ids[2] = getgid();
	ids[3] = getegid();
}

/* ---- the vDSO and vvar pages, which the program needs and must keep ------------------- */

struct special {
	struct loader_range *r;
	unsigned int n, max;
};

static void special_add(struct special *sp, uintptr_t start, uintptr_t end)
{
	if (sp->n < sp->max && end > start) {
		sp->r[sp->n].start = start & ~(PAGE - 1);
		sp->r[sp->n].len = ((end + PAGE - 1) & ~(PAGE - 1)) - sp->r[sp->n].start;
		sp->n++;
	}
}

static int is_special(const char *name)
{
	static const char *const names[] = { "[vdso]", "[vvar]", "[vvar_vclock]" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i]))
			return 1;
	return 0;
}

/* A hexadecimal number at *p (at most 16 digits), *p moved past it; 0 if there is none. */
static int maps_hex(const char **p, unsigned long *v)
{
	const char *s = *p;
	unsigned long x = 0;
	int n;

	for (n = 0;; n++, s++) {
		int d = *s >= '0' && *s <= '9' ? *s - '0' : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10 :
			-1;

		if (d < 0)
			break;
		if (n == 16)
			return 0;
		x = x << 4 | (unsigned long)d;
	}
	*p = s;
	*v = x;
	return n > 0;
}

/* "START-END PERMS OFFSET DEV INODE   NAME": read by hand, sscanf costs more than the rest. */
const char *loader_maps_line(const char *line, unsigned long *start, unsigned long *end)
{
	const char *p = line;
	int field;

	if (!maps_hex(&p, start) || *p++ != '-' || !maps_hex(&p, end))
		return NULL;
	for (field = 0; field < 4; field++) {
		if (*p != ' ')
			return NULL;
		while (*p == ' ')
			p++;
		if (!*p)
			return NULL;
		while (*p && *p != ' ')
			p++;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* The kernel's special mappings the vDSO needs, as /proc/self/maps names them. */
static int special_from_proc(struct special *sp)
{
	char buf[4096], *line, *nl;
	size_t have = 0;
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC), found = 0, skip = 0;

	if (fd < 0)
		return 0;
	for (;;) {
		ssize_t n = read(fd, buf + have, sizeof(buf) - 1 - have);

		if (n <= 0)
			break;
		have += (size_t)n;
		buf[have] = '\0';
		line = buf;
		/* The rest of a line longer than buf (a long path): not a special mapping. */
		if (skip && (nl = strchr(line, '\n')) != NULL) {
			line = nl + 1;
			skip = 0;
		}
		for (; !skip && (nl = strchr(line, '\n')) != NULL; line = nl + 1) {
			unsigned long s, e;
			const char *name;

			*nl = '\0';
			/* The whole name field must match: a file could be called "x [vdso]". */
			name = loader_maps_line(line, &s, &e);
			if (name && is_special(name)) {
				special_add(sp, s, e);
				found = 1;
			}
		}
		have -= (size_t)(line - buf);
		memmove(buf, line, have);
		if (skip || have == sizeof(buf) - 1) {
			have = 0;
			skip = 1;
		}
	}
	close(fd);
	return found;
}

/* PROCMAP_QUERY, an ioctl of /proc/PID/maps since Linux 6.11 (uapi linux/fs.h). */
struct procmap_query_v1 {
	uint64_t size, query_flags, query_addr;
	uint64_t vma_start, vma_end, vma_flags, vma_page_size, vma_offset, inode;
	uint32_t dev_major, dev_minor, vma_name_size, build_id_size;
	uint64_t vma_name_addr, build_id_addr;
};
#define PROCMAP_QUERY_V1	_IOWR('f', 17, struct procmap_query_v1)

/* The mapping that covers addr, if the kernel names it as a special one: 1, 0, -errno. */
static int query_special(int fd, uintptr_t addr, uintptr_t *start, uintptr_t *end)
{
	char name[16];
	struct procmap_query_v1 q = {
		.size = sizeof(q), .query_addr = addr,
		.vma_name_size = sizeof(name), .vma_name_addr = (uintptr_t)name,
	};

	if (ioctl(fd, PROCMAP_QUERY_V1, &q) < 0)
		return errno == ENOENT || errno == ENAMETOOLONG ? 0 : -errno;	/* a long path */
	*start = q.vma_start;
	*end = q.vma_end;
	return q.vma_name_size && is_special(name);
}

/*
 * The same by asking the kernel for the mappings next to the vDSO (AT_SYSINFO_EHDR), down
 * then up while each touches the last and is special: the vvar pages sit right below the
 * vDSO. A few ioctls, where the text of /proc/self/maps (every mapping's path) was a
 * twentieth of credbox's start. 0 if the kernel has no PROCMAP_QUERY (before 6.11).
 */
static int special_from_query(struct special *sp)
{
	uintptr_t vdso = getauxval(AT_SYSINFO_EHDR), lo, hi, s, e;
	int fd, r;

	if (!vdso)
		return 0;
	fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	r = query_special(fd, vdso, &lo, &hi);
	if (r > 0) {
		special_add(sp, lo, hi);
		for (s = lo; lo > PAGE && query_special(fd, lo - 1, &s, &e) > 0 && e == lo; lo = s)
			special_add(sp, s, e);
		for (e = hi; query_special(fd, hi, &s, &e) > 0 && s == hi; hi = e)
			special_add(sp, s, e);
	}
	close(fd);
	return r > 0;
}

/*
 * Without /proc (not mounted, or hidden): the vDSO's own size from its ELF headers, and the
 * data pages the kernel puts just below it (4 pages on 6.12, 6 on later kernels), found by
 * probing with msync, which fails with ENOMEM on an unmapped page. Up to 8 pages: if one of
 * credbox's own mappings sits right below the vvar pages, up to that much of it survives the
 * jump. Only a fallback: with /proc the kernel's names are exact.
 */
static void special_fallback(struct special *sp)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Phdr *ph;
	uintptr_t end = 0, low;
	int i;

	if (!eh)
		return;
	ph = (const Elf64_Phdr *)((const char *)eh + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_vaddr + ph[i].p_memsz > end)
			end = ph[i].p_vaddr + ph[i].p_memsz;
	low = (uintptr_t)eh;
	for (i = 0; i < 8 && msync((void *)(low - PAGE), PAGE, MS_ASYNC) == 0; i++)
		low -= PAGE;
	special_add(sp, low, (uintptr_t)eh + end);
}

unsigned int loader_special(struct loader_range *out, unsigned int max)
{
	struct special sp = { out, 0, max };

	if (!special_from_query(&sp) && !special_from_proc(&sp))
		special_fallback(&sp);
	return sp.n;
}

/* ---- prepare ----------------------------------------------------------------------------- */

int loader_prepare(struct loader_image *img, const char *path, struct failure *err)
{
	/*
	 * Two copies of up to 64 program headers (7.5 KiB), on credbox's main stack: a heap
	 * allocation made the loader's start touch malloc's code and state and three fresh heap
	 * pages besides, each a page fault (README, "Benchmarks").
	 */
	struct loader_file files[2];
	struct loader_range special[LOADER_MAX_SPECIAL];
	unsigned int i, n;
	int ret;

	memset(err, 0, sizeof(*err));
	ret = loader_load(img, path, files, err);
	n = ret ? 0 : loader_special(special, LOADER_MAX_SPECIAL);
	for (i = 0; i < n; i++)
		loader_keep(img, special[i].start, special[i].len);
	return ret;
}

/* ---- the kernel's record of the process ------------------------------------------------- */

/*
 * Tell the kernel where the program's arguments, environment, auxv, code, data and heap are,
 * as execve would have recorded them. PR_SET_MM_MAP without exe_fd needs no capability
 * (CONFIG_CHECKPOINT_RESTORE); it only changes what /proc reports and where brk grows, never
 * what memory is mapped. Returns whether it worked; failing is not an error.
 */
static int set_mm(const struct loader_image *img)
{
	const struct loader_stack *st = &img->stack;
	struct prctl_mm_map m = {
		.start_code = img->prog.start_code,
		.end_code = img->prog.end_code,
		.start_data = img->prog.start_data,
		.end_data = img->prog.end_data,
		.start_brk = st->brk,
		.brk = st->brk,
		.start_stack = st->sp,
		.arg_start = st->arg_start,
		.arg_end = st->arg_end,
		.env_start = st->arg_end,
		.env_end = st->env_end,
		.auxv = (__u64 *)st->auxv,
		/* The kernel keeps at most this much (AT_VECTOR_SIZE on x86_64), AT_NULL last. */
		.auxv_size = (uint32_t)(st->auxv_bytes < 416 ? st->auxv_bytes : 416),
		.exe_fd = (uint32_t)-1,
	};

	return prctl(PR_SET_MM, PR_SET_MM_MAP, (unsigned long)&m, sizeof(m), 0) == 0;
}

int loader_build_stack(struct loader_image *img, char *const argv[], char *const envp[],
		       struct failure *err)
{
	int ret;

	memset(err, 0, sizeof(*err));
	if (!img->prog.mapped || img->stack.ready)
		return loader_fail(err, -EINVAL, "loader_build_stack: no prepared image, or twice");
	ret = loader_stack(img, argv, envp, err);
	if (ret)
		return ret;
	img->stack.mm_set = set_mm(img);
	return 0;
}

/* ---- leaving credbox's state behind ---------------------------------------------------------- */

#if defined(__x86_64__)
static void *thread_pointer(void)
{
	void *tp;

	__asm__("mov %%fs:0, %0" : "=r"(tp));
	return tp;
}
#endif

/*
 * glibc registered an rseq area in credbox's thread block; the kernel writes to it on every
 * preemption. Once that memory is unmapped (or reused by the program) those writes would kill
 * the process or corrupt the program's memory, so unregister it. The program's own libc
 * registers its area at startup, as after execve.
 */
static int rseq_unregister(struct failure *err)
{
#ifdef RSEQ_SIG
	static const unsigned int lens[] = { 0, 32 };	/* __rseq_size, glibc <= 2.39's 32 */
	void *area;
	unsigned int i;

	if (__rseq_size == 0)
		return 0;
	area = (char *)thread_pointer() + __rseq_offset;
	for (i = 0; i < 2; i++) {
		unsigned int len = lens[i] ? lens[i] : __rseq_size;

		if (syscall(SYS_rseq, area, len, 1 /* RSEQ_FLAG_UNREGISTER */, RSEQ_SIG) == 0)
			return 0;
	}
	return loader_fail(err, -errno, "cannot unregister the rseq area: %m");
#else
	(void)err;
	return 0;
#endif
}

/* The kernel's struct sigaction for rt_sigaction (glibc's differs and hides two signals). */
struct ksigaction {
	__sighandler_t handler;
	unsigned long flags;
	void *restorer;
	uint64_t mask;
};

/*
 * The 16 hex digits after key at the start of a line of text (len bytes): 0, or -1 if there
 * is no such line or it holds something else. By hand, not strstr and strtoull: in a fork
 * child (loader-bench's) their code and the ctype table are pages it has not touched.
 */
static int status_mask(const char *text, size_t len, const char *key, uint64_t *out)
{
	size_t k = strlen(key), i = 0, j;

	while (i + k + 17 <= len) {
		if (!memcmp(text + i, key, k)) {
			uint64_t v = 0;

			for (j = i + k; j < i + k + 16; j++) {
				char c = text[j];
				int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ?
					c - 'a' + 10 : -1;

				if (d < 0)
					return -1;
				v = v << 4 | (uint64_t)d;
			}
			if (text[j] != '\n')
				return -1;
			*out = v;
			return 0;
		}
		while (i < len && text[i] != '\n')
			i++;
		i++;
	}
	return -1;
}

/*
 * The signals whose action is not the default, bit n - 1 for signal n: SigIgn (ignored) and
 * SigCgt (handled) of one read of /proc/self/status, where asking each signal took 64 calls.
 * 0, or -1 if it cannot be read or parsed (no /proc; Landlock applied already).
 */
static int signals_not_default(uint64_t *set)
{
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	uint64_t ign, cgt;
	char buf[4096];
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0 || status_mask(buf, (size_t)n, "SigIgn:\t", &ign) ||
	    status_mask(buf, (size_t)n, "SigCgt:\t", &cgt))
		return -1;
	*set = ign | cgt;
	return 0;
}

/*
 * execve's flush_signal_handlers(): a handled signal goes back to SIG_DFL (credbox's handler
 * code is about to disappear), an ignored one stays ignored, flags and masks are cleared.
 * Only the signals whose action is not the default are asked, when the kernel says which.
 */
void loader_reset_signals(struct loader_image *img)
{
	const struct ksigaction dfl = { SIG_DFL, 0, NULL, 0 }, ign = { SIG_IGN, 0, NULL, 0 };
	uint64_t empty = 0, set;
	stack_t ss = { .ss_flags = SS_DISABLE };
	int sig;

	if (signals_not_default(&set))
		set = ~0ULL;
	for (sig = 1; sig <= 64; sig++) {
		struct ksigaction old;

		if (!((set >> (sig - 1)) & 1) || sig == SIGKILL || sig == SIGSTOP ||
		    syscall(SYS_rt_sigaction, sig, NULL, &old, sizeof(uint64_t)) != 0)
			continue;
		if (old.handler == SIG_IGN && (old.flags || old.mask))
			syscall(SYS_rt_sigaction, sig, &ign, NULL, sizeof(uint64_t));
		else if (old.handler != SIG_IGN && old.handler != SIG_DFL)
			syscall(SYS_rt_sigaction, sig, &dfl, NULL, sizeof(uint64_t));
	}
	/* An alternate stack in credbox's memory would receive the program's signals. */
	sigaltstack(&ss, NULL);
	syscall(SYS_rt_sigprocmask, SIG_SETMASK, &empty, NULL, sizeof(empty));
	img->signals_reset = 1;
}

static void set_name(const char *execfn)
{
	const char *slash = strrchr(execfn, '/');

	prctl(PR_SET_NAME, slash ? slash + 1 : execfn, 0, 0, 0);
}

int loader_enter(struct loader_image *img, char *const argv[], char *const envp[],
		 struct failure *err)
{
	struct loader_stub_args *args;
	int ret;

	memset(err, 0, sizeof(*err));
	if (!img->prog.mapped)
		return loader_fail(err, -EINVAL, "loader_enter without a prepared image");
	if (!img->stack.ready) {
		ret = loader_stack(img, argv, envp, err);
		if (ret)
			return ret;
	}
	args = loader_stub_table(img);
	ret = rseq_unregister(err);
	if (ret)
		return ret;
	/* Point of no return: from here on, credbox's state goes. */
	if (!img->signals_reset)
		loader_reset_signals(img);
	set_name(img->execfn);
	loader_stub_jump(args);
}

