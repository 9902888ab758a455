// SPDX-License-Identifier: GPL-2.0
/*
 * loader: map an ELF program (and its interpreter) into this process and start it as execve
 * would, without execve (which would close the O_CRED_ALLOW directories).
 *
 * This file is the part of the loader that credbox and the redirect runtime share (the
 * runtime starts the program's own execve in place, src/rt/rt_exec.c): it opens, checks and
 * maps the images, builds the stack and the table of ranges the stub unmaps. It calls the C
 * library for nothing: what it needs from its host goes through loader_sys.h, implemented by
 * loader_libc.c for credbox and by the runtime for itself.
 *
 * Phases and the point of no return
 *   loader_prepare  (privileged) read, check (loader_elf.c), map both images, note the vDSO.
 *                   Any failure unmaps what was mapped and returns -errno.
 *   loader_enter    (sandboxed) allocate and fill the new stack, compute the table of ranges
 *                   to unmap, unregister glibc's rseq area; any failure so far returns -errno
 *                   with the process intact. Then the point of no return: reset signals, the
 *                   alternate stack, the mask and the name, and call the stub, which switches
 *                   to the new stack, resets the FS and GS bases, the robust futex list and
 *                   clear_child_tid (all left by credbox's libc), unmaps the table and jumps.
 *
 * What execve would do that cannot be done the same way here:
 *   - /proc/self/exe still names credbox: changing it needs CAP_CHECKPOINT_RESTORE and the
 *     kernel refuses while credbox's file is mapped (the stub page is). Programs that re-exec
 *     themselves through it, or find their data next to it (perl's $^X), see credbox.
 *   - the kernel's record of the process (mm->arg_start.., env_.., saved_auxv, start_brk/brk,
 *     start_code..): loader_build_stack sets them with PR_SET_MM_MAP, which needs no
 *     privilege but must run before seccomp (which denies it, on purpose). If it did not run
 *     or failed (kernel without CONFIG_CHECKPOINT_RESTORE), /proc/PID/cmdline and environ
 *     read credbox's unmapped argument area and appear empty (ps shows [name]),
 *     /proc/PID/auxv is credbox's, and brk(0) returns credbox's old break: the heap grows
 *     from there, over credbox's unmapped heap. It cannot collide with the program: the
 *     kernel refuses to grow brk into a mapping, and malloc then falls back to mmap.
 *   - the signal mask is emptied (execve would keep it; credbox blocks nothing on purpose, and
 *     a program must not inherit a mask left over from the launcher's work).
 *   - files are not write-protected while running (no ETXTBSY): the images are MAP_PRIVATE
 *     mappings of files the admin's profile names, and every header the loader relies on was
 *     copied and checked before mapping.
 * The caller must be single-threaded (execve kills the other threads; we cannot).
 */
#include <stddef.h>
#include <string.h>
#include <linux/errno.h>
#include <linux/fcntl.h>
#include <linux/mman.h>

#include "loader_elf.h"
#include "loader_script.h"
#include "loader_sys.h"

extern const char loader_stub_start[], loader_stub_end[];

#define PAGE		LOADER_PAGE
#define STACK_DEFAULT	(8UL << 20)
#define STACK_MAX	(1UL << 30)
#define STACK_ROOM	(128UL << 10)	/* free stack below the arguments, at least */
#define ARGS_MIN	(128UL << 10)	/* ARG_MAX */
#define ARGS_MAX	(6UL << 20)	/* 3/4 of _STK_LIM */
#define S_IFMT_		0170000
#define S_IFREG_	0100000

static uintptr_t page_down(uintptr_t v)
{
	return v & ~(PAGE - 1);
}

static uintptr_t page_up(uintptr_t v)
{
	return (v + PAGE - 1) & ~(PAGE - 1);
}

/* ---- reading and checking ------------------------------------------------------------ */

static int read_at(int fd, void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		long n = loader_sys_pread(fd, (char *)buf + done, len - done, off + done);

		if (n < 0)
			return (int)n;
		if (n == 0)
			return -ENOEXEC;
		done += (size_t)n;
	}
	return 0;
}

/*
 * Open a file to run as execve's open_exec does, with the caller's fs identity: the path is
 * resolved with its search permissions, the file must be a regular file (a directory, device,
 * FIFO or socket is refused with EACCES, as the kernel refuses it), and one execve would run
 * (loader_sys_may_exec: execute permission for its fsuid, fsgid and groups, ACLs and LSMs,
 * not on a noexec mount, so that mapping it PROT_EXEC cannot fail later and less clearly).
 * O_NONBLOCK: a FIFO planted where a program or an interpreter should be must not hang
 * credbox in open(); O_NOCTTY: a terminal must not become credbox's. from is the file that
 * names this one (an ELF program's PT_INTERP, a script's #! line), for the message.
 */
