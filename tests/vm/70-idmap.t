#!/bin/bash
# 70-idmap.t: grants through ID-mapped mounts (method = idmap, auto) in the guest, booted on the
# kernel built WITHOUT the series (build-kernel --baseline: what a stock kernel gives), in one
# boot: tests/host/idmap-suite.sh on tmpfs and on ext4 (a hostile program's attempts, each
# condition refused), and the unmodified programs of 55-tree-programs.t (tar, cp -a, python3
# shutil, git, touch, chmod, ln) on ID-mapped grants of drive's, on both; Debian's DOSBox
# session of 50-transparent.t on an ID-mapped drive. The guest script is
# tests/vm/idmap/guest.sh.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/vm/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

CREDBOX_KERNEL_ARGS=--baseline vm_kernel_env
if [ ! -f "$BZIMAGE" ]; then
	echo "1..1"
	echo "not ok 1 - the kernel without the series is built ($BZIMAGE: make kernel builds it)"
	exit 1
fi
add=(--add tests/vm/idmap:/credbox/idmap --add tests/host/idmap-suite.sh:/credbox/idmap/idmap-suite.sh
     --add tests/vm/tree:/credbox/tree --add tests/vm/transparent:/credbox/transparent)
[ ! -x /usr/bin/dosbox ] || add+=(--add /usr/bin/dosbox:/usr/bin/dosbox)
[ ! -f /etc/ld.so.cache ] || add+=(--add /etc/ld.so.cache:/etc/ld.so.cache)
for f in tar cp mkdir touch chmod ln stat git; do
	[ ! -x /usr/bin/$f ] || add+=(--add /usr/bin/$f:/gnu/bin/$f)
done
[ ! -d /usr/share/git-core/templates ] ||
	add+=(--add /usr/share/git-core/templates:/usr/share/git-core/templates)
if [ -x /usr/bin/python3.11 ]; then
	add+=(--add /usr/bin/python3.11:/usr/bin/python3.11)
	while read -r m; do
		add+=(--add "$m:$m")
	done < <(/usr/bin/python3.11 -S -I -c 'if 1:
		import shutil, sys
		for m in list(sys.modules.values()):
			f = getattr(m, "__file__", None)
			if f:
				print(f)')
fi
vm_require_bins build/credbox build/tests/host/idmap-probe

start=$SECONDS
tests/vm/vm-run --timeout 1200 --kernel "$BZIMAGE" "${add[@]}" -- 'sh /credbox/idmap/guest.sh' \
	>"$tmp/out" 2>"$tmp/err"
status=$?
echo "# one boot on $BZIMAGE: $((SECONDS - start)) s, vm-run exit $status"
guest_tap "$tmp/out" "$tmp/err" @@idmap-vm-done "$status"
