#!/bin/bash
# 30-series-selftests.t: the series' own kselftests, built from the patched work
# tree (build-kernel --print-env: KSRC, KHDR) and run as root in the guest:
#
#   openat2/cred_inherit_test  privilege gap, fd-swap race, refcounts, escapes
#                              (.., absolute, symlinks, magic links, rename race),
#                              ownership of created files, flag combinations
#   core/cred_allow_test       execve (dups, threads, CLONE_FILES), SCM_RIGHTS,
#                              pidfd_getfd, /proc/PID/fd reopen, io_uring,
#                              seccomp ADDFD
#   openat2/cred_dirops_test   mkdir, unlink, rmdir, rename, stat, access and
#                              readlink in a lent tree: privilege gap, escapes,
#                              fd-swap and rename races, sticky, Landlock, io_uring
#
# Each runs twice in one boot: on the private tmpfs its fixtures mount, then
# on the guest's ext4 disk (CRED_TEST_DIR, results named ./ext4-PROG).
# Their TAP is passed through, renumbered. On the patched kernel nothing may be
# skipped: a SKIP there means the feature is missing, so it counts as a failure.
# CREDBOX_SERIES_KSFT=DIR takes the sources from another selftests directory.
set -u
cd "$(dirname "$0")/../.."
. tests/vm/lib.sh
vm_test_init
sel=${CREDBOX_SERIES_KSFT:-$KSRC/tools/testing/selftests}

# name: sources (relative to $sel)
declare -A srcs=(
	[cred_inherit_test]="openat2/cred_inherit_test.c openat2/helpers.c"
	[cred_allow_test]="core/cred_allow_test.c"
	[cred_dirops_test]="openat2/cred_dirops_test.c openat2/helpers.c"
)
progs=(cred_inherit_test cred_allow_test cred_dirops_test)

n=0
adds=()
for p in "${progs[@]}"; do
	files=()
	for f in ${srcs[$p]}; do files+=("$sel/$f"); done
	if ! ksft_cc "$tmp/$p" "${files[@]}" -lpthread 2>"$tmp/cc.err"; then
		sed 's/^/# /' "$tmp/cc.err"
		n=$((n + 1))
		echo "not ok $n - build $p from $sel"
		continue
	fi
	chmod 0755 "$tmp/$p"
	ksft_on_ext4 "$tmp" "$p" env
	adds+=(--add "$tmp/$p:/ksft/series/$p" --add "$tmp/ext4-$p:/ksft/series/ext4-$p")
done
if [ "${#adds[@]}" -eq 0 ]; then
	echo "1..$n"
	exit 1
fi

built=()
for p in "${progs[@]}"; do [ -x "$tmp/$p" ] && built+=("./$p"); done
for p in "${progs[@]}"; do [ -x "$tmp/$p" ] && built+=("./ext4-$p"); done
start=$SECONDS
tests/vm/vm-run --timeout 1200 "${adds[@]}" -- \
	"cd /ksft/series && $(ksft_guest_cmd "${built[@]}")" >"$tmp/out"
status=$?
echo "# the series' selftests took $((SECONDS - start)) s in the guest"
ksft_report "$tmp/out" "$status" "$n" |
	sed -E 's/^ok ([0-9]+) (.*# *SKIP.*)$/not ok \1 \2 (a skip on the patched kernel)/'
