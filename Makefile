# credbox: the launcher, its tests, and the kernel series' build and VM.
#
#   make            build credbox and the client library
#   make kernel     build the patched kernel, and the same tree without the series
#   make check      host tests, then every VM test; TAP, ends "N passed, N failed"
#   make run        boot the patched kernel and show credbox on conf/dosemu.ini
#   make bench      the benchmark table (ratios from one run)
#   make fuzz       longer fuzzing runs of the profile parser and ELF checks
#   make install    credbox, its man pages, the client library, credbox.pc, the example
#                   profiles, the kernel series and bash completion; make uninstall removes
#                   them, and the directories install made once they are empty. Both honour
#                   DESTDIR, PREFIX (/usr/local), BINDIR, LIBDIR, INCLUDEDIR, MANDIR, DOCDIR
#                   and SYSCONFDIR (/etc: where --profile NAME finds NAME.ini, built in)

B        ?= build
CC       ?= cc
PKGS     := inih libcap-ng libseccomp
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

CFLAGS   ?= -O2 -g
CFLAGS   += -std=gnu11 -Wall -Wextra -Wshadow -Wno-unused-parameter \
	    -D_GNU_SOURCE -fstack-protector-strong -Isrc -I$(B) $(PKG_CFLAGS)
LDLIBS   += $(PKG_LIBS)
# credbox itself takes its three libraries from their static archives: loading them is a
# quarter of a millisecond on every start (README, "Benchmarks"). libc stays shared, so that
# user and group names resolve through the system's NSS modules.
CREDBOX_LIBS := -Wl,-Bstatic $(PKG_LIBS) -Wl,-Bdynamic

VERSION  := $(shell cat VERSION)
PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
LIBDIR      ?= $(PREFIX)/lib
INCLUDEDIR  ?= $(PREFIX)/include
DATADIR     ?= $(PREFIX)/share
MANDIR      ?= $(DATADIR)/man
DOCDIR      ?= $(DATADIR)/doc/credbox
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
SYSCONFDIR  ?= /etc

