#!/bin/sh
# guest.sh: the guest side of tests/vm/40-e2e.t (busybox sh, run as root in one boot).
#
#   sh /credbox/e2e/guest.sh [PROFILE_DIR]
#
# Builds the granted trees, then starts credbox as an admin would on the profiles of
# PROFILE_DIR (default /credbox/e2e: main.ini, kill.ini) and on bad profiles it writes to
# /etc/credbox-e2e. Prints "ok - WHAT" / "not ok - WHAT" lines (the .t numbers them) and
# "# " comments; the last line is "@@e2e-done".
CB=/credbox/build/credbox
E=/credbox/build/tests/e2e
P=${1:-/credbox/e2e}
T=/tmp/e2e
umask 022
mkdir -p $T

ok() { if [ "$1" -eq 0 ]; then echo "ok - $2"; else echo "not ok - $2"; fi; }
# Pass the probe's TAP lines through; anything else (credbox's messages) as a comment.
relay() { sed -e '/^ok - /b' -e '/^not ok - /b' -e '/^# /b' -e 's/^/# /' "$1"; }

# ---- the trees: mode 0700, files 0600, each owned by the identity its grant carries -----------
mkdir -p /srv/e2e/a/sub /srv/e2e/b /srv/e2e/ro /srv/e2e/pub
echo alpha >/srv/e2e/a/README
echo bravo >/srv/e2e/b/README
echo group >/srv/e2e/b/GROUPONLY
echo readonly >/srv/e2e/ro/README
echo public >/srv/e2e/pub/pub.txt
chown -R drive:drive /srv/e2e/a /srv/e2e/ro
chown -R other:other /srv/e2e/b
chown root:dosemu /srv/e2e/b/GROUPONLY
chmod 0040 /srv/e2e/b/GROUPONLY
chmod 0700 /srv/e2e/a /srv/e2e/a/sub /srv/e2e/b /srv/e2e/ro
chmod 0600 /srv/e2e/a/README /srv/e2e/b/README /srv/e2e/ro/README
# Planted escapes, made after chown -R so that it never follows them.
ln -s /etc /srv/e2e/a/ESC
ln -s ../b /srv/e2e/a/TOB
chown -h drive:drive /srv/e2e/a/ESC /srv/e2e/a/TOB
echo "# trees: $(ls -ln /srv/e2e | awk 'NR > 1 { printf "%s %s:%s %s; ", $NF, $3, $4, $1 }')"

# run NAME PROFILE PROGRAM [ARG...]: credbox as root; the program's lines; exit status 0.
run() {
	name=$1 prof=$2
	shift 2
	$CB --profile "$P/$prof" -- "$@" >$T/out 2>&1
	rc=$?
	relay $T/out
	ok $([ $rc -eq 0 ]; echo $?) "$name: credbox exits 0 (got $rc)"
}

# ---- granted: two identities in one process, read-only grant; dynamic and static ---------------
for kind in dynamic static; do
	prog=$E/e2e-probe
	[ $kind = static ] && prog=$E/e2e-probe-static
	run "$kind grants" main.ini $prog grants
	ok $([ "$(stat -c %u:%g /srv/e2e/a/new-$kind)" = 1001:1001 ]; echo $?) \
		"$kind: seen from outside, a/new-$kind is drive's (1001:1001)"
	ok $([ "$(stat -c %u:%g /srv/e2e/b/new-$kind)" = 1003:1003 ]; echo $?) \
		"$kind: seen from outside, b/new-$kind is other's (1003:1003)"
	ok $([ ! -e /srv/e2e/ro/NEW ]; echo $?) "$kind: nothing was created in the read-only tree"
	run "$kind refusals" main.ini $prog refuse
	ok $([ ! -e /srv/e2e/ESCAPED ]; echo $?) "$kind: ../ESCAPED was not created next to a"
	run "$kind execve" main.ini $prog exec
done

# ---- a denied system call with action = kill ----------------------------------------------
$CB --profile "$P/kill.ini" -- $E/e2e-probe kill >$T/out 2>&1
rc=$?
relay $T/out
ok $([ $rc -eq 159 ] && ! grep -q 'still alive' $T/out; echo $?) \
	"kill.ini: a call outside the allow-list kills the program with SIGSYS (status $rc, want 159)"

