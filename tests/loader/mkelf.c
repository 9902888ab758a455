// SPDX-License-Identifier: GPL-2.0
/*
 * loader-mkelf DIR: write the loader's test corpus of small ELF files into DIR and print a
 * manifest on stdout, one line per file: NAME <TAB> STATUS <TAB> SUBSTRING
 * where STATUS is the exit status expected from `loader-run --prepare-only DIR/NAME` (0, 126
 * or 127) and SUBSTRING a part of the message it must print (empty for the good files).
 *
 * Every file starts from the same hand-made static ET_EXEC (exit(7) in three instructions),
 * and one field is broken per file. Nothing binary is committed: the corpus is made here.
 *
 * loader-mkelf --interp INTERPRETER FILE: that program with a PT_INTERP naming INTERPRETER
 * (the corpus's good-dyn makes a working one: it exits 7 too).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

#define VBASE	0x400000UL
#define CODE	512		/* file offset of the code */
#define INTERP	640		/* file offset of PT_INTERP strings */
#define DATA	0x1000		/* file offset of the data page (good-bss) */

struct elf {
	unsigned char buf[0x2000];
	size_t len;
	mode_t mode;
	Elf64_Ehdr *eh;
	Elf64_Phdr *ph;
};

static const char *dir;

/* mov $60,%eax; mov $7,%edi; syscall */
static const unsigned char exit7[] = { 0xb8, 60, 0, 0, 0, 0xbf, 7, 0, 0, 0, 0x0f, 0x05 };

static void base(struct elf *e)
{
	memset(e, 0, sizeof(*e));
	e->eh = (Elf64_Ehdr *)e->buf;
	e->ph = (Elf64_Phdr *)(e->buf + sizeof(Elf64_Ehdr));
	memcpy(e->eh->e_ident, ELFMAG, SELFMAG);
	e->eh->e_ident[EI_CLASS] = ELFCLASS64;
	e->eh->e_ident[EI_DATA] = ELFDATA2LSB;
	e->eh->e_ident[EI_VERSION] = EV_CURRENT;
	e->eh->e_type = ET_EXEC;
	e->eh->e_machine = EM_X86_64;
	e->eh->e_version = EV_CURRENT;
	e->eh->e_entry = VBASE + CODE;
	e->eh->e_phoff = sizeof(Elf64_Ehdr);
	e->eh->e_ehsize = sizeof(Elf64_Ehdr);
	e->eh->e_phentsize = sizeof(Elf64_Phdr);
	e->eh->e_phnum = 1;
	memcpy(e->buf + CODE, exit7, sizeof(exit7));
	e->len = 1024;
	e->mode = 0755;
	e->ph[0] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_offset = 0,
				 .p_vaddr = VBASE, .p_paddr = VBASE, .p_filesz = e->len,
				 .p_memsz = e->len, .p_align = 0x1000 };
}

static Elf64_Phdr *add_phdr(struct elf *e, Elf64_Phdr p)
{
	Elf64_Phdr *n = &e->ph[e->eh->e_phnum++];

	*n = p;
	return n;
}

static void add_interp(struct elf *e, const char *path, size_t len)
{
	memcpy(e->buf + INTERP, path, len);
	add_phdr(e, (Elf64_Phdr){ .p_type = PT_INTERP, .p_flags = PF_R, .p_offset = INTERP,
				  .p_vaddr = VBASE + INTERP, .p_filesz = len, .p_memsz = len,
				  .p_align = 1 });
}

static void add_interp_str(struct elf *e, const char *path)
{
	add_interp(e, path, strlen(path) + 1);
}

static void emit(const struct elf *e, const char *name, int status, const char *msg)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, e->mode);
	if (fd < 0 || write(fd, e->buf, e->len) != (ssize_t)e->len) {
		perror(path);
		exit(1);
	}
	fchmod(fd, e->mode);
	close(fd);
	printf("%s\t%d\t%s\n", name, status, msg);
}

/* Not an executable itself: an interpreter target for the interp-* cases. */
static void helper_files(void)
{
	struct elf e;

	base(&e);
	memcpy(e.buf, "just text\n", 10);
	e.len = 10;
	emit(&e, "helper-text", 126, "not an ELF file");
	base(&e);
	e.eh->e_ident[EI_CLASS] = ELFCLASS32;
	emit(&e, "helper-elf32", 126, "not a 64-bit");
	base(&e);
	e.mode = 0644;
	emit(&e, "helper-noexec", 126, "not executable");
}

