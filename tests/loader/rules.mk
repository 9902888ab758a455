# tests/loader/rules.mk: the in-process ELF loader's test programs, fuzz target, benchmark.
# Included by the top-level Makefile; the tests themselves are tests/host/loader*.t.
#
#   make bench-loader   /bin/true through the loader against execve, 5 paired runs (median ratio)
#   make fuzz-loader    a longer libFuzzer run over the ELF checks (FUZZ_LOADER_TIME seconds)

LT            := $(B)/tests/loader
LOADER_OBJS   := $(B)/loader.o $(B)/loader_libc.o $(B)/loader_elf.o $(B)/loader_script.o \
		 $(B)/loader_x86_64.o $(B)/failure.o
LOADER_TFLAGS := -O1 -g -std=gnu11 -Wall -Wextra -D_GNU_SOURCE -Isrc
LOADER_PROBES := $(LT)/probe-static $(LT)/probe-static-pie $(LT)/probe-pie $(LT)/probe-nopie \
		 $(LT)/probe-execstack $(LT)/probe-bare

TEST_BINS += $(LT)/loader-run $(LT)/loader-mkelf $(LT)/loader-bench $(LOADER_PROBES)
ifneq ($(shell command -v g++),)
TEST_BINS += $(LT)/probe-cxx
endif
ifneq ($(shell command -v clang),)
TEST_BINS += $(LT)/fuzz-loader
endif

$(LT):
	mkdir -p $@

# The driver and the benchmark use only the loader's API, not main.c or the other modules.
$(LT)/loader-run: tests/loader/loader-run.c $(LOADER_OBJS) src/loader.h | $(LT)
	$(CC) $(LOADER_TFLAGS) -o $@ $< $(LOADER_OBJS)
# Linked as credbox is (-z now): libc's symbols bound at start, not lazily in each child the
# loader starts (a write to the GOT and a symbol look-up per first call), which credbox never pays.
$(LT)/loader-bench: tests/loader/loader-bench.c $(LOADER_OBJS) src/loader.h | $(LT)
	$(CC) -O2 $(LOADER_TFLAGS) -Wl,-z,relro,-z,now -o $@ $< $(LOADER_OBJS)
$(LT)/loader-mkelf: tests/loader/mkelf.c | $(LT)
	$(CC) $(LOADER_TFLAGS) -o $@ $<

# One test program, four ways of linking it.
$(LT)/probe-static: tests/loader/probe.c | $(LT)
	$(CC) $(LOADER_TFLAGS) -static -pthread -o $@ $<
$(LT)/probe-static-pie: tests/loader/probe.c | $(LT)
	$(CC) $(LOADER_TFLAGS) -fPIE -static-pie -pthread -o $@ $<
$(LT)/probe-pie: tests/loader/probe.c | $(LT)
	$(CC) $(LOADER_TFLAGS) -fPIE -pie -pthread -o $@ $<
$(LT)/probe-nopie: tests/loader/probe.c | $(LT)
	$(CC) $(LOADER_TFLAGS) -fno-PIE -no-pie -pthread -o $@ $<
$(LT)/probe-execstack: tests/loader/probe.c | $(LT)
	$(CC) $(LOADER_TFLAGS) -fPIE -pie -pthread -z execstack -o $@ $<
# No libc: what the program finds at its first instruction, before a libc sets anything.
$(LT)/probe-bare: tests/loader/probe-bare.c | $(LT)
	$(CC) -O1 -g -Wall -Wextra -static -nostdlib -fno-stack-protector -fno-pie -no-pie \
		-o $@ $<
$(LT)/probe-cxx: tests/loader/probe_cxx.cc | $(LT)
	g++ -O1 -g -Wall -o $@ $<

$(LT)/fuzz-loader: tests/loader/fuzz-loader.c src/loader_elf.c src/loader_script.c \
		  src/failure.c src/loader_elf.h src/loader_script.h | $(LT)
	clang -g -O1 -std=gnu11 -D_GNU_SOURCE -Isrc -fsanitize=fuzzer,address,undefined \
		-o $@ tests/loader/fuzz-loader.c src/loader_elf.c src/loader_script.c src/failure.c

FUZZ_LOADER_TIME ?= 600
.PHONY: bench-loader fuzz-loader
bench-loader: $(LT)/loader-bench
	$(LT)/loader-bench /bin/true 150 5
fuzz-loader: $(LT)/fuzz-loader $(LT)/loader-mkelf
	rm -rf $(LT)/fuzz-seed && mkdir -p $(LT)/fuzz-seed $(LT)/fuzz-corpus
	$(LT)/loader-mkelf $(LT)/fuzz-seed >/dev/null
	cp /bin/true $(LT)/fuzz-seed/true
	printf '#! /bin/sh -e x\t \necho\n' >$(LT)/fuzz-seed/script
	$(LT)/fuzz-loader -max_total_time=$(FUZZ_LOADER_TIME) -max_len=8192 \
		$(LT)/fuzz-corpus $(LT)/fuzz-seed
fuzz: fuzz-loader
