/* SPDX-License-Identifier: GPL-2.0 */
/*
 * diag: compiler-style messages collected by the pure phases (profile, plan), printed by main.
 *
 *   dosemu.ini:12: unknown key "rw" in [dir drive_c]
 *   hint: the access of a directory is set with "access = rw"
 */
#ifndef CREDBOX_DIAG_H
#define CREDBOX_DIAG_H

#include <stddef.h>

struct diag_msg {
	int line;		/* 0: about the whole file */
	char *text;
	char *hint;		/* NULL: none */
};

struct diag {
	const char *file;	/* name used in messages (not owned) */
	struct diag_msg *msgs;
	size_t n;
	size_t cap;
	int oom;		/* a message could not be stored */
};

void diag_init(struct diag *d, const char *file);
/* Record a message; hint may be NULL. Returns -EINVAL so callers can `return diag_err(...)`. */
int diag_err(struct diag *d, int line, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Format every message, one "file:line: text\nhint: ...\n" block each, into a new string. */
char *diag_format(const struct diag *d);
void diag_free(struct diag *d);

#endif /* CREDBOX_DIAG_H */
