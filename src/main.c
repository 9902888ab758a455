// SPDX-License-Identifier: GPL-2.0
/*
 * credbox: run a program with pre-opened credential directories, dropped privileges, Landlock
 * and seccomp, as an INI profile says. The only file that prints and exits.
 *
 *   credbox --profile FILE [--] [PROGRAM [ARG...]]
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <seccomp.h>

#include "apply.h"
#include "filter.h"
#include "landlock.h"
#include "plan.h"
#include "preopen.h"
#include "profile.h"
#include "redirect.h"
#include "profile_file.h"
#include "sysnames.h"
#include "util.h"

#include "config.h"	/* CREDBOX_VERSION, CREDBOX_SYSCONFDIR: made by the Makefile */

enum mode { MODE_RUN, MODE_CHECK, MODE_PRINT_FILTER, MODE_HELP, MODE_VERSION, MODE_GROUPS,
	    MODE_DUMP_KEYS };
/* Options that are no mode of their own (option_row.mode). */
#define OPT_PROFILE	(-1)
#define OPT_VERBOSE	(-2)

struct options {
	const char *profile;
	int mode;
	int verbose;
	char **cmd;
	size_t ncmd;
};

struct option_row {
	const char *name;	/* the long name, without "--" */
	char short_name;	/* 0: none */
	const char *arg;	/* NULL: no argument */
	int mode;		/* enum mode, or OPT_* */
	int hidden;
	const char *doc;
};

static const struct option_row option_table[] = {
	{ "profile", 'p', "FILE|NAME", OPT_PROFILE, 0,
	  "the profile (credbox.ini(5)): a path with a '/', or the NAME of "
	  CREDBOX_SYSCONFDIR "/credbox/NAME.ini" },
	{ "check", 'c', NULL, MODE_CHECK, 0,
	  "print the plan, check all a run checks before its first change, change "
	  "nothing: exit 0 if a run would start, else 125 and the run's messages" },
	{ "verbose", 'v', NULL, OPT_VERBOSE, 0,
	  "print on stderr what was applied, just before the program starts" },
	{ "print-filter", 0, NULL, MODE_PRINT_FILTER, 0,
	  "print the seccomp filters as libseccomp's PFC text" },
	{ "list-groups", 0, NULL, MODE_GROUPS, 0,
	  "list the @groups of system calls, or those named after it" },
	{ "help", 'h', NULL, MODE_HELP, 0, "show this help" },
	{ "version", 'V', NULL, MODE_VERSION, 0, "show the version" },
	{ "dump-keys", 0, NULL, MODE_DUMP_KEYS, 1, "print the profile key table" },
};

static void usage(FILE *out)
{
	size_t i;

	fputs("usage: credbox [--verbose] --profile FILE|NAME [--] [PROGRAM [ARG...]]\n"
	      "       credbox --profile FILE|NAME --check [--] [PROGRAM [ARG...]]\n"
	      "       credbox --profile FILE|NAME --print-filter\n"
	      "       credbox --list-groups [GROUP...]\n"
	      "       credbox --help | --version\n\n", out);
	for (i = 0; i < ARRAY_SIZE(option_table); i++) {
		const struct option_row *o = &option_table[i];
		const char *doc = o->doc;
		char left[40];

		if (o->hidden)
			continue;
		snprintf(left, sizeof(left), "%c%c%s--%s %s", o->short_name ? '-' : ' ',
			 o->short_name ? o->short_name : ' ', o->short_name ? ", " : "  ",
			 o->name, o->arg ? o->arg : "");
		/* the text in lines of at most 50 characters, beside the option */
		do {
			int n = strlen(doc) <= 50 ? (int)strlen(doc) : 50;

			while (doc[n] && n > 0 && doc[n] != ' ')
				n--;
			fprintf(out, "  %-26s %.*s\n", left, n ? n : 50, doc);
			doc += n ? n : 50;
			doc += *doc == ' ';
			left[0] = '\0';
		} while (*doc);
	}
	fputs("\nExit status: 125 credbox failed, 126 the program cannot run, 127 not found,\n"
	      "otherwise the program's own.\n", out);
}