# ---- a call through the i386 ABI (int 0x80), whose numbers no rule of either filter names ------
$E/e2e-probe i386 >$T/out 2>&1
rc=$?
relay $T/out
ok $rc "control: outside credbox, getpid through int 0x80 works on this kernel (status $rc)"
$CB --profile "$P/main.ini" -- $E/e2e-probe i386 >$T/out 2>&1
rc=$?
relay $T/out
ok $([ $rc -eq 159 ] && ! grep -q 'still alive' $T/out; echo $?) \
	"main.ini: getpid through int 0x80 kills the program with SIGSYS (status $rc, want 159)"

# ---- another process of the same uid against a running sandboxed program ---------------------
$CB --profile "$P/main.ini" -- $E/e2e-probe hold >$T/hold 2>&1 &
hp=$!
i=0
while ! grep -q '^# ready' $T/hold && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
set -- $(grep '^# ready' $T/hold)
pid=${3:-0} fd=${4:-0}
ok $([ "$pid" = "$hp" ] && [ "$fd" = 10 ]; echo $?) \
	"the held program runs in credbox's own process (pid $pid, credbox $hp) with grant a at fd $fd"
$E/e2e-drop 1002 1002 1002,1100 $E/e2e-probe attack "$pid" "$fd" >$T/out 2>&1
rc=$?
relay $T/out
ok $([ $rc -eq 0 ]; echo $?) "attacker (uid sandbox, outside credbox): every attempt failed (exit $rc)"
ok $(kill -0 "$hp" 2>/dev/null; echo $?) "the held program is still running after the attacks"
kill -USR1 "$hp"
wait "$hp"
rc=$?
relay $T/hold
ok $([ $rc -eq 0 ]; echo $?) "the held program exits 0 (got $rc)"

# ---- bad profiles and refused grants: 125, nothing run -------------------------------------
mkdir -p /etc/credbox-e2e /srv/e2e/sbx /srv/e2e/gw /srv/e2e/mnt/m
chown sandbox:sandbox /srv/e2e/sbx
chown drive:dosemu /srv/e2e/gw
chmod 0770 /srv/e2e/gw
chown drive:drive /srv/e2e/mnt /srv/e2e/mnt/m
# sbx: 0755, so that drive can open it and credbox's own check is what refuses it
chmod 0755 /srv/e2e/sbx
chmod 0700 /srv/e2e/mnt
mount -t tmpfs -o mode=0700,uid=1001,gid=1001 tmpfs /srv/e2e/mnt/m
ln -s a /srv/e2e/link
# third: drive's tree with a directory another user owns; dev: drive's tree with a disk in it
mkdir -p /srv/e2e/third/sub /srv/e2e/dev
chown drive:drive /srv/e2e/third /srv/e2e/dev
chown other:other /srv/e2e/third/sub
chmod 0755 /srv/e2e/third /srv/e2e/third/sub
mknod /srv/e2e/dev/sda b 8 0

# bad NAME MESSAGES: the profile is a valid one (lines 1-11; line 8: "ro = $RO") plus the lines
# on stdin (from 12); credbox must exit 125 without running the program, and its stderr must be
# exactly MESSAGES, with @ standing for the profile's path.
RO='/lib, -/lib64'
bad() {
	f=/etc/credbox-e2e/$1.ini
	{
		printf '[program]\ncommand_line = program\n'
		printf '[identity]\nuser = sandbox\ngroup = sandbox\ngroups = dosemu\n'
		printf '[filesystem]\nro = %s\n' "$RO"
		printf '[seccomp]\npolicy = deny-list\ndeny = @mount\n'
		cat
	} >"$f"
	printf '%s\n' "$2" | sed "s|^@|$f|" >$T/want
	$CB --profile "$f" -- $E/e2e-probe ran >$T/out 2>$T/err
	rc=$?
	ok $([ $rc -eq 125 ] && ! grep -q RAN $T/out && cmp -s $T/want $T/err; echo $?) \
		"$1: exit 125 (got $rc), nothing run, the exact messages"
	sed 's/^/#   /' $T/err
	cmp -s $T/want $T/err || diff $T/want $T/err | sed 's/^/#   diff: /'
}
bad bad-key '@:15: unknown key "rw" in [dir a]
hint: the access of a directory is set with "access = rw"
@:12: missing required key "access" in [dir a]' <<-'EOF'
	[dir a]
	path = /srv/e2e/a
	owner = drive
	rw = yes
	EOF
