// SPDX-License-Identifier: GPL-2.0
/* filter: seccomp filters; see filter.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include <sched.h>
#include <seccomp.h>

#include "filter.h"
#include "filter_always.h"
#include "filter_always_bpf.h"	/* generated: build/filter-always-gen */
#include "policy.h"
#include "sysnames.h"
#include "uapi.h"
#include "util.h"

/* ---- policy -> spec ----------------------------------------------------------------------- */

/* A decision about one system call while resolving, with where it came from. */
struct slot {
	int nr;
	const char *name;	/* libseccomp's or a table's (static), or the profile's */
	int set;		/* 0 none, 1 by a group, 2 by name */
	struct filter_act act;
	int line;
	const char *from;	/* the entry as written */
};

struct resolver {
	struct slot *s;
	size_t n, cap;
	struct diag *d;
};

static struct slot *slot_get(struct resolver *r, int nr, const char *name)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (r->s[i].nr == nr)
			return &r->s[i];
	}
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 128;
		struct slot *ns = realloc(r->s, cap * sizeof(*ns));

		if (!ns)
			return NULL;
		r->s = ns;
		r->cap = cap;
	}
	r->s[r->n] = (struct slot){ .nr = nr, .name = name };
	return &r->s[r->n++];
}

static int act_eq(struct filter_act a, struct filter_act b)
{
	return a.kind == b.kind &&
	       ((a.kind != FILTER_ERRNO && a.kind != FILTER_MARK) || a.errnum == b.errnum);
}

static const char *act_str(struct filter_act a, char *buf, size_t size)
{
	static const char *const names[] = { "allow", "kill", "errno", "log", "mark" };
	const char *en;

	if (a.kind != FILTER_ERRNO)
		return names[a.kind];
	en = sysnames_errno_name(a.errnum);
	if (en)
		snprintf(buf, size, "errno %s", en);
	else
		snprintf(buf, size, "errno %d", a.errnum);
	return buf;
}

/* Record `act` for one syscall; a name beats a group, and a conflict at one level is an error. */
static int mark(struct resolver *r, int nr, const char *name, int by_name, struct filter_act act,
		int line, const char *from)
{
	struct slot *s;
	char b1[32], b2[32], where[PATH_MAX + 32];

	if (nr < 0)
		return 0;	/* not a system call on this architecture */
	s = slot_get(r, nr, name);
	if (!s)
		return -ENOMEM;
	if (s->set == 2 && !by_name)
		return 0;	/* named earlier: the name wins over a group */
	if (s->set == 1 + by_name && !act_eq(s->act, act))
		return diag_err(r->d, line, "name the system call on its own to settle it",
				s->line == line ? "%.*s: %s and %s on this line%.0s" :
				"%.*s: %s here, %s on %s", (int)strcspn(name, ":"), name,
				act_str(act, b1, sizeof(b1)),
				act_str(s->act, b2, sizeof(b2)),
				diag_where(r->d, s->line, line, where, sizeof(where)));
	s->set = 1 + by_name;
	s->act = act;
	s->line = line;
	s->from = from;
	/*
	 * symlinkat2, the series' symlinkat with flags (AT_CRED_INHERIT), has no name in
	 * libseccomp, so no profile could allow it: it follows symlinkat.
	 */
	if (nr == SCMP_SYS(symlinkat))
		return mark(r, SYS_symlinkat2, "symlinkat2", by_name, act, line, from);
	return 0;
}

static int mark_entry(struct resolver *r, const char *entry, int line, struct filter_act dflt)
{
	char name[64];
	struct filter_act act = dflt;
	int errnum, err;

	if (sysnames_entry(entry, name, sizeof(name), &errnum) < 0)
		return diag_err(r->d, line, NULL, "bad entry \"%s\"", entry);
	if (errnum >= 0)
		act = (struct filter_act){ FILTER_ERRNO, errnum };
	if (name[0] == '@') {
		const struct sysnames_group *g = sysnames_group_find(name);
		const char *const *p;

		if (!g)
			return diag_err(r->d, line, NULL, "unknown syscall group \"%s\"", name);
		for (p = g->syscalls; *p; p++) {
			err = mark(r, seccomp_syscall_resolve_name(*p), *p, 0, act, line, entry);
			if (err)
				return err;
		}
		return 0;
	}
	return mark(r, seccomp_syscall_resolve_name(name), entry, 1, act, line, entry);
}

