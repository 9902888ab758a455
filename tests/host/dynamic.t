#!/bin/bash
# dynamic.t: user = dynamic:FIRST-LAST, a fresh uid for each run from a range reserved for
# credbox, on the host. The run takes the lowest uid of the range that no process has and no
# other run holds; the profile may leave nothing for the next run given that uid (no writable
# directory outside its grants, no keyring or IPC call, Landlock present), and an account in
# the range stops it. An ID-mapped grant maps its owner to the uid taken.
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
CB=$ROOT/build/credbox
PROBE=$ROOT/build/tests/host/idmap-probe
NOLL=$ROOT/build/tests/host/nolandlock
. tests/host/built.sh
built "$CB" "$PROBE" "$NOLL"
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP a run takes its uid as root"
	exit 0
fi
n=0 bad=0
ok() {	# ok STATUS DESCRIPTION [DIAGNOSTIC FILE]
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		bad=$((bad + 1))
		echo "not ok $n - $2"
		[ -n "${3:-}" ] && [ -f "$3" ] && sed 's/^/# /' "$3"
	fi
}

R=601000	# the range: R .. R+3; nothing else on these machines uses it
T=$(mktemp -d /tmp/credbox-dynamic-XXXXXX) || exit 1
cleanup() {
	for u in $R $((R + 1)) $((R + 2)) $((R + 3)); do
		for p in $("$PROBE" pids $u); do kill -KILL "$p" 2>/dev/null; done
	done
	rm -rf "$T"
}
trap cleanup EXIT
[ -n "${KEEP:-}" ] && trap - EXIT
chmod 755 "$T"
mkdir -p "$T/home/o/drive" "$T/w"
printf 'data\n' >"$T/home/o/drive/file"
chown -R 4242:4242 "$T/home/o"
chmod 700 "$T/home/o" "$T/home/o/drive"

profile() {	# profile FILE RANGE [EXTRA-LINES]
	cat >"$1" <<EOI
[program]
command_line = program

[identity]
user = dynamic:$2

[filesystem]
ro = -/usr, -/lib, -/lib64, -/bin, /etc, /proc
rw = /dev/null

[seccomp]
policy = deny-list
deny = @keyring, shmget, semget, msgget, mq_open
${3:-}
EOI
}
run() {	# run PROFILE PROGRAM...: its stdout in $T/o, stderr in $T/e, status in $rc
	p=$1
	shift
	"$CB" --profile "$p" -- "$@" >"$T/o" 2>"$T/e"
	rc=$?
}

profile "$T/d.ini" $R-$((R + 3))
run "$T/d.ini" /bin/sh -c 'echo $(id -u) $(id -g) $(id -G)'
ok $([ $rc -eq 0 ] && [ "$(cat "$T/o")" = "$R $R $R" ]; echo $?) \
	"the lowest uid of the range, its number as the gid, no other group" "$T/e"

setpriv --reuid=$R --regid=$R --clear-groups sleep 30 &
sleeper=$!
sleep 0.3
run "$T/d.ini" /usr/bin/id -u
ok $([ $rc -eq 0 ] && [ "$(cat "$T/o")" = $((R + 1)) ]; echo $?) \
	"a uid some process has is passed over: the next" "$T/e"

"$CB" --profile "$T/d.ini" -- /bin/sleep 30 >/dev/null 2>&1 &
holder=$!
sleep 0.5
run "$T/d.ini" /usr/bin/id -u
ok $([ $rc -eq 0 ] && [ "$(cat "$T/o")" = $((R + 2)) ]; echo $?) \
	"a uid another run has is passed over: two runs never share one" "$T/e"

profile "$T/one.ini" $R-$((R + 1))
run "$T/one.ini" /bin/true
ok $([ $rc -eq 125 ] && grep -q "every uid of $R-$((R + 1)) is held by a run or used by a process" "$T/e"; echo $?) \
	"every uid of the range in use: 125, and why" "$T/e"
{ kill -KILL $sleeper $holder; wait $sleeper $holder; } 2>/dev/null
wait $sleeper $holder 2>/dev/null
for p in $("$PROBE" pids $((R + 1))); do kill -KILL "$p"; done
sleep 0.3
run "$T/d.ini" /usr/bin/id -u
ok $([ $rc -eq 0 ] && [ "$(cat "$T/o")" = $R ]; echo $?) \
	"once they have ended, the lowest is taken again" "$T/e"

# What would keep something of a run for the next given the same uid, or is not the range's.
line=$(awk -F: '$3 > 0 && $3 < 65534 { print $3; exit }' /etc/passwd)
profile "$T/acct.ini" "$line-$line"
run "$T/acct.ini" /bin/true
ok $([ $rc -eq 125 ] && grep -q "uid $line of the dynamic range has an account" "$T/e"; echo $?) \
	"a uid of the range with an account (uid $line): 125" "$T/e"
profile "$T/rw.ini" $R-$((R + 3))
sed -i "s#^rw = /dev/null#rw = /dev/null, $T/w#" "$T/rw.ini"
run "$T/rw.ini" /bin/true
ok $([ $rc -eq 125 ] && grep -q "rw = $T/w: a directory a dynamic user may write" "$T/e"; echo $?) \
	"a writable directory outside the grants: 125" "$T/e"
profile "$T/key.ini" $R-$((R + 3))
sed -i 's/^deny = .*/deny = shmget, semget, msgget, mq_open/' "$T/key.ini"
run "$T/key.ini" /bin/true
ok $([ $rc -eq 125 ] && grep -q "allows add_key, whose keys" "$T/e"; echo $?) \
	"the keyring allowed: 125" "$T/e"
profile "$T/ll.ini" $R-$((R + 3))
sed -i 's#^rw = /dev/null$#&\nlandlock = best-effort#' "$T/ll.ini"
"$NOLL" "$CB" --profile "$T/ll.ini" -- /bin/true >"$T/o" 2>"$T/e"
rc=$?
ok $([ $rc -eq 125 ] && grep -q "user = dynamic: no Landlock here" "$T/e"; echo $?) \
	"no Landlock, even with landlock = best-effort: 125" "$T/e"

# An ID-mapped grant: its owner's files are the uid taken's through the mount.
profile "$T/map.ini" $R-$((R + 3)) "
[dir drive]
path = $T/home/o/drive
owner = 4242
group = 4242
access = rw
method = idmap"
setpriv --reuid=$R --regid=$R --clear-groups sleep 30 &
sleeper=$!
sleep 0.3
run "$T/map.ini" /bin/sh -c "id -u; cat $T/home/o/drive/file; stat -c %u $T/home/o/drive/file"
{ kill -KILL $sleeper; wait $sleeper; } 2>/dev/null
wait $sleeper 2>/dev/null
ok $([ $rc -eq 0 ] && [ "$(tr '\n' ' ' <"$T/o")" = "$((R + 1)) data $((R + 1)) " ]; echo $?) \
	"an ID-mapped grant maps its owner to the uid taken ($((R + 1)))" "$T/e"
[ $rc -eq 0 ] || sed 's/^/# out: /' "$T/o"
ok $([ "$(stat -c %u "$T/home/o/drive/file")" = 4242 ]; echo $?) "its files stay the owner's on disk"

echo "1..$n"
[ $bad -eq 0 ]