bad bad-root-owner "@:14: [dir a]: owner is root
hint: name the account that owns the tree; a root-opened directory carries uid 0 without root's capabilities" <<-'EOF'
	[dir a]
	path = /srv/e2e/a
	owner = root
	access = rw
	EOF
bad bad-proc '@:13: [dir p] /proc: on a pseudo file system (proc)
hint: grant a directory on a disk file system; /proc, /sys and the like would hand out far more than files' <<-'EOF'
	[dir p]
	path = /proc
	owner = drive
	access = ro
	EOF
bad bad-missing '@:13: [dir n] /srv/e2e/none: does not exist' <<-'EOF'
	[dir n]
	path = /srv/e2e/none
	owner = drive
	access = ro
	EOF
bad bad-owner-denied '@:13: [dir b] /srv/e2e/b: permission denied to its owner
hint: the [dir] owner needs search permission on each directory of the path and read permission on the last' <<-'EOF'
	[dir b]
	path = /srv/e2e/b
	owner = drive
	access = ro
	EOF
bad bad-owned-by-sandbox '@:13: [dir s] /srv/e2e/sbx: owned by the sandboxed user, who could make it writable
hint: the tree must be writable only by its owner: chown its directories to the [dir] owner' <<-'EOF'
	[dir s]
	path = /srv/e2e/sbx
	owner = drive
	access = rw
	EOF
bad bad-group-writable '@:13: [dir g] /srv/e2e/gw: writable by its group, gid 1100 (mode 0770)
hint: the tree must be writable only by its owner: chmod go-w, and check its group and ACLs (getfacl)' <<-'EOF'
	[dir g]
	path = /srv/e2e/gw
	owner = drive
	access = rw
	EOF
bad bad-third-owner '@:13: [dir t] /srv/e2e/third/sub: owned by uid 1003, not by the [dir] owner (uid 1001) or root: uid 1003 could make it writable
hint: the tree must be writable only by its owner: chown its directories to the [dir] owner' <<-'EOF'
	[dir t]
	path = /srv/e2e/third
	owner = drive
	access = ro
	EOF
bad bad-device-node "@:13: [dir d] /srv/e2e/dev/sda: a device node (block device 8:0), which the fd would open with the owner's groups
hint: remove it, or mount the file system with nodev" <<-'EOF'
	[dir d]
	path = /srv/e2e/dev
	owner = drive
	access = ro
	EOF
bad bad-mount-inside '@:13: [dir m] /srv/e2e/mnt/m: a mount point inside the granted tree
hint: grant each file system as its own [dir], or unmount it' <<-'EOF'
	[dir m]
	path = /srv/e2e/mnt
	owner = drive
	access = rw
	EOF
bad bad-symlink-path '@:13: [dir l] /srv/e2e/link: a symbolic link in the path
hint: give the real path, or set trust_symlinks = yes (see credbox.ini(5))' <<-'EOF'
	[dir l]
	path = /srv/e2e/link
	owner = drive
	access = rw
	EOF
bad bad-not-a-directory '@:13: [dir f] /srv/e2e/pub/pub.txt: not a directory
hint: a [dir] grants a directory: name the one that holds the file' <<-'EOF'
	[dir f]
	path = /srv/e2e/pub/pub.txt
	owner = drive
	access = ro
	EOF
RO='/lib, -/lib64, /usr/share/credbox-none'
bad bad-missing-system-path '@:8: [filesystem] /usr/share/credbox-none: does not exist
hint: mark a path that may be missing with a leading '"'-'"', as in "ro = -/lib64"' <<-'EOF'
	[dir a]
	path = /srv/e2e/a
	owner = drive
	access = ro
	EOF
RO='/lib, -/lib64'
old=$(cat /proc/sys/fs/protected_hardlinks)
echo 0 >/proc/sys/fs/protected_hardlinks
bad bad-hardlinks-unprotected "@:13: [dir a] /srv/e2e/a: fs.protected_hardlinks is not 1, so links to other users' files could be planted in the tree
hint: sysctl fs.protected_hardlinks=1" <<-'EOF'
	[dir a]
	path = /srv/e2e/a
	owner = drive
	access = rw
	EOF
echo "$old" >/proc/sys/fs/protected_hardlinks
echo "@@e2e-done"
