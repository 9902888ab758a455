#!/bin/bash
# limits.t: [limits] as the program finds them (its shell's ulimit): soft and hard limits as
# the profile says, a hard limit raised above the caller's (set while root), core dumps off
# when the profile says nothing, whatever the caller allowed; a nofile the kernel would refuse
# stops the run before any change, on its line, and --check says the same. The fork bomb and
# the memory hog that the machine survives: tests/vm/60-limits.t.
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
CB=$ROOT/build/credbox
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
n=0 failed=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi; }

# profile NAME [LIMITS...]: conf/minimal.ini with a [limits] section of LIMITS, at $TMP/NAME.ini.
profile() {
	local name=$1
	shift
	{ cat conf/minimal.ini; [ $# -eq 0 ] || printf '[limits]\n'; printf '%s\n' "$@"; } \
		>"$TMP/$name.ini"
}
ULIMITS='for o in t f c v n p; do printf "%s %s %s\n" $o $(ulimit -S$o) $(ulimit -H$o); done'

profile all 'nproc = 64' 'as = 512M' 'fsize = 1M:2M' 'nofile = 256:1024' 'cpu = 10:20' 'core = 1M'
"$CB" --profile "$TMP/all.ini" -- /bin/sh -c "$ULIMITS" >"$TMP/out" 2>&1
# dash's units: f and c in blocks of 512 bytes, v in KiB
diff -u - "$TMP/out" >"$TMP/diff" <<'EOF'
t 10 20
f 2048 4096
c 2048 2048
v 524288 524288
n 256 1024
p 64 64
EOF
ok $? "every key of [limits]: the program's soft and hard limits (cpu, fsize, core, as, nofile, nproc)"
sed 's/^/# /' "$TMP/diff"

# A hard limit above the caller's: root raises it, unless it lacks CAP_SYS_RESOURCE (a
# container's root may): then the run stops before any change, and says why.
profile raise 'nofile = 4096'
prlimit --nofile=64:64 "$CB" --profile "$TMP/raise.ini" -- /bin/sh -c 'ulimit -Sn; ulimit -Hn' \
	>"$TMP/out" 2>&1
rc=$?
if prlimit --nofile=64:64 sh -c 'ulimit -Hn 65' 2>/dev/null; then
	ok $([ $rc -eq 0 ] && [ "$(tr '\n' ' ' <"$TMP/out")" = "4096 4096 " ]; echo $?) \
		"a hard limit above the caller's (64): raised, credbox sets it while root ($(tr '\n' ' ' <"$TMP/out"))"
else
	line=$(grep -n '^nofile' "$TMP/raise.ini" | cut -d: -f1)
	ok $([ $rc -eq 125 ] && [ "$(cat "$TMP/out")" = "$TMP/raise.ini:$line: [limits] nofile: 4096 is above the caller's hard limit (64), which only CAP_SYS_RESOURCE may raise, and credbox does not have it
hint: lower it, or raise the caller's hard limit (ulimit -H)" ]; echo $?) \
		"a hard limit above the caller's (64), root without CAP_SYS_RESOURCE here: 125 before any change, why and the fix (got $rc)"
	sed 's/^/# /' "$TMP/out"
fi

profile none
prlimit --core=unlimited --nofile=100:200 "$CB" --profile "$TMP/none.ini" -- \
	/bin/sh -c 'ulimit -Sc; ulimit -Hc; ulimit -Sn; ulimit -Hn' >"$TMP/out" 2>&1
ok $([ "$(tr '\n' ' ' <"$TMP/out")" = "0 0 100 200 " ]; echo $?) \
	"no [limits]: no core dumps though the caller allows them; the caller's other limits ($(tr '\n' ' ' <"$TMP/out"))"

nr_open=$(cat /proc/sys/fs/nr_open)
profile toomany "nofile = $((nr_open + 1))"
"$CB" --profile "$TMP/toomany.ini" -- /bin/sh -c 'echo RAN' >"$TMP/out" 2>"$TMP/err"; rc=$?
line=$(grep -n '^nofile' "$TMP/toomany.ini" | cut -d: -f1)
cat >"$TMP/want" <<EOF
$TMP/toomany.ini:$line: [limits] nofile: $((nr_open + 1)) is above the kernel's limit on open files, fs.nr_open ($nr_open)
hint: lower it, or raise sysctl fs.nr_open
EOF
ok $([ $rc -eq 125 ] && ! grep -q RAN "$TMP/out" && cmp -s "$TMP/want" "$TMP/err"; echo $?) \
	"nofile above fs.nr_open: 125 before anything runs, the line, the fix (got $rc)"
sed 's/^/# /' "$TMP/err"
"$CB" --profile "$TMP/toomany.ini" --check -- /bin/true >"$TMP/out" 2>"$TMP/err"; rc=$?
ok $([ $rc -eq 125 ] && cmp -s "$TMP/want" "$TMP/err"; echo $?) "... and --check says so (got $rc)"

echo "1..$n"
[ $failed -eq 0 ]
