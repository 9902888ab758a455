// SPDX-License-Identifier: GPL-2.0
/* failure: the apply phase's one error record; see failure.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failure.h"

int failure_vset(struct failure *f, int code, const char *hint, const char *fmt, va_list ap)
{
	f->code = code ? code : -EPERM;
	f->status = EXIT_CREDBOX;
	f->line = FAILURE_NO_LINE;
	f->hint = hint;
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
	return f->code;
}

int failure_set(struct failure *f, int code, const char *hint, const char *fmt, ...)
{
	va_list ap;
	int e;

	va_start(ap, fmt);
	e = failure_vset(f, code, hint, fmt, ap);
	va_end(ap);
	return e;
}

void failure_prefix(struct failure *f, const char *fmt, ...)
{
	char head[512];
	size_t len, rest = strlen(f->msg);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(head, sizeof(head), fmt, ap);
	va_end(ap);
	len = strlen(head);
	if (len + rest >= sizeof(f->msg))
		rest = sizeof(f->msg) - 1 - len;
	memmove(f->msg + len, f->msg, rest);
	memcpy(f->msg, head, len);
	f->msg[len + rest] = '\0';
}

int failure_at(struct failure *f, int status, int line)
{
	f->status = status;
	f->line = line;
	return f->code;
}

int failure_add(struct failure_list *l, const struct failure *f)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;
		struct failure *nv = realloc(l->v, cap * sizeof(*nv));

		if (!nv) {
			l->oom = 1;
			return f->code;
		}
		l->v = nv;
		l->cap = cap;
	}
	l->v[l->n++] = *f;
	return f->code;
}

void failure_list_free(struct failure_list *l)
{
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}
