#!/bin/bash
# 50-transparent.t: transparent grants, in one boot. Programs that know nothing of credbox
# reach drive's 0700 tree through their own paths, under tests/vm/transparent/tp.ini as
# sandbox: tp-probe (dynamic and static: open, stat, access, readlink, opendir, *at calls on a
# directory fd, chdir/fchdir/getcwd, truncate, xattrs, raw syscalls, threads, its own SIGSYS
# handler and mask, fork, the exempt instruction giving its own rights only, its own execve
# done in place by the runtime (to dynamic and static programs, a #! script, GNU cat, from
# threads; the grant closed after it), denials named with the profile's line), GNU coreutils
# and python3 (os.execv too, subprocess), bash and busybox sh scripts whose commands use the
# tree. The guest script is tests/vm/transparent/guest.sh.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/vm/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

add=(--add tests/vm/transparent:/credbox/transparent)
[ ! -f /etc/ld.so.cache ] || add+=(--add /etc/ld.so.cache:/etc/ld.so.cache)
for f in cat ls cp mv rm mkdir rmdir find; do
	[ ! -x /usr/bin/$f ] || add+=(--add /usr/bin/$f:/gnu/bin/$f)
done
[ ! -x /usr/bin/python3.11 ] || add+=(--add /usr/bin/python3.11:/usr/bin/python3.11
	--add /usr/lib/python3.11/encodings:/usr/lib/python3.11/encodings
	--add /usr/lib/python3.11/os.py:/usr/lib/python3.11/os.py)
# What python's subprocess imports beside (tp-subprocess.py).
for m in _collections_abc.py _weakrefset.py abc.py codecs.py collections contextlib.py \
	copyreg.py enum.py functools.py genericpath.py keyword.py locale.py operator.py \
	posixpath.py re reprlib.py selectors.py signal.py stat.py subprocess.py threading.py \
	types.py warnings.py; do
	[ ! -e /usr/lib/python3.11/$m ] || add+=(--add /usr/lib/python3.11/$m:/usr/lib/python3.11/$m)
done
[ ! -x /bin/bash ] || add+=(--add /bin/bash:/gnu/bin/bash)
[ ! -x /usr/bin/dosbox ] || add+=(--add /usr/bin/dosbox:/usr/bin/dosbox)
vm_require_bins build/credbox build/tests/tp/tp-probe build/tests/tp/tp-probe-static

start=$SECONDS
tests/vm/vm-run --timeout 900 "${add[@]}" -- 'sh /credbox/transparent/guest.sh' \
	>"$tmp/out" 2>"$tmp/err"
status=$?
echo "# one boot: $((SECONDS - start)) s, vm-run exit $status"
guest_tap "$tmp/out" "$tmp/err" @@tp-done "$status"
