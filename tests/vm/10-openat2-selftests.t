#!/bin/bash
# 10-openat2-selftests.t: the kernel tree's own openat2 selftests (openat2_test,
# resolve_test), built from the patched work tree against its uapi headers and
# run in the guest, on /tmp's tmpfs and again on the guest's ext4 disk (/tmp
# bound there; results named ./ext4-PROG); their TAP results are passed
# through, renumbered. rename_attack_test is slow under TCG and runs in
# 90-rename-attack.t.
set -u
cd "$(dirname "$0")/../.."
. tests/vm/lib.sh
vm_test_init
dir=$KSRC/tools/testing/selftests/openat2
progs=(openat2_test resolve_test)

built=1
for p in "${progs[@]}"; do
	if ! ksft_cc "$tmp/$p" "$dir/$p.c" "$dir/helpers.c" 2>"$tmp/cc.err"; then
		sed 's/^/# /' "$tmp/cc.err"
		built=0
	fi
done
if [ "$built" -eq 0 ]; then
	echo "1..1"
	echo "not ok 1 - build the openat2 selftests from $dir"
	exit 1
fi

adds=()
runs=()
for p in "${progs[@]}"; do
	ksft_on_ext4 "$tmp" "$p" tmp
	adds+=(--add "$tmp/$p:/ksft/openat2/$p" --add "$tmp/ext4-$p:/ksft/openat2/ext4-$p")
done
for p in "${progs[@]}"; do runs+=("./$p"); done
for p in "${progs[@]}"; do runs+=("./ext4-$p"); done
tests/vm/vm-run --kernel "$BZIMAGE" --timeout 900 "${adds[@]}" -- \
	"cd /ksft/openat2 && $(ksft_guest_cmd "${runs[@]}")" >"$tmp/out"
status=$?
ksft_report "$tmp/out" "$status"
