#!/bin/bash
# 90-rename-attack.t: the kernel tree's openat2 rename_attack_test (RESOLVE_BENEATH
# and RESOLVE_IN_ROOT against a thread racing renames), in its own boot, on
# /tmp's tmpfs and again on the guest's ext4 disk: it runs for minutes under
# TCG, hence the long timeout.
set -u
cd "$(dirname "$0")/../.."
. tests/vm/lib.sh
vm_test_init
dir=$KSRC/tools/testing/selftests/openat2

if ! ksft_cc "$tmp/rename_attack_test" "$dir/rename_attack_test.c" "$dir/helpers.c" \
	2>"$tmp/cc.err"; then
	sed 's/^/# /' "$tmp/cc.err"
	echo "1..1"
	echo "not ok 1 - build rename_attack_test from $dir"
	exit 1
fi
ksft_on_ext4 "$tmp" rename_attack_test tmp
start=$SECONDS
tests/vm/vm-run --kernel "$BZIMAGE" --timeout 2400 \
	--add "$tmp/rename_attack_test:/ksft/openat2/rename_attack_test" \
	--add "$tmp/ext4-rename_attack_test:/ksft/openat2/ext4-rename_attack_test" \
	-- "cd /ksft/openat2 && $(ksft_guest_cmd ./rename_attack_test ./ext4-rename_attack_test)" \
	>"$tmp/out"
status=$?
echo "# rename_attack_test took $((SECONDS - start)) s in the guest"
ksft_report "$tmp/out" "$status"
