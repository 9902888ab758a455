// SPDX-License-Identifier: GPL-2.0
/*
 * t-filter-bpf: the profile filter credbox writes as BPF (filter_bpf.c) gives, for every
 * system call number and every argument bit the rules test, the verdict of the program
 * libseccomp compiles from the same spec. Both run in a small classic-BPF interpreter here,
 * over the profiles of conf/ and tests/host/profiles/, a few policies written out, and
 * random specs shaped like the redirect runtime's (markers, one-bit conditions). TAP.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "filter.h"
#include "profile.h"
#include "tap.h"

#define NO_VERDICT	0xdeadbeefu	/* the interpreter met something it does not know */

/* Classic BPF as seccomp runs it, for the instructions either program may use. */
static uint32_t run_bpf(const struct sock_filter *p, unsigned int len,
			const struct seccomp_data *d)
{
	uint32_t a = 0, x = 0, mem[BPF_MEMWORDS] = { 0 }, pc = 0, k, w;

	while (pc < len) {
		const struct sock_filter *i = &p[pc++];

		k = i->k;
		switch (i->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			if (k > sizeof(*d) - 4 || k % 4)
				return NO_VERDICT;
			memcpy(&w, (const char *)d + k, 4);
			a = w;
			break;
		case BPF_LD | BPF_IMM:
			a = k;
			break;
		case BPF_LDX | BPF_IMM:
			x = k;
			break;
		case BPF_LD | BPF_MEM:
			a = mem[k % BPF_MEMWORDS];
			break;
		case BPF_LDX | BPF_MEM:
			x = mem[k % BPF_MEMWORDS];
			break;
		case BPF_ST:
			mem[k % BPF_MEMWORDS] = a;
			break;
		case BPF_STX:
			mem[k % BPF_MEMWORDS] = x;
			break;
		case BPF_ALU | BPF_AND | BPF_K:
			a &= k;
			break;
		case BPF_ALU | BPF_OR | BPF_K:
			a |= k;
			break;
		case BPF_MISC | BPF_TAX:
			x = a;
			break;
		case BPF_MISC | BPF_TXA:
			a = x;
			break;
		case BPF_JMP | BPF_JA:
			pc += k;
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
			pc += a == k ? i->jt : i->jf;
			break;
		case BPF_JMP | BPF_JGT | BPF_K:
			pc += a > k ? i->jt : i->jf;
			break;
		case BPF_JMP | BPF_JGE | BPF_K:
			pc += a >= k ? i->jt : i->jf;
			break;
		case BPF_JMP | BPF_JSET | BPF_K:
			pc += (a & k) ? i->jt : i->jf;
			break;
		case BPF_JMP | BPF_JEQ | BPF_X:
			pc += a == x ? i->jt : i->jf;
			break;
		case BPF_JMP | BPF_JGT | BPF_X:
			pc += a > x ? i->jt : i->jf;
			break;
		case BPF_JMP | BPF_JGE | BPF_X:
			pc += a >= x ? i->jt : i->jf;
			break;
		case BPF_RET | BPF_K:
			return k;
		case BPF_RET | BPF_A:
			return a;
		default:
			return NO_VERDICT;
		}
	}
	return NO_VERDICT;	/* ran off the end: the kernel's checker would refuse it */
}

/* The numbers compared: every native one up to well past the last, the x32 range's edges. */
static int next_nr(uint32_t *nr)
{
	static const uint32_t edges[] = { 0x3fffffff, 0x40000000, 0x40000001, 0x40000100,
					  0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff };
	size_t i;

	if (*nr < 1100) {
		(*nr)++;
		return 1;
	}
	for (i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
		if (edges[i] > *nr) {
			*nr = edges[i];
			return 1;
		}
	}
	return 0;
}

/*
 * Argument vectors: none set, all set, and each tested bit alone and alone clear; with a dirfd
 * condition, the bit set with AT_FDCWD in the dirfd (its int, the high word 0), and with
 * another dirfd.
 */
