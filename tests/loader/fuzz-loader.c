// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-loader: libFuzzer target over the loader's header and program-header checks
 * (src/loader_elf.c) and its #! line parser (src/loader_script.c). The input is an ELF file
 * or a script; whatever the checks accept must also satisfy the invariants the mapping code
 * relies on, so an accepted plan (or #! line) is verified here too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "loader_elf.h"
#include "loader_script.h"

/* The #! parser on the same input: one interpreter name, NUL-terminated, no blank in it. */
static void check_script(const uint8_t *data, size_t size)
{
	char buf[LOADER_BINPRM_BUF] = "";
	struct loader_script s;
	struct failure err;
	int ret;

	memcpy(buf, data, size < sizeof(buf) ? size : sizeof(buf));
	ret = loader_script_parse(buf, &s, "buffer", &err);
	if (ret < 0 && (err.msg[0] == '\0' || err.status != 126))
		abort();
	if (ret == 0 && (!memchr(s.interp, '\0', sizeof(s.interp)) ||
			 !memchr(s.arg, '\0', sizeof(s.arg)) || strpbrk(s.interp, " \t\n") ||
			 strchr(s.arg, '\n') || (!s.has_arg && s.arg[0])))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct loader_plan plan;
	struct failure err;

	check_script(data, size);
	if (loader_elf_check_buffer(data, size, &plan, &err) != 0) {
		/* A refusal always comes with a message and a launcher status. */
		if (err.msg[0] == '\0' || (err.status != 126 && err.status != 127))
			abort();
		return 0;
	}
	if (plan.lo >= plan.hi || plan.hi > LOADER_USER_TOP || plan.hi - plan.lo > LOADER_MAX_SPAN)
		abort();
	if (plan.lo % LOADER_PAGE || plan.hi % LOADER_PAGE)
		abort();
	if (plan.align < LOADER_PAGE || plan.align > LOADER_MAX_ALIGN ||
	    (plan.align & (plan.align - 1)))
		abort();
	if (plan.entry < plan.lo || plan.entry >= plan.hi)
		abort();
	return 0;
}
