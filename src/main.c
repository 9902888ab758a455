// SPDX-License-Identifier: GPL-2.0
/*
 * credbox: run a program with pre-opened credential directories, dropped privileges, Landlock
 * and seccomp, as an INI profile says. The only file that prints and exits.
 *
 *   credbox --profile FILE [--] [PROGRAM [ARG...]]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <seccomp.h>

#include "apply.h"
#include "filter.h"
#include "landlock.h"
#include "plan.h"
#include "preopen.h"
#include "profile.h"
#include "sysnames.h"
#include "util.h"

#ifndef CREDBOX_VERSION
#define CREDBOX_VERSION "0.1"
#endif

#define EXIT_CREDBOX	APPLY_EXIT_FAILURE

enum mode { MODE_RUN, MODE_CHECK, MODE_PRINT_FILTER, MODE_HELP, MODE_VERSION, MODE_GROUPS,
	    MODE_DUMP_KEYS };

struct options {
	const char *profile;
	int mode;
	char **cmd;
	size_t ncmd;
};

struct option_row {
	const char *name;
	char short_name;
	const char *arg;	/* NULL: no argument */
	int mode;		/* -1: not a mode */
	int hidden;
	const char *doc;
};

static const struct option_row option_table[] = {
	{ "--profile", 'p', "FILE", -1, 0, "the profile to apply (credbox.ini(5))" },
	{ "--check", 'c', NULL, MODE_CHECK, 0,
	  "validate the profile, print the plan and what this kernel lacks; change nothing" },
	{ "--print-filter", 0, NULL, MODE_PRINT_FILTER, 0,
	  "print the seccomp filters as libseccomp's PFC text" },
	{ "--list-groups", 0, NULL, MODE_GROUPS, 0, "list the @groups of system calls" },
	{ "--help", 'h', NULL, MODE_HELP, 0, "show this help" },
	{ "--version", 'V', NULL, MODE_VERSION, 0, "show the version" },
	{ "--dump-keys", 0, NULL, MODE_DUMP_KEYS, 1, "print the profile key table" },
};

static void usage(FILE *out)
{
	size_t i;

	fputs("usage: credbox --profile FILE [--] [PROGRAM [ARG...]]\n"
	      "       credbox --profile FILE --check | --print-filter\n"
	      "       credbox --help | --version | --list-groups\n\n", out);
	for (i = 0; i < ARRAY_SIZE(option_table); i++) {
		const struct option_row *o = &option_table[i];
		char left[40];

		if (o->hidden)
			continue;
		snprintf(left, sizeof(left), "%c%c%s%s %s", o->short_name ? '-' : ' ',
			 o->short_name ? o->short_name : ' ', o->short_name ? ", " : "  ",
			 o->name, o->arg ? o->arg : "");
		fprintf(out, "  %-26s %s\n", left, o->doc);
	}
	fputs("\nExit status: 125 credbox failed, 126 the program cannot run, 127 not found,\n"
	      "otherwise the program's own.\n", out);
}

static const struct option_row *find_option(const char *arg)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(option_table); i++) {
		const struct option_row *o = &option_table[i];

		if (!strcmp(arg, o->name) || (o->short_name && arg[0] == '-' &&
					      arg[1] == o->short_name && !arg[2]))
			return o;
	}
	return NULL;
}

