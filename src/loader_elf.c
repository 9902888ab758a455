// SPDX-License-Identifier: GPL-2.0
/*
 * loader_elf: header and program-header checks for the in-process loader.
 *
 * The file comes from the launcher's profile, but its contents may be hostile (a program the
 * sandboxed user could replace, or an interpreter path pointing at one). Every value that is
 * later used as an address, a length or a file offset is checked here, with overflow-safe
 * arithmetic, before anything is mapped: a bad file must fail with a message while credbox
 * can still report it, never crash after credbox has unmapped itself. Shared with the
 * redirect runtime (loader_sys.h): no C library call here.
 */
#include <string.h>
#include <linux/errno.h>

#include "loader_elf.h"

#ifndef LOADER_FREESTANDING
#include <errno.h>
#include <stdarg.h>

int loader_fail(struct failure *err, int code, const char *fmt, ...)
{
	va_list ap;

	errno = -code;		/* for %m */
	va_start(ap, fmt);
	failure_vset(err, code, NULL, fmt, ap);
	va_end(ap);
	return failure_at(err, code == -ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN,
			  FAILURE_NO_LINE);
}
#endif

int loader_elf_check_ehdr(const Elf64_Ehdr *eh, uint64_t file_size, const char *what,
			  struct failure *err)
{
	uint64_t table;

	/* eh holds the first min(file_size, sizeof(*eh)) bytes of the file, the rest zero. */
	if (file_size < SELFMAG || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0) {
		int ret = loader_fail(err, -ENOEXEC, "%s: not an ELF file", what);

		loader_hint(err, "a program is an ELF executable, or a script whose first line is "
			    "#! and its interpreter; give a script without it to its interpreter "
			    "(credbox ... -- /bin/sh SCRIPT)");
		return ret;
	}
	if (file_size < sizeof(*eh))
		return loader_fail(err, -ENOEXEC, "%s: truncated ELF header", what);
	/* A 32-bit or big-endian file would be misread field by field: refuse it whole. */
	if (eh->e_ident[EI_CLASS] != ELFCLASS64)
		return loader_fail(err, -ENOEXEC, "%s: not a 64-bit ELF file", what);
	if (eh->e_ident[EI_DATA] != ELFDATA2LSB)
		return loader_fail(err, -ENOEXEC, "%s: not a little-endian ELF file", what);
	if (eh->e_ident[EI_VERSION] != EV_CURRENT || eh->e_version != EV_CURRENT)
		return loader_fail(err, -ENOEXEC, "%s: unknown ELF version", what);
	if (eh->e_machine != LOADER_ELF_MACHINE)
		return loader_fail(err, -ENOEXEC, "%s: ELF file for another machine (%u)", what,
				   eh->e_machine);
	if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN)
		return loader_fail(err, -ENOEXEC, "%s: ELF file is not an executable (type %u)",
				   what, eh->e_type);
	if (eh->e_phentsize != sizeof(Elf64_Phdr))
		return loader_fail(err, -ENOEXEC, "%s: bad program header size %u", what,
				   eh->e_phentsize);
	if (eh->e_phnum == 0 || eh->e_phnum > LOADER_MAX_PHNUM)
		return loader_fail(err, -ENOEXEC, "%s: %u program headers (1 to %d allowed)", what,
				   eh->e_phnum, LOADER_MAX_PHNUM);
	/* phnum <= 64 and phentsize == 56, so table cannot overflow; e_phoff can. */
	table = (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr);
	if (eh->e_phoff > file_size || table > file_size - eh->e_phoff)
		return loader_fail(err, -ENOEXEC, "%s: program headers beyond the end of the file",
				   what);
	return 0;
}

/* Protections are only the three PF_ bits; anything else is ignored like the kernel does. */
static int check_load(const Elf64_Phdr *p, uint64_t file_size, const char *what, unsigned int i,
		      struct failure *err)
{
	if (p->p_filesz > p->p_memsz)
		return loader_fail(err, -ENOEXEC, "%s: segment %u has p_filesz > p_memsz", what, i);
	/* Offsets past the file would map nothing (SIGBUS on first touch, after the jump). */
	if (p->p_offset > file_size || p->p_filesz > file_size - p->p_offset)
		return loader_fail(err, -ENOEXEC, "%s: segment %u extends beyond the end of the file",
				   what, i);
	/* Wrap-around or kernel addresses: the mmap would fail late or land somewhere else. */
	if (p->p_vaddr >= LOADER_USER_TOP || p->p_memsz > LOADER_USER_TOP - p->p_vaddr)
		return loader_fail(err, -ENOEXEC, "%s: segment %u lies outside the user address space",
				   what, i);
	if (p->p_align > 1 && (p->p_align & (p->p_align - 1)) != 0)
		return loader_fail(err, -ENOEXEC, "%s: segment %u alignment is not a power of two",
				   what, i);
	if (p->p_align > LOADER_MAX_ALIGN)
		return loader_fail(err, -ENOEXEC, "%s: segment %u alignment is too large", what, i);
	/* mmap maps whole pages: a file page must land on a memory page at the same offset. */
	if ((p->p_vaddr - p->p_offset) % LOADER_PAGE != 0 ||
	    (p->p_align > 1 && (p->p_vaddr - p->p_offset) % p->p_align != 0))
		return loader_fail(err, -ENOEXEC, "%s: segment %u is misaligned (vaddr and offset "
				   "differ modulo the alignment)", what, i);
	return 0;
}

static uint64_t page_down(uint64_t v)
{
	return v & ~(LOADER_PAGE - 1);
}