static int open_exec(struct loader_file *f, const char *path, const char *from,
		     struct failure *err)
{
	const char *why = NULL;
	uint32_t mode;
	long e = loader_sys_open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	f->fd = e < 0 ? -1 : (int)e;
	if (e >= 0)
		e = loader_sys_fstat(f->fd, &mode, &f->size);
	if (e >= 0 && (mode & S_IFMT_) != S_IFREG_) {
		e = -EACCES;
		why = "not a regular file";
	} else if (e >= 0) {
		e = loader_sys_may_exec(f->fd, &why);
	}
	if (e >= 0)
		return 0;
	if (f->fd >= 0)
		loader_sys_close(f->fd);
	f->fd = -1;
	if (from)
		return why ? loader_fail(err, (int)e, "%s: interpreter %s: %s", from, path, why) :
			     loader_fail(err, (int)e, "%s: interpreter %s: %m", from, path);
	return why ? loader_fail(err, (int)e, "%s: %s", path, why) :
		     loader_fail(err, (int)e, "%s: %m", path);
}

/*
 * The file started and, while it is a "#!" script, the interpreter its line names, as
 * execve's binfmt_script follows them: up to LOADER_MAX_SCRIPTS scripts, then ELOOP (a
 * script naming itself must not loop). Leaves f open on the last file, the one that must be
 * an ELF program; the scripts are recorded in img for the argument vector.
 */
static int open_chain(struct loader_image *img, struct loader_file *f, struct failure *err)
{
	const char *name = img->execfn;
	char buf[LOADER_BINPRM_BUF];
	struct loader_script s;
	unsigned int depth;
	int ret = open_exec(f, name, NULL, err);

	for (depth = 0; !ret; depth++) {
		memset(buf, 0, sizeof(buf));
		ret = read_at(f->fd, buf, f->size < sizeof(buf) ? f->size : sizeof(buf), 0);
		if (ret)
			return loader_fail(err, ret, "%s: cannot read: %m", name);
		ret = loader_script_parse(buf, &s, name, err);
		if (ret > 0)
			return 0;		/* not a script */
		if (ret)
			return ret;
		loader_sys_close(f->fd);
		ret = open_exec(f, s.interp, name, err);
		if (!ret && depth == LOADER_MAX_SCRIPTS)
			ret = loader_fail(err, -ELOOP, "%s: more than %d scripts in a chain of #! "
					  "interpreters", img->execfn, LOADER_MAX_SCRIPTS);
		if (!ret) {
			img->script[img->nscripts++] = s;
			name = img->script[depth].interp;
		}
	}
	return ret;
}

/* The name of the ELF program: the last interpreter of a script chain, or the file started. */
static const char *prog_name(const struct loader_image *img)
{
	return img->nscripts ? img->script[img->nscripts - 1].interp : img->execfn;
}

static int read_elf(struct loader_file *f, const char *what, struct failure *err)
{
	int ret;

	memset(&f->eh, 0, sizeof(f->eh));
	ret = read_at(f->fd, &f->eh, f->size < sizeof(f->eh) ? f->size : sizeof(f->eh), 0);
	if (ret)
		return loader_fail(err, ret, "%s: cannot read ELF header: %m", what);
	ret = loader_elf_check_ehdr(&f->eh, f->size, what, err);
	if (ret)
		return ret;
	ret = read_at(f->fd, f->ph, f->eh.e_phnum * sizeof(Elf64_Phdr), f->eh.e_phoff);
	if (ret)
		return loader_fail(err, ret, "%s: cannot read program headers: %m", what);
	return loader_elf_check_phdrs(&f->eh, f->ph, f->size, what, &f->plan, err);
}

/* Open and check the interpreter named by the program's PT_INTERP. */
static int open_interp(struct loader_image *img, struct loader_file *prog,
		       struct loader_file *interp, struct failure *err)
{
	const Elf64_Phdr *ip = &prog->ph[prog->plan.interp];
	const char *what = prog_name(img);
	int ret;

