/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loader_elf: the pure checks of the ELF loader. They read only the buffers they are given
 * (no syscall), so the fuzz target and the malformed-file tests reach them directly.
 */
#ifndef CREDBOX_LOADER_ELF_H
#define CREDBOX_LOADER_ELF_H

#include <elf.h>
#include <stdint.h>

#include "loader.h"

/* The machine this build loads for; the stub that jumps is per architecture too. */
#if defined(__x86_64__)
#define LOADER_ELF_MACHINE	EM_X86_64
#define LOADER_PAGE		4096UL
/* TASK_SIZE with 4-level page tables: nothing may end above it. */
#define LOADER_USER_TOP		0x7ffffffff000UL
#define LOADER_PLATFORM		"x86_64"
/* Where the kernel puts PIE programs (ELF_ET_DYN_BASE), and its mmap_rnd_bits default. */
#define LOADER_ET_DYN_BASE	((0x7ffffffff000UL / 3 * 2) & ~(LOADER_PAGE - 1))
#define LOADER_RND_BITS		28
#else
#error "the loader supports x86_64 only so far"
#endif

/* Largest p_align honoured; bigger alignments are refused rather than reserved. */
#define LOADER_MAX_ALIGN	(1UL << 30)
/* Largest distance from the first to the last byte of an image's PT_LOAD segments. */
#define LOADER_MAX_SPAN		(1UL << 40)

/* What the checks found out: enough to map the image and fill the auxv. */
struct loader_plan {
	unsigned int type;	/* ET_EXEC or ET_DYN */
	uint64_t lo;		/* lowest PT_LOAD address, page rounded down */
	uint64_t hi;		/* highest PT_LOAD end, page rounded up */
	uint64_t align;		/* largest p_align of a PT_LOAD, at least a page */
	int interp;		/* index of the PT_INTERP header, -1 if none */
	int exec_stack;		/* PT_GNU_STACK has PF_X */
	uint64_t phdr_vaddr;	/* link-time address of the program headers, 0 if not loaded */
	uint64_t entry;		/* e_entry, checked to be in an executable PT_LOAD */
};

/* A file being loaded, as read: header, program headers, size, and what the checks found. */
struct loader_file {
	int fd;
	uint64_t size;
	Elf64_Ehdr eh;
	Elf64_Phdr ph[LOADER_MAX_PHNUM];
	struct loader_plan plan;
};

#ifdef LOADER_FREESTANDING
/* The redirect runtime returns execve's errno and prints nothing: the message goes unbuilt. */
#define loader_fail(err, code, ...)	((void)(err), (code))
#define loader_hint(err, hint)		((void)(err))
#else
/* The fix of the failure just recorded (static text). */
#define loader_hint(err, text)		((err)->hint = (text))
/*
 * Record a failure of the loader: exit status 127 for -ENOENT, else 126. Returns code. In
 * fmt, %m stands for code's description (strerror(-code)).
 */
int loader_fail(struct failure *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#endif

/* e_ident, type, machine, program header table geometry against the file size. */
int loader_elf_check_ehdr(const Elf64_Ehdr *eh, uint64_t file_size, const char *what,
			  struct failure *err);

/* Every program header, and the plan derived from them. eh must have passed the above. */
int loader_elf_check_phdrs(const Elf64_Ehdr *eh, const Elf64_Phdr *ph, uint64_t file_size,
			   const char *what, struct loader_plan *plan, struct failure *err);

/* The PT_INTERP contents: NUL-terminated exactly at the end, non-empty. */
int loader_elf_check_interp(const char *path, uint64_t len, const char *what,
			    struct failure *err);

/* All three on an ELF file held in memory (used by the fuzz target). */
int loader_elf_check_buffer(const void *buf, uint64_t len, struct loader_plan *plan,
			    struct failure *err);

#endif /* CREDBOX_LOADER_ELF_H */
