#!/bin/bash
# 00-vm-sanity.t: the VM runner itself. One boot checks what every other VM
# test relies on (CPUs, users, mounts, output, exit status, --add with its
# shared libraries); the log scanner is checked on fixture logs, host-side.
set -u
cd "$(dirname "$0")/../.."
VMRUN=tests/vm/vm-run
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else nok "$what"; fi; }

echo 1..19

# --- one boot: facts about the guest, then a failing exit status
mkdir -p "$tmp/tree/sub"
echo payload >"$tmp/tree/sub/file"
start=$SECONDS
$VMRUN --keep-log "$tmp/console.log" \
	--add /usr/bin/stat:/opt/hostbin/stat \
	--add "$tmp/tree:/deep/er/tree" \
	-- '
	echo "cpus=$(grep -c ^processor /proc/cpuinfo)"
	echo "whoami=$(id -u):$(pwd)"
	echo "sandbox=$(id sandbox)"
	echo "drive=$(id -u drive):$(id -g drive) other=$(id -u other)"
	echo "mounts=$(awk "{print \$2 \":\" \$3}" /proc/mounts | sort | tr "\n" " ")"
	echo "stat=$(/opt/hostbin/stat -c %a:%F /tmp)"
	echo "added=$(cat /deep/er/tree/sub/file)"
	echo "ext4=$(awk "\$2 == \"/mnt/ext4\" {print \$1 \":\" \$3}" /proc/mounts):$(echo w >/mnt/ext4/tmp/w && cat /mnt/ext4/tmp/w)"
	echo "spare=$(blockdev --getsize64 /dev/vdb):$LTP_DEV"
	dd if=/dev/zero of=/mnt/ext4/tmp/img bs=1M count=8 2>/dev/null
	loop=$(losetup -f) && losetup "$loop" /mnt/ext4/tmp/img &&
		echo "loop=$loop:$(blockdev --getsize64 "$loop")"
	echo "stdin=$(cat | wc -c)"
	echo last-line; exit 3' >"$tmp/out" 2>"$tmp/err"
status=$?
boot=$((SECONDS - start))
echo "# boot + command + poweroff: ${boot} s"
sed 's/^/# guest: /' "$tmp/out"
sed 's/^/# stderr: /' "$tmp/err"
get() { sed -n "s/^$1=//p" "$tmp/out" | tr -d '\r'; }

check "the guest command's exit status (3) is vm-run's" [ "$status" -eq 3 ]
in_order() {
	[ "$(head -n 1 "$tmp/out" | cut -c1-5)" = cpus= ] &&
		[ "$(tail -n 1 "$tmp/out" | tr -d '\r')" = last-line ] &&
		[ "$(wc -l <"$tmp/out")" -eq 12 ]
}
check "the command's output arrives complete, in order" in_order
check "the guest sees at least 2 CPUs" [ "$(get cpus)" -ge 2 ] 2>/dev/null
check "the command runs as root in /tmp" [ "$(get whoami)" = 0:/tmp ]
check "user sandbox (1002) is in group dosemu (1100)" \
	grep -q '^sandbox=uid=1002(sandbox) gid=1002(sandbox) groups=.*1100(dosemu)' "$tmp/out"
check "users drive (1001) and other (1003) exist" [ "$(get drive)" = "1001:1001 other=1003" ]
check "/proc, /sys, /dev (devtmpfs) and /tmp (tmpfs) are mounted" \
	grep -Eq '^mounts=.*/dev:devtmpfs .*/proc:proc .*/sys:sysfs .*/tmp:tmpfs ' "$tmp/out"
check "a dynamic host program added with --add runs (ldd closure)" [ "$(get stat)" = "1777:directory" ]
check "--add copies a directory, parents created" [ "$(get added)" = payload ]
check "the guest's first disk is ext4 on /mnt/ext4, writable" [ "$(get ext4)" = /dev/vda:ext4:w ]
check "a spare 512 MiB block device, named by \$LTP_DEV" [ "$(get spare)" = 536870912:/dev/vdb ]
check "a loop device over a file of the disk" [ "$(get loop)" = /dev/loop0:8388608 ]
check "the command's stdin is empty" [ "$(get stdin)" = 0 ]
check "--keep-log saved the console log" grep -q 'Linux version' "$tmp/console.log"
check "the boot's console log has no kernel report" $VMRUN --scan-log "$tmp/console.log"

# --- the log scanner on fixtures
fixture() { printf '[    1.234567] booting\n[    2.000000] %s\n[    2.000001] tail\n' "$1" >"$tmp/fix.log"; }
caught=0 missed=
for line in \
	'WARNING: CPU: 1 PID: 42 at fs/open.c:1234 do_dentry_open+0x1/0x2' \
	'BUG: KASAN: slab-use-after-free in put_cred+0x10/0x20' \
	'refcount_t: underflow; use-after-free.' \
	'Oops: general protection fault, probably for non-canonical address' \
	'kernel BUG at fs/file.c:100!' \
	'UBSAN: shift-out-of-bounds in fs/open.c:10:5' \
	'list_del corruption, ffff888000000000->next is LIST_POISON1' \
	'WARNING: possible circular locking dependency detected' \
	'Kernel panic - not syncing: Fatal exception' \
	'BUG: sleeping function called from invalid context at mm/slub.c:1'; do
	fixture "$line"
	if $VMRUN --scan-log "$tmp/fix.log" 2>/dev/null; then missed+=" [$line]"; else caught=$((caught + 1)); fi
done
check "the log scanner catches WARNING/BUG/KASAN/refcount/Oops/UBSAN/list/lockdep/panic (10 fixtures)${missed:+, missed:$missed}" [ "$caught" -eq 10 ]
fixture 'Freeing unused kernel image memory: 1024K'
check "the log scanner passes a clean log" $VMRUN --scan-log "$tmp/fix.log"

# --- end to end: a report on the guest's console fails a successful command
$VMRUN -- 'echo "WARNING: CPU: 0 PID: 1 at fs/fake.c:1 credbox_vm_sanity_fixture" >/dev/kmsg' \
	>/dev/null 2>"$tmp/err"
status=$?
check "a kernel WARNING on the guest console fails the run (exit 125, lines shown)" \
	[ "$status" -eq 125 -a -n "$(grep credbox_vm_sanity_fixture "$tmp/err")" ]

# --- a guest that never reports a status fails
$VMRUN --timeout 5 -- 'sleep 100' >/dev/null 2>"$tmp/err"
status=$?
check "a guest killed by --timeout makes vm-run exit 124 (got $status)" [ $status -eq 124 ]
[ $status -eq 124 ] || sed 's/^/# /' "$tmp/err"	# why, when a loaded host makes it fail