static void good_files(void)
{
	/* movzbl 0x601000,%edi; movzbl 0x601001,%eax; add %eax,%edi; movzbl 0x602800,%eax;
	 * add %eax,%edi; mov $60,%eax; syscall: exit(data[0] + data[1] + data[0x1800]) */
	static const unsigned char bss[] = {
		0x0f, 0xb6, 0x3c, 0x25, 0x00, 0x10, 0x60, 0x00,
		0x0f, 0xb6, 0x04, 0x25, 0x01, 0x10, 0x60, 0x00, 0x01, 0xc7,
		0x0f, 0xb6, 0x04, 0x25, 0x00, 0x28, 0x60, 0x00, 0x01, 0xc7,
		0xb8, 60, 0, 0, 0, 0x0f, 0x05 };
	struct elf e;

	base(&e);
	emit(&e, "good-min", 0, "");
	/*
	 * A data segment with one byte from the file (42) and bss after it: the rest of its
	 * page holds 0xaa in the file, which must read as zero, as must the anonymous page.
	 */
	base(&e);
	memcpy(e.buf + CODE, bss, sizeof(bss));
	memset(e.buf + DATA, 0xaa, 0x1000);
	e.buf[DATA] = 42;
	e.len = DATA + 0x1000;
	add_phdr(&e, (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_W, .p_offset = DATA,
				   .p_vaddr = 0x601000, .p_filesz = 1, .p_memsz = 0x2000,
				   .p_align = 0x1000 });
	emit(&e, "good-bss", 0, "");
	base(&e);
	e.eh->e_type = ET_DYN;
	e.ph[0].p_vaddr = 0;
	e.eh->e_entry = CODE;
	emit(&e, "good-dyn", 0, "");
}

typedef void (*mutate_fn)(struct elf *e);

struct bad_case {
	const char *name;
	int status;
	const char *msg;
	mutate_fn mutate;
};

static void m_trunc_ehdr(struct elf *e) { e->len = 40; }
static void m_magic(struct elf *e) { e->buf[1] = 'X'; }
static void m_class32(struct elf *e) { e->eh->e_ident[EI_CLASS] = ELFCLASS32; }
static void m_bigendian(struct elf *e) { e->eh->e_ident[EI_DATA] = ELFDATA2MSB; }
static void m_version(struct elf *e) { e->eh->e_version = 2; }
static void m_machine(struct elf *e) { e->eh->e_machine = EM_AARCH64; }
static void m_type(struct elf *e) { e->eh->e_type = ET_REL; }
static void m_phentsize(struct elf *e) { e->eh->e_phentsize = 32; }
static void m_phnum0(struct elf *e) { e->eh->e_phnum = 0; }
static void m_phnum_many(struct elf *e) { e->eh->e_phnum = 65; e->len = 0x2000; }
static void m_phnum_max(struct elf *e) { e->eh->e_phnum = 0xffff; }
static void m_phoff_overflow(struct elf *e) { e->eh->e_phoff = ~0ULL - 8; }
static void m_phoff_trunc(struct elf *e) { e->eh->e_phoff = e->len - 20; }
static void m_filesz(struct elf *e) { e->ph[0].p_memsz = e->ph[0].p_filesz - 1; }
static void m_offset_beyond(struct elf *e) { e->ph[0].p_offset = 0x100000; }
static void m_offset_overflow(struct elf *e) { e->ph[0].p_offset = ~0ULL - 0xfff; }
static void m_file_trunc(struct elf *e) { e->len = 600; }
static void m_vaddr_kernel(struct elf *e) { e->ph[0].p_vaddr = 0xffff800000000000ULL; }
static void m_vaddr_wrap(struct elf *e) { e->ph[0].p_memsz = ~0ULL - 0x1000; }
static void m_misaligned(struct elf *e) { e->ph[0].p_vaddr = VBASE + 1; e->eh->e_entry++; }
static void m_align_pow2(struct elf *e) { e->ph[0].p_align = 0x3000; }
static void m_align_huge(struct elf *e) { e->ph[0].p_align = 1ULL << 40; e->ph[0].p_vaddr = 0; }
static void m_entry_out(struct elf *e) { e->eh->e_entry = 0x900000; }
static void m_no_load(struct elf *e) { e->ph[0].p_type = PT_NOTE; }
static void m_low(struct elf *e) { e->ph[0].p_vaddr = 0x1000; e->eh->e_entry = 0x1000 + CODE; }

static void m_huge(struct elf *e)
{
	e->eh->e_type = ET_DYN;
	e->ph[0].p_vaddr = 0;
	e->eh->e_entry = CODE;
	e->ph[0].p_memsz = 0x7f0000000000ULL;
}

static void m_overlap(struct elf *e)
{
	add_phdr(e, (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_W, .p_offset = 0x100,
				  .p_vaddr = VBASE + 0x100, .p_filesz = 0x100, .p_memsz = 0x100,
				  .p_align = 0x1000 });
}

static void m_descending(struct elf *e)
{
	add_phdr(e, (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_W, .p_offset = 0,
				  .p_vaddr = VBASE - 0x10000, .p_filesz = 0x100, .p_memsz = 0x100,
				  .p_align = 0x1000 });
}

static void m_entry_rw(struct elf *e)
{
	e->ph[0].p_flags = PF_R | PF_W;
}

static void m_interp_missing(struct elf *e) { add_interp_str(e, "/nonexistent/ld-credbox.so"); }
static void m_interp_has_interp(struct elf *e) { add_interp_str(e, "/bin/true"); }
static void m_interp_unterm(struct elf *e) { add_interp(e, "/lib64/ld-linux-x86-64.so.2X", 28); }
static void m_interp_nul(struct elf *e) { add_interp(e, "/lib64\0/ld-linux-x86-64.so.2", 29); }
static void m_interp_long(struct elf *e) { add_interp(e, "/lib", 300); }
static void m_interp_dir(struct elf *e) { add_interp_str(e, "/tmp"); }