static unsigned int arg_vectors(const struct filter_spec *spec, uint64_t (*v)[6],
				unsigned int max)
{
	unsigned int n = 2, j;
	size_t i;

	memset(v, 0, 2 * sizeof(*v));
	memset(v[1], 0xff, sizeof(v[1]));
	for (i = 0; i < spec->n && n + 4 <= max; i++) {
		const struct filter_entry *e = &spec->e[i];

		if (!e->has_cond)
			continue;
		memset(v[n], 0, sizeof(v[n]));
		v[n][e->cond_arg] = e->cond_bit;
		for (j = 0; j < 6; j++)
			v[n + 1][j] = ~0ULL;
		v[n + 1][e->cond_arg] = ~e->cond_bit;
		n += 2;
		if (!e->has_cond_fd || e->cond_fd_arg == e->cond_arg)
			continue;
		memset(v[n], 0, 2 * sizeof(v[n]));
		v[n][e->cond_arg] = v[n + 1][e->cond_arg] = e->cond_bit;
		v[n][e->cond_fd_arg] = (uint32_t)AT_FDCWD;
		v[n + 1][e->cond_fd_arg] = 3;
		n += 2;
	}
	return n;
}

/* Verdicts that differ between the two programs for spec (-1: one could not be built). */
static long compare(const struct filter_spec *spec, const char *what)
{
	static const uint32_t arches[] = { AUDIT_ARCH_X86_64, AUDIT_ARCH_I386, AUDIT_ARCH_AARCH64 };
	uint64_t args[128][6];
	void *ours = NULL, *theirs = NULL;
	unsigned short nours, ntheirs;
	unsigned int nargs = arg_vectors(spec, args, 128), ai, j;
	long differ = 0;
	size_t ar;
	int e1 = filter_bpf_build(spec, &ours, &nours);
	int e2 = filter_libseccomp_build(spec, &theirs, &ntheirs);

	if (e1 || e2) {
		printf("# %s: built by credbox %d, by libseccomp %d\n", what, e1, e2);
		free(ours);
		free(theirs);
		return -1;
	}
	for (ar = 0; ar < sizeof(arches) / sizeof(arches[0]); ar++) {
		uint32_t nr = 0;

		do {
			for (ai = 0; ai < nargs; ai++) {
				struct seccomp_data d = { .nr = (int)nr, .arch = arches[ar],
							  .instruction_pointer = 0x401000 };
				uint32_t v1, v2;

				for (j = 0; j < 6; j++)
					d.args[j] = args[ai][j];
				v1 = run_bpf(ours, nours, &d);
				v2 = run_bpf(theirs, ntheirs, &d);
				if (v1 == v2 && v1 != NO_VERDICT)
					continue;
				if (differ++ < 3)
					printf("# %s: arch 0x%x nr %u args[%u]: credbox 0x%x, "
					       "libseccomp 0x%x\n", what, arches[ar], nr, ai, v1, v2);
			}
		} while (next_nr(&nr));
	}
	free(ours);
	free(theirs);
	return differ;
}

static int check_spec(const struct filter_spec *spec, const char *what)
{
	long differ = compare(spec, what);
	char msg[512];

	snprintf(msg, sizeof(msg), "%s: the same verdicts as libseccomp's (%zu rules, %ld differ)",
		 what, spec->n, differ);
	return tap_ok(differ == 0, msg);
}

static int check_text(const char *text, size_t len, const char *what)
{
	struct policy *pol = calloc(1, sizeof(*pol));
	struct filter_spec spec;
	struct diag d;
	int e, ok = 0;

	diag_init(&d, what);
	e = profile_parse_buffer(text, len, pol, &d);
	if (!e)
		e = filter_resolve(&pol->seccomp, &spec, &d);
	if (!e) {
		ok = check_spec(&spec, what);
		filter_spec_free(&spec);
	}
	profile_free(pol);
	free(pol);
	diag_free(&d);
	return e ? -1 : ok;
}

static int check_section(const char *section, size_t i)
{
	char text[1024], what[32];

	snprintf(text, sizeof(text), "[program]\npath = /x\n[identity]\nuser = nobody\n"
		 "[seccomp]\n%s", section);
	snprintf(what, sizeof(what), "[seccomp] section %zu", i + 1);
	if (check_text(text, strlen(text), what) >= 0)
		return 1;
	return tap_ok(0, "a [seccomp] section of this test does not parse");
}

