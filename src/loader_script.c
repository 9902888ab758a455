// SPDX-License-Identifier: GPL-2.0
/*
 * loader_script: the "#!" line, read exactly as binfmt_script reads it, so that a script
 * started by credbox gets the interpreter and arguments execve would give it:
 *
 *   #!  INTERPRETER  ONE ARGUMENT, SPACES AND ALL  \n
 *
 * The interpreter is the first word after "#!" (spaces and tabs before it skipped); the
 * optional argument is the rest of the line after the blanks that follow, trailing spaces and
 * tabs trimmed, as one argument (it is not split into words). Only the first
 * LOADER_BINPRM_BUF bytes are read. A line with no newline in them may have been cut: it is
 * taken only if the interpreter's name ends within them (the interpreter rereads the script
 * and sees the whole argument), and the last byte is dropped, as the kernel drops it.
 */
#include <string.h>
#include <linux/errno.h>

#include "loader_elf.h"
#include "loader_script.h"

static int blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Copy [from, to) up to its first NUL; both fields hold LOADER_BINPRM_BUF bytes. */
static void copy_field(char *dst, const char *from, const char *to)
{
	size_t n = (size_t)(to - from);
	const char *nul = memchr(from, '\0', n);

	if (nul)
		n = (size_t)(nul - from);
	memcpy(dst, from, n);
	dst[n] = '\0';
}

int loader_script_parse(const char buf[LOADER_BINPRM_BUF], struct loader_script *out,
			const char *what, struct failure *err)
{
	const char *last = buf + LOADER_BINPRM_BUF - 1, *end, *name, *sep, *p;

	if (buf[0] != '#' || buf[1] != '!')
		return 1;
	end = memchr(buf, '\n', LOADER_BINPRM_BUF);
	if (!end) {
		for (p = buf + 2; p <= last && blank(*p); p++)
			;
		while (p <= last && *p && !blank(*p))
			p++;
		if (p > last)
			return loader_fail(err, -ENOEXEC, "%s: the #! line names no interpreter, or "
					   "one longer than its first %d bytes", what,
					   LOADER_BINPRM_BUF);
		end = last;
	}
	while (blank(end[-1]))		/* buf[1] is '!': this stops */
		end--;
	for (name = buf + 2; name < end && blank(*name); name++)
		;
	if (name == end)
		return loader_fail(err, -ENOEXEC, "%s: the #! line names no interpreter", what);
	for (sep = name; sep < end && *sep && !blank(*sep); sep++)
		;
	copy_field(out->interp, name, sep);
	out->has_arg = sep < end && *sep;
	if (out->has_arg) {
		for (p = sep; blank(*p); p++)	/* end[-1] is not blank: this stops */
			;
		copy_field(out->arg, p, end);
	} else {
		out->arg[0] = '\0';
	}
	return 0;
}
