/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hidden.h: included first in every object of the redirect runtime. Every symbol, declared or
 * defined, is hidden: a reference to another object of the image is then PC-relative, never
 * through a GOT entry that would need a relocation (src/rt/mkblob refuses those).
 */
#pragma GCC visibility push(hidden)
