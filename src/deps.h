/* SPDX-License-Identifier: GPL-2.0 */
/*
 * deps: what the program opens by path once Landlock is on, for --check. credbox's loader
 * opens the program, its #! interpreters and its ELF interpreter before Landlock, so a run
 * starts whatever [filesystem] says; but then an interpreter reopens its script by name, and
 * the dynamic linker opens the libraries the program needs, both under Landlock. Each of those
 * files must lie beneath a path of [filesystem], or the program dies at its start ("error while
 * loading shared libraries", "can't open file").
 *
 * The libraries are found as glibc's dynamic linker finds them in secure mode (AT_SECURE):
 * DT_RPATH of the object (when it has no DT_RUNPATH), DT_RUNPATH, /etc/ld.so.cache, then the
 * system directories; entries with $ORIGIN or other tokens are skipped, as secure mode skips
 * them outside the trusted directories. The closure is followed to DEPS_MAX_LIBS objects.
 * Every ELF file is read with pread(2) within bounds: a hostile file gives "cannot read",
 * nothing more.
 */
#ifndef CREDBOX_DEPS_H
#define CREDBOX_DEPS_H

#include <stddef.h>
#include <stdint.h>

#include "failure.h"
#include "loader.h"
#include "plan.h"

#define DEPS_MAX_NEEDED		64	/* DT_NEEDED entries of one object */
#define DEPS_MAX_LIBS		256	/* objects of the closure */
#define DEPS_MAX_STRTAB		(1 << 20)
#define DEPS_MAX_DYNAMIC	(1 << 16)

/* What an object's dynamic section asks for. */
struct deps_elf {
	int dynamic;				/* it has a PT_DYNAMIC */
	size_t nneeded;
	char needed[DEPS_MAX_NEEDED][256];	/* DT_NEEDED sonames */
	char rpath[1024], runpath[1024];	/* "" when absent */
	int has_runpath;
};

/*
 * Read the dynamic section of the ELF file at fd (x86_64, 64-bit, little endian) into out.
 * 0; -ENOEXEC for a file that is not such an ELF object or whose dynamic section does not
 * hold together; -errno of a read.
 */
int deps_elf_read(int fd, struct deps_elf *out);

/*
 * Check that every script the interpreters of img reopen and every library of the program's
 * closure is found and lies beneath a path of plan->paths; each one at fault is added to out
 * (with the line of [filesystem], and a hint naming the directory to add). 0 if none,
 * -ENOMEM. img: after loader_prepare.
 */
int deps_check(const struct plan *plan, const struct loader_image *img,
	       struct failure_list *out);

#endif /* CREDBOX_DEPS_H */
