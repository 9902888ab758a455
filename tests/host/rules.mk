# tests/host/rules.mk: the launcher's host tests (tests/host/credbox-*.t), their programs,
# and the profile parser's fuzz target. Included by the top-level Makefile.
#
#   make fuzz    a longer libFuzzer run of the profile parser (FUZZ_TIME seconds)

HT         := $(B)/tests/host
HOST_TFLAGS = $(filter-out -O2,$(CFLAGS)) -O1
FUZZ_TIME  ?= 300

TEST_BINS += $(HT)/t-profile $(HT)/t-privdrop $(HT)/t-landlock $(HT)/t-filter $(HT)/t-filter-bpf $(HT)/t-loader-maps $(HT)/t-sysnames $(HT)/peers-bench \
	     $(HT)/t-preopen $(HT)/t-redirect $(HT)/t-deps $(HT)/t-idmap $(HT)/sysprobe $(HT)/nolandlock $(HT)/pty-drive
ifneq ($(shell command -v clang),)
TEST_BINS += $(HT)/fuzz-profile
endif

$(HT):
	mkdir -p $@

# The reader of untrusted ELF files for --check, with the sanitizers: a read outside a buffer
# fails the test instead of passing unseen.
$(HT)/t-deps: tests/host/t-deps.c tests/host/tap.h src/deps.c src/deps.h src/failure.c | $(HT)
	$(CC) $(HOST_TFLAGS) -fsanitize=address,undefined -fno-sanitize-recover=all -Itests/host \
		-o $@ $< src/deps.c src/failure.c

$(HT)/t-%: tests/host/t-%.c tests/host/tap.h $(B)/libcredbox.a | $(HT)
	$(CC) $(HOST_TFLAGS) -Itests/host -o $@ $< $(B)/libcredbox.a $(LDLIBS)

# idmap.t's program: one file operation or one attack, inside an ID-mapped grant or outside it.
TEST_BINS += $(HT)/idmap-probe
$(HT)/idmap-probe: tests/host/idmap-probe.c $(B)/libcredbox-client.a src/credbox.h | $(HT)
	$(CC) $(HOST_TFLAGS) -Isrc -o $@ $< $(B)/libcredbox-client.a

# credbox as on a kernel without Landlock (a seccomp filter fails landlock_create_ruleset).
$(HT)/nolandlock: tests/host/nolandlock.c | $(HT)
	$(CC) $(HOST_TFLAGS) -o $@ $< $(LDLIBS)

# What checking a granted tree costs (make bench-preopen; README, "Benchmarks").
$(HT)/preopen-bench: tests/host/preopen-bench.c tests/vm/bench.h $(B)/libcredbox.a | $(HT)
	$(CC) $(filter-out -O2,$(CFLAGS)) -O2 -o $@ $< $(B)/libcredbox.a $(LDLIBS)
.PHONY: bench-preopen
bench-preopen: $(HT)/preopen-bench
	$(HT)/preopen-bench 10000

# What the redirect runtime's filter costs calls it does not trap, and what an execve done in
# place costs against the kernel's (make bench-redirect).
$(HT)/redirect-bench: tests/host/redirect-bench.c tests/vm/bench.h $(B)/libcredbox.a | $(HT)
	$(CC) $(filter-out -O2,$(CFLAGS)) -O2 -Itests/host -o $@ $< $(B)/libcredbox.a $(LDLIBS)
.PHONY: bench-redirect
bench-redirect: $(HT)/redirect-bench
	$(HT)/redirect-bench 31 200000

# What an ID-mapped grant costs (make bench-idmap; README, "Benchmarks"): a call through it
# against the same call through a plain bind mount, then the grants' set-up in a start of
# credbox against a fork+exec+wait of /bin/true (tests/host/idmap-bench, with peers-bench).
$(HT)/idmap-bench: tests/host/idmap-bench.c tests/vm/bench.h $(B)/libcredbox.a | $(HT)
	$(CC) $(filter-out -O2,$(CFLAGS)) -O2 -o $@ $< $(B)/libcredbox.a $(LDLIBS)
.PHONY: bench-idmap
bench-idmap: $(B)/credbox $(HT)/idmap-bench $(HT)/peers-bench
	$(HT)/idmap-bench 31 2000
	B=$(B) tests/host/idmap-bench 200

# A small program the filter probe runs under credbox's filters (no libseccomp in it).
$(HT)/sysprobe: tests/host/sysprobe.c | $(HT)
	$(CC) $(HOST_TFLAGS) -o $@ $<

# A user at a terminal, for the job control tests (jobctl.t).
$(HT)/pty-drive: tests/host/pty-drive.c | $(HT)
	$(CC) $(HOST_TFLAGS) -o $@ $<

# The parser alone, with ASan and libFuzzer.
FUZZ_SRCS := src/profile.c src/diag.c src/sysnames.c src/filter.c src/filter_bpf.c src/filter_always.c
$(HT)/fuzz-profile: tests/host/fuzz-profile.c $(FUZZ_SRCS) $(wildcard src/*.h) \
		    $(B)/filter_always_bpf.h $(B)/sysnames_table.h | $(HT)
	clang -g -O1 -std=gnu11 -D_GNU_SOURCE -Isrc -I$(B) -fsanitize=fuzzer,address,undefined \
		-o $@ $< $(FUZZ_SRCS) $(LDLIBS)

.PHONY: fuzz
fuzz: $(HT)/fuzz-profile
	mkdir -p $(B)/fuzz-profile-corpus
	$(HT)/fuzz-profile -max_total_time=$(FUZZ_TIME) -max_len=4096 \
		$(B)/fuzz-profile-corpus tests/host/profiles conf

# credbox beside its peers, starting /bin/true, one run (make bench-peers; README,
# "Benchmarks"). A peer that is not installed is skipped with the reason; the optional
# packages come from `tests/deps optional`. Two floors come first: credbox's own start and
# exit (--version), and a launcher that only loads the program in its own process
# (loader-run), the least any in-process launcher pays.
PEERS_ROUNDS ?= 300
$(HT)/peers-bench: tests/host/peers-bench.c tests/vm/bench.h | $(HT)
	$(CC) $(filter-out -O2,$(CFLAGS)) -O2 -o $@ $<
.PHONY: bench-peers
bench-peers: $(B)/credbox $(HT)/peers-bench $(B)/tests/loader/loader-run
	@set -- "true=/bin/true" "version=$(B)/credbox --version" \
		"loader=$(B)/tests/loader/loader-run /bin/true" \
		"credbox=$(B)/credbox --profile conf/minimal.ini -- /bin/true"; \
	for p in "setpriv=setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all" \
		 "bwrap=bwrap --ro-bind / /" "firejail=firejail --quiet --noprofile"; do \
		name=$${p%%=*}; cmd=$${p#*=}; exe=$$(command -v $$name) || { \
			echo "skip $$name: not installed (tests/deps optional)"; continue; }; \
		set -- "$$@" "$$name=$$exe $${cmd#* } /bin/true"; \
	done; \
	printf '%s' "$(HT)/peers-bench $(PEERS_ROUNDS)"; printf " '%s'" "$$@"; echo; \
	$(HT)/peers-bench $(PEERS_ROUNDS) "$$@"