/* Every profile of dir that parses; how many did. */
static int check_dir(const char *dir)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort), i, done = 0;

	for (i = 0; i < n; i++) {
		char path[512], *buf = NULL;
		size_t len = 0;
		FILE *f;

		if (strlen(ents[i]->d_name) > 4 &&
		    !strcmp(ents[i]->d_name + strlen(ents[i]->d_name) - 4, ".ini")) {
			snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
			f = fopen(path, "r");
			if (f) {
				buf = malloc(65536);
				len = buf ? fread(buf, 1, 65536, f) : 0;
				fclose(f);
			}
			if (buf && check_text(buf, len, path) >= 0)
				done++;
			free(buf);
		}
		free(ents[i]);
	}
	free(n >= 0 ? ents : NULL);
	return done;
}

static struct filter_act random_act(unsigned int *seed)
{
	struct filter_act a = { .kind = rand_r(seed) % 5 };

	if (a.kind == FILTER_ERRNO)
		a.errnum = 1 + rand_r(seed) % 4000;	/* libseccomp refuses 4095 */
	else if (a.kind == FILTER_MARK)
		a.errnum = 0x800 | (rand_r(seed) % 8);	/* RT_TRAP_TAG | index */
	return a;
}

/* Specs the profile syntax cannot write but the redirect runtime does: markers, conditions. */
static int check_random(int count)
{
	unsigned int seed = 22;
	int i, bad = 0;

	for (i = 0; i < count; i++) {
		struct filter_entry e[128];
		struct filter_spec spec = { .e = e, .dflt = random_act(&seed) };
		int nr = rand_r(&seed) % 3, step = 1 + rand_r(&seed) % 8;
		char what[64];

		while (spec.n < 128 && nr < 480) {
			struct filter_entry *x = &e[spec.n];

			memset(x, 0, sizeof(*x));
			x->nr = nr;
			x->act = random_act(&seed);
			if (rand_r(&seed) % 6 == 0) {
				x->has_cond = 1;
				x->cond_arg = rand_r(&seed) % 6;
				x->cond_bit = 1ULL << (rand_r(&seed) % 64);
				x->cond_act = random_act(&seed);
				x->has_cond_fd = rand_r(&seed) % 2;
				x->cond_fd_arg = (x->cond_arg + 1 + rand_r(&seed) % 5) % 6;
			}
			/* libseccomp refuses a rule that says the default; filter_resolve drops them */
			if (x->has_cond || x->act.kind != spec.dflt.kind ||
			    x->act.errnum != spec.dflt.errnum)
				spec.n++;
			nr += 1 + rand_r(&seed) % step;
		}
		snprintf(what, sizeof(what), "random spec %d", i);
		if (compare(&spec, what) != 0)
			bad++;
	}
	return bad;
}

int main(void)
{
	static const char *const sections[] = {
		"policy = deny-list\ndeny = ptrace\naction = kill\n",
		"policy = allow-list\nallow = @basic-io, @file-system, @memory, @signal\n"
		"deny = @chown:EPERM\naction = kill\n",
		"policy = allow-list\nallow = @basic-io, @process\naction = errno\nerrno = EACCES\n",
		"policy = deny-list\ndeny = @mount, @module, @reboot, @swap, @raw-io, @clock, "
		"@obsolete, @keyring, @privileged\ndeny = @setuid:EPERM\naction = log\n",
		"policy = deny-list\ndeny = symlinkat:EACCES, uname:ENODATA\naction = kill\n",
		"policy = deny-list\naction = kill\n",
	};
	size_t i;
	int n;

	for (i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		check_section(sections[i], i);
	n = check_dir("conf");
	tap_ok(n >= 4, "the example profiles in conf/ compared");
	n = check_dir("tests/host/profiles");
	tap_ok(n >= 5, "the test profiles compared");
	n = check_random(300);
	if (n)
		printf("# %d random specs differ\n", n);
	tap_ok(n == 0, "300 random specs with markers, one-bit conditions and dirfd ones: the same verdicts");
	return tap_done();
}
