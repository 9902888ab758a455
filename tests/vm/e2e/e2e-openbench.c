// SPDX-License-Identifier: GPL-2.0
/*
 * e2e-openbench: opens per second inside the sandbox, through the credbox client API and
 * through plain openat2(RESOLVE_BENEATH) on the same tree, interleaved in one run.
 *
 *	credbox --profile bench.ini -- e2e-openbench GRANT PATH ROUNDS OPENS
 *
 * GRANT is a granted directory whose tree the sandboxed user may also read by itself
 * (mode 0755, files 0644), PATH the same tree's path, which Landlock lets the program open
 * because it is the granted tree. It holds files d0/d1/f000..f099. Each round opens and
 * closes OPENS files with every method, in an order rotating per round. Prints one line per
 * method: name, median ns per open, opens per second, median of per-round ratios to the
 * first method.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../bench.h"

#include "credbox.h"
#include "uapi.h"

#define NFILES 100
#define NMETHODS 4

static const char *names[NMETHODS] = {
	"openat2-beneath", "openat2-beneath-nomagic", "credbox_openat_fd", "credbox_openat",
};

static int open_one(int method, int plain, int cred, const char *grant, const char *path)
{
	struct open_how how = { .flags = O_RDONLY | O_CLOEXEC, .resolve = RESOLVE_BENEATH };

	switch (method) {
	case 0:
		return syscall(SYS_openat2, plain, path, &how, sizeof(how));
	case 1:
		how.resolve |= RESOLVE_NO_MAGICLINKS;
		return syscall(SYS_openat2, plain, path, &how, sizeof(how));
	case 2:
		return credbox_openat_fd(cred, path, O_RDONLY | O_CLOEXEC, 0);
	default:
		return credbox_openat(grant, path, O_RDONLY | O_CLOEXEC, 0);
	}
}

int main(int argc, char **argv)
{
	static char paths[NFILES][32];
	double *ns[NMETHODS], *ratio[NMETHODS];
	int rounds, opens, plain, cred, r, m, i;

	if (argc != 5 || (rounds = atoi(argv[3])) < 1 || (opens = atoi(argv[4])) < 1) {
		fprintf(stderr, "usage: e2e-openbench GRANT PATH ROUNDS OPENS\n");
		return 2;
	}
	cred = credbox_dir(argv[1]);
	plain = open(argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cred < 0 || plain < 0) {
		fprintf(stderr, "e2e-openbench: grant %s: %s; %s: %s\n", argv[1],
			credbox_strerror(cred), argv[2], plain < 0 ? strerror(errno) : "ok");
		return 1;
	}
	for (i = 0; i < NFILES; i++)
		snprintf(paths[i], sizeof(paths[i]), "d0/d1/f%03d", i);
	for (m = 0; m < NMETHODS; m++) {
		ns[m] = calloc(rounds, sizeof(double));
		ratio[m] = calloc(rounds, sizeof(double));
		if (!ns[m] || !ratio[m])
			return 1;
	}
	for (r = 0; r < rounds; r++)
		for (i = 0; i < NMETHODS; i++) {
			double t0;

			m = (i + r) % NMETHODS;
			t0 = bench_now_ns();
			for (int k = 0; k < opens; k++) {
				int fd = open_one(m, plain, cred, argv[1], paths[k % NFILES]);

				if (fd < 0) {
					fprintf(stderr, "e2e-openbench: %s %s: %s\n", names[m],
						paths[k % NFILES], strerror(errno));
					return 1;
				}
				close(fd);
			}
			ns[m][r] = (bench_now_ns() - t0) / opens;
		}
	for (m = 0; m < NMETHODS; m++) {
		double med;

		for (r = 0; r < rounds; r++)
			ratio[m][r] = ns[m][r] / ns[0][r];
		med = bench_median(ns[m], rounds);
		printf("%s %.0f %.0f %.3f\n", names[m], med, 1e9 / med, bench_median(ratio[m], rounds));
	}
	return 0;
}