static int parse_options(int argc, char **argv, struct options *opt)
{
	int i;

	memset(opt, 0, sizeof(*opt));
	opt->mode = MODE_RUN;
	for (i = 1; i < argc; i++) {
		const struct option_row *o;
		const char *arg = argv[i], *value = NULL, *eq;
		char name[32];

		if (!strcmp(arg, "--")) {
			i++;
			break;
		}
		if (arg[0] != '-' || !arg[1])
			break;
		eq = strchr(arg, '=');
		if (arg[1] == '-' && eq && (size_t)(eq - arg) < sizeof(name)) {
			snprintf(name, sizeof(name), "%.*s", (int)(eq - arg), arg);
			value = eq + 1;
			arg = name;
		}
		o = find_option(arg);
		if (!o) {
			fprintf(stderr, "credbox: unknown option %s\n", argv[i]);
			return -EINVAL;
		}
		if (o->arg && !value) {
			if (i + 1 >= argc) {
				fprintf(stderr, "credbox: %s needs %s\n", o->name, o->arg);
				return -EINVAL;
			}
			value = argv[++i];
		} else if (!o->arg && value) {
			fprintf(stderr, "credbox: %s takes no value\n", o->name);
			return -EINVAL;
		}
		if (o->mode < 0) {
			opt->profile = value;
		} else if (opt->mode != MODE_RUN && opt->mode != o->mode) {
			fprintf(stderr, "credbox: %s cannot be combined with another mode\n",
				o->name);
			return -EINVAL;
		} else {
			opt->mode = o->mode;
		}
	}
	opt->cmd = argv + i;
	opt->ncmd = argc - i;
	return 0;
}

/* ---- the modes that need no profile ------------------------------------------------------- */

static void dump_keys(void)
{
	size_t n, i;
	const struct profile_key *k = profile_keys(&n);

	for (i = 0; i < n; i++)
		printf("%s\t%s\t%s\t%s%s\t%s\n", profile_section_name(k[i].section), k[i].name,
		       k[i].type, k[i].flags & KEY_REQUIRED ? "required" : "optional",
		       k[i].flags & KEY_REPEAT ? ",repeat" : "", k[i].def ? k[i].def : "-");
}

static void list_groups(void)
{
	size_t n, i;
	const struct sysnames_group *g = sysnames_groups(&n);
	const char *const *s;

	for (i = 0; i < n; i++) {
		int col = 2;

		printf("%s\t%s\n ", g[i].name, g[i].doc);
		for (s = g[i].syscalls; *s; s++) {
			int nr = seccomp_syscall_resolve_name(*s);

			if (nr < 0)
				continue;	/* not on this architecture */
			if (col + strlen(*s) > 90) {
				fputs("\n ", stdout);
				col = 2;
			}
			col += printf(" %s", *s);
		}
		putchar('\n');
	}
}

/* ---- profile -> plan ----------------------------------------------------------------------- */

static char *read_profile(const char *file, size_t *len)
{
	struct stat st;
	char *buf;
	ssize_t n;
	int fd = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0) {
		fprintf(stderr, "credbox: %s: %s\n", file, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > PROFILE_MAX_SIZE) {
		fprintf(stderr, "credbox: %s: not a regular file of at most %d bytes\n", file,
			PROFILE_MAX_SIZE);
		close(fd);
		return NULL;
	}
	/* The profile decides what root hands out: nobody else may have written it. */
	if (geteuid() == 0 && ((st.st_mode & 022) || (st.st_uid != 0))) {
		fprintf(stderr, "credbox: %s: owned by uid %u or writable by others\n"
			"hint: a profile run as root must be root's and not group- or "
			"world-writable\n", file, (unsigned)st.st_uid);
		close(fd);
		return NULL;
	}
	buf = malloc(st.st_size + 1);
	n = buf ? read(fd, buf, st.st_size) : -1;
	close(fd);
	if (n != st.st_size) {
		fprintf(stderr, "credbox: %s: cannot read\n", file);
		free(buf);
		return NULL;
	}
	*len = (size_t)n;
	return buf;
}

static void print_diag(const struct diag *d)
{
	char *text = diag_format(d);

	fputs(text ? text : "credbox: out of memory\n", stderr);
	free(text);
}

/* Like the parser's messages: the profile's line at fault, then the fix (see apply.h). */
static void print_apply_error(const char *profile, const struct apply_error *err)
{
	if (err->line > 0)
		fprintf(stderr, "%s:%d: %s\n", profile, err->line, err->msg);
	else
		fprintf(stderr, "%s: %s\n", err->line ? "credbox" : profile, err->msg);
	if (err->hint)
		fprintf(stderr, "hint: %s\n", err->hint);
}