/*
 * The command line, as getopt_long(3) reads it (so -pFILE, -cv, --prof=FILE all work), up to
 * the program: the first word that is no option, or "--". getopt's own messages (unknown or
 * ambiguous option, missing argument) start with argv[0], which is made to say credbox.
 */
static int parse_options(int argc, char **argv, struct options *opt)
{
	struct option longopts[ARRAY_SIZE(option_table) + 1];
	char shortopts[2 * ARRAY_SIZE(option_table) + 2] = "+";
	const struct option_row *o;
	size_t i, ns = 1;
	int c;

	memset(opt, 0, sizeof(*opt));
	memset(longopts, 0, sizeof(longopts));
	opt->mode = MODE_RUN;
	for (i = 0; i < ARRAY_SIZE(option_table); i++) {
		o = &option_table[i];
		longopts[i] = (struct option){ o->name, o->arg ? required_argument : no_argument,
					       NULL, o->short_name ? o->short_name : 256 + (int)i };
		if (o->short_name) {
			shortopts[ns++] = o->short_name;
			if (o->arg)
				shortopts[ns++] = ':';
		}
	}
	argv[0] = "credbox";
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		for (o = NULL, i = 0; i < ARRAY_SIZE(option_table) && !o; i++) {
			if (c == option_table[i].short_name || c == 256 + (int)i)
				o = &option_table[i];
		}
		if (!o)
			return -EINVAL;		/* getopt said why */
		if (o->mode == MODE_HELP || o->mode == MODE_VERSION) {
			opt->mode = o->mode;	/* as GNU programs do: acted on at once */
			return 0;
		} else if (o->mode == OPT_VERBOSE) {
			opt->verbose = 1;
		} else if (o->mode == OPT_PROFILE && opt->profile) {
			fprintf(stderr, "credbox: --profile given twice (\"%s\", then \"%s\")\n",
				opt->profile, optarg);
			return -EINVAL;
		} else if (o->mode == OPT_PROFILE && !*optarg) {
			fputs("credbox: --profile needs a file or a profile name, not an empty "
			      "word\n", stderr);
			return -EINVAL;
		} else if (o->mode == OPT_PROFILE) {
			opt->profile = optarg;
		} else if (opt->mode != MODE_RUN && opt->mode != o->mode) {
			fprintf(stderr, "credbox: --%s cannot be combined with another mode\n",
				o->name);
			return -EINVAL;
		} else {
			opt->mode = o->mode;
		}
	}
	opt->cmd = argv + optind;
	opt->ncmd = argc - optind;
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