/* Callers have checked v < LOADER_USER_TOP, so this cannot wrap. */
static uint64_t page_up(uint64_t v)
{
	return (v + LOADER_PAGE - 1) & ~(LOADER_PAGE - 1);
}

/* Fold one checked PT_LOAD into the plan: order, overlap, span, entry and phdr location. */
static int plan_load(const Elf64_Ehdr *eh, const Elf64_Phdr *p, uint64_t *prev_end,
		     int *entry_ok, const char *what, unsigned int i, struct loader_plan *plan,
		     struct failure *err)
{
	uint64_t end = p->p_vaddr + p->p_memsz;

	/*
	 * Overlapping segments would let a later one silently replace an earlier one's
	 * (already checked) contents; the ELF spec requires ascending order anyway.
	 */
	if (*prev_end != UINT64_MAX && p->p_vaddr < *prev_end)
		return loader_fail(err, -ENOEXEC, "%s: segment %u overlaps or precedes the previous "
				   "one", what, i);
	if (*prev_end == UINT64_MAX)
		plan->lo = page_down(p->p_vaddr);
	*prev_end = end;
	plan->hi = page_up(end);
	if (p->p_align > plan->align)
		plan->align = p->p_align;
	if ((p->p_flags & PF_X) && eh->e_entry >= p->p_vaddr && eh->e_entry < end)
		*entry_ok = 1;
	if (p->p_offset <= eh->e_phoff && eh->e_phoff - p->p_offset < p->p_filesz &&
	    (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr) <= p->p_filesz - (eh->e_phoff - p->p_offset))
		plan->phdr_vaddr = p->p_vaddr + (eh->e_phoff - p->p_offset);
	return 0;
}

int loader_elf_check_phdrs(const Elf64_Ehdr *eh, const Elf64_Phdr *ph, uint64_t file_size,
			   const char *what, struct loader_plan *plan, struct failure *err)
{
	uint64_t prev_end = UINT64_MAX;
	int entry_ok = 0, nload = 0, ret;
	unsigned int i;

	memset(plan, 0, sizeof(*plan));
	plan->type = eh->e_type;
	plan->interp = -1;
	plan->align = LOADER_PAGE;
	plan->entry = eh->e_entry;
	for (i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *p = &ph[i];

		switch (p->p_type) {
		case PT_LOAD:
			if (p->p_memsz == 0)
				break;
			ret = check_load(p, file_size, what, i, err);
			if (!ret)
				ret = plan_load(eh, p, &prev_end, &entry_ok, what, i, plan, err);
			if (ret)
				return ret;
			nload++;
			break;
		case PT_INTERP:
			if (plan->interp >= 0)
				return loader_fail(err, -ENOEXEC, "%s: more than one PT_INTERP", what);
			if (p->p_offset > file_size || p->p_filesz > file_size - p->p_offset)
				return loader_fail(err, -ENOEXEC, "%s: PT_INTERP beyond the end of the "
						   "file", what);
			if (p->p_filesz < 2 || p->p_filesz > LOADER_MAX_INTERP)
				return loader_fail(err, -ENOEXEC, "%s: bad PT_INTERP length %llu", what,
						   (unsigned long long)p->p_filesz);
			plan->interp = (int)i;
			break;
		case PT_GNU_STACK:
			plan->exec_stack = !!(p->p_flags & PF_X);
			break;
		default:
			break;
		}
	}
	if (nload == 0)
		return loader_fail(err, -ENOEXEC, "%s: no loadable segment", what);
	/* Jumping to an address outside the image would crash after the point of no return. */
	if (!entry_ok)
		return loader_fail(err, -ENOEXEC, "%s: entry point 0x%llx is not in an executable "
				   "segment", what, (unsigned long long)eh->e_entry);
	/* A hostile image could otherwise claim most of the address space (or all the RAM). */
	if (plan->hi - plan->lo > LOADER_MAX_SPAN)
		return loader_fail(err, -ENOEXEC, "%s: segments span more than %lu GiB", what,
				   LOADER_MAX_SPAN >> 30);
	if (eh->e_type == ET_EXEC && plan->lo < 0x10000)
		return loader_fail(err, -ENOEXEC, "%s: fixed load address 0x%llx below the lowest "
				   "mappable address", what, (unsigned long long)plan->lo);
	return 0;
}

int loader_elf_check_interp(const char *path, uint64_t len, const char *what,
			    struct failure *err)
{
	/* An embedded NUL would make the path we open differ from the one we reported. */
	if (len < 2 || path[len - 1] != '\0' || memchr(path, '\0', len - 1) != NULL)
		return loader_fail(err, -ENOEXEC, "%s: malformed PT_INTERP path", what);
	return 0;
}

int loader_elf_check_buffer(const void *buf, uint64_t len, struct loader_plan *plan,
			    struct failure *err)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph[LOADER_MAX_PHNUM];
	const Elf64_Phdr *ip;
	int ret;

	memset(&eh, 0, sizeof(eh));
	memcpy(&eh, buf, len < sizeof(eh) ? len : sizeof(eh));
	ret = loader_elf_check_ehdr(&eh, len, "buffer", err);
	if (ret)
		return ret;
	memcpy(ph, (const char *)buf + eh.e_phoff, eh.e_phnum * sizeof(Elf64_Phdr));
	ret = loader_elf_check_phdrs(&eh, ph, len, "buffer", plan, err);
	if (ret || plan->interp < 0)
		return ret;
	ip = &ph[plan->interp];
	return loader_elf_check_interp((const char *)buf + ip->p_offset, ip->p_filesz, "buffer",
				       err);
}