static int mark_list(struct resolver *r, const struct plist *l, struct filter_act act)
{
	size_t i;
	int err, ret = 0;

	for (i = 0; i < l->n; i++) {
		err = mark_entry(r, l->v[i].s, l->v[i].line, act);
		if (err == -ENOMEM)
			return err;
		if (err)
			ret = err;
	}
	return ret;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct filter_entry *x = a, *y = b;

	return (x->nr > y->nr) - (x->nr < y->nr);
}

static const struct filter_act allowed = { FILTER_ALLOW, 0 };

/* Both lists marked, each rule with the line that made it; the errors of all of them in d. */
static int mark_lists(const struct policy_seccomp *sc, int allow_list, struct filter_act violation,
		      struct resolver *allow, struct resolver *deny, struct diag *d)
{
	size_t i;
	int err = 0, e2;

	if (allow_list) {
		e2 = mark_entry(allow, "@default", 0, allowed);
		err = e2 ? e2 : err;
	}
	e2 = mark_list(allow, &sc->allow, allowed);
	err = e2 ? e2 : err;
	e2 = mark_list(deny, &sc->deny, violation);
	err = e2 ? e2 : err;
	/* A system call named in allow that the always filter denies would be a lie. */
	for (i = 0; i < allow->n; i++) {
		if (allow->s[i].set == 2 && filter_always_denies(allow->s[i].name))
			err = diag_err(d, allow->s[i].line,
				       "credbox denies it whatever the profile says; remove it",
				       "allow: %s is always denied", allow->s[i].name);
	}
	return err;
}

static int has_nr(const struct resolver *r, int nr)
{
	size_t j;

	for (j = 0; j < r->n; j++) {
		if (r->s[j].nr == nr)
			return 1;
	}
	return 0;
}

/* The secondary list carves exceptions out of the primary one; order never matters. */
static void merge(struct filter_spec *spec, const struct resolver *allow,
		  const struct resolver *deny)
{
	const struct resolver *primary = spec->allow_list ? allow : deny;
	const struct resolver *secondary = spec->allow_list ? deny : allow;
	size_t i;

	if (spec->allow_list) {
		for (i = 0; i < deny->n; i++)
			spec->e[spec->n++] = (struct filter_entry){
				.nr = deny->s[i].nr, .act = deny->s[i].act,
				.line = deny->s[i].line, .from = deny->s[i].from };
	}
	for (i = 0; i < primary->n; i++) {
		if (!has_nr(secondary, primary->s[i].nr))
			spec->e[spec->n++] = (struct filter_entry){
				.nr = primary->s[i].nr, .act = primary->s[i].act,
				.line = primary->s[i].line, .from = primary->s[i].from };
	}
}

/* Drop rules equal to the default (libseccomp refuses them), name the rest, sort by number. */
static void finish(struct filter_spec *spec)
{
	size_t i;

	for (i = 0; i < spec->n;) {
		if (act_eq(spec->e[i].act, spec->dflt)) {
			spec->e[i] = spec->e[--spec->n];
			continue;
		}
		spec->e[i].name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE,
								   spec->e[i].nr);
		if (spec->e[i].act.kind == FILTER_ALLOW && spec->e[i].name &&
		    filter_always_denies(spec->e[i].name))
			spec->always_overrides++;
		i++;
	}
	qsort(spec->e, spec->n, sizeof(*spec->e), cmp_entry);
}