/* One group and its members on this architecture. */
static void list_group(const struct sysnames_group *g)
{
	const char *const *s;
	int col = 2;

	printf("%s\t%s\n ", g->name, g->doc);
	for (s = g->syscalls; *s; s++) {
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

/* --list-groups [GROUP...]: every group, or the ones named ("@" may be left out). */
static int list_groups(char **names, size_t nnames)
{
	char name[72], near[64];
	size_t i, n;
	const struct sysnames_group *all = sysnames_groups(&n);
	int status = 0;

	for (i = 0; !nnames && i < n; i++)
		list_group(&all[i]);
	for (i = 0; i < nnames; i++) {
		const struct sysnames_group *g;

		snprintf(name, sizeof(name), "%s%s", names[i][0] == '@' ? "" : "@", names[i]);
		g = sysnames_group_find(name);
		if (g) {
			list_group(g);
			continue;
		}
		fputs("credbox: --list-groups: no group ", stderr);
		diag_fputs(name, stderr);
		if (!sysnames_suggest(name, near, sizeof(near)))
			fprintf(stderr, "\nhint: did you mean %s?\n", near);
		else
			fputs("\nhint: credbox --list-groups lists them all\n", stderr);
		status = EXIT_CREDBOX;
	}
	return status;
}

/* ---- profile -> plan ----------------------------------------------------------------------- */

static void print_diag(const struct diag *d)
{
	char *text = diag_format(d);

	fputs(text ? text : "credbox: out of memory\n", stderr);
	free(text);
}

/* Like the parser's messages: the profile's file and line at fault, then the fix (failure.h). */
static void print_failure(const struct diag *d, const struct failure *err)
{
	char where[PATH_MAX + 16];

	diag_write(stderr, err->line < 0 ? "credbox" :
		   diag_location(d, err->line, where, sizeof(where)), err->msg, err->hint);
}

/* action = log: where the kernel logs, and whether it does (kernel.seccomp.actions_logged). */
static void describe_log(void)
{
	char logged[256] = "", *word;
	FILE *f = fopen("/proc/sys/kernel/seccomp/actions_logged", "re");
	size_t len;
	int yes;

	if (f) {
		if (!fgets(logged, sizeof(logged), f))
			logged[0] = '\0';
		fclose(f);
	}
	logged[strcspn(logged, "\n")] = '\0';
	for (yes = 0, word = logged; !yes && *word; word += len + (word[len] == ' ')) {
		len = strcspn(word, " ");
		yes = len == 3 && !strncmp(word, "log", 3);
	}
	printf("  seccomp log   %s: kernel.seccomp.actions_logged = %s\n", yes ?
	       "action = log reaches the audit log (auditd's audit.log, else dmesg, journalctl -k; "
	       "type=SECCOMP)" : "action = log is NOT logged on this kernel",
	       *logged ? logged : "(cannot be read)");
}

/*
 * The calls lent since patches 13-17: chmod, utimes and links in a tree (a transparent grant's
 * programs need them: tar, cp -a, git), and read-only loans (access = ro needs them).
 */
static void describe_treeops(const struct plan *plan, int transparent)
{
	const char *missing;
	int probe = preopen_probe_treeops(&missing);
	size_t i;

	if (!probe)
		puts("  tree ops      available (fchmodat2, utimensat, linkat, symlinkat2)");
	else if (probe == -EOPNOTSUPP)
		printf("  tree ops      missing (%s refuses AT_CRED_INHERIT)%s\n", missing,
		       transparent ? ": the program's chmod, utimes, link and symlink in a "
		       "transparent tree are made with its own rights (EACCES, EPERM)" :
		       ": the client library's credbox_fchmodat and the rest fail (EINVAL)");
	else
		printf("  tree ops      cannot probe: %s\n", strerror(-probe));
	for (i = 0; i < plan->ndirs && plan->dirs[i].rw; i++)
		;
	probe = preopen_probe_rdonly();
	if (!probe)
		puts("  read-only loans available (OA2_CRED_RDONLY: access = ro is kept by the "
		     "kernel)");
	else if (probe == -EOPNOTSUPP)
		printf("  read-only loans missing (openat2 refuses OA2_CRED_RDONLY)%s\n",
		       i < plan->ndirs ? ": a run stops before any change (exit 125), the profile "
		       "has an access = ro grant" : plan->ndirs ? ": not needed, every grant is "
		       "access = rw" : ": not needed, the profile grants no directories");
	else
		printf("  read-only loans cannot probe: %s\n", strerror(-probe));
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
	probe = preopen_probe_dirops();
	for (i = 0; i < plan->ndirs && !plan->dirs[i].transparent; i++)
		;
	if (!probe)
		puts("  directory ops available (mkdir, unlink, rename, stat, access, readlink)");
	else if (probe == -EOPNOTSUPP)
		printf("  directory ops missing (unlinkat refuses AT_CRED_INHERIT)%s\n",
		       i < plan->ndirs ? ": a run stops before any change (exit 125), the profile "
		       "has a transparent grant" : plan->ndirs ? ": granted trees can only be opened "
		       "and created in" : ": not needed, the profile grants no directories");
	else
		printf("  directory ops cannot probe: %s\n", strerror(-probe));
	describe_treeops(plan, i < plan->ndirs);
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
	for (i = 0; i < plan->ndirs && plan->dirs[i].rw; i++)
		;
	if (i < plan->ndirs && !landlock_enforces_ro(abi))
		printf("  read-only grants cannot be enforced here ([dir %s]): a run stops before "
		       "any change (exit 125)\n", plan->dirs[i].name);
	printf("  seccomp       libseccomp %u.%u.%u, API level %u\n",
	       seccomp_version()->major, seccomp_version()->minor, seccomp_version()->micro,
	       seccomp_api_get());
	if (plan->pol->seccomp.action == SC_ACT_LOG)
		describe_log();
	printf("  fs.protected_hardlinks %s\n", preopen_hardlinks_protected() ? "is NOT 1" :
	       "= 1");
}

/* Where --profile leads (profile_file_locate): 0, or the message printed and EXIT_CREDBOX. */
static int locate(const struct options *opt, char *path, size_t size)
{
	int e = profile_file_locate(opt->profile, CREDBOX_SYSCONFDIR, path, size);

	if (!e)
		return 0;
	fputs("credbox: --profile ", stderr);
	diag_fputs(opt->profile, stderr);
	fprintf(stderr, ": %s\nhint: a profile is a path with a '/', or the NAME of "
		CREDBOX_SYSCONFDIR "/credbox/NAME.ini (letters, digits, '_', '-', '.')\n",
		e == -EINVAL ? "not a profile name" : strerror(-e));
	return EXIT_CREDBOX;
}

/*
 * The profile, read from its files once they passed the trust checks, parsed and planned; its
 * messages printed. 0, or the exit status. d: the profile's files, for later messages.
 */
static int load_plan(const struct options *opt, char *path, size_t size, struct policy *pol,
		     struct plan *plan, struct diag *d, struct diag *trust)
{
	extern char **environ;
	struct ident_db db;
	int e = locate(opt, path, size);

	if (e)
		return e;
	diag_init(d, path);
	diag_init(trust, path);
	/* --check lints a draft that root may not trust yet: that is one of its findings */
	e = profile_file_load(path, strchr(opt->profile, '/') ? NULL : opt->profile, pol, d,
			      opt->mode == MODE_CHECK ? trust : NULL);
	if (!e) {
		ident_system_db(&db);
		/* without a program, --check and --print-filter describe the profile alone */
		e = plan_build(pol, &db, opt->mode == MODE_RUN || opt->ncmd ? opt->cmd : NULL,
			       opt->ncmd, environ, plan, d);
	}
	/* how each grant is made: by what this kernel has (method = auto) */
	if (!e)
		e = plan_methods(plan, preopen_probe() == 0, d);
	if (e) {
		print_diag(trust);
		print_diag(d);
		if (e == -ENOMEM)
			fputs("credbox: out of memory\n", stderr);
		return EXIT_CREDBOX;
	}
	return 0;
}

/* --print-filter: the plan's filters as libseccomp's text. */
static int print_filter(const struct plan *plan)
{
	int e;

	fflush(stdout);
	e = filter_print(&plan->filter, STDOUT_FILENO);
	if (e)
		fprintf(stderr, "credbox: cannot print the filter: %s\n", strerror(-e));
	redirect_describe(plan, stdout, "# ");
	return e ? EXIT_CREDBOX : 0;
}

/*
 * --check, like sshd -t: the plan shown, then everything a run checks before its first change
 * checked, and every problem found printed with its fix: that root may not trust a file of
 * the profile (trust), then what a run would stop at. 0 if a run would start, else
 * EXIT_CREDBOX.
 */
static int check(const struct diag *d, const struct diag *trust, const struct plan *plan)
{
	struct failure_list found = { 0 };
	unsigned int skipped;
	size_t i;
	int e;

	printf("profile     %s\n", d->file);
	for (i = 1; i < d->nsrc; i++)
		printf("            %s\n", d->src[i].file);
	plan_describe(plan, stdout);
	redirect_describe(plan, stdout, "");
	describe_kernel(plan);
	fflush(stdout);
	e = apply_check(plan, &found, &skipped);
	if (skipped & APPLY_CHECK_NO_PROGRAM)
		puts("\nnot checked: the program (name it after --, as a run would)");
	if (skipped & APPLY_CHECK_NOT_ROOT)
		puts("\nnot checked without root: that the program may be executed by the "
		     "sandboxed user, its ELF\nfile, interpreters and libraries, that the user may "
		     "enter its working directory,\nthe granted directories (opened as their "
		     "owners, and whether that user can reach them\nby path); a run must be started "
		     "as root");
	fflush(stdout);
	print_diag(trust);
	for (i = 0; i < found.n; i++)
		print_failure(d, &found.v[i]);
	if (e || found.oom)
		fputs("credbox: out of memory\n", stderr);
	e = e || found.oom || found.n || trust->n;
	failure_list_free(&found);
	puts(e ? "\nresult      a run would stop here (exit 125)" : "\nresult      a run would start");
	return e ? EXIT_CREDBOX : 0;
}

static void summary_ident(FILE *f, const struct plan_ident *id)
{
	size_t i;

	fprintf(f, "%s (uid %u, gid %u", id->name, (unsigned)id->uid, (unsigned)id->gid);
	for (i = 0; i < id->ngroups; i++)
		fprintf(f, "%s%u", i ? "," : ", groups ", (unsigned)id->groups[i]);
	fputc(')', f);
}

/*
 * --verbose: what a run applies, in a few lines for stderr, made now (apply writes it when
 * everything but seccomp is in place, and may no longer allocate). NULL: no memory.
 */
static char *verbose_summary(const struct diag *d, const struct plan *plan)
{
	char *buf = NULL, ru[16], rg[16];
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);
	int abi = landlock_abi();

	if (!f)
		return NULL;
	plan_run_ids(plan, ru, rg, sizeof(ru));
	fputs("credbox: applied ", f);
	diag_fputs(d->file, f);
	fputs(": the program runs as ", f);
	if (plan->dyn_last)
		fprintf(f, "a fresh uid of %u-%u", (unsigned)plan->dyn_first,
			(unsigned)plan->dyn_last);
	else
		summary_ident(f, &plan->run);
	fputs(",\ncredbox:   without capabilities, with no_new_privs, not dumpable\n", f);
	for (i = 0; i < plan->ndirs; i++) {
		fprintf(f, "credbox:   fd %d: [dir %s] %s, %s, as ", plan->dirs[i].fd,
			plan->dirs[i].name, plan->dirs[i].path, plan->dirs[i].rw ? "rw" : "ro");
		summary_ident(f, &plan->dirs[i].id);
		if (plan->dirs[i].idmap)
			fprintf(f, ",\ncredbox:     an ID-mapped mount (uid_map \"%u %s 1\", gid_map "
				"\"%u %s 1\"%s)", (unsigned)plan->dirs[i].id.uid, ru,
				(unsigned)plan->dirs[i].id.gid, rg,
				plan->dyn_last ? ", UID the one taken" : "");
		fputc('\n', f);
	}
	if (abi < 0)
		fputs("credbox:   Landlock: none on this kernel (landlock = best-effort)\n", f);
	else
		fprintf(f, "credbox:   Landlock ABI %d: the grants and %zu paths, nothing else\n",
			abi, plan->npaths);
	fprintf(f, "credbox:   seccomp: the profile's %s and credbox's always-denied filter\n"
		"credbox:   starting ", plan->filter.allow_list ? "allow-list" : "deny-list");
	for (i = 0; plan->argv[i]; i++) {
		fputs(i ? " " : "", f);
		diag_fputs(plan->argv[i], f);
	}
	fputc('\n', f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The waiting parent of a new session (session.h) ends as the program did. */
static int end_like(int wait_status)
{
	int sig = WIFSIGNALED(wait_status) ? WTERMSIG(wait_status) : 0;
	sigset_t set;

	if (!sig)
		return WEXITSTATUS(wait_status);
	/* The same signal, without a core dump of credbox for the program's crash. */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	return 128 + sig;	/* a signal that does not end a process */
}

/*
 * fds 0, 1 and 2 closed (cron, "<&-"): /dev/null there, first thing, as bwrap, nsjail and
 * systemd do. Otherwise the profile or a directory would be opened at that number and handed
 * to the program as its stdin, and a program started with 0 closed would die at once: glibc
 * in secure mode reopens it on /dev/full, which Landlock refuses. 0 or -1.
 */
static int open_std_fds(void)
{
	int fd;

	for (fd = 0; fd < 3; fd++) {
		/* The lower ones are open: the lowest free number is fd itself. */
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF && open("/dev/null", O_RDWR) != fd)
			return -1;
	}
	return 0;
}

/*
 * What needs no profile (--help, --version ...), and the command lines refused before one is
 * read. The exit status, or -1 to go on.
 */
static int before_profile(const struct options *opt)
{
	switch (opt->mode) {
	case MODE_HELP:
		usage(stdout);
		return 0;
	case MODE_VERSION:
		printf("credbox %s\n", CREDBOX_VERSION);
		return 0;
	case MODE_GROUPS:
		return list_groups(opt->cmd, opt->ncmd);
	case MODE_DUMP_KEYS:
		dump_keys();
		return 0;
	}
	if (!opt->profile) {
		fputs("credbox: no profile (--profile FILE)\nhint: credbox --help\n", stderr);
		return EXIT_CREDBOX;
	}
	/* Before anything else: every step of a run needs root, and --check does not. */
	if (opt->mode == MODE_RUN && geteuid() != 0) {
		fprintf(stderr, "credbox: must be started as root (it opens each grant as its "
			"owner, then drops to the profile's user)\nhint: credbox --profile %s "
			"--check checks a profile without root\n", opt->profile);
		return EXIT_CREDBOX;
	}
	if (opt->mode == MODE_PRINT_FILTER && opt->ncmd) {
		fputs("credbox: --print-filter takes no program\n", stderr);
		return EXIT_CREDBOX;
	}
	return -1;
}

/*
 * What a mode printed on stdout reached it: a report cut short by a full disk or a closed pipe
 * must not pass for a complete one (--check > /dev/full). The status, or EXIT_CREDBOX.
 */
static int finish_output(int status)
{
	int e = fflush(stdout) ? errno : ferror(stdout) ? EIO : 0;

	if (!e)
		return status;
	fprintf(stderr, "credbox: writing to stdout: %s\n", strerror(e));
	return EXIT_CREDBOX;
}

/* A run's large structures: on the heap, since credbox must run on a small stack too. */
struct run {
	struct policy pol;
	struct plan plan;
	struct failure err;
	struct diag trust;	/* --check: what root would not trust in the profile's files */
	char path[PATH_MAX];
};

int main(int argc, char **argv)
{
	/* The process the program must not outlive (apply.h), read before it can end unseen. */
	pid_t parent = getppid();
	struct options opt;
	struct run *r;
	struct diag d;
	char *summary;
	int status, e;

	if (open_std_fds() < 0)
		return EXIT_CREDBOX;
	/* A message is one write(2), not one a character: stderr whole lines at a time. */
	setvbuf(stderr, NULL, _IOLBF, BUFSIZ);
	/*
	 * Fresh zero pages, faulted in only where written: calloc would clear all 70 KiB, most of
	 * it arrays of [dir] sections a profile may not have. Never unmapped: credbox ends, or
	 * the loader unmaps it with the rest of credbox.
	 */
	r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED) {
		fputs("credbox: out of memory\n", stderr);
		return EXIT_CREDBOX;
	}
	if (parse_options(argc, argv, &opt) < 0) {
		fputs("hint: credbox --help\n", stderr);
		return EXIT_CREDBOX;
	}
	status = before_profile(&opt);
	if (status >= 0)
		return finish_output(status);
	status = load_plan(&opt, r->path, sizeof(r->path), &r->pol, &r->plan, &d, &r->trust);
	if (status)
		return finish_output(status);
	r->plan.diag = &d;
	if (opt.mode == MODE_PRINT_FILTER)
		return finish_output(print_filter(&r->plan));
	if (opt.mode == MODE_CHECK)
		return finish_output(check(&d, &r->trust, &r->plan));
	summary = opt.verbose ? verbose_summary(&d, &r->plan) : NULL;
	fflush(NULL);
	e = apply_session(&r->plan, &parent, &status, &r->err);
	if (e > 0)
		return end_like(status);
	if (!e)
		apply(&r->plan, parent, summary, &r->err);
	print_failure(&d, &r->err);
	return r->err.status;
}
