// SPDX-License-Identifier: GPL-2.0
/*
 * probe: a test program the loader suite builds in several link modes (static, static-pie,
 * PIE, non-PIE) and runs both with execve and through loader-run. Its output must be the
 * same either way, except for the "inside" checks that look at what only the loader sets.
 *
 *   probe args|tls|malloc|threads|errno|atexit|fork|exit N   same output under both
 *   probe auxv SECURE        getauxval() and dl_iterate_phdr() agree; AT_SECURE == SECURE
 *   probe random             the 16 AT_RANDOM bytes in hex
 *   probe fds N...           each fd N is open
 *   probe maps               /proc/self/maps
 *   probe signals            dispositions, mask, alternate stack and name after the start
 *   probe procself ARG...    /proc/self/cmdline, environ and auxv as the kernel reports them
 *   probe brk                where the brk heap starts, relative to the program's end
 *   probe stackperm          the stack's protections (PT_GNU_STACK)
 *   probe aslr               where the program and libc were loaded, and their distance
 */
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
extern char _start[], end[];

static __thread int tls_counter = 40;
static __thread char tls_buf[64] = "initial";

static int fail;

static void check(int cond, const char *what)
{
	printf("%s %s\n", cond ? "ok" : "BAD", what);
	if (!cond)
		fail = 1;
}

static int do_args(int argc, char **argv)
{
	int i;

	printf("argc=%d\n", argc);
	for (i = 0; i < argc; i++)
		printf("argv[%d]=%s\n", i, i == 0 ? "(argv0)" : argv[i]);
	for (i = 0; environ[i]; i++)
		if (!strncmp(environ[i], "PROBE_", 6))
			printf("env %s\n", environ[i]);
	return 0;
}

static void *tls_thread(void *arg)
{
	tls_counter += (int)(long)arg;
	snprintf(tls_buf, sizeof(tls_buf), "thread %ld", (long)arg);
	return (void *)(long)tls_counter;
}

static int do_threads(void)
{
	pthread_t t[4];
	long sum = 0;
	void *r;
	int i;

	for (i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, tls_thread, (void *)(long)(i + 1)))
			return 1;
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], &r);
		sum += (long)r;
	}
	printf("threads sum=%ld main tls=%d %s\n", sum, tls_counter, tls_buf);
	return 0;
}

static int do_malloc(void)
{
	unsigned long sum = 0;
	char *big = malloc(64 << 20);	/* mmap threshold: an mmap'ed chunk */
	int i;

	for (i = 0; i < 10000; i++) {
		char *p = malloc(i % 512 + 1);	/* brk heap (or mmap if brk cannot grow) */

		memset(p, i & 0xff, i % 512 + 1);
		sum += (unsigned char)p[i % 512];
		free(p);
	}
	memset(big, 1, 64 << 20);
	sum += big[12345];
	free(big);
	printf("malloc sum=%lu\n", sum);
	return 0;
}

static void bye(void)
{
	printf("atexit handler ran\n");
}

static int do_fork(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		execl("/bin/echo", "echo", "child", "says", "hi", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	printf("child status=%d\n", WEXITSTATUS(status));
	return 0;
}

struct objs {
	const ElfW(Phdr) *first;	/* the main program's headers */
	unsigned long ldso;		/* load address of the dynamic loader, 0 if none */
};

static int phdr_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	struct objs *o = data;

	(void)size;
	if (!o->first)
		o->first = info->dlpi_phdr;
	if (info->dlpi_name && strstr(info->dlpi_name, "/ld-linux"))
		o->ldso = info->dlpi_addr;
	return 0;
}