	ret = read_at(prog->fd, img->interp_path, ip->p_filesz, ip->p_offset);
	if (ret)
		return loader_fail(err, ret, "%s: cannot read PT_INTERP", what);
	ret = loader_elf_check_interp(img->interp_path, ip->p_filesz, what, err);
	if (ret)
		return ret;
	/* Like the kernel: relative to the current directory if it is relative. */
	ret = open_exec(interp, img->interp_path, what, err);
	if (!ret)
		ret = read_elf(interp, img->interp_path, err);
	if (ret)
		return ret;
	/* A chain of interpreters is not something the kernel follows either. */
	if (interp->plan.interp >= 0)
		return loader_fail(err, -ENOEXEC, "%s: interpreter %s has its own PT_INTERP",
				   what, img->interp_path);
	return 0;
}

/* ---- mapping ----------------------------------------------------------------------------- */

static int seg_prot(uint32_t flags)
{
	return ((flags & PF_R) ? PROT_READ : 0) | ((flags & PF_W) ? PROT_WRITE : 0) |
	       ((flags & PF_X) ? PROT_EXEC : 0);
}

/*
 * One PT_LOAD, like binfmt_elf's elf_load(): file pages mapped MAP_PRIVATE with the segment's
 * own protections (never an anonymous copy made executable: that would bypass noexec mounts
 * and W^X policies), the tail of the last file page zeroed when the segment is writable, and
 * anonymous pages for the rest of the bss.
 */
static int map_segment(int fd, const Elf64_Phdr *p, uintptr_t bias)
{
	uintptr_t start = bias + p->p_vaddr, pstart = page_down(start);
	uintptr_t file_end = start + p->p_filesz, mem_end = start + p->p_memsz;
	uintptr_t anon = pstart;
	int prot = seg_prot(p->p_flags);

	if (p->p_filesz) {
		long m = loader_sys_mmap(pstart, page_up(file_end) - pstart, prot,
					 MAP_PRIVATE | MAP_FIXED, fd,
					 p->p_offset - (start - pstart));

		if (m < 0)
			return (int)m;
		anon = page_up(file_end);
		/* The rest of the page holds whatever follows in the file: it is bss. */
		if (mem_end > file_end && (prot & PROT_WRITE))
			memset((void *)file_end, 0, anon - file_end);
	}
	if (page_up(mem_end) > anon) {
		long m = loader_sys_mmap(anon, page_up(mem_end) - anon, prot,
					 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);

		if (m < 0)
			return (int)m;
	}
	return 0;
}

/*
 * A PIE program (ET_DYN with PT_INTERP) goes where load_elf_binary puts it: ELF_ET_DYN_BASE
 * plus a random offset of its own (mmap_rnd_bits of pages, 1 TiB), aligned to its p_align.
 * Its interpreter and libraries go to the mmap region, randomised independently, so that an
 * address leaked from a library does not give away the program's ("offset2lib"); mapped next
 * to each other, as mmap would put them, they were a constant distance apart on every run.
 * No randomisation under personality(ADDR_NO_RANDOMIZE) (setarch -R, debuggers) or with
 * kernel.randomize_va_space = 0, as the kernel (loader_sys_randomize). credbox itself sits
 * in the same region: a collision (MAP_FIXED_NOREPLACE) draws again; after a few, or
 * without randomisation, the mmap region does (returns 0).
 */