int filter_resolve(const struct policy_seccomp *sc, struct filter_spec *spec, struct diag *d)
{
	struct resolver allow = { .d = d }, deny = { .d = d };
	struct filter_act violation;
	int err;

	memset(spec, 0, sizeof(*spec));
	spec->allow_list = sc->policy == SC_ALLOW_LIST;
	violation.kind = sc->action == SC_ACT_KILL ? FILTER_KILL :
			 sc->action == SC_ACT_LOG ? FILTER_LOG : FILTER_ERRNO;
	violation.errnum = sc->errnum;
	spec->dflt = spec->allow_list ? violation : allowed;

	err = mark_lists(sc, spec->allow_list, violation, &allow, &deny, d);
	if (!err) {
		spec->e = calloc(allow.n + deny.n + 1, sizeof(*spec->e));
		err = spec->e ? 0 : -ENOMEM;
	}
	if (!err) {
		merge(spec, &allow, &deny);
		finish(spec);
	}
	free(allow.s);
	free(deny.s);
	if (err)
		filter_spec_free(spec);
	return err;
}

void filter_spec_free(struct filter_spec *spec)
{
	size_t i;

	for (i = 0; i < spec->n; i++)
		free(spec->e[i].name);
	free(spec->e);
	spec->e = NULL;
	spec->n = 0;
}

/* ---- building and loading ----------------------------------------------------------------- */

static uint32_t scmp_action(struct filter_act a)
{
	switch (a.kind) {
	case FILTER_ALLOW:
		return SCMP_ACT_ALLOW;
	case FILTER_ERRNO:
		return SCMP_ACT_ERRNO(a.errnum);
	case FILTER_LOG:
		return SCMP_ACT_LOG;
	case FILTER_MARK:
		return SCMP_ACT_TRACE(a.errnum);
	default:
		return SCMP_ACT_KILL_PROCESS;
	}
}

/*
 * An entry whose bit decides only for a dirfd that is not AT_FDCWD: cond_act for the bit set
 * and another dirfd, act for the rest. libseccomp compares all 64 bits where the kernel reads
 * an int: this reference agrees with filter_bpf.c for a dirfd whose high word is 0.
 */
static int add_rule_fd(scmp_filter_ctx ctx, const struct filter_spec *spec,
		       const struct filter_entry *e)
{
	const uint64_t fdcwd = (uint32_t)AT_FDCWD;
	int err = 0;

	if (!act_eq(e->cond_act, spec->dflt))
		err = seccomp_rule_add(ctx, scmp_action(e->cond_act), e->nr, 2,
				       SCMP_CMP(e->cond_arg, SCMP_CMP_MASKED_EQ, e->cond_bit,
						e->cond_bit),
				       SCMP_CMP(e->cond_fd_arg, SCMP_CMP_NE, fdcwd));
	if (!err && !act_eq(e->act, spec->dflt))
		err = seccomp_rule_add(ctx, scmp_action(e->act), e->nr, 1,
				       SCMP_CMP(e->cond_arg, SCMP_CMP_MASKED_EQ, e->cond_bit, 0));
	if (!err && !act_eq(e->act, spec->dflt))
		err = seccomp_rule_add(ctx, scmp_action(e->act), e->nr, 2,
				       SCMP_CMP(e->cond_arg, SCMP_CMP_MASKED_EQ, e->cond_bit,
						e->cond_bit),
				       SCMP_CMP(e->cond_fd_arg, SCMP_CMP_EQ, fdcwd));
	return err;
}

/* One entry: one rule, or two complementary ones on a bit of an argument. */
static int add_rule(scmp_filter_ctx ctx, const struct filter_spec *spec,
		    const struct filter_entry *e)
{
	int err = 0;

	if (!e->has_cond)
		return seccomp_rule_add(ctx, scmp_action(e->act), e->nr, 0);
	if (e->has_cond_fd)
		return add_rule_fd(ctx, spec, e);
	/* libseccomp refuses a rule whose action is the default: leave that side to it. */
	if (!act_eq(e->cond_act, spec->dflt))
		err = seccomp_rule_add(ctx, scmp_action(e->cond_act), e->nr, 1,
				       SCMP_CMP(e->cond_arg, SCMP_CMP_MASKED_EQ, e->cond_bit,
						e->cond_bit));
	if (!err && !act_eq(e->act, spec->dflt))
		err = seccomp_rule_add(ctx, scmp_action(e->act), e->nr, 1,
				       SCMP_CMP(e->cond_arg, SCMP_CMP_MASKED_EQ, e->cond_bit, 0));
	return err;
}

