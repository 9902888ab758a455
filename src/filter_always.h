/* SPDX-License-Identifier: GPL-2.0 */
/*
 * filter_always: libseccomp's side of credbox's filters, shared by filter.c and by the
 * generator that compiles the always-denied filter at build time (src/gen/).
 *
 * The always filter is a constant of the build (a table in filter_always.c), so its BPF is
 * too: build/filter-always-gen compiles it once into build/filter_always_bpf.h and credbox
 * loads that as is, instead of paying libseccomp's compile on every start. The table stays
 * the source: --print-filter prints libseccomp's text for it, and a unit test checks that
 * the built-in program is what libseccomp makes of the table.
 */
#ifndef CREDBOX_FILTER_ALWAYS_H
#define CREDBOX_FILTER_ALWAYS_H

#include <stdint.h>

#include <seccomp.h>

/*
 * A context whose unlisted calls get dflt, whose calls of a foreign ABI kill the process,
 * laid out as a binary search. 0 or -errno.
 */
int filter_ctx_new(uint32_t dflt, scmp_filter_ctx *out);
/* The always-denied filter, from the table; with idmap, the rows of ID-mapped grants too. */
int filter_always_ctx(int idmap, scmp_filter_ctx *out);
/* ctx as raw BPF (struct sock_filter[]) in a malloc'd buffer. 0 or -errno. */
int filter_export(scmp_filter_ctx ctx, void **insns, unsigned short *len);

#endif /* CREDBOX_FILTER_ALWAYS_H */
