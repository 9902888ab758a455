// SPDX-License-Identifier: GPL-2.0
/* diag: collect compiler-style messages; see diag.h. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

void diag_init(struct diag *d, const char *file)
{
	memset(d, 0, sizeof(*d));
	d->file = file;
}

int diag_err(struct diag *d, int line, const char *hint, const char *fmt, ...)
{
	struct diag_msg *m;
	va_list ap;
	char *text;

	if (d->n == DIAG_MAX_MSGS) {
		d->more++;
		return -EINVAL;
	}
	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 8;
		struct diag_msg *nm = realloc(d->msgs, cap * sizeof(*nm));

		if (!nm) {
			d->oom = 1;
			return -EINVAL;
		}
		d->msgs = nm;
		d->cap = cap;
	}
	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	if (!text) {
		d->oom = 1;
		return -EINVAL;
	}
	m = &d->msgs[d->n++];
	m->line = line;
	m->text = text;
	m->hint = hint ? strdup(hint) : NULL;
	return -EINVAL;
}

int diag_add_source(struct diag *d, const char *file, int nlines)
{
	int base = d->nsrc ? d->src[d->nsrc - 1].base + d->src[d->nsrc - 1].nlines : 0;
	struct diag_source *ns;

	if (nlines < 0 || base > INT_MAX - nlines - 1)
		return -ENOMEM;
	ns = realloc(d->src, (d->nsrc + 1) * sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	d->src = ns;
	ns[d->nsrc].file = strdup(file);
	if (!ns[d->nsrc].file)
		return -ENOMEM;
	ns[d->nsrc].base = base;
	ns[d->nsrc].nlines = nlines;
	d->nsrc++;
	return base;
}

/* The file a line of the profile is in, and its number there. */
static const char *source_of(const struct diag *d, int line, int *local)
{
	size_t i;

	*local = line;
	for (i = 0; i < d->nsrc; i++) {
		const struct diag_source *s = &d->src[i];

		if (line > s->base && line <= s->base + s->nlines) {
			*local = line - s->base;
			return s->file;
		}
	}
	return d->file;
}

const char *diag_where(const struct diag *d, int line, int here, char *buf, size_t size)
{
	int l, h;
	const char *f = source_of(d, line, &l), *hf = source_of(d, here, &h);

	if (line == here)
		snprintf(buf, size, "this line");
	else if (f == hf)
		snprintf(buf, size, "line %d", l);
	else
		snprintf(buf, size, "%s:%d", f, l);
	return buf;
}

const char *diag_location(const struct diag *d, int line, char *buf, size_t size)
{
	int l;
	const char *f = source_of(d, line, &l);

	if (line > 0)
		snprintf(buf, size, "%s:%d", f, l);
	else
		snprintf(buf, size, "%s", d->file);
	return buf;
}

int diag_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	int row[64], prev, tmp;

	if (la >= 63 || lb >= 63)
		return 99;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			int best = prev + (a[i - 1] != b[j - 1]);

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}

/* Length of the UTF-8 sequence at s that a terminal shows as a character, or 0. */
static size_t utf8_printable(const unsigned char *s)
{
	size_t n, i;
	unsigned int c;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	n = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	c = s[0] & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	/* overlong forms, C1 controls, surrogates, beyond U+10FFFF */
	if ((n == 3 && c < 0x800) || (n == 4 && c < 0x10000) || c < 0xa0 ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	return n;
}

int diag_fputs(const char *s, FILE *f)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = *p >= 0x80 ? utf8_printable(p) : (*p >= 0x20 && *p != 0x7f);

		if (n) {
			if (fwrite(p, 1, n, f) != n)
				return EOF;
			p += n;
		} else if (fprintf(f, "\\x%02x", *p++) < 0) {
			return EOF;
		}
	}
	return 0;
}

void diag_write(FILE *f, const char *where, const char *text, const char *hint)
{
	diag_fputs(where, f);
	fputs(": ", f);
	diag_fputs(text, f);
	fputc('\n', f);
	if (hint) {
		fputs("hint: ", f);
		diag_fputs(hint, f);
		fputc('\n', f);
	}
}

char *diag_format(const struct diag *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	char where[PATH_MAX + 16];
	size_t i;

	if (!f)
		return NULL;
	for (i = 0; i < d->n; i++) {
		const struct diag_msg *m = &d->msgs[i];

		diag_write(f, diag_location(d, m->line, where, sizeof(where)), m->text, m->hint);
	}
	if (d->more)
		fprintf(f, "%s: %zu more error%s not shown (credbox stops listing at %d)\n", d->file,
			d->more, d->more == 1 ? "" : "s", DIAG_MAX_MSGS);
	if (d->oom)
		fprintf(f, "%s: out of memory while recording errors\n", d->file);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

void diag_free(struct diag *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		free(d->msgs[i].text);
		free(d->msgs[i].hint);
	}
	for (i = 0; i < d->nsrc; i++)
		free(d->src[i].file);
	free(d->msgs);
	free(d->src);
	d->msgs = NULL;
	d->src = NULL;
	d->n = d->cap = d->nsrc = 0;
}
