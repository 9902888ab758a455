/* SPDX-License-Identifier: GPL-2.0 */
/*
 * diag: compiler-style messages collected by the pure phases (profile, plan), printed by main.
 *
 *   dosemu.ini:12: unknown key "rw" in [dir drive_c]
 *   hint: the access of a directory is set with "access = rw"
 *
 * A profile may be read from several files (includes, drop-ins). Every module counts lines
 * of the profile as a whole: each file is given a range of line numbers (diag_add_source),
 * and messages are printed with the file and the line in it.
 */
#ifndef CREDBOX_DIAG_H
#define CREDBOX_DIAG_H

#include <stddef.h>
#include <stdio.h>

struct diag_msg {
	int line;		/* 0: about the whole file */
	char *text;
	char *hint;		/* NULL: none */
};

/* Lines base + 1 .. base + nlines of the profile are lines 1 .. nlines of file. */
struct diag_source {
	char *file;
	int base;
	int nlines;
};

/* Messages kept; past them only a count (as clang's -ferror-limit): a binary file is one. */
#define DIAG_MAX_MSGS	20

struct diag {
	const char *file;	/* name used in messages (not owned) */
	struct diag_msg *msgs;
	size_t n;
	size_t cap;
	size_t more;		/* messages past DIAG_MAX_MSGS, counted, not kept */
	int oom;		/* a message could not be stored */
	struct diag_source *src;	/* none: every line is file's */
	size_t nsrc;
};

void diag_init(struct diag *d, const char *file);
/* Record a message; hint may be NULL. Returns -EINVAL so callers can `return diag_err(...)`. */
int diag_err(struct diag *d, int line, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Format every message, one "file:line: text\nhint: ...\n" block each, into a new string. */
char *diag_format(const struct diag *d);
void diag_free(struct diag *d);

/* Give the next nlines lines to file (copied): the base, >= 0, or -ENOMEM. */
int diag_add_source(struct diag *d, const char *file, int nlines);

/*
 * Where line is, as a message that is about line `here` names it: "this line", "line 12" (in
 * here's file) or "common.ini:3" (in another). buf is returned.
 */
const char *diag_where(const struct diag *d, int line, int here, char *buf, size_t size);

/*
 * "file:N" (or the file alone for line 0) of a line of the profile, for messages printed
 * outside diag_format. buf is returned.
 */
const char *diag_location(const struct diag *d, int line, char *buf, size_t size);

/*
 * Write s to f with what a terminal would take for control (C0 and C1 controls, DEL, bytes
 * that are not UTF-8) as \xHH: a profile's bytes are echoed in messages. 0, or EOF.
 */
int diag_fputs(const char *s, FILE *f);
/* How far apart two words are, in edits, for "did you mean" hints (99 for words of 63 or more). */
int diag_distance(const char *a, const char *b);

/* One message, as diag_format writes each: "where: text", then "hint: hint" unless NULL. */
void diag_write(FILE *f, const char *where, const char *text, const char *hint);

#endif /* CREDBOX_DIAG_H */
