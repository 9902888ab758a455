#!/bin/bash
# redirect.t: the redirect runtime on the host's stock kernel, where a profile that denies
# execve arms it without any grant: programs run through it unharmed (every open, stat and
# signal call of ls, of a static and a dynamic tp-probe, passes through the SIGSYS handler),
# a call the profile denies is named on stderr with the profile's line and then gets the
# profile's verdict (its errno, or death by SIGSYS), and a profile that allows execve keeps
# today's filter (nothing named). Transparent grants need the patched kernel:
# tests/vm/50-transparent.t.
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
CB=$ROOT/build/credbox
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. tests/host/reach.sh
PROBE=$(reach "$ROOT/build/tests/tp/tp-probe")	# run as nobody, and so is the static one
reach "$ROOT/build/tests/tp/tp-probe-static" >/dev/null
n=0 failed=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi; }

profile() {	# profile FILE EXTRA-SECCOMP-LINE
	cat >"$1" <<-EOF2
	[program]
	command_line = program
	[identity]
	user = nobody
	group = nogroup
	[filesystem]
	ro = /usr, /bin, /lib, -/lib64, /etc, /proc, ${PROBE%/*}
	rw = /dev/null
	landlock = best-effort
	[seccomp]
	policy = allow-list
	allow = @basic-io, @file-system, @memory, @signal, @io-event, sysinfo, fadvise64
	deny = uname:ENODATA
	action = kill
	$2
	EOF2
}
profile "$TMP/armed.ini" ""
profile "$TMP/exec.ini" "allow = execve, execveat, clone, wait4, @process"
chmod 0644 "$TMP"/*.ini
chmod 0755 "$TMP"

out=$("$CB" --profile "$TMP/armed.ini" -- /bin/ls -lan /usr 2>"$TMP/err")
rc=$?
ok $([ $rc -eq 0 ] && echo "$out" | grep -q ' lib$' && [ ! -s "$TMP/err" ]; echo $?) \
	"ls -lan /usr through the runtime: exit $rc, the listing, nothing on stderr"
sed 's/^/# /' "$TMP/err"
for p in "$PROBE" "$PROBE-static"; do
	"$CB" --profile "$TMP/armed.ini" -- "$p" deny >"$TMP/out" 2>"$TMP/err"
	rc=$?
	ok $([ $rc -eq 0 ] && grep -q '^ok - uname: the profile.s errno (No data available)' "$TMP/out"; echo $?) \
		"$(basename "$p") deny: uname gets the profile's ENODATA (exit $rc)"
	ok $([ "$(cat "$TMP/err")" = "credbox: $(basename "$p") called uname, denied by $TMP/armed.ini:13 (uname:ENODATA)" ]; echo $?) \
		"$(basename "$p") deny: named on stderr with the profile's line: $(cat "$TMP/err")"
	"$CB" --profile "$TMP/armed.ini" -- "$p" kill >"$TMP/out" 2>"$TMP/err"
	rc=$?
	ok $([ $rc -eq 159 ] && ! grep -q 'still alive' "$TMP/out"; echo $?) \
		"$(basename "$p") kill: a call outside the allow-list kills by SIGSYS (status $rc)"
	ok $(grep -qx "credbox: $(basename "$p") called sethostname, not allowed by $TMP/armed.ini:11 (policy = allow-list)" "$TMP/err"; echo $?) \
		"$(basename "$p") kill: named on stderr first: $(head -1 "$TMP/err")"
done
# A denial from a drop-in is named with the drop-in's own file and line.
grep -v '^deny = uname' "$TMP/armed.ini" >"$TMP/dropin.ini"
mkdir "$TMP/dropin.d"
printf '[seccomp]\n; a local addition\ndeny = uname:ENODATA\n' >"$TMP/dropin.d/10-local.ini"
chmod 0755 "$TMP/dropin.d"; chmod 0644 "$TMP/dropin.ini" "$TMP/dropin.d/10-local.ini"
"$CB" --profile "$TMP/dropin.ini" -- "$PROBE" deny >"$TMP/out" 2>"$TMP/err"
rc=$?
ok $([ $rc -eq 0 ] && [ "$(cat "$TMP/err")" = "credbox: tp-probe called uname, denied by $TMP/dropin.d/10-local.ini:3 (uname:ENODATA)" ]; echo $?) \
	"a denial added by a drop-in names the drop-in's file and line: $(cat "$TMP/err") (exit $rc)"
# A profile that allows execve: only what it kills for traps, and is named.
"$CB" --profile "$TMP/exec.ini" -- "$PROBE" deny >"$TMP/out" 2>"$TMP/err"
rc=$?
ok $([ $rc -eq 0 ] && [ ! -s "$TMP/err" ]; echo $?) \
	"a profile that allows execve: an errno denial gets its errno, unnamed, as before"
"$CB" --profile "$TMP/exec.ini" -- "$PROBE" kill >"$TMP/out" 2>"$TMP/err"
rc=$?
ok $([ $rc -eq 159 ] && grep -q "called sethostname, not allowed by $TMP/exec.ini:11" "$TMP/err"; echo $?) \
	"a profile that allows execve: a call it kills for is named, then kills (status $rc)"
# ... and after the program's own execve, the new program (no handler) is killed as before.
"$CB" --profile "$TMP/exec.ini" -- /bin/sh -c "exec $PROBE kill" >"$TMP/out" 2>"$TMP/err"
rc=$?
ok $([ $rc -eq 159 ] && ! grep -q 'still alive' "$TMP/out" && ! grep -q called "$TMP/err"; echo $?) \
	"after an execve: a call the profile kills for still kills by SIGSYS, unnamed (status $rc)"
sed 's/^/# /' "$TMP/err"
# --check says whether the runtime is armed, and what traps.
"$CB" --profile "$TMP/armed.ini" --check >"$TMP/out" 2>&1
ok $(grep -q '^redirect runtime: armed (the program cannot execve)' "$TMP/out" &&
     grep -A1 'SIGSYS stays the runtime' "$TMP/out" | grep -q 'rt_sigaction rt_sigprocmask'; echo $?) \
	"--check: the runtime armed, rt_sigaction and rt_sigprocmask kept for it"
"$CB" --profile "$TMP/exec.ini" --check >"$TMP/out" 2>&1
ok $(grep -q '^redirect runtime: armed for the calls the profile kills for' "$TMP/out"; echo $?) \
	"--check: armed for kill denials only when execve is allowed"
echo "1..$n"
[ $failed -eq 0 ]