static uintptr_t reserve_at_dyn_base(uintptr_t span, uintptr_t align)
{
	int randomize = loader_sys_randomize(), tries;

	for (tries = 0; tries < 8; tries++) {
		uint64_t rnd = 0;
		uintptr_t b;
		long m;

		if (randomize) {
			if (loader_sys_random(&rnd, sizeof(rnd)) < 0)
				return 0;
			rnd = (rnd & ((1UL << LOADER_RND_BITS) - 1)) * PAGE;
		} else if (tries) {
			return 0;
		}
		b = (LOADER_ET_DYN_BASE + rnd) & ~(align - 1);
		m = loader_sys_mmap(b, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
				    MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
		if (m == (long)b)
			return b;
		if (m >= 0)		/* kernel older than 4.17: a hint, not taken */
			loader_sys_munmap((uintptr_t)m, span);
	}
	return 0;
}

/*
 * Reserve the image's whole span first, so that segments land at their relative distances
 * without overwriting anything: ET_EXEC at its fixed address with MAP_FIXED_NOREPLACE (a
 * collision with credbox's own mappings fails here, cleanly), a PIE program at
 * ELF_ET_DYN_BASE (above), any other ET_DYN (an interpreter, a static PIE) wherever the
 * kernel's randomised mmap puts it, aligned to the largest p_align: as binfmt_elf does.
 */
static int reserve(struct loader_file *f, int pie_program, uintptr_t *base, const char *what,
		   struct failure *err)
{
	uintptr_t span = f->plan.hi - f->plan.lo, extra, r, b;
	long m;

	if (f->plan.type == ET_EXEC) {
		m = loader_sys_mmap(f->plan.lo, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
				    MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
		if (m == -EEXIST)
			return loader_fail(err, -EEXIST, "%s: fixed address range 0x%lx-0x%lx is "
					   "already in use by credbox", what, f->plan.lo,
					   f->plan.hi);
		if (m < 0)
			return loader_fail(err, (int)m, "%s: cannot map at 0x%lx: %m", what,
					   f->plan.lo);
		if ((uintptr_t)m != f->plan.lo) {	/* kernel older than 4.17: a hint */
			loader_sys_munmap((uintptr_t)m, span);
			return loader_fail(err, -EEXIST, "%s: fixed address 0x%lx is in use", what,
					   f->plan.lo);
		}
		*base = f->plan.lo;
		return 0;
	}
	extra = f->plan.align - PAGE;
	if (span > LOADER_USER_TOP - extra)
		return loader_fail(err, -ENOMEM, "%s: image too large", what);
	if (pie_program) {
		*base = reserve_at_dyn_base(span, f->plan.align);
		if (*base)
			return 0;
	}
	m = loader_sys_mmap(0, span + extra, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			    -1, 0);
	if (m < 0)
		return loader_fail(err, (int)m, "%s: cannot reserve %lu bytes: %m", what,
				   span + extra);
	r = (uintptr_t)m;
	b = (r + f->plan.align - 1) & ~(f->plan.align - 1);
	if (b > r)
		loader_sys_munmap(r, b - r);
	if (r + extra > b)
		loader_sys_munmap(b + span, r + extra - b);
	*base = b;
	return 0;
}

/* The code and data bounds binfmt_elf records in the mm (shown in /proc/PID/stat). */
static void mm_fields(struct loader_elf *out, const Elf64_Phdr *p, uintptr_t bias)
{
	uintptr_t start = bias + p->p_vaddr, file_end = start + p->p_filesz;

	if ((p->p_flags & PF_X) && (!out->start_code || start < out->start_code))
		out->start_code = start;
	if ((p->p_flags & PF_X) && file_end > out->end_code)
		out->end_code = file_end;
	if (start > out->start_data)
		out->start_data = start;
	if (file_end > out->end_data)
		out->end_data = file_end;
}

/*
 * Map every PT_LOAD of f at bias into its reserved span (unmapped again on failure), and
 * unmap the holes between them, as binfmt_elf leaves them. With img, record the segments as
 * kept ranges; with out, fill it in (mapped or not).
 */
static int map_segments(struct loader_file *f, uintptr_t bias, int map, struct loader_image *img,
			struct loader_elf *out, const char *what, struct failure *err)
{
	uintptr_t prev_end = 0;
	unsigned int i;
	int ret;

	for (i = 0; i < f->eh.e_phnum; i++) {
		const Elf64_Phdr *p = &f->ph[i];
		uintptr_t s = page_down(bias + p->p_vaddr), e = page_up(bias + p->p_vaddr + p->p_memsz);

		if (p->p_type != PT_LOAD || p->p_memsz == 0)
			continue;
		ret = map ? map_segment(f->fd, p, bias) : 0;
		if (ret) {
			loader_sys_munmap(bias + f->plan.lo, f->plan.hi - f->plan.lo);
			return loader_fail(err, ret, "%s: cannot map segment %u: %m", what, i);
		}
		if (map && prev_end && s > prev_end)
			loader_sys_munmap(prev_end, s - prev_end);
		prev_end = e;
		if (out)
			mm_fields(out, p, bias);
		if (img) {
			img->keep[img->nkeep].start = s;
			img->keep[img->nkeep].len = e - s;
			img->nkeep++;
		}
	}
	if (out) {
		out->end = prev_end;
		out->bias = bias;
		out->entry = bias + f->plan.entry;
		out->phdr = f->plan.phdr_vaddr ? bias + f->plan.phdr_vaddr : 0;
		out->phnum = f->eh.e_phnum;
		out->phent = sizeof(Elf64_Phdr);
		out->mapped = 1;
	}
	return 0;
}

/*
 * Reserve f's span and map it into img (out: img->prog or img->interp). A program at a fixed
 * address that the running program occupies (the runtime's execve of a non-PIE program from
 * a non-PIE one) is mapped late if img->late_ok: after the old program is unmapped, as the
 * kernel maps it (loader_map_late); until then only its addresses are computed.
 */
static int map_image(struct loader_image *img, struct loader_file *f, int pie_program,
		     struct loader_elf *out, const char *what, struct failure *err)
{
	uintptr_t base = 0;
	int ret = reserve(f, pie_program, &base, what, err);

	if (ret == -EEXIST && img->late_ok && f->plan.type == ET_EXEC && out == &img->prog) {
		img->late.start = f->plan.lo;
		img->late.len = f->plan.hi - f->plan.lo;
		return map_segments(f, 0, 0, NULL, out, what, err);
	}
	if (ret)
		return ret;
	return map_segments(f, base - f->plan.lo, 1, img, out, what, err);
}

int loader_map_late(struct loader_image *img, struct loader_file *f)
{
	long m = img->late.len ? loader_sys_mmap(img->late.start, img->late.len, PROT_NONE,
						 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
						 MAP_FIXED, -1, 0) : 0;

	if (m >= 0 && img->late.len)
		m = map_segments(f, 0, 1, NULL, NULL, img->execfn, NULL);
	if (f->fd >= 0)
		loader_sys_close(f->fd);
	f->fd = -1;
	return (int)(m < 0 ? m : 0);
}

/* The late program's span must not cover what is kept: the new stack, images, vDSO. */
int loader_late_check(const struct loader_image *img)
{
	const struct loader_range *l = &img->late;
	unsigned int i;

	if (!l->len)
		return 0;
	for (i = 0; i < img->nkeep; i++) {
		if (img->keep[i].start < l->start + l->len && l->start < img->keep[i].start +
		    img->keep[i].len)
			return -EEXIST;
	}
	if (img->stack.ready && img->stack.base < l->start + l->len &&
	    l->start < img->stack.base + img->stack.size)
		return -EEXIST;
	return 0;
}

static void unmap_ranges(const struct loader_range *keep, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		loader_sys_munmap(keep[i].start, keep[i].len);
}

/* ---- the ranges kept through the jump ------------------------------------------------ */

static void keep_range(struct loader_image *img, uintptr_t start, uintptr_t end)
{
	if (img->nkeep < LOADER_MAX_KEEP && end > start) {
		img->keep[img->nkeep].start = page_down(start);
		img->keep[img->nkeep].len = page_up(end) - page_down(start);
		img->nkeep++;
	}
}

int loader_keep(struct loader_image *img, uintptr_t start, uintptr_t len)
{
	if (img->nkeep >= LOADER_MAX_KEEP)
		return -ENOSPC;
	keep_range(img, start, start + len);
	return 0;
}

void loader_release(struct loader_image *img)
{
	unmap_ranges(img->keep, img->nimage);
	if (img->stack.ready)
		loader_sys_munmap(img->stack.base, img->stack.size);
	memset(img, 0, sizeof(*img));
}

/* ---- prepare ----------------------------------------------------------------------------- */

int loader_load(struct loader_image *img, const char *path, struct loader_file files[2],
		struct failure *err)
{
	struct loader_file *prog = &files[0], *interp = &files[1];
	size_t len = path ? strlen(path) : 0;
	int ret;

	int late_ok = img->late_ok;

	/* Everything but the big arrays, which are filled before they are read. */
	memset(img, 0, offsetof(struct loader_image, keep));
	img->late_ok = late_ok;
	img->nscripts = 0;
	img->interp_path[0] = '\0';
	if (!path || len >= sizeof(img->execfn))
		return loader_fail(err, -ENAMETOOLONG, "program name missing or too long");
	memcpy(img->execfn, path, len + 1);
	prog->fd = -1;
	interp->fd = -1;
	ret = open_chain(img, prog, err);
	if (!ret)
		ret = read_elf(prog, prog_name(img), err);
	if (!ret && prog->plan.interp >= 0)
		ret = open_interp(img, prog, interp, err);
	if (!ret)
		ret = map_image(img, prog, prog->plan.interp >= 0, &img->prog, prog_name(img), err);
	if (!ret && interp->fd >= 0) {
		unsigned int first = img->nkeep;

		ret = map_image(img, interp, 0, &img->interp, img->interp_path, err);
		if (ret)
			unmap_ranges(img->keep, first);
	}
	if (!ret) {
		img->nimage = img->nkeep;
		img->exec_stack = prog->plan.exec_stack;
	}
	if (prog->fd >= 0 && (ret || !img->late.len)) {
		loader_sys_close(prog->fd);
		prog->fd = -1;
	}
	if (interp->fd >= 0)
		loader_sys_close(interp->fd);
	if (ret)
		memset(img, 0, sizeof(*img));
	return ret;
}

/* ---- the new stack ------------------------------------------------------------------------ */

/*
 * The initial stack, laid out as binfmt_elf's create_elf_tables() does on x86_64:
 *
 *   high  +-----------------------------------+ <- top of the stack mapping
 *         | 8 zero bytes (end marker)         |
 *         | AT_EXECFN string                  |
 *         | envp strings                      |
 *         | argv strings                      |
 *         | AT_PLATFORM string                |
 *         | 16 random bytes (AT_RANDOM)       |
 *         | padding, so that sp ends 16-aligned |
 *         | AT_NULL, 0                        |
 *         | auxv: type, value pairs           |
 *         | NULL                              |
 *         | envp[envc - 1] ... envp[0]        |
 *         | NULL                              |
 *         | argv[argc - 1] ... argv[0]        |
 *   sp -> | argc                              |
 *         +-----------------------------------+
 *         | stub table (ranges to unmap),     |  wiped by the stub before the jump
 *         | then free stack, growing down     |
 *   low   +-----------------------------------+
 */

#define AUX_MAX	40	/* auxv pairs, AT_NULL included */

static size_t count_strings(char *const v[], size_t *bytes)
{
	size_t n = 0;

	for (; v && v[n]; n++)
		*bytes += strlen(v[n]) + 1;
	return n;
}

static uintptr_t copy_strings(uintptr_t p, char *const v[], size_t n, uintptr_t *ptrs)
{
	size_t i;

	for (i = 0; i < n; i++) {
		size_t len = strlen(v[i]) + 1;

		memcpy((void *)p, v[i], len);
		ptrs[i] = p;
		p += len;
	}
	ptrs[n] = 0;
	return p;
}

/*
 * A script's arguments before argv[1], as binfmt_script splices them in at each level: the
 * last interpreter of the chain and its argument, ..., the first interpreter and its
 * argument, then the script started. pre holds 2 * LOADER_MAX_SCRIPTS + 2 pointers; NULL
 * terminated. Returns how many (0: not a script).
 */
static size_t script_prefix(const struct loader_image *img, char **pre)
{
	unsigned int i = img->nscripts;
	size_t n = 0;

	while (i--) {
		pre[n++] = (char *)img->script[i].interp;
		if (img->script[i].has_arg)
			pre[n++] = (char *)img->script[i].arg;
	}
	if (img->nscripts)
		pre[n++] = (char *)img->execfn;
	pre[n] = NULL;
	return n;
}

/* Pass through one of the process's own auxv entries, if the kernel gave it. */
static void aux_copy(uintptr_t **a, unsigned long type)
{
	uintptr_t v;

	if (!loader_sys_auxval(type, &v))
		return;
	*(*a)++ = type;
	*(*a)++ = v;
}

static void aux_put(uintptr_t **a, unsigned long type, uintptr_t v)
{
	*(*a)++ = type;
	*(*a)++ = v;
}

static uintptr_t fill_auxv(uintptr_t *a, const struct loader_image *img, uintptr_t random,
			   uintptr_t platform, uintptr_t execfn)
{
	uintptr_t *start = a, ids[4];

	loader_sys_ids(ids);
	aux_copy(&a, AT_SYSINFO_EHDR);	/* the vDSO: kept mapped through the jump */
	aux_copy(&a, AT_MINSIGSTKSZ);
	aux_copy(&a, AT_HWCAP);
	aux_put(&a, AT_PAGESZ, PAGE);
	aux_copy(&a, AT_CLKTCK);
	aux_put(&a, AT_PHDR, img->prog.phdr);
	aux_put(&a, AT_PHENT, img->prog.phent);
	aux_put(&a, AT_PHNUM, img->prog.phnum);
	aux_put(&a, AT_BASE, img->interp.mapped ? img->interp.bias : 0);
	aux_put(&a, AT_FLAGS, 0);
	aux_put(&a, AT_ENTRY, img->prog.entry);
	/* The ids after the privilege drop: what the program really runs as. */
	aux_put(&a, AT_UID, ids[0]);
	aux_put(&a, AT_EUID, ids[1]);
	aux_put(&a, AT_GID, ids[2]);
	aux_put(&a, AT_EGID, ids[3]);
	/*
	 * Secure mode: the dynamic loader ignores LD_PRELOAD, LD_LIBRARY_PATH and friends, and
	 * glibc ignores its tunables, so the environment cannot inject code into the program,
	 * whatever the profile lets through.
	 */
	aux_put(&a, AT_SECURE, 1);
	aux_put(&a, AT_RANDOM, random);
	aux_copy(&a, AT_HWCAP2);
	aux_put(&a, AT_EXECFN, execfn);
	aux_put(&a, AT_PLATFORM, platform);
	aux_copy(&a, 27);		/* AT_RSEQ_FEATURE_SIZE */
	aux_copy(&a, 28);		/* AT_RSEQ_ALIGN */
	aux_copy(&a, 29);		/* AT_HWCAP3 */
	aux_copy(&a, 30);		/* AT_HWCAP4 */
	aux_put(&a, AT_NULL, 0);
	return (uintptr_t)(a - start);
}

/*
 * The room execve gives the strings and pointers of the new stack (bprm_stack_limits): a
 * quarter of the stack limit, at least ARG_MAX (128 KiB: a small "ulimit -s" does not make
 * arguments that execve accepts fail), at most 6 MiB. And the stack's size: the limit (8 MiB
 * if unlimited, at most 1 GiB), but at least what the arguments take plus 128 KiB, as execve
 * leaves the program that much room below them however small the limit.
 */
static void stack_limits(uintptr_t *size, uintptr_t *arg_limit)
{
	uint64_t cur = loader_sys_stack_limit();

	*arg_limit = cur / 4 > ARGS_MAX ? ARGS_MAX : cur / 4 < ARGS_MIN ? ARGS_MIN : cur / 4;
	if (cur == UINT64_MAX)
		cur = STACK_DEFAULT;
	*size = page_up(cur < STACK_ROOM ? STACK_ROOM : cur > STACK_MAX ? STACK_MAX : cur);
}

/* What goes above sp, counted before the stack is mapped. */
struct stack_strings {
	char *pre[2 * LOADER_MAX_SCRIPTS + 2];	/* a script's interpreters: script_prefix() */
	char *const *argv, *const *envp;
	size_t npre, nargs, envc;
	size_t bytes;				/* of the pre, argv and envp strings */
};

/* Write everything above sp into the mapped stack, top down, as the picture above draws it. */
static void write_stack(struct loader_image *img, const struct stack_strings *s,
			const unsigned char rnd[16])
{
	struct loader_stack *st = &img->stack;
	const char *plat = LOADER_PLATFORM;	/* ELF_PLATFORM: the kernel's too */
	size_t execfn_len = strlen(img->execfn) + 1, plat_len = strlen(plat) + 1;
	size_t argc = s->npre + s->nargs, words;
	uintptr_t top, strings, random, platform, execfn, *v, naux;
	uintptr_t aux[2 * AUX_MAX];

	top = st->base + st->size - sizeof(uintptr_t);		/* end marker, zero */
	execfn = top - execfn_len;
	memcpy((void *)execfn, img->execfn, execfn_len);
	strings = execfn - s->bytes;
	platform = strings - plat_len;
	memcpy((void *)platform, plat, plat_len);
	random = (platform - 16) & ~(uintptr_t)15;
	memcpy((void *)random, rnd, 16);
	naux = fill_auxv(aux, img, random, platform, execfn);
	words = 1 + (argc + 1) + (s->envc + 1) + naux;
	st->sp = (random - words * sizeof(uintptr_t)) & ~(uintptr_t)15;
	v = (uintptr_t *)st->sp;
	*v++ = argc;
	st->arg_start = strings;
	st->arg_end = copy_strings(copy_strings(strings, s->pre, s->npre, v), s->argv, s->nargs,
				   v + s->npre);
	v += argc + 1;
	st->env_end = copy_strings(st->arg_end, s->envp, s->envc, v);
	v += s->envc + 1;
	memcpy(v, aux, naux * sizeof(uintptr_t));
	st->auxv = (uintptr_t)v;
	st->auxv_bytes = naux * sizeof(uintptr_t);
}

/*
 * Map the stack (MAP_GROWSDOWN like the kernel's, so glibc's mprotect(PROT_GROWSDOWN) for
 * an executable stack works) and write everything above sp into img->stack.
 */
int loader_stack(struct loader_image *img, char *const argv[], char *const envp[],
		 struct failure *err)
{
	struct loader_stack *st = &img->stack;
	size_t execfn_len = strlen(img->execfn) + 1, argc, ptrs;
	struct stack_strings s = { .bytes = 0 };
	uintptr_t limit, need;
	unsigned char rnd[16];
	uint32_t brk_rnd;
	long m;

	if (script_prefix(img, s.pre) && argv && argv[0])
		argv++;			/* a script's argv[0] is replaced by its path */
	s.argv = argv;
	s.envp = envp;
	s.npre = count_strings(s.pre, &s.bytes);
	s.nargs = count_strings(argv, &s.bytes);
	s.envc = count_strings(envp, &s.bytes);
	argc = s.npre + s.nargs;
	/* execve's limit, the file name counted; argc 0 counts as 1 (execve adds ""). */
	stack_limits(&st->size, &limit);
	ptrs = ((argc ? argc : 1) + s.envc) * sizeof(void *);
	if (ptrs >= limit || s.bytes + execfn_len > limit - ptrs)
		return loader_fail(err, -E2BIG, "%s: argument list too long", img->execfn);
	/* Above sp: strings, pointers, auxv; below: the stub's table, then STACK_ROOM. */
	need = s.bytes + execfn_len + sizeof(LOADER_PLATFORM) + 64 + ptrs +
	       2 * AUX_MAX * sizeof(uintptr_t) + (img->nkeep + 8) * sizeof(struct loader_range) +
	       512;
	if (st->size < page_up(need) + STACK_ROOM)
		st->size = page_up(need) + STACK_ROOM;
	/* Fresh for every start: the program's stack protector and pointer guard seed. */
	m = loader_sys_random(rnd, sizeof(rnd));
	if (m >= 0)
		m = loader_sys_random(&brk_rnd, sizeof(brk_rnd));
	if (m < 0)
		return loader_fail(err, (int)m, "getrandom: %m");
	m = loader_sys_mmap(0, st->size, PROT_READ | PROT_WRITE |
			    (img->exec_stack ? PROT_EXEC : 0), MAP_PRIVATE | MAP_ANONYMOUS |
			    MAP_NORESERVE | MAP_GROWSDOWN | MAP_STACK, -1, 0);
	if (m < 0)
		return loader_fail(err, (int)m, "cannot map the new stack: %m");
	st->base = (uintptr_t)m;
	write_stack(img, &s, rnd);
	/* Like x86_64's arch_randomize_brk(): a gap page after the image, then up to 1 GiB. */
	st->brk = img->prog.end + PAGE + (uintptr_t)(brk_rnd & 0x3ffff) * PAGE;
	st->ready = 1;
	return 0;
}

/* ---- what the stub unmaps ------------------------------------------------------------------- */

static void sort_ranges(struct loader_range *r, unsigned int n)
{
	unsigned int i, j;

	for (i = 1; i < n; i++) {
		struct loader_range t = r[i];

		for (j = i; j > 0 && r[j - 1].start > t.start; j--)
			r[j] = r[j - 1];
		r[j] = t;
	}
}

/*
 * Everything in the user address space but the kept ranges: credbox's text, data, heap,
 * stack, libraries and any anonymous memory. Computed as a complement rather than read from
 * /proc/self/maps, which Landlock hides by now and which would miss nothing more anyway.
 * Returns the number of ranges written to out (at most nkeep + 1).
 */
static unsigned int unmap_table(struct loader_range *keep, unsigned int nkeep,
				struct loader_range *out)
{
	uintptr_t cur = 0;
	unsigned int i, n = 0;

	sort_ranges(keep, nkeep);
	for (i = 0; i < nkeep; i++) {
		if (keep[i].start > cur) {
			out[n].start = cur;
			out[n].len = keep[i].start - cur;
			n++;
		}
		if (keep[i].start + keep[i].len > cur)
			cur = keep[i].start + keep[i].len;
	}
	if (cur < LOADER_USER_TOP) {
		out[n].start = cur;
		out[n].len = LOADER_USER_TOP - cur;
		n++;
	}
	return n;
}

/* Put the stub's table just below the initial sp, on the new stack (which is kept). */
struct loader_stub_args *loader_stub_table(const struct loader_image *img)
{
	const struct loader_stack *st = &img->stack;
	struct loader_range keep[LOADER_MAX_KEEP + 3];
	struct loader_stub_args *a;
	unsigned int n = img->nkeep;
	size_t size = sizeof(*a) + (n + 4) * sizeof(struct loader_range);

	memcpy(keep, img->keep, n * sizeof(keep[0]));
	keep[n].start = st->base;
	keep[n++].len = st->size;
	keep[n].start = (uintptr_t)loader_stub_start;
	keep[n++].len = (uintptr_t)loader_stub_end - (uintptr_t)loader_stub_start;
	if (img->late.len)
		keep[n++] = img->late;	/* replaced by the late mapping */
	a = (struct loader_stub_args *)((st->sp - size - 256) & ~(uintptr_t)15);
	a->sp = st->sp;
	a->after = NULL;
	a->after_arg = NULL;
	a->entry = img->interp.mapped ? img->interp.entry : img->prog.entry;
	a->nranges = unmap_table(keep, n, a->range);
	return a;
}
