// SPDX-License-Identifier: GPL-2.0
/*
 * t-loader-maps: the loader's reader of /proc/self/maps lines (loader_maps_line) finds the
 * bounds and the name field sscanf("%lx-%lx %*s %*s %*s %*s %n") found before it, on every
 * line of this process's maps and on lines made to mislead it; and loader_special, which asks
 * the kernel (PROCMAP_QUERY) where it can, finds the special mappings the text names. TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader.h"
#include "tap.h"

/* The reference: what the loader used to run. */
static const char *by_sscanf(const char *line, unsigned long *s, unsigned long *e)
{
	int name = -1;

	if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %n", s, e, &name) == 2 && name > 0)
		return line + name;
	return NULL;
}

static int same(const char *line)
{
	unsigned long s1 = 0, e1 = 0, s2 = 0, e2 = 0;
	const char *n1 = loader_maps_line(line, &s1, &e1), *n2 = by_sscanf(line, &s2, &e2);

	if (!n1 && !n2)
		return 1;
	if (n1 && n2 && s1 == s2 && e1 == e2 && !strcmp(n1, n2))
		return 1;
	printf("# %s\n#   by hand: %s %lx-%lx, sscanf: %s %lx-%lx\n", line, n1 ? n1 : "(none)",
	       s1, e1, n2 ? n2 : "(none)", s2, e2);
	return 0;
}

/* The [vvar]/[vdso] mappings the text names, merged where they touch, as "s-e s-e ". */
static void specials_of_text(char *out, size_t size)
{
	unsigned long s, e, ls = 0, le = 0;
	char line[4096];
	const char *n;
	FILE *f = fopen("/proc/self/maps", "r");

	*out = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		n = loader_maps_line(line, &s, &e);
		if (!n || (strcmp(n, "[vdso]") && strcmp(n, "[vvar]") && strcmp(n, "[vvar_vclock]")))
			continue;
		if (le == s) {
			le = e;
			continue;
		}
		if (le)
			snprintf(out + strlen(out), size - strlen(out), "%lx-%lx ", ls, le);
		ls = s;
		le = e;
	}
	if (le)
		snprintf(out + strlen(out), size - strlen(out), "%lx-%lx ", ls, le);
	if (f)
		fclose(f);
}

static void test_special(void)
{
	struct loader_range r[8], t;
	unsigned int n = loader_special(r, 8), i, j;
	unsigned long ls = 0, le = 0;
	char want[256], got[256] = "";

	specials_of_text(want, sizeof(want));
	for (i = 1; i < n; i++)		/* in address order, merged where they touch */
		for (j = i; j > 0 && r[j - 1].start > r[j].start; j--) {
			t = r[j];
			r[j] = r[j - 1];
			r[j - 1] = t;
		}
	for (i = 0; i < n; i++) {
		if (le && le == r[i].start) {
			le += r[i].len;
			continue;
		}
		if (le)
			snprintf(got + strlen(got), sizeof(got) - strlen(got), "%lx-%lx ", ls, le);
		ls = r[i].start;
		le = r[i].start + r[i].len;
	}
	if (le)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%lx-%lx ", ls, le);
	tap_ok(*want != '\0', "/proc/self/maps names a vDSO");
	tap_is_str(got, want, "loader_special finds the special mappings /proc/self/maps names");
}

int main(void)
{
	static const char *const made[] = {
		"7ffd5a1c6000-7ffd5a1c8000 r-xp 00000000 00:00 0                          [vdso]",
		"7ffd5a1c2000-7ffd5a1c6000 r--p 00000000 00:00 0                          [vvar]",
		"55d0c0a00000-55d0c0a21000 rw-p 00000000 00:00 0                          [heap]",
		"7f0000000000-7f0000001000 rw-p 00000000 00:00 0 ",
		"7f0000000000-7f0000001000 r--p 00000000 fe:01 1234                       /tmp/x [vdso]",
		"7f0000000000-7f0000001000 r--p 00000000 fe:01 1234    /a b",
		"ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]",
		"0-1000 r--p 0 0:0 0 [vdso]",
		"zz-1000 r--p 00000000 00:00 0 [vdso]",
		"1000 r--p 00000000 00:00 0 [vdso]",
		"1000-2000",
		"1000-2000 r--p",
		"1000-2000 r--p 00000000 00:00",
		"",
	};
	char line[4096];
	int lines = 0, bad = 0;
	size_t i;
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		lines++;
		bad += !same(line);
	}
	if (f)
		fclose(f);
	tap_ok(lines > 5 && !bad, "every line of /proc/self/maps read as sscanf reads it");
	for (i = 0; i < sizeof(made) / sizeof(made[0]); i++) {
		char what[160];

		snprintf(what, sizeof(what), "read as sscanf reads it: \"%.100s\"", made[i]);
		tap_ok(same(made[i]), what);
	}
	test_special();
	return tap_done();
}