# Every src/*.c except the entry point and the client API goes into one static
# library that the unit tests link against; fuzz targets live in tests/.
# src/client.c is the library programs run by credbox link with (credbox.h).
CLIENT_C := src/client.c
SRC_C    := $(filter-out src/main.c $(CLIENT_C),$(wildcard src/*.c))
SRC_S    := $(wildcard src/*.S)
LIB_OBJS := $(SRC_C:src/%.c=$(B)/%.o) $(SRC_S:src/%.S=$(B)/%.o) $(B)/redirect_rt_text.o

.PHONY: all kernel initramfs check check-host check-vm run bench fuzz clean deps install \
	uninstall
all: $(B)/credbox $(B)/libcredbox-client.a

$(B)/%.o: src/%.c $(wildcard src/*.h) | $(B)
	$(CC) $(CFLAGS) -c -o $@ $<
# What the build was configured with, rewritten only when a value changed (so that a new
# SYSCONFDIR or VERSION rebuilds main.o, and nothing else does).
$(B)/config.h: FORCE | $(B)
	@printf '#define CREDBOX_VERSION "%s"\n#define CREDBOX_SYSCONFDIR "%s"\n' \
		'$(VERSION)' '$(SYSCONFDIR)' >$@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
$(B)/main.o: $(B)/config.h
.PHONY: FORCE
$(B)/%.o: src/%.S | $(B)
	$(CC) $(CFLAGS) -c -o $@ $<
$(B)/libcredbox.a: $(LIB_OBJS)
	rm -f $@ && ar rcs $@ $^
$(B)/libcredbox-client.a: $(CLIENT_C:src/%.c=$(B)/%.o)
	rm -f $@ && ar rcs $@ $^
# The always-denied seccomp filter is a constant of the build: compiled once, here, by
# libseccomp (src/filter_always.h says why), and built into filter.o.
$(B)/filter-always-gen: src/gen/filter-always-gen.c $(B)/filter_always.o | $(B)
	$(CC) $(CFLAGS) -o $@ $^ $(CREDBOX_LIBS)
$(B)/filter_always_bpf.h: $(B)/filter-always-gen
	$< >$@.tmp && mv $@.tmp $@
$(B)/filter.o: $(B)/filter_always_bpf.h
# The native system call names by number, a table made from libseccomp's when credbox is built.
$(B)/sysnames-gen: src/gen/sysnames-gen.c | $(B)
	$(CC) $(CFLAGS) -o $@ $< $(CREDBOX_LIBS)
$(B)/sysnames_table.h: $(B)/sysnames-gen
	$< >$@.tmp && mv $@.tmp $@
$(B)/sysnames.o: $(B)/sysnames_table.h
# The redirect runtime (src/rt/): freestanding code that stays in the program's address space,
# built as one relocation-free image whose text is embedded in credbox (src/redirect.c).
RT_CFLAGS := -std=gnu11 -O2 -g0 -Wall -Wextra -Wshadow -Wno-unused-parameter -ffreestanding \
	     -fno-builtin -fno-tree-loop-distribute-patterns -fPIC -fvisibility=hidden \
	     -fno-stack-protector -fno-asynchronous-unwind-tables -fno-unwind-tables \
	     -fno-jump-tables -fcf-protection=none -mgeneral-regs-only -fno-plt -Isrc
# Its objects: the handler (redirect_rt.c), the program's own execve done in place (rt_exec.c)
# with the loader's shared part, compiled freestanding (LOADER_FREESTANDING: no messages).
RT_SRCS := src/rt/redirect_rt.c src/rt/rt_exec.c src/loader.c src/loader_elf.c \
	   src/loader_script.c src/loader_x86_64.S
RT_OBJS := $(patsubst %,$(B)/rt/%.o,$(notdir $(RT_SRCS)))
RT_DEFS := -DLOADER_FREESTANDING -include src/rt/hidden.h
$(B)/rt/%.c.o: src/rt/%.c $(wildcard src/*.h src/rt/*.h) | $(B)/rt
	$(CC) $(RT_CFLAGS) $(RT_DEFS) -c -o $@ $<
$(B)/rt/%.c.o: src/%.c $(wildcard src/*.h src/rt/*.h) | $(B)/rt
	$(CC) $(RT_CFLAGS) $(RT_DEFS) -c -o $@ $<
$(B)/rt/%.S.o: src/%.S | $(B)/rt
	$(CC) $(RT_CFLAGS) $(RT_DEFS) -c -o $@ $<
$(B)/rt:
	mkdir -p $@
$(B)/redirect_rt.o: $(RT_OBJS)
	$(LD) -r -o $@ $^
$(B)/redirect_rt.elf: $(B)/redirect_rt.o src/rt/redirect_rt.lds
	$(LD) -static -nostdlib -T src/rt/redirect_rt.lds -o $@ $<
# The offsets of its symbols for redirect.c, and its text as a section of credbox's own, which
# the program keeps mapped where credbox's file put it (no copy made at a start).
$(B)/redirect_rt_image.h $(B)/redirect_rt_text.S &: $(B)/redirect_rt.elf src/rt/mkblob
	src/rt/mkblob $(B)/redirect_rt.o $< $(B)/redirect_rt_image.h $(B)/redirect_rt_text.S
$(B)/redirect.o: $(B)/redirect_rt_image.h
$(B)/redirect_rt_text.o: $(B)/redirect_rt_text.S
	$(CC) $(CFLAGS) -c -o $@ $<
$(B)/credbox: $(B)/main.o $(B)/libcredbox.a
	$(CC) $(LDFLAGS) -Wl,-z,relro,-z,now -o $@ $^ $(CREDBOX_LIBS)
$(B):
	mkdir -p $@

# ---- tests -----------------------------------------------------------------
# A test is an executable that prints TAP: tests/host/*.t run on this machine,
# tests/vm/*.t boot the patched kernel through tests/vm/vm-run.
HOST_TESTS = $(sort $(wildcard tests/host/*.t))
VM_TESTS   = $(sort $(wildcard tests/vm/*.t))
TEST_BINS  = $(B)/tests/client-test $(B)/demo/credbox-demo

$(B)/demo/credbox-demo: tests/vm/demo.c $(B)/libcredbox-client.a src/credbox.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(B)/libcredbox-client.a
$(B)/tests/client-test: tests/host/client-test.c $(B)/libcredbox-client.a src/credbox.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(B)/libcredbox-client.a

-include tests/host/rules.mk
-include tests/loader/rules.mk
-include tests/vm/rules.mk

# Here, after the rules.mk files: its prerequisites are expanded where the rule stands.
initramfs: all $(TEST_BINS)
	tests/vm/vm-run --build-initramfs >/dev/null

# The README's two commands, and the other targets that run tests, first install the Debian
# packages they need (tests/deps: nothing to do, and no apt-get call, when all are there),
# then go on in a make of their own, which reads pkg-config's flags only now that the
# libraries are there. So a fresh Debian 12 machine needs no step before `make check`.
DEPS_FIRST := check check-host check-vm bench
$(DEPS_FIRST):
	tests/deps install
	+@$(MAKE) --no-print-directory _$@
# `make run` is the first thing a newcomer types: only the packages it needs, and the bench
# variant of the kernel (no KASAN or lockdep: it builds and boots faster). The kernel's own
# packages first; then the kernel builds while the rest are installed and credbox is built.
run:
	tests/deps kernel
	+@$(MAKE) --no-print-directory -j2 _run
.PHONY: $(DEPS_FIRST:%=_%) _run _run-kernel _run-programs

_check-host: all $(TEST_BINS)
	tests/tap-run $(HOST_TESTS)
_check-vm: all $(TEST_BINS) kernel initramfs
	tests/tap-run $(VM_TESTS)
_check: all $(TEST_BINS) kernel initramfs
	tests/tap-run $(HOST_TESTS) $(VM_TESTS)

# ---- the kernel and the VM -------------------------------------------------
deps:
	tests/deps install
# The series' kernel, and the same tree without it: tests/vm/70-idmap.t boots the second, as a
# stock kernel, for grants through ID-mapped mounts.
kernel:
	kernel-patches/build-kernel
	kernel-patches/build-kernel --baseline
_run: _run-kernel _run-programs
	tests/vm/vm-run --build-initramfs >/dev/null
	tests/vm/run-demo --variant bench
_run-kernel:
	kernel-patches/build-kernel --variant bench
_run-programs:
	tests/deps run
	+@$(MAKE) --no-print-directory all $(B)/demo/credbox-demo
_bench: all $(TEST_BINS)
	tests/vm/bench-kernel
	tests/vm/bench-credbox
	tests/vm/bench-transparent
	$(MAKE) --no-print-directory bench-loader
	$(MAKE) --no-print-directory bench-preopen
	$(MAKE) --no-print-directory bench-redirect
	$(MAKE) --no-print-directory bench-idmap

# ---- install ---------------------------------------------------------------
MAN1 := man/credbox.1
MAN3 := man/credbox_openat.3 man/credbox_mkdirat.3
MAN5 := man/credbox.ini.5
MANPAGES := $(MAN1) $(MAN3) $(MAN5)
# The other names of each section 3 page (its NAME section), each a page that sources it:
# NAME:PAGE pairs.
MANLINKS := $(foreach p,$(MAN3),$(addsuffix :$(notdir $(p)),$(filter-out $(basename $(notdir \
	$(p))),$(shell sed -n '/^\.Sh NAME/,/^\.Nd/s/^\.Nm \([a-z_0-9]*\).*/\1/p' $(p)))))
EXAMPLES := $(wildcard conf/*.ini)
# The kernel series, for a machine that has credbox installed and no clone (README, "On a real
# host").
KPATCHES := $(wildcard kernel-patches/*.patch) kernel-patches/series kernel-patches/BASE
# Every directory install makes; those that did not exist are recorded in INSTALLED_DIRS, and
# uninstall removes them again once they are empty.
INSTALL_DIRS := $(BINDIR) $(LIBDIR)/pkgconfig $(INCLUDEDIR) $(MANDIR)/man1 $(MANDIR)/man3 \
	$(MANDIR)/man5 $(DOCDIR)/examples $(DOCDIR)/kernel-patches $(BASHCOMPDIR) \
	$(SYSCONFDIR)/credbox
INSTALLED_DIRS := $(DOCDIR)/installed-dirs

$(B)/credbox.pc: src/credbox.pc.in VERSION FORCE | $(B)
	@sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' $< >$@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
$(B)/credbox.bash: completion/credbox.in FORCE | $(B)
	@sed -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|' $< >$@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
# The pages as installed: the directories they name are the ones of this install, the footer
# names credbox and its version (groff's mdoc says "BSD" for an empty .Os, which mandoc -Tlint
# wants in the sources).
$(B)/man/%: man/% VERSION FORCE
	@mkdir -p $(@D)
	@sed -e 's|/etc/credbox|$(SYSCONFDIR)/credbox|g' \
		-e 's|/usr/local/share/doc/credbox|$(DOCDIR)|g' \
		-e 's|^\.Os$$|.Os credbox $(VERSION)|' $< >$@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

install: all $(B)/credbox.pc $(B)/credbox.bash $(MANPAGES:man/%=$(B)/man/%)
	@made=; for d in $(INSTALL_DIRS:%=$(DESTDIR)%); do \
		while [ ! -e "$$d" ] && [ "$$d" != "$(DESTDIR)" ]; do made="$$made $$d"; d=$${d%/*}; done; \
	done; \
	install -d $(INSTALL_DIRS:%=$(DESTDIR)%) && \
	for d in $$made; do echo "$${d#$(DESTDIR)}"; done | sort -u >$(DESTDIR)$(INSTALLED_DIRS)
	install -m 0755 $(B)/credbox $(DESTDIR)$(BINDIR)/credbox
	install -m 0644 $(B)/libcredbox-client.a $(DESTDIR)$(LIBDIR)/libcredbox-client.a
	install -m 0644 $(B)/credbox.pc $(DESTDIR)$(LIBDIR)/pkgconfig/credbox.pc
	install -m 0644 src/credbox.h $(DESTDIR)$(INCLUDEDIR)/credbox.h
	install -m 0644 $(MAN1:man/%=$(B)/man/%) $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 $(MAN3:man/%=$(B)/man/%) $(DESTDIR)$(MANDIR)/man3/
	install -m 0644 $(MAN5:man/%=$(B)/man/%) $(DESTDIR)$(MANDIR)/man5/
	@for l in $(MANLINKS); do \
		echo ".so man3/$${l#*:}" >$(DESTDIR)$(MANDIR)/man3/$${l%%:*}.3 || exit; \
	done
	install -m 0644 $(EXAMPLES) $(DESTDIR)$(DOCDIR)/examples/
	install -m 0644 $(KPATCHES) $(DESTDIR)$(DOCDIR)/kernel-patches/
	install -m 0644 $(B)/credbox.bash $(DESTDIR)$(BASHCOMPDIR)/credbox

# The profiles an admin put in SYSCONFDIR/credbox stay; the directories install made go once
# they are empty, deepest first (without the record of an older install: credbox's own). While
# profiles keep SYSCONFDIR/credbox, the record of what is left waits there (KEPT_DIRS) for
# the uninstall that follows their removal.
KEPT_DIRS := $(SYSCONFDIR)/credbox/.installed-dirs
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/credbox $(DESTDIR)$(LIBDIR)/libcredbox-client.a \
		$(DESTDIR)$(LIBDIR)/pkgconfig/credbox.pc $(DESTDIR)$(INCLUDEDIR)/credbox.h \
		$(MAN1:man/%=$(DESTDIR)$(MANDIR)/man1/%) $(MAN3:man/%=$(DESTDIR)$(MANDIR)/man3/%) \
		$(MAN5:man/%=$(DESTDIR)$(MANDIR)/man5/%) \
		$(foreach l,$(MANLINKS),$(DESTDIR)$(MANDIR)/man3/$(firstword $(subst :, ,$(l))).3) \
		$(EXAMPLES:conf/%=$(DESTDIR)$(DOCDIR)/examples/%) \
		$(KPATCHES:kernel-patches/%=$(DESTDIR)$(DOCDIR)/kernel-patches/%) \
		$(DESTDIR)$(BASHCOMPDIR)/credbox
	@dirs="$(DOCDIR)/examples $(DOCDIR)/kernel-patches $(DOCDIR) $(SYSCONFDIR)/credbox"; \
	for f in $(DESTDIR)$(INSTALLED_DIRS) $(DESTDIR)$(KEPT_DIRS); do \
		if [ -f $$f ]; then dirs=$$(cat $$f); rm -f $$f; fi; \
	done; \
	for d in $$(printf '%s\n' $$dirs | awk '{ print length($$0), $$0 }' | sort -rn | \
		    cut -d' ' -f2-); do \
		if [ -d "$(DESTDIR)$$d" ]; then rmdir --ignore-fail-on-non-empty "$(DESTDIR)$$d"; fi; \
	done; \
	if [ -d $(DESTDIR)$(SYSCONFDIR)/credbox ]; then \
		for d in $$dirs; do if [ -d "$(DESTDIR)$$d" ]; then echo "$$d"; fi; done \
			>$(DESTDIR)$(KEPT_DIRS); \
	fi

clean:
	rm -rf $(B)
