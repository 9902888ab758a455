#!/bin/bash
# 20-v6-selftests.t: v6's own selftests (cred_allow.c from seed patch 005,
# cred_inherit.c from 006) against our kernel. Their source is taken from the
# seed patches at test time, never copied into this repository, and compiled
# unchanged but for O_CRED_ALLOW, whose v6 value cannot be used on 6.12 and is
# given on the command line. Seeds: ${CREDBOX_SEEDS:-<repo>/../shared/seeds}.
#
# On a kernel without the series (CREDBOX_KERNEL_ARGS=--baseline) they fail,
# as they must: the uapi checks and 9 of v6's results.
#
# The seeds are not part of the repository: where neither patch is found (a clone on its own),
# the test reports one SKIP with the reason and boots nothing; where one is missing, it fails.
set -u
cd "$(dirname "$0")/../.."
. tests/vm/lib.sh
seeds=${CREDBOX_SEEDS:-$VM_REPO/../shared/seeds}
if ! ls "$seeds"/005-*.patch >/dev/null 2>&1 && ! ls "$seeds"/006-*.patch >/dev/null 2>&1; then
	echo "ok 1 - v6's selftests # SKIP no seed patches 005-*.patch, 006-*.patch in $seeds" \
		"(set CREDBOX_SEEDS to their directory)"
	echo "1..1"
	exit 0
fi
vm_test_init
sel=$KSRC/tools/testing/selftests
n=0

# name patch-glob path-in-patch include-dir [extra sources]
build() {
	local name=$1 glob=$2 src=$3 inc=$4 patch
	shift 4
	patch=$(ls "$seeds"/$glob 2>/dev/null | head -n 1)
	if [ -z "$patch" ]; then
		echo "# no seed patch $seeds/$glob"
		return 1
	fi
	if ! extract_new_file "$patch" "$src" >"$tmp/$name.c"; then
		echo "# $patch does not create $src"
		return 1
	fi
	ksft_cc "$tmp/$name" -DO_CRED_ALLOW=0400000000 -I "$inc" "$tmp/$name.c" "$@" \
		2>"$tmp/cc.err" || { sed 's/^/# /' "$tmp/cc.err"; return 1; }
}

result() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

grep -rqw O_CRED_ALLOW "$KHDR/asm-generic/fcntl.h" "$KHDR/linux" 2>/dev/null
result $? "the kernel's uapi headers define O_CRED_ALLOW ($KHDR)"
grep -rqw OA2_CRED_INHERIT "$KHDR/linux/openat2.h" 2>/dev/null
result $? "the kernel's uapi headers define OA2_CRED_INHERIT"

build cred_allow '005-*.patch' tools/testing/selftests/core/cred_allow.c "$sel/core"
result $? "extract and build v6's cred_allow.c"
build cred_inherit '006-*.patch' tools/testing/selftests/openat2/cred_inherit.c "$sel/openat2" \
	"$sel/openat2/helpers.c"
result $? "extract and build v6's cred_inherit.c"
if [ ! -x "$tmp/cred_allow" ] || [ ! -x "$tmp/cred_inherit" ]; then
	echo "1..$n"
	exit 1
fi

tests/vm/vm-run --kernel "$BZIMAGE" --timeout 600 \
	--add "$tmp/cred_allow:/ksft/v6/cred_allow" --add "$tmp/cred_inherit:/ksft/v6/cred_inherit" \
	-- "cd /ksft/v6 && $(ksft_guest_cmd ./cred_allow ./cred_inherit)" >"$tmp/out"
status=$?
ksft_report "$tmp/out" "$status" "$n"
