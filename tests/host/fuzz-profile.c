// SPDX-License-Identifier: GPL-2.0
/* fuzz-profile: libFuzzer target for the profile parser (and the seccomp resolution). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "filter.h"
#include "profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct policy pol;
	struct filter_spec spec;
	struct diag d;
	char *text;

	diag_init(&d, "fuzz.ini");
	if (profile_parse_buffer((const char *)data, size, &pol, &d) == 0 &&
	    filter_resolve(&pol.seccomp, &spec, &d) == 0)
		filter_spec_free(&spec);
	text = diag_format(&d);
	free(text);
	diag_free(&d);
	profile_free(&pol);
	return 0;
}
