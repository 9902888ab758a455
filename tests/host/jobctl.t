#!/bin/bash
# jobctl.t: credbox in an interactive shell's job, on a real terminal (a pseudo-terminal that
# pty-drive types into, as a user would): Control-C and Control-Z reach the program in a
# pipeline, the prompt comes back at once; the program keeps the controlling terminal, and
# TIOCSTI on it is still denied.
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
CB=$ROOT/build/credbox
DRIVE=$ROOT/build/tests/host/pty-drive
P=$ROOT/tests/host/profiles
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. tests/host/reach.sh
PROBE=$(reach "$ROOT/build/tests/host/sysprobe")	# run as nobody
n=0 failed=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi; }

# shell SCRIPT: an interactive bash on a new terminal, driven by SCRIPT (pty-drive's steps);
# what the terminal showed is in $TMP/screen. The markers the tests wait for are printed by
# the programs ("ready-A" from "ready-$0"), never in the command lines the terminal echoes.
shell() {
	printf '%s\n' "$1" | CB=$CB PROBE=$PROBE P=$P PS1='$ ' \
		"$DRIVE" -t 10 -- bash --norc --noprofile -i >"$TMP/screen" 2>"$TMP/drive"
}
show() { tr -d '\r' <"$TMP/screen" | sed 's/^/# /'; sed 's/^/# /' "$TMP/drive"; }

# ---- Control-C: the program, in a pipeline, is interrupted; the prompt comes back -----------
start=$SECONDS
shell 'expect $ 
send true | "$CB" --profile conf/minimal.ini -- /bin/sh -c '"'"'trap "echo got-int-$0; exit 7" INT; echo ready-$0; while sleep 0.1; do :; done'"'"' A; echo "status-${PIPESTATUS[1]}"\n
expect ready-A
send \x03
expect got-int-A
expect status-7
expect $ 
send exit\n'
rc=$?
ok $([ $rc -eq 0 ] && [ $((SECONDS - start)) -lt 10 ]; echo $?) \
	"Control-C in a pipeline reaches the program, which ends (status 7 from its trap), and the prompt comes back"
[ $rc -eq 0 ] || show

# ---- Control-Z: the job stops, program and all; fg resumes it, Control-C ends it -------------
# (perl, which forks nothing: a shell's loop could be stopped between vfork and exec, and a
# job with a process that cannot stop never counts as stopped)
shell 'expect $ 
send true | "$CB" --profile conf/minimal.ini -- /usr/bin/perl -e '"'"'$| = 1; $SIG{CONT} = sub { print "cont-", 6 * 7, $/ }; print "ready-", 6 * 7, $/; sleep 1 while 1'"'"'\n
expect ready-42
send \x1a
expect Stopped
expect $ 
send fg >/dev/null\n
expect cont-42
send \x03
expect $ 
send echo "after-fg-$?"\n
expect after-fg-130
send exit\n'
rc=$?
ok $rc "Control-Z stops the job with the program in it (the shell says Stopped); fg resumes it (SIGCONT), Control-C ends it (130)"
[ $rc -eq 0 ] || show

# ---- the terminal stays the program's, TIOCSTI on it denied ---------------------------------
shell 'expect $ 
send "$CB" --profile "$P/probe-terminal.ini" -- "$PROBE" | sed "s/^/probe-/"\n
expect probe-tiocsti
expect $ 
send exit\n'
rc=$?
tr -d '\r' <"$TMP/screen" >"$TMP/probe"
ok $([ $rc -eq 0 ] && grep -qx 'probe-tty controlling' "$TMP/probe"; echo $?) \
	"the program keeps the shell's terminal as its controlling terminal"
ok $([ $rc -eq 0 ] && grep -qx 'probe-tiocsti EPERM' "$TMP/probe"; echo $?) \
	"TIOCSTI on that terminal is denied (EPERM, the always-denied filter)"
[ $rc -eq 0 ] && grep -qx 'probe-tiocsti EPERM' "$TMP/probe" || show

echo "1..$n"
[ $failed -eq 0 ]
