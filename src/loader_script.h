/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loader_script: the "#!" line of a script, read as the kernel's binfmt_script reads it. Pure
 * (no syscall), so that the fuzz target reaches it; loader.c follows the chain of
 * interpreters and builds the argument vector from what this finds.
 */
#ifndef CREDBOX_LOADER_SCRIPT_H
#define CREDBOX_LOADER_SCRIPT_H

#include "loader.h"

/*
 * Parse the first LOADER_BINPRM_BUF bytes of a file (zero-padded when the file is shorter).
 * Returns 1 if they do not start with "#!" (not a script), 0 with *out filled, or -ENOEXEC
 * with err filled (what names the file) when the line names no interpreter, or one whose
 * name does not end within the buffer.
 */
int loader_script_parse(const char buf[LOADER_BINPRM_BUF], struct loader_script *out,
			const char *what, struct failure *err);

#endif /* CREDBOX_LOADER_SCRIPT_H */
