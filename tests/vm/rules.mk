# tests/vm/rules.mk: the VM side of the build, included by the top-level Makefile.
#
# `make initramfs` (re)builds the cached base initramfs of tests/vm/vm-run:
# busybox, the guest users and every executable under $(B)/. It runs after
# the project's binaries and TEST_BINS so the guest gets the current ones;
# vm-run itself also rebuilds it whenever one of those inputs changed.
# The guest test programs built from the kernel tree (openat2 selftests, v6's
# selftests) are compiled by the VM tests themselves: they depend on the
# patched tree that `make kernel` produces, outside the repository.

# The rule itself is in the top-level Makefile, after every rules.mk has added to TEST_BINS
# (a rule's prerequisites are expanded where it stands).

# ---- end to end: tests/vm/40-e2e.t, tests/vm/run-demo, tests/vm/bench-credbox ------------------
# e2e-probe runs under credbox in the guest, once dynamic and once static (both through the
# loader); e2e-drop is a bare setgroups/setresgid/setresuid/execve launcher (the attacker's
# and the benchmark's baseline); e2e-openbench and bench-spawn are the benchmark's programs.
E2E := $(B)/tests/e2e
TEST_BINS += $(E2E)/e2e-probe $(E2E)/e2e-probe-static $(E2E)/e2e-drop $(E2E)/e2e-openbench \
	     $(E2E)/bench-spawn

$(E2E)/e2e-probe: tests/vm/e2e/e2e-probe.c $(B)/libcredbox-client.a src/credbox.h src/uapi.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(B)/libcredbox-client.a
$(E2E)/e2e-probe-static: tests/vm/e2e/e2e-probe.c $(B)/libcredbox-client.a src/credbox.h \
			 src/uapi.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -static -DE2E_STATIC -o $@ $< $(B)/libcredbox-client.a
$(E2E)/e2e-openbench: tests/vm/e2e/e2e-openbench.c $(B)/libcredbox-client.a src/credbox.h \
		      src/uapi.h tests/vm/bench.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(B)/libcredbox-client.a
$(E2E)/bench-spawn: tests/vm/bench.h
$(E2E)/%: tests/vm/e2e/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $<

# ---- transparent grants: tests/vm/50-transparent.t -------------------------------------------------
# tp-probe knows nothing of credbox: plain paths and raw system calls, dynamic and static.
TP := $(B)/tests/tp
TEST_BINS += $(TP)/tp-probe $(TP)/tp-probe-static
$(TP)/tp-probe: tests/vm/transparent/tp-probe.c tests/vm/transparent/tp-exempt.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -pthread -o $@ $<
$(TP)/tp-probe-static: tests/vm/transparent/tp-probe.c tests/vm/transparent/tp-exempt.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -pthread -static -o $@ $<
# tp-go: a Go program (goroutines, Go's own threads and signal stacks), when Go is installed
# (tests/deps installs golang-go); 50-transparent.t skips it otherwise. Static, no cgo.
ifneq ($(shell command -v go 2>/dev/null),)
TEST_BINS += $(TP)/tp-go
endif
$(TP)/tp-go: tests/vm/transparent/tp-go.go
	@mkdir -p $(@D)
	CGO_ENABLED=0 GOCACHE=$(abspath $(B))/go-cache GOPATH=$(abspath $(B))/go-path GOFLAGS= \
		GO111MODULE=off go build -o $@ $<
TEST_BINS += $(TP)/tp-bench
$(TP)/tp-bench: tests/vm/transparent/tp-bench.c tests/vm/transparent/tp-exempt.h $(B)/libcredbox-client.a src/credbox.h tests/vm/bench.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(B)/libcredbox-client.a
# tp-floor: the two mechanisms a transparent grant stands on, measured bare (no credbox).
TEST_BINS += $(TP)/tp-floor
$(TP)/tp-floor: tests/vm/transparent/tp-floor.c tests/vm/bench.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $<

# ---- resource limits: tests/vm/60-limits.t ---------------------------------------------------
# A fork bomb, a memory hog and a spinning program that end by themselves, run under credbox's [limits].
LIM := $(B)/tests/limits
TEST_BINS += $(LIM)/bomb $(LIM)/hog $(LIM)/spin
$(LIM)/%: tests/vm/limits/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $<
