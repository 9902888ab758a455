// SPDX-License-Identifier: GPL-2.0
/*
 * filter_bpf: the profile's seccomp filter written as classic BPF by credbox itself, at every
 * start, instead of compiled by libseccomp (whose set-up, probes of the kernel and allocations
 * cost more than the whole program below). The verdicts are libseccomp's for the same spec
 * (tests/host/t-filter-bpf.c runs both programs over every system call number and the argument
 * bits the rules test):
 *
 *   - another architecture's calls (int 0x80) are killed, and so are x32's (numbers from
 *     0x40000000), except -1, which a tracer leaves when it skips a call;
 *   - then a binary search on the number over ranges of one verdict each, the gaps between the
 *     spec's entries taking its default;
 *   - an entry with a condition tests its one bit of one argument (64-bit arguments, the low
 *     word first in memory) and returns cond_act when it is set, act when it is clear; with a
 *     dirfd condition too, act as well when that argument's low word (the int the kernel
 *     reads) is AT_FDCWD.
 *
 * The search jumps forward only, as BPF must: a node is "jge first number of the right half",
 * the left half right after it; a left half longer than a conditional jump can skip (255) is
 * skipped by an unconditional jump instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "filter.h"

#define FB_X32_FIRST	0x40000000u	/* __X32_SYSCALL_BIT */
#define FB_SKIPPED	0xffffffffu	/* the number a tracer leaves for a skipped call */
#define FB_JMAX		255u		/* the farthest a conditional jump reaches */

/* Numbers lo..hi (inclusive) share a verdict: ret, or a test of one argument bit. */
struct fb_range {
	uint32_t lo, hi;
	uint32_t ret;			/* no condition, or the bit clear */
	int cond;			/* whether the bit decides */
	uint32_t cond_ret;		/* the bit set */
	uint32_t word;			/* offset of the argument's 32-bit word holding the bit */
	uint32_t mask;			/* the bit in that word */
	int fd;				/* and cond_ret only when this word is not AT_FDCWD */
	uint32_t fd_word;
};

struct fb_prog {
	struct sock_filter *p;
	unsigned int n, cap;
};

static uint32_t fb_ret(struct filter_act a)
{
	switch (a.kind) {
	case FILTER_ALLOW:
		return SECCOMP_RET_ALLOW;
	case FILTER_ERRNO:
		return SECCOMP_RET_ERRNO | ((uint32_t)a.errnum & SECCOMP_RET_DATA);
	case FILTER_LOG:
		return SECCOMP_RET_LOG;
	case FILTER_MARK:
		return SECCOMP_RET_TRACE | ((uint32_t)a.errnum & SECCOMP_RET_DATA);
	default:
		return SECCOMP_RET_KILL_PROCESS;
	}
}

/* Append lo..hi with verdict ret, merged into the last range when that one is the same. */
static void fb_plain(struct fb_range *r, unsigned int *n, uint32_t lo, uint32_t hi, uint32_t ret)
{
	struct fb_range *last = *n ? &r[*n - 1] : NULL;

	if (last && !last->cond && last->ret == ret && last->hi + 1 == lo) {
		last->hi = hi;
		return;
	}
	r[(*n)++] = (struct fb_range){ .lo = lo, .hi = hi, .ret = ret };
}

/* The spec as ranges covering every 32-bit number; -EINVAL for what it cannot express. */
static int fb_ranges(const struct filter_spec *spec, struct fb_range *r, unsigned int *n)
{
	uint32_t dflt = fb_ret(spec->dflt), next = 0;
	size_t i;

	*n = 0;
	for (i = 0; i < spec->n; i++) {
		const struct filter_entry *e = &spec->e[i];
		uint32_t nr = (uint32_t)e->nr;

		/* Sorted, distinct, native numbers; one bit of one of the six arguments. */
		if (e->nr < 0 || nr >= FB_X32_FIRST || (i && nr < next))
			return -EINVAL;
		if (e->has_cond && (e->cond_arg < 0 || e->cond_arg > 5 || !e->cond_bit ||
				    (e->cond_bit & (e->cond_bit - 1))))
			return -EINVAL;
		if (e->has_cond_fd && (!e->has_cond || e->cond_fd_arg < 0 || e->cond_fd_arg > 5))
			return -EINVAL;
		if (nr > next)
			fb_plain(r, n, next, nr - 1, dflt);
		if (!e->has_cond) {
			fb_plain(r, n, nr, nr, fb_ret(e->act));
		} else {
			int high = e->cond_bit >> 32 != 0;

			r[(*n)++] = (struct fb_range){
				.lo = nr, .hi = nr, .ret = fb_ret(e->act), .cond = 1,
				.cond_ret = fb_ret(e->cond_act),
				.word = (uint32_t)(offsetof(struct seccomp_data, args) +
						   8 * e->cond_arg + (high ? 4 : 0)),
				.mask = (uint32_t)(high ? e->cond_bit >> 32 : e->cond_bit),
				.fd = e->has_cond_fd,
				.fd_word = (uint32_t)(offsetof(struct seccomp_data, args) +
						      8 * e->cond_fd_arg),
			};
		}
		next = nr + 1;
	}
	if (next < FB_X32_FIRST)
		fb_plain(r, n, next, FB_X32_FIRST - 1, dflt);
	fb_plain(r, n, FB_X32_FIRST, FB_SKIPPED - 1, SECCOMP_RET_KILL_PROCESS);
	fb_plain(r, n, FB_SKIPPED, FB_SKIPPED, dflt);
	return 0;
}