static void m_interp_two(struct elf *e)
{
	add_interp_str(e, "/lib64/ld-linux-x86-64.so.2");
	add_interp_str(e, "/lib64/ld-linux-x86-64.so.2");
}

static void interp_in_dir(struct elf *e, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	add_interp_str(e, path);
}

static void m_interp_text(struct elf *e) { interp_in_dir(e, "helper-text"); }
static void m_interp_elf32(struct elf *e) { interp_in_dir(e, "helper-elf32"); }
static void m_interp_noexec(struct elf *e) { interp_in_dir(e, "helper-noexec"); }
static void m_noexec(struct elf *e) { e->mode = 0644; }

static const struct bad_case cases[] = {
	{ "truncated-ehdr", 126, "truncated ELF header", m_trunc_ehdr },
	{ "bad-magic", 126, "not an ELF file", m_magic },
	{ "class32", 126, "not a 64-bit ELF file", m_class32 },
	{ "big-endian", 126, "not a little-endian ELF file", m_bigendian },
	{ "bad-version", 126, "unknown ELF version", m_version },
	{ "wrong-machine", 126, "ELF file for another machine", m_machine },
	{ "type-rel", 126, "not an executable", m_type },
	{ "bad-phentsize", 126, "bad program header size", m_phentsize },
	{ "no-phdrs", 126, "0 program headers", m_phnum0 },
	{ "too-many-phdrs", 126, "65 program headers", m_phnum_many },
	{ "max-phdrs", 126, "65535 program headers", m_phnum_max },
	{ "phoff-overflow", 126, "program headers beyond the end of the file", m_phoff_overflow },
	{ "phdrs-truncated", 126, "program headers beyond the end of the file", m_phoff_trunc },
	{ "filesz-gt-memsz", 126, "p_filesz > p_memsz", m_filesz },
	{ "offset-beyond", 126, "extends beyond the end of the file", m_offset_beyond },
	{ "offset-overflow", 126, "extends beyond the end of the file", m_offset_overflow },
	{ "file-truncated", 126, "extends beyond the end of the file", m_file_trunc },
	{ "vaddr-kernel", 126, "outside the user address space", m_vaddr_kernel },
	{ "vaddr-wrap", 126, "outside the user address space", m_vaddr_wrap },
	{ "huge-segment", 126, "segments span more than", m_huge },
	{ "misaligned", 126, "misaligned", m_misaligned },
	{ "align-not-pow2", 126, "not a power of two", m_align_pow2 },
	{ "align-huge", 126, "alignment is too large", m_align_huge },
	{ "overlap", 126, "overlaps or precedes", m_overlap },
	{ "descending", 126, "overlaps or precedes", m_descending },
	{ "entry-outside", 126, "entry point 0x900000 is not in an executable", m_entry_out },
	{ "entry-not-exec", 126, "is not in an executable segment", m_entry_rw },
	{ "no-load", 126, "no loadable segment", m_no_load },
	{ "low-address", 126, "below the lowest mappable address", m_low },
	{ "not-executable", 126, "not executable", m_noexec },
	{ "interp-missing", 127, "No such file or directory", m_interp_missing },
	{ "interp-has-interp", 126, "has its own PT_INTERP", m_interp_has_interp },
	{ "interp-unterminated", 126, "malformed PT_INTERP", m_interp_unterm },
	{ "interp-embedded-nul", 126, "malformed PT_INTERP", m_interp_nul },
	{ "interp-too-long", 126, "bad PT_INTERP length", m_interp_long },
	{ "interp-two", 126, "more than one PT_INTERP", m_interp_two },
	{ "interp-dir", 126, "not a regular file", m_interp_dir },
	{ "interp-not-elf", 126, "not an ELF file", m_interp_text },
	{ "interp-elf32", 126, "not a 64-bit ELF file", m_interp_elf32 },
	{ "interp-not-executable", 126, "not executable", m_interp_noexec },
};

int main(int argc, char **argv)
{
	struct elf e;
	size_t i;

	if (argc == 4 && !strcmp(argv[1], "--interp") && strlen(argv[2]) < 256) {
		/* good-min (exit 7) with a PT_INTERP: whatever starts the interpreter runs it. */
		char *slash = strrchr(argv[3], '/');

		base(&e);
		add_interp_str(&e, argv[2]);
		dir = ".";
		if (slash) {
			*slash = '\0';
			dir = argv[3];
		}
		emit(&e, slash ? slash + 1 : argv[3], 0, "");
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: loader-mkelf DIR\n"
			"       loader-mkelf --interp INTERPRETER FILE\n");
		return 2;
	}
	dir = realpath(argv[1], NULL);
	if (!dir) {
		perror(argv[1]);
		return 1;
	}
	helper_files();
	good_files();
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		base(&e);
		cases[i].mutate(&e);
		emit(&e, cases[i].name, cases[i].status, cases[i].msg);
	}
	return 0;
}
