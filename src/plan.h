/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plan: policy -> plan, everything that can be decided without changing anything: identities
 * resolved to numbers, fd numbers assigned, argv and the environment built, the seccomp
 * policy resolved to system call numbers. Reads the user and group databases (through
 * ident_db) and nothing else.
 */
#ifndef CREDBOX_PLAN_H
#define CREDBOX_PLAN_H

#include <stdio.h>
#include <sys/types.h>

#include "diag.h"
#include "filter.h"
#include "ident.h"
#include "profile.h"

struct plan_ident {
	uid_t uid;
	gid_t gid;
	gid_t groups[IDENT_MAX_GROUPS];
	size_t ngroups;
	char name[64];
	char home[256];
};

struct plan_dir {
	const char *name;	/* points into the policy */
	const char *path;
	struct plan_ident id;	/* the credentials the fd carries */
	int fd;
	int rw;
	int trust_symlinks;
	int transparent;
	int transparent_line;	/* of the key, for messages */
	int exec_keep;		/* kept for the program's own execve (done in place) */
	int method;		/* enum p_method, as the profile asks */
	int method_line;	/* of the key, for messages; 0: the default */
	int idmap;		/* made by an ID-mapped mount (plan_methods) */
};

struct plan_path {
	const char *path;	/* without the '-' marker */
	int optional;
	int rw;
	int line;		/* in the profile */
};

/* A resource limit to set ([limits]; core always: 0 unless the profile says otherwise). */
struct plan_limit {
	int resource;			/* RLIMIT_* */
	const char *name;		/* its key */
	int size;			/* counted in bytes */
	unsigned long long soft, hard;	/* PLIMIT_INFINITY: none */
	int line;			/* of the key; 0: credbox's default */
};

struct plan {
	const struct policy *pol;
	struct plan_ident run;		/* the sandboxed identity */
	char *program;			/* as given: absolute, or a name searched in PATH */
	int program_line;		/* of [program] path; 0: named on the command line */
	char **argv;			/* NULL-terminated */
	char **envp;			/* NULL-terminated, CREDBOX_DIRS included */
	const char *cwd;		/* the program's working directory */
	int cwd_line;			/* of [program] cwd; 0: the default, "/" */
	mode_t umask;
	int new_session;		/* setsid: no controlling terminal */
	int die_with_parent;		/* PR_SET_PDEATHSIG: ends when credbox's parent does */
	int dedicated;			/* [identity] dedicated: the user is credbox's alone */
	int dedicated_line;
	/*
	 * user = dynamic:FIRST-LAST: run is a placeholder (uid and gid FIRST, named "dynamic")
	 * until apply takes a uid of the range that no process has and no run holds, and runs
	 * the program as it (uid and gid that number, no supplementary groups). 0: a user.
	 */
	uid_t dyn_first, dyn_last;
	int dyn_line;
	struct plan_dir dirs[PROFILE_MAX_DIRS];
	size_t ndirs;
	int max_fd;			/* highest dir fd (2 if none) */
	struct plan_path *paths;
	size_t npaths;
	int landlock_required;
	struct plan_limit limits[LIMIT_COUNT];
	size_t nlimits;
	struct filter_spec filter;
	const struct diag *diag;	/* the profile's files, for FILE:LINE in messages (main) */
};

/*
 * Build the plan. cmd/ncmd: the command line after the options (cmd NULL: describe the profile
 * only, for --check and --print-filter; no program needs to be named); environ: credbox's own
 * environment (the source of kept variables). 0, -EINVAL (reasons in d) or -ENOMEM.
 */
int plan_build(const struct policy *pol, const struct ident_db *db, char *const cmd[],
	       size_t ncmd, char *const environ[], struct plan *plan, struct diag *d);
void plan_free(struct plan *plan);

/*
 * Each grant's method, from the profile's and what the kernel has (cred_fd: whether it takes
 * O_CRED_ALLOW): idmap for method = idmap, and for auto without O_CRED_ALLOW. An ID-mapped
 * grant needs no trap (its path is the grant: transparent is cleared) and makes the
 * always-denied filter refuse set-ID modes (filter.idmap). 0, or -EINVAL with the reason in d.
 */
int plan_methods(struct plan *plan, int cred_fd, struct diag *d);

/*
 * The sandboxed uid and gid as an ID-mapped grant's map lines name them: the numbers, or
 * "UID" for a dynamic user's (known only when a run takes it).
 */
void plan_run_ids(const struct plan *plan, char *uid, char *gid, size_t size);

/* The readable table of --check (without the kernel part, which main adds). */
void plan_describe(const struct plan *plan, FILE *out);

#endif /* CREDBOX_PLAN_H */
