#!/bin/bash
# 40-e2e.t: credbox end to end on the patched kernel, in one boot. credbox is started as root
# with the profiles of tests/vm/e2e/ and runs e2e-probe (dynamic, then static: both through
# the in-process loader) as sandbox with grants owned by drive and other:
#   granted: read, create, write, truncate in each tree, two identities in one process, new
#     files owned by each tree's identity, a read-only grant refusing writes (the kernel's
#     read-only loan: EROFS), modes, times and links (credbox_fchmodat and the rest);
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
. tests/vm/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

add=(--add tests/vm/e2e:/credbox/e2e)
[ -z "${CREDBOX_E2E_CREDBOX:-}" ] || add+=(--add "$CREDBOX_E2E_CREDBOX:/credbox/build/credbox")
vm_require_bins build/credbox build/tests/e2e/e2e-probe build/tests/e2e/e2e-probe-static \
	build/tests/e2e/e2e-drop

start=$SECONDS
tests/vm/vm-run --timeout 900 "${add[@]}" -- 'sh /credbox/e2e/guest.sh' >"$tmp/out" 2>"$tmp/err"
status=$?
echo "# one boot: $((SECONDS - start)) s, vm-run exit $status"

# Number the guest's results; everything else becomes a comment.
guest_tap "$tmp/out" "$tmp/err" @@e2e-done "$status"
