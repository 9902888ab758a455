#!/bin/bash
# bench-peers.t: the driver of make bench-peers (build/tests/host/peers-bench), in a few rounds:
# a table of every command that runs, the yardstick's ratio 1.00, a command that cannot run
# here skipped with its status instead of stopping the others, and a usage error for no command.
# The figures themselves are the README's ("Benchmarks"), not a test's.
cd "$(dirname "$0")/../.." || exit 1
PB=build/tests/host/peers-bench
n=0 failed=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi; }

out=$("$PB" 3 "true=/bin/true" "cb=build/credbox --profile conf/minimal.ini -- /bin/true" \
	"gone=/bin/false" 2>&1); rc=$?
ok $rc "three commands, one of which fails, three rounds: exit 0"
ok $(grep -q '^skip gone: it does not run here (status 0x100): /bin/false$' <<<"$out"; echo $?) \
	"the failing one is skipped with its status"
ok $(grep -qE '^true +[0-9]+ +[0-9]+ +1\.00 +[0-9]+ +1\.00  /bin/true$' <<<"$out"; echo $?) \
	"the yardstick's row: ratio 1.00, in wall and CPU time"
ok $(grep -qE '^cb +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9]+ +[0-9.]+  build/credbox --profile' <<<"$out"
     echo $?) "credbox's row"
ok $(! grep -q '^gone ' <<<"$out"; echo $?) "no row for the skipped one"
"$PB" 3 >/dev/null 2>&1
ok $([ $? -eq 2 ]; echo $?) "no command: usage, exit 2"
"$PB" 3 "no=/bin/false" "true=/bin/true" >/dev/null 2>&1
ok $([ $? -eq 1 ]; echo $?) "a yardstick that fails stops the run (exit 1)"
sed 's/^/# /' <<<"$out"
echo "1..$n"
[ $failed -eq 0 ]
