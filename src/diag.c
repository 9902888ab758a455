// SPDX-License-Identifier: GPL-2.0
/* diag: collect compiler-style messages; see diag.h. */
#include <errno.h>
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

char *diag_format(const struct diag *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	size_t i;

	if (!f)
		return NULL;
	for (i = 0; i < d->n; i++) {
		const struct diag_msg *m = &d->msgs[i];

		if (m->line > 0)
			fprintf(f, "%s:%d: %s\n", d->file, m->line, m->text);
		else
			fprintf(f, "%s: %s\n", d->file, m->text);
		if (m->hint)
			fprintf(f, "hint: %s\n", m->hint);
	}
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
	free(d->msgs);
	d->msgs = NULL;
	d->n = d->cap = 0;
}
