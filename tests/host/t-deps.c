// SPDX-License-Identifier: GPL-2.0
/*
 * t-deps: the dynamic section reader of --check (src/deps.c) on real objects and on broken
 * ones: what /bin/true and libc ask for, and files cut short or with their bytes changed,
 * which must give an error or an answer, never a read outside the file. TAP.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "deps.h"
#include "tap.h"

static char *slurp(const char *path, size_t *len)
{
	struct stat st;
	char *buf;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) < 0 || !(buf = malloc(st.st_size))) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	*len = read(fd, buf, st.st_size) == st.st_size ? (size_t)st.st_size : 0;
	close(fd);
	return buf;
}

/* deps_elf_read on len bytes of buf, written to a file. */
static int read_bytes(const char *buf, size_t len, struct deps_elf *out)
{
	char path[] = "/tmp/t-deps-XXXXXX";
	int fd = mkstemp(path), e;

	if (fd < 0)
		return -errno;
	unlink(path);
	if (write(fd, buf, len) != (ssize_t)len) {
		close(fd);
		return -EIO;
	}
	e = deps_elf_read(fd, out);
	close(fd);
	return e;
}

static int needs(const struct deps_elf *d, const char *name)
{
	for (size_t i = 0; i < d->nneeded; i++)
		if (!strcmp(d->needed[i], name))
			return 1;
	return 0;
}

int main(void)
{
	struct deps_elf *d = malloc(sizeof(*d));
	size_t len = 0, cut, bad = 0, i;
	char *buf = slurp("/bin/true", &len), *copy;
	int e;

	if (!d || !buf || !len) {
		tap_ok(0, "reading /bin/true");
		return tap_done();
	}
	e = read_bytes(buf, len, d);
	tap_ok(!e && d->dynamic && needs(d, "libc.so.6"), "/bin/true: dynamic, needs libc.so.6");
	tap_ok(read_bytes("#!/bin/sh\n", 10, d) == -ENOEXEC, "a script is no ELF object");
	tap_ok(read_bytes(buf, 40, d) == -ENOEXEC, "a file cut inside its ELF header");
	/* every length: an error or an answer whose strings are NUL-terminated, no crash */
	for (cut = 0; cut < len; cut += cut < 4096 ? 1 : 509) {
		e = read_bytes(buf, cut, d);
		bad += e == 0 && d->nneeded && !memchr(d->needed[0], '\0', sizeof(d->needed[0]));
		bad += e != 0 && e != -ENOEXEC;
	}
	tap_ok(!bad, "every cut of /bin/true: -ENOEXEC or a whole answer");
	/* bytes of the headers and the dynamic section changed, one at a time, to 0xff */
	copy = malloc(len);
	for (i = bad = 0; copy && i < len && i < 65536; i++) {
		memcpy(copy, buf, len);
		copy[i] = (char)0xff;
		e = read_bytes(copy, len, d);
		bad += e != 0 && e != -ENOEXEC;
	}
	tap_ok(copy && !bad, "each byte of /bin/true (up to 64 KiB) changed: -ENOEXEC or an answer");
	free(copy);
	free(buf);
	free(d);
	return tap_done();
}
