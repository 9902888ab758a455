#!/bin/bash
# newcomer.t: what a new user meets first. The README's two commands install the Debian
# packages they need themselves (tests/deps, checked with stand-ins for dpkg-query and
# apt-get); a test that needs files from outside the repository (v6's selftests, from the
# seed patches) reports a SKIP with the reason where they are absent; tests/tap-run ends with
# the one line "N passed, N failed" and lists what was skipped before it.
cd "$(dirname "$0")/../.." || exit 1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
n=0 failed=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi; }

# ---- make run and make check install what is missing before they build anything -----------
# make run, the first command, installs only what it needs (tests/deps kernel, then tests/deps
# run while the kernel builds): no test tools
for goal in run check check-host; do
	first=$(env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -n "$goal" 2>/dev/null | head -n 1)
	want="tests/deps install"
	[ "$goal" != run ] || want="tests/deps kernel"
	ok $([ "$first" = "$want" ]; echo $?) \
		"make $goal installs the packages first (first command: ${first:-none})"
done
grep -q '^    make run ' README.md && grep -q '^    make check ' README.md
ok $? "the README's two commands are make run and make check"

# ---- tests/deps on a machine that has none of the packages -----------------------------------
mkdir "$TMP/bin"
cat >"$TMP/bin/dpkg-query" <<'EOF_FAKE'
#!/bin/sh
exit 1
EOF_FAKE
cat >"$TMP/bin/apt-get" <<EOF_FAKE
#!/bin/sh
echo "\$DEBIAN_FRONTEND \$*" >>"$TMP/apt.log"
[ -t 0 ] && echo "stdin is a terminal" >>"$TMP/apt.log"
exit 0
EOF_FAKE
chmod +x "$TMP/bin/"*
PATH=$TMP/bin:$PATH tests/deps --check 2>"$TMP/err"; rc=$?
ok $([ $rc -eq 1 ] && grep -q 'missing: .*libseccomp-dev' "$TMP/err"; echo $?) \
	"tests/deps --check names what is missing, exit 1 (got $rc)"
PATH=$TMP/bin:$PATH tests/deps install 2>/dev/null; rc=$?
want=$(tests/deps --list | tr '\n' ' ')
ok $([ $rc -eq 0 ] && [ "$(sed -n 1p "$TMP/apt.log")" = "noninteractive update -qq" ] &&
     [ "$(sed -n 2p "$TMP/apt.log")" = "noninteractive install -y -qq --no-install-recommends ${want% }" ] &&
     [ "$(wc -l <"$TMP/apt.log")" -eq 2 ]; echo $?) \
	"tests/deps installs every package, non-interactively, without a terminal"
sed 's/^/# apt-get: /' "$TMP/apt.log"
for p in make pkg-config libseccomp-dev qemu-system-x86 linux-source-6.12; do
	tests/deps --list | grep -qx -- "$p"; ok $? "tests/deps installs $p"
done
: >"$TMP/apt.log"
PATH=$TMP/bin:$PATH tests/deps run 2>/dev/null; rc=$?
run_list=$(sed -n 2p "$TMP/apt.log")
ok $([ $rc -eq 0 ] && for p in make libseccomp-dev linux-source-6.12 qemu-system-x86 \
	busybox-static dosbox; do echo "$run_list" | grep -qw -- "$p" || exit 1; done &&
	! echo "$run_list" | grep -qw -e clang -e mandoc -e strace; echo $?) \
	"tests/deps run installs the build's, the kernel's, the VM's and the demo's packages, not the test tools"
: >"$TMP/apt.log"
PATH=$TMP/bin:$PATH tests/deps kernel 2>/dev/null; rc=$?
kernel_list=$(sed -n 2p "$TMP/apt.log")
ok $([ $rc -eq 0 ] && for p in make bc flex libelf-dev linux-source-6.12; do
	echo "$kernel_list" | grep -qw -- "$p" || exit 1; done &&
	! echo "$kernel_list" | grep -qw -e qemu-system-x86 -e dosbox -e clang; echo $?) \
	"tests/deps kernel installs what build-kernel needs, and not the VM's or the demo's packages"
first=$(env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -n _run-programs 2>/dev/null | head -n 1)
ok $([ "$first" = "tests/deps run" ]; echo $?) \
	"make run installs the rest of its packages beside the kernel build (first command: ${first:-none})"

# ---- a test needing the seed patches skips without them --------------------------------------
mkdir "$TMP/noseeds"
CREDBOX_SEEDS=$TMP/noseeds timeout 60 tests/vm/20-v6-selftests.t >"$TMP/out" 2>&1; rc=$?
ok $([ $rc -eq 0 ] && grep -q "^ok 1 - .*# SKIP .*$TMP/noseeds" "$TMP/out" &&
     [ "$(tail -n 1 "$TMP/out")" = 1..1 ]; echo $?) \
	"20-v6-selftests.t without the seeds: one SKIP naming where it looked, exit 0 (got $rc)"
sed 's/^/# /' "$TMP/out"

# ---- tap-run's last line ----------------------------------------------------------------------
printf '#!/bin/sh\necho "ok 1 - here"\necho "ok 2 - there # SKIP not here"\necho 1..2\n' \
	>"$TMP/fake.t"
chmod +x "$TMP/fake.t"
tests/tap-run "$TMP/fake.t" >"$TMP/out"; rc=$?
ok $([ $rc -eq 0 ] && [ "$(tail -n 1 "$TMP/out")" = "1 passed, 0 failed" ] &&
     [ "$(tail -n 2 "$TMP/out" | head -n 1)" = "# 1 skipped" ] &&
     grep -q "^# skipped: .*fake.t: there (not here)$" "$TMP/out"; echo $?) \
	"tap-run ends \"N passed, N failed\", with the skips listed before"
sed 's/^/#   /' "$TMP/out"

echo "1..$n"
[ $failed -eq 0 ]