static int do_auxv(int secure)
{
	struct objs o = { NULL, 0 };
	const unsigned char *rnd = (const unsigned char *)getauxval(AT_RANDOM);
	const char *execfn = (const char *)getauxval(AT_EXECFN);
	const char *plat = (const char *)getauxval(AT_PLATFORM);

	dl_iterate_phdr(phdr_cb, &o);
	check(getauxval(AT_PHDR) != 0 && (const void *)getauxval(AT_PHDR) == o.first,
	      "AT_PHDR is the main program's headers (dl_iterate_phdr)");
	check(getauxval(AT_BASE) == o.ldso, "AT_BASE is the dynamic loader's address (0 if static)");
	check(getauxval(AT_PHENT) == sizeof(ElfW(Phdr)), "AT_PHENT");
	check(getauxval(AT_PHNUM) > 0 && getauxval(AT_PHNUM) < 64, "AT_PHNUM");
	check(getauxval(AT_ENTRY) == (unsigned long)_start, "AT_ENTRY is _start");
	check(getauxval(AT_PAGESZ) == (unsigned long)sysconf(_SC_PAGESIZE), "AT_PAGESZ");
	check(getauxval(AT_UID) == getuid() && getauxval(AT_EUID) == geteuid() &&
	      getauxval(AT_GID) == getgid() && getauxval(AT_EGID) == getegid(), "AT_*ID");
	check(getauxval(AT_SECURE) == (unsigned long)secure, "AT_SECURE");
	check(rnd != NULL, "AT_RANDOM");
	check(execfn && strstr(execfn, "probe") != NULL, "AT_EXECFN names the program");
	check(plat && !strcmp(plat, "x86_64"), "AT_PLATFORM");
	check(getauxval(AT_CLKTCK) == (unsigned long)sysconf(_SC_CLK_TCK), "AT_CLKTCK");
	check(getauxval(AT_HWCAP) != 0, "AT_HWCAP");
	check(getauxval(AT_SYSINFO_EHDR) != 0 &&
	      !memcmp((void *)getauxval(AT_SYSINFO_EHDR), "\177ELF", 4), "AT_SYSINFO_EHDR");
	check(getauxval(AT_FLAGS) == 0, "AT_FLAGS");
	return fail;
}

static int do_random(void)
{
	const unsigned char *r = (const unsigned char *)getauxval(AT_RANDOM);
	int i;

	for (i = 0; i < 16; i++)
		printf("%02x", r[i]);
	printf("\n");
	return 0;
}

static int do_fds(int argc, char **argv)
{
	int i;

	for (i = 2; i < argc; i++)
		printf("fd %s %s\n", argv[i], fcntl(atoi(argv[i]), F_GETFD) >= 0 ? "open" : "closed");
	return 0;
}

static int do_maps(void)
{
	char buf[4096];
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return 1;
	while (fgets(buf, sizeof(buf), f))
		fputs(buf, stdout);
	fclose(f);
	return 0;
}

static int do_signals(void)
{
	struct sigaction sa;
	sigset_t set;
	stack_t ss;
	char name[17] = "";
	int sig, blocked = 0;

	sigaction(SIGUSR1, NULL, &sa);
	check(sa.sa_handler == SIG_DFL, "handled SIGUSR1 is back to SIG_DFL");
	sigaction(SIGUSR2, NULL, &sa);
	check(sa.sa_handler == SIG_IGN, "ignored SIGUSR2 stays ignored");
	sigprocmask(SIG_BLOCK, NULL, &set);
	for (sig = 1; sig < 65; sig++)
		blocked += sigismember(&set, sig) == 1;
	check(blocked == 0, "signal mask is empty");
	sigaltstack(NULL, &ss);
	check(ss.ss_flags & SS_DISABLE, "alternate signal stack disabled");
	prctl(PR_GET_NAME, name);
	check(!strncmp(name, "probe", 5), "process name is the program's basename");
	return fail;
}

static size_t slurp(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	while (fd >= 0 && len < size && (n = read(fd, buf + len, size - len)) > 0)
		len += (size_t)n;
	if (fd >= 0)
		close(fd);
	return len;
}

