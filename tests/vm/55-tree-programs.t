#!/bin/bash
# 55-tree-programs.t: unmodified Debian programs that set modes, times and links, as sandbox on
# a transparent grant of a tree drive lends, in one boot (tests/vm/tree/guest.sh): GNU tar x of
# an archive with modes, times, a symbolic and a hard link; cp -a; python3 shutil.copy2 and
# copytree; git init, add, commit, log; touch -d; chmod +x; ln -s; ln. Each exits 0 and leaves
# what it leaves in a directory of the sandbox's own (modes, times, link targets and counts);
# on a grant with access = ro each fails with EROFS and changes nothing. A program the host
# lacks is a skip with the reason.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/vm/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

add=(--add tests/vm/tree:/credbox/tree)
[ ! -f /etc/ld.so.cache ] || add+=(--add /etc/ld.so.cache:/etc/ld.so.cache)
for f in tar cp mkdir touch chmod ln stat git; do
	[ ! -x /usr/bin/$f ] || add+=(--add /usr/bin/$f:/gnu/bin/$f)
done
[ ! -d /usr/share/git-core/templates ] ||
	add+=(--add /usr/share/git-core/templates:/usr/share/git-core/templates)
# python3.11 and the modules shutil imports (-S -I: no site), as the host's python finds them
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
vm_require_bins build/credbox

start=$SECONDS
tests/vm/vm-run --timeout 1200 "${add[@]}" -- 'sh /credbox/tree/guest.sh' \
	>"$tmp/out" 2>"$tmp/err"
status=$?
echo "# one boot: $((SECONDS - start)) s, vm-run exit $status"
guest_tap "$tmp/out" "$tmp/err" @@tree-done "$status"