static void describe_kernel(const struct plan *plan)
{
	struct landlock_gap gap;
	int probe = preopen_probe(), abi = landlock_abi();
	size_t i;

	puts("\nthis kernel");
	if (!probe)
		puts("  O_CRED_ALLOW  available");
	else if (probe == -EOPNOTSUPP)
		printf("  O_CRED_ALLOW  missing (openat2 refuses the flag)%s\n", plan->ndirs ?
		       ": a run stops before any change (exit 125)" :
		       ": not needed, the profile grants no directories");
	else
		printf("  O_CRED_ALLOW  cannot probe: %s\n", strerror(-probe));
	if (abi < 0) {
		printf("  Landlock      missing%s\n", plan->landlock_required ?
		       ": a run stops before any change (exit 125)" :
		       ": tolerated (landlock = best-effort)");
	} else {
		printf("  Landlock      ABI %d%s\n", abi, landlock_missing(abi, 0, &gap) ?
		       ", every feature credbox uses" : "; missing:");
		for (i = 0; !landlock_missing(abi, i, &gap); i++)
			printf("                  %s (ABI %d): %s\n", gap.what, gap.abi,
			       gap.consequence);
	}
	printf("  seccomp       libseccomp %u.%u.%u, API level %u\n",
	       seccomp_version()->major, seccomp_version()->minor, seccomp_version()->micro,
	       seccomp_api_get());
	printf("  fs.protected_hardlinks %s\n", preopen_hardlinks_protected() ? "is NOT 1" :
	       "= 1");
}

int main(int argc, char **argv)
{
	extern char **environ;
	struct options opt;
	struct policy pol;
	struct plan plan;
	struct ident_db db;
	struct apply_error aerr;
	struct diag d;
	char *buf;
	size_t len;
	int e;

	if (parse_options(argc, argv, &opt) < 0) {
		fputs("hint: credbox --help\n", stderr);
		return EXIT_CREDBOX;
	}
	switch (opt.mode) {
	case MODE_HELP:
		usage(stdout);
		return 0;
	case MODE_VERSION:
		printf("credbox %s\n", CREDBOX_VERSION);
		return 0;
	case MODE_GROUPS:
		list_groups();
		return 0;
	case MODE_DUMP_KEYS:
		dump_keys();
		return 0;
	}
	if (!opt.profile) {
		fputs("credbox: no profile (--profile FILE)\nhint: credbox --help\n", stderr);
		return EXIT_CREDBOX;
	}
	buf = read_profile(opt.profile, &len);
	if (!buf)
		return EXIT_CREDBOX;
	diag_init(&d, opt.profile);
	e = profile_parse_buffer(buf, len, &pol, &d);
	free(buf);
	if (!e) {
		ident_system_db(&db);
		e = plan_build(&pol, &db, opt.mode == MODE_RUN ? opt.cmd : NULL,
			       opt.mode == MODE_RUN ? opt.ncmd : 0, environ, &plan, &d);
	}
	if (e) {
		print_diag(&d);
		if (e == -ENOMEM)
			fputs("credbox: out of memory\n", stderr);
		return EXIT_CREDBOX;
	}
	if (opt.mode != MODE_RUN && opt.ncmd) {
		fputs("credbox: --check and --print-filter take no program\n", stderr);
		return EXIT_CREDBOX;
	}
	if (opt.mode == MODE_PRINT_FILTER) {
		fflush(stdout);
		e = filter_print(&plan.filter, STDOUT_FILENO);
		if (e)
			fprintf(stderr, "credbox: cannot print the filter: %s\n", strerror(-e));
		return e ? EXIT_CREDBOX : 0;
	}
	if (opt.mode == MODE_CHECK) {
		printf("profile     %s: valid\n", opt.profile);
		plan_describe(&plan, stdout);
		describe_kernel(&plan);
		return 0;
	}
	fflush(NULL);
	apply(&plan, &aerr);
	print_apply_error(opt.profile, &aerr);
	return aerr.status ? aerr.status : EXIT_CREDBOX;
}