static int do_procself(void)
{
	static char buf[1 << 16];
	unsigned long *aux = (unsigned long *)buf, entry = 0, rnd = 0;
	size_t len = slurp("/proc/self/cmdline", buf, sizeof(buf)), i, words;
	char *p;

	for (p = buf, i = 0; p < buf + len; p += strlen(p) + 1, i++)
		printf("cmdline[%zu]=%s\n", i, i == 0 ? "(argv0)" : p);
	len = slurp("/proc/self/environ", buf, sizeof(buf));
	for (p = buf; p < buf + len; p += strlen(p) + 1)
		if (!strncmp(p, "PROBE_", 6))
			printf("environ %s\n", p);
	words = slurp("/proc/self/auxv", buf, sizeof(buf)) / sizeof(unsigned long);
	for (i = 0; i + 1 < words; i += 2) {
		if (aux[i] == AT_ENTRY)
			entry = aux[i + 1];
		if (aux[i] == AT_RANDOM)
			rnd = aux[i + 1];
	}
	printf("/proc/self/auxv AT_ENTRY %s, AT_RANDOM %s\n",
	       entry == getauxval(AT_ENTRY) ? "matches" : "differs",
	       rnd == getauxval(AT_RANDOM) ? "matches" : "differs");
	return 0;
}

/* The protections of the mapping holding the stack, as /proc/self/maps shows them. */
static int do_stackperm(void)
{
	char line[512], perms[8];
	unsigned long here = (unsigned long)&line, s, e;
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %7s", &s, &e, perms) == 3 && s <= here && here < e)
			printf("stack %s\n", perms);
	return 0;
}

struct bases {
	unsigned long image, libc;
};

static int bases_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	struct bases *b = data;

	(void)size;
	if (!b->image)
		b->image = info->dlpi_addr ? info->dlpi_addr : 1;
	else if (info->dlpi_name && strstr(info->dlpi_name, "/libc.so"))
		b->libc = info->dlpi_addr;
	return 0;
}

/* "image 0x... libc 0x... distance 0x...": the offset2lib distance must vary between runs. */
static int do_aslr(void)
{
	struct bases b = { 0, 0 };

	dl_iterate_phdr(bases_cb, &b);
	printf("image 0x%lx libc 0x%lx distance 0x%lx\n", b.image, b.libc, b.libc - b.image);
	return 0;
}

static int do_brk(void)
{
	unsigned long b = (unsigned long)sbrk(0), e = (unsigned long)end;
	char *p = sbrk(1 << 20);

	printf("brk %s the program's end (within 1 GiB: %s)\n", b >= e ? "after" : "before",
	       b >= e && b - e < (1UL << 30) + (1UL << 20) ? "yes" : "no");
	printf("sbrk grows: %s\n", p != (void *)-1 && memset(p, 1, 1 << 20) ? "yes" : "no");
	return 0;
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "args";

	if (!strcmp(m, "args"))
		return do_args(argc, argv);
	if (!strcmp(m, "tls")) {
		tls_counter++;
		printf("tls %d %s\n", tls_counter, tls_buf);
		return do_threads();
	}
	if (!strcmp(m, "threads"))
		return do_threads();
	if (!strcmp(m, "malloc"))
		return do_malloc();
	if (!strcmp(m, "errno")) {
		int fd = open("/nonexistent/credbox-probe", O_RDONLY);

		printf("open=%d errno=%d %s\n", fd, errno, strerror(errno));
		return 0;
	}
	if (!strcmp(m, "atexit")) {
		atexit(bye);
		printf("exiting 3\n");
		exit(3);
	}
	if (!strcmp(m, "fork"))
		return do_fork();
	if (!strcmp(m, "exit"))
		return argc > 2 ? atoi(argv[2]) : 0;
	if (!strcmp(m, "auxv"))
		return do_auxv(argc > 2 ? atoi(argv[2]) : 1);
	if (!strcmp(m, "random"))
		return do_random();
	if (!strcmp(m, "fds"))
		return do_fds(argc, argv);
	if (!strcmp(m, "maps"))
		return do_maps();
	if (!strcmp(m, "procself"))
		return do_procself();
	if (!strcmp(m, "stackperm"))
		return do_stackperm();
	if (!strcmp(m, "brk"))
		return do_brk();
	if (!strcmp(m, "aslr"))
		return do_aslr();
	if (!strcmp(m, "signals"))
		return do_signals();
	fprintf(stderr, "probe: unknown mode %s\n", m);
	return 2;
}
