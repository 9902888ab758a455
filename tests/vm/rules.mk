# tests/vm/rules.mk: the VM side of the build, included by the top-level Makefile.
#
# `make initramfs` (re)builds the cached base initramfs of tests/vm/vm-run:
# busybox, the guest users and every executable under $(B)/. It runs after
# the project's binaries and TEST_BINS so the guest gets the current ones;
# vm-run itself also rebuilds it whenever one of those inputs changed.
# The guest test programs built from the kernel tree (openat2 selftests, v6's
# selftests) are compiled by the VM tests themselves: they depend on the
# patched tree that `make kernel` produces, outside the repository.

initramfs: all $(TEST_BINS)
	tests/vm/vm-run --build-initramfs >/dev/null
