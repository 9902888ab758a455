/* SPDX-License-Identifier: GPL-2.0 */
/* util: what every module shares and no module owns. */
#ifndef CREDBOX_UTIL_H
#define CREDBOX_UTIL_H

/* Elements of an array (gcc's -Wsizeof-pointer-div warns when given a pointer). */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#endif /* CREDBOX_UTIL_H */
