#!/bin/sh
# guest.sh: the guest side of tests/vm/60-limits.t (busybox sh, run as root in one boot).
# Prints "ok - WHAT" / "not ok - WHAT" lines (the .t numbers them) and "# " comments; the
# last line is "@@limits-done".
CB=/credbox/build/credbox
L=/credbox/build/tests/limits
P=/credbox/limits
T=/tmp/limits
mkdir -p $T

ok() { if [ "$1" -eq 0 ]; then echo "ok - $2"; else echo "not ok - $2"; fi; }
relay() { sed 's/^/# /' "$1"; }
# sandboxed: the processes of uid sandbox (1002) now
sandboxed() { grep -l '^Uid:[[:space:]]*1002[[:space:]]' /proc/[0-9]*/status 2>/dev/null | wc -l; }

# ---- a fork bomb: every process forks, for 5 s; nproc = 32 for the uid ----------------------
$CB --profile $P/limits.ini -- $L/bomb 5 1000 >$T/out 2>&1
rc=$?
relay $T/out
set -- $(sed -n 's/^forked \([0-9]*\), refused \([0-9]*\) .*/\1 \2/p' $T/out)
forked=${1:-9999} refused=${2:-0}
ok $([ $rc -eq 0 ] && [ "$forked" -lt 32 ] && [ "$refused" -gt 0 ]; echo $?) \
	"a fork bomb under nproc = 32: $forked forks, then EAGAIN ($refused times); it ends by itself"
ok $([ "$(sandboxed)" -eq 0 ]; echo $?) "no process of sandbox is left"
$CB --profile $P/limits.ini -- /bin/sh -c 'echo alive' >$T/out 2>&1
ok $([ "$(cat $T/out)" = alive ]; echo $?) "after the bomb the machine runs new programs, credbox too"

# ---- a memory hog: as = 128M ---------------------------------------------------------------
$CB --profile $P/limits.ini -- $L/hog 600 >$T/out 2>&1
rc=$?
relay $T/out
got=$(sed -n 's/^got \([0-9]*\) MiB, then an allocation failed$/\1/p' $T/out)
ok $([ $rc -eq 0 ] && [ -n "$got" ] && [ "$got" -lt 128 ]; echo $?) \
	"a memory hog under as = 128M: its allocation fails at ${got:-?} MiB, the hog itself goes on"
ok $(! dmesg | grep -q 'Out of memory'; echo $?) "the OOM killer never ran"

# ---- a spinning program: cpu = 1:5 --------------------------------------------------------
start=$(date +%s)
$CB --profile $P/cpu.ini -- $L/spin 30 >$T/out 2>&1
rc=$?
relay $T/out
ok $([ $rc -eq 152 ] && [ $(($(date +%s) - start)) -lt 60 ]; echo $?) \
	"a program spinning under cpu = 1:5 is ended by SIGXCPU (status $rc, want 152)"

# ---- a hard limit above the caller's, raised by credbox as root ------------------------------
sh -c "ulimit -n 64; exec $CB --profile $P/cpu.ini -- /bin/sh -c 'ulimit -Hn; ulimit -Sn'" \
	>$T/out 2>&1
relay $T/out
ok $([ "$(tr '\n' ' ' <$T/out)" = "4096 4096 " ]; echo $?) \
	"nofile = 4096 from a caller limited to 64: raised (credbox sets it while root)"

echo @@limits-done
