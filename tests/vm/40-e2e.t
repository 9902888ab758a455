#!/bin/bash
# 40-e2e.t: credbox end to end on the patched kernel, in one boot. credbox is started as root
# with the profiles of tests/vm/e2e/ and runs e2e-probe (dynamic, then static: both through
# the in-process loader) as sandbox with grants owned by drive and other:
#   granted: read, create, write, truncate in each tree, two identities in one process, new
#     files owned by each tree's identity, a read-only grant refusing writes (Landlock);
#   refused, the process unharmed: outside every grant (Landlock), .., absolute paths,
#     symlinks out, /proc/self/fd reopen, SCM_RIGHTS, pidfd_getfd, ptrace, PR_SET_DUMPABLE,
#     execve (the grants gone in the new program), denied calls (errno, and kill);
#   another process of the sandbox's uid: pidfd_getfd, ptrace, /proc/PID/fd, process_vm_readv;
#   bad profiles and refused trees: exit 125, nothing run.
# The guest script is tests/vm/e2e/guest.sh. A kernel without the feature is the host tests'
# part (tests/host/credbox-cli.t: grants on the stock kernel exit 125, nothing run).
#
# CREDBOX_E2E_CREDBOX=FILE runs another build of credbox in the guest (debugging).
set -u
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

add=(--add tests/vm/e2e:/credbox/e2e)
[ -z "${CREDBOX_E2E_CREDBOX:-}" ] || add+=(--add "$CREDBOX_E2E_CREDBOX:/credbox/build/credbox")
for f in build/credbox build/tests/e2e/e2e-probe build/tests/e2e/e2e-probe-static \
	 build/tests/e2e/e2e-drop; do
	if [ ! -x "$f" ]; then
		echo "1..1"
		echo "not ok 1 - $f is missing (make all TEST_BINS)"
		exit 1
	fi
done

start=$SECONDS
tests/vm/vm-run --timeout 900 "${add[@]}" -- 'sh /credbox/e2e/guest.sh' >"$tmp/out" 2>"$tmp/err"
status=$?
echo "# one boot: $((SECONDS - start)) s, vm-run exit $status"

# Number the guest's results; everything else becomes a comment.
awk '
	{ sub(/\r$/, "") }
	/^ok - / { n++; print "ok " n " " substr($0, 4); next }
	/^not ok - / { n++; print "not ok " n " " substr($0, 8); next }
	/^@@e2e-done$/ { done = 1; next }
	/^#/ { print; next }
	{ print "# " $0 }
	END {
		n++
		print (done ? "ok " : "not ok ") n " - the guest script ran to its end"
		print "1.." n
	}' "$tmp/out" >"$tmp/tap"
sed 's/^/# vm-run: /' "$tmp/err" >>"$tmp/tap"
if [ "$status" -ne 0 ]; then
	# A kernel report or a dead guest: one more failure, and the plan grows with it.
	n=$(sed -n 's/^1\.\.//p' "$tmp/tap")
	sed -i '/^1\.\./d' "$tmp/tap"
	echo "not ok $((n + 1)) - vm-run exit status $status (kernel report, timeout or guest failure)" \
		>>"$tmp/tap"
	echo "1..$((n + 1))" >>"$tmp/tap"
fi
cat "$tmp/tap"
! grep -q '^not ok' "$tmp/tap"