static int build_profile(const struct filter_spec *spec, scmp_filter_ctx *out)
{
	scmp_filter_ctx ctx;
	size_t i;
	int err = filter_ctx_new(scmp_action(spec->dflt), &ctx);

	if (err)
		return err;
	for (i = 0; !err && i < spec->n; i++)
		err = add_rule(ctx, spec, &spec->e[i]);
	if (err) {
		seccomp_release(ctx);
		return err;
	}
	*out = ctx;
	return 0;
}

/* Both filters: [0] the always-denied one, [1] the profile's. */
static int build_both(const struct filter_spec *spec, scmp_filter_ctx ctx[2])
{
	int err = filter_always_ctx(spec->idmap, &ctx[0]);

	if (err)
		return err;
	err = build_profile(spec, &ctx[1]);
	if (err)
		seccomp_release(ctx[0]);
	return err;
}

int filter_print(const struct filter_spec *spec, int fd)
{
	scmp_filter_ctx ctx[2];
	int err = build_both(spec, ctx);

	if (err)
		return err;
	dprintf(fd, "# credbox filter 1 of 2: always denied, whatever the profile says\n");
	err = seccomp_export_pfc(ctx[0], fd);
	if (!err) {
		dprintf(fd, "# credbox filter 2 of 2: the profile's %s\n",
			spec->allow_list ? "allow-list" : "deny-list");
		err = seccomp_export_pfc(ctx[1], fd);
	}
	seccomp_release(ctx[0]);
	seccomp_release(ctx[1]);
	return err;
}

int filter_load(const struct filter_spec *spec)
{
	struct filter_bpf bpf;
	int err = filter_compile(spec, &bpf);

	if (err)
		return err;
	err = filter_install(&bpf);
	filter_bpf_free(&bpf);
	return err;
}

int filter_libseccomp_build(const struct filter_spec *spec, void **insns, unsigned short *len)
{
	scmp_filter_ctx ctx;
	int err = build_profile(spec, &ctx);

	if (!err) {
		err = filter_export(ctx, insns, len);
		seccomp_release(ctx);
	}
	return err;
}

int filter_compile(const struct filter_spec *spec, struct filter_bpf *out)
{
	int err;

	memset(out, 0, sizeof(*out));
	/* The always filter, compiled at build time (filter_always.h): an ID-mapped grant's rows? */
	const struct sock_filter *always = spec->idmap ? filter_always_idmap_bpf :
					   filter_always_bpf;
	size_t size = spec->idmap ? sizeof(filter_always_idmap_bpf) : sizeof(filter_always_bpf);

	out->insns[0] = malloc(size);
	if (!out->insns[0])
		return -ENOMEM;
	memcpy(out->insns[0], always, size);
	out->len[0] = (unsigned short)(size / sizeof(*always));
	/* The profile's, now: written by credbox (filter_bpf.c), not compiled by libseccomp. */
	err = filter_bpf_build(spec, &out->insns[1], &out->len[1]);
	if (err)
		filter_bpf_free(out);
	return err;
}

int filter_install(const struct filter_bpf *bpf)
{
	int i;

	/* The always filter first: the profile's may deny seccomp(2) itself. */
	for (i = 0; i < 2; i++) {
		struct sock_fprog prog = { .len = bpf->len[i], .filter = bpf->insns[i] };

		if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog))
			return -errno;
	}
	return 0;
}

void filter_bpf_free(struct filter_bpf *bpf)
{
	free(bpf->insns[0]);
	free(bpf->insns[1]);
	memset(bpf, 0, sizeof(*bpf));
}
