#!/bin/bash
# lifetime.t: the program never outlives the process that started credbox (die_with_parent,
# as bwrap's --die-with-parent): SIGKILL of that process ends it, in place and when credbox
# forked for a session of its own (then also SIGKILL of credbox's waiting parent); a caller
# that ended before credbox could ask for the signal is caught, not missed; and
# die_with_parent = no lets the program live on.
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
CB=$ROOT/build/credbox
TMP=$(mktemp -d)
n=0 failed=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
left=()
cleanup() { kill -9 "${left[@]}" 2>/dev/null; rm -rf "$TMP"; }
trap cleanup EXIT

# profile NAME KEYS...: conf/minimal.ini with KEYS added to [program], at $TMP/NAME.ini.
profile() {
	local name=$1
	shift
	{ printf '[program]\ncommand_line = program\n'; printf '%s\n' "$@"
	  sed '1,/^command_line/d' conf/minimal.ini; } >"$TMP/$name.ini"
}
profile inplace
profile session 'new_session = yes'
profile keep 'die_with_parent = no'

# uid_of PID: the real uid of PID, or nothing once it is gone (a zombie has none either).
uid_of() { awk '/^Uid:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }
# gone PID: 0 when PID ended within 5 s.
gone() {
	local i
	for i in $(seq 50); do
		[ -z "$(uid_of "$1")" ] && return 0
		sleep 0.1
	done
	return 1
}
# running PID: wait until PID runs as nobody (privileges dropped), at most 5 s.
running() {
	local i
	for i in $(seq 50); do
		[ "$(uid_of "$1")" = 65534 ] && return 0
		sleep 0.1
	done
	return 1
}

# start_inplace PROFILE: credbox in place (the program is credbox's process) started by a shell
# that waits for it: sets caller (the shell) and prog, and waits for the program to run.
start_inplace() {
	sh -c '"$1" --profile "$2" -- /bin/sleep 1000 & echo $! >"$3"; wait' sh "$CB" "$1" \
		"$TMP/pid" &
	caller=$!
	sleep 0.3
	prog=$(cat "$TMP/pid")
	left+=("$prog")
	running "$prog"
}

# ---- in place: SIGKILL of the shell that started credbox -------------------------------------
start_inplace "$TMP/inplace.ini"; r=$?
kill -9 "$caller"; wait "$caller" 2>/dev/null
gone "$prog"; r2=$?
ok $([ $r -eq 0 ] && [ $r2 -eq 0 ]; echo $?) "SIGKILL of credbox's caller ends the program (in place, pid $prog)"

# ---- die_with_parent = no: the same program lives on (the control of the test above) ----------
start_inplace "$TMP/keep.ini"; r=$?
kill -9 "$caller"; wait "$caller" 2>/dev/null
sleep 1
ok $([ $r -eq 0 ] && [ "$(uid_of "$prog")" = 65534 ]; echo $?) \
	"die_with_parent = no: the program outlives credbox's caller"
kill -9 "$prog" 2>/dev/null

# ---- a session of its own, credbox a process group leader: it forks, the child runs it -------
# start_session: credbox as a job of an interactive shell (its own process group), its caller
# perl; sets caller, cb (credbox's waiting parent) and prog (the program, cb's child).
start_session() {
	perl -e 'my $p = fork; if (!$p) { setpgrp(0, 0); exec @ARGV; exit 127 }
		 open(my $f, ">", $ENV{PIDFILE}); print $f "$p\n"; close $f; waitpid($p, 0)' \
		-- "$CB" --profile "$TMP/session.ini" -- /bin/sleep 1000 &
	caller=$!
	sleep 0.3
	cb=$(cat "$TMP/pid")
	prog=
	for i in $(seq 50); do
		prog=$(cat "/proc/$cb/task/$cb/children" 2>/dev/null | awk '{ print $1 }')
		[ -n "$prog" ] && break
		sleep 0.1
	done
	left+=("$cb" "$prog")
}
export PIDFILE=$TMP/pid
start_session
running "$prog"; r=$?
kill -9 "$cb"
gone "$prog"; r2=$?
ok $([ -n "$prog" ] && [ $r -eq 0 ] && [ $r2 -eq 0 ]; echo $?) \
	"new session: SIGKILL of credbox's waiting parent ends the program (pid ${prog:-none})"
wait "$caller" 2>/dev/null
start_session
running "$prog"; r=$?
kill -9 "$caller"; wait "$caller" 2>/dev/null
gone "$cb"; r1=$?
gone "$prog"; r2=$?
ok $([ -n "$prog" ] && [ $r -eq 0 ] && [ $r1 -eq 0 ] && [ $r2 -eq 0 ]; echo $?) \
	"new session: SIGKILL of credbox's caller ends credbox's parent and the program"

# ---- the race: the caller ends after credbox read its pid, before the signal was asked for ---
# strace holds credbox's first getppid() (in main) for 3 s; the caller is killed meanwhile. A
# signal asked for after that would never come: credbox must see that getppid() changed.
if strace -D -qq -o /dev/null -e trace=getppid -e inject=getppid:delay_exit=1000:when=1 \
	true 2>/dev/null; then
	sh -c 'strace -D -qq -o /dev/null -e trace=getppid \
		-e inject=getppid:delay_exit=3000000:when=1 \
		"$1" --profile "$2" -- /bin/sleep 1000 2>"$4" & echo $! >"$3"; wait' \
		sh "$CB" "$TMP/inplace.ini" "$TMP/pid" "$TMP/err" &
	caller=$!
	sleep 1
	prog=$(cat "$TMP/pid")
	left+=("$prog")
	kill -9 "$caller"; wait "$caller" 2>/dev/null
	sleep 3
	gone "$prog"; r=$?
	ok $([ $r -eq 0 ] && grep -q 'the process that started credbox (pid [0-9]*) ended: the program does not outlive it' "$TMP/err"; echo $?) \
		"a caller that ended before the signal was set: credbox sees it and stops (125), no program left"
	sed 's/^/# /' "$TMP/err"
else
	skip "a caller that ended before the signal was set" "strace cannot inject delays here"
fi

echo "1..$n"
[ $failed -eq 0 ]