static unsigned int fb_leaf_size(const struct fb_range *r)
{
	return r->cond ? (r->fd ? 6 : 4) : 1;
}

/* The length of the search over ranges a..b-1. */
static unsigned int fb_size(const struct fb_range *r, unsigned int a, unsigned int b)
{
	unsigned int mid, left;

	if (b - a == 1)
		return fb_leaf_size(&r[a]);
	mid = a + (b - a) / 2;
	left = fb_size(r, a, mid);
	return (left <= FB_JMAX ? 1 : 2) + left + fb_size(r, mid, b);
}

/* Past the room fb_size counted, only counts: the caller then sees the two disagree. */
static void fb_emit(struct fb_prog *g, uint16_t code, uint32_t k, uint8_t jt, uint8_t jf)
{
	if (g->n < g->cap)
		g->p[g->n] = (struct sock_filter){ .code = code, .jt = jt, .jf = jf, .k = k };
	g->n++;
}

static void fb_search(struct fb_prog *g, const struct fb_range *r, unsigned int a,
		      unsigned int b)
{
	unsigned int mid, left;

	if (b - a == 1) {
		if (r[a].cond) {
			fb_emit(g, BPF_LD | BPF_W | BPF_ABS, r[a].word, 0, 0);
			fb_emit(g, BPF_JMP | BPF_JSET | BPF_K, r[a].mask, 0, r[a].fd ? 3 : 1);
		}
		if (r[a].cond && r[a].fd) {
			fb_emit(g, BPF_LD | BPF_W | BPF_ABS, r[a].fd_word, 0, 0);
			fb_emit(g, BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)AT_FDCWD, 1, 0);
		}
		if (r[a].cond)
			fb_emit(g, BPF_RET | BPF_K, r[a].cond_ret, 0, 0);
		fb_emit(g, BPF_RET | BPF_K, r[a].ret, 0, 0);
		return;
	}
	mid = a + (b - a) / 2;
	left = fb_size(r, a, mid);
	if (left <= FB_JMAX) {
		fb_emit(g, BPF_JMP | BPF_JGE | BPF_K, r[mid].lo, (uint8_t)left, 0);
	} else {
		fb_emit(g, BPF_JMP | BPF_JGE | BPF_K, r[mid].lo, 0, 1);
		fb_emit(g, BPF_JMP | BPF_JA, left, 0, 0);
	}
	fb_search(g, r, a, mid);
	fb_search(g, r, mid, b);
}

int filter_bpf_build(const struct filter_spec *spec, void **insns, unsigned short *len)
{
	/* Each entry makes at most two ranges (a gap, itself); three more close the space. */
	struct fb_range *r = malloc((2 * spec->n + 4) * sizeof(*r));
	struct fb_prog g = { 0 };
	unsigned int n, size;
	int err;

	if (!r)
		return -ENOMEM;
	err = fb_ranges(spec, r, &n);
	if (err)
		goto out;
	size = 4 + fb_size(r, 0, n);	/* the architecture and number first */
	err = -E2BIG;
	if (size > BPF_MAXINSNS)
		goto out;
	err = -ENOMEM;
	g.p = malloc(size * sizeof(*g.p));
	if (!g.p)
		goto out;
	g.cap = size;
	fb_emit(&g, BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch), 0, 0);
	fb_emit(&g, BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0);
	fb_emit(&g, BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS, 0, 0);
	fb_emit(&g, BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr), 0, 0);
	fb_search(&g, r, 0, n);
	err = g.n == g.cap ? 0 : -EINVAL;	/* fb_size and fb_search agree */
	if (!err) {
		*insns = g.p;
		*len = (unsigned short)g.n;
		g.p = NULL;
	}
out:
	free(g.p);
	free(r);
	return err;
}
