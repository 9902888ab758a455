// SPDX-License-Identifier: GPL-2.0
/*
 * bomb: a fork bomb that ends by itself (tests/vm/60-limits.t). Every process forks as fast as
 * it can, and so does every child, until SECONDS have passed; then each waits for its children
 * and exits. At most CAP forks succeed in all, so that a credbox that set no limit fails the
 * test instead of taking the guest down with it. Prints the forks that succeeded and those
 * refused with EAGAIN.
 *
 *   bomb SECONDS CAP
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct count {
	long forked, eagain, other;
};

int main(int argc, char **argv)
{
	time_t end = time(NULL) + (argc > 1 ? atoi(argv[1]) : 3);
	long cap = argc > 2 ? atol(argv[2]) : 1000;
	struct count *c = mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t top = getpid(), pid;

	if (c == MAP_FAILED)
		return 1;
	while (time(NULL) < end) {
		if (__atomic_load_n(&c->forked, __ATOMIC_RELAXED) >= cap) {
			usleep(10000);
			continue;
		}
		pid = fork();
		if (pid > 0) {
			__atomic_fetch_add(&c->forked, 1, __ATOMIC_RELAXED);
		} else if (pid < 0) {
			__atomic_fetch_add(errno == EAGAIN ? &c->eagain : &c->other, 1,
					   __ATOMIC_RELAXED);
			usleep(10000);
		}
	}
	while (wait(NULL) > 0)
		;
	if (getpid() == top)
		printf("forked %ld, refused %ld (EAGAIN), failed %ld otherwise\n", c->forked,
		       c->eagain, c->other);
	return 0;
}
