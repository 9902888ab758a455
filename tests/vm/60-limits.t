#!/bin/bash
# 60-limits.t: [limits] on the patched kernel, in one boot: a fork bomb (nproc), a memory hog
# (as) and a spinning program (cpu) under credbox, as sandbox; the guest survives them and
# runs new programs after; a hard limit above the caller's is raised. Each test program ends
# by itself within a bound, so that a credbox without limits fails the test instead of taking
# the guest down. The guest script is tests/vm/limits/guest.sh; the parser and the host's view
# of the limits: tests/host/t-profile.c, tests/host/limits.t.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/vm/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

vm_require_bins build/credbox build/tests/limits/bomb build/tests/limits/hog build/tests/limits/spin

start=$SECONDS
tests/vm/vm-run --timeout 600 --add tests/vm/limits:/credbox/limits -- \
	'sh /credbox/limits/guest.sh' >"$tmp/out" 2>"$tmp/err"
status=$?
echo "# one boot: $((SECONDS - start)) s, vm-run exit $status"
guest_tap "$tmp/out" "$tmp/err" @@limits-done "$status"
