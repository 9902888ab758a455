#!/bin/sh
# guest.sh: the guest side of tests/vm/70-idmap.t (busybox sh, as root, one boot on the kernel
# built without the series): on tmpfs (/tmp) and on ext4 (/mnt/ext4, the guest's disk),
# tests/host/idmap-suite.sh (what a program may do in an ID-mapped grant and what it must not),
# then tests/vm/tree/guest.sh's unmodified programs (tar, cp -a, python3 shutil, git, touch,
# chmod, ln) on an ID-mapped grant of drive's; Debian's DOSBox session
# (tests/vm/transparent/dosbox-session.sh) on one. Prints "ok - WHAT" / "not ok - WHAT", "# "
# comments, then "@@idmap-vm-done".
CB=/credbox/build/credbox
PROBE=/credbox/build/tests/host/idmap-probe
export CB PROBE

ok() { if [ "$1" -eq 0 ]; then echo "ok - $2"; else echo "not ok - $2"; fi; }

# /run, as on a real system: a dedicated user's lock lives in /run/credbox. The profiles made
# here go in a directory only root can write to (credbox trusts no other).
mkdir -p /run /root/idmap
chmod 0755 /run /root/idmap

# tagged FS: the lines of a run, their descriptions prefixed with FS
tagged() {
	sed -e "s/^ok - /ok - $1: /" -e "s/^not ok - /not ok - $1: /" \
	    -e '/^@@tree-done$/d'
}

out=$($CB --check --profile /credbox/conf/minimal.ini 2>&1)
printf '%s\n' "$out" | grep -q '^  O_CRED_ALLOW  missing'
ok $? "the guest's kernel has no O_CRED_ALLOW (a kernel without the series)"

for base in /tmp /mnt/ext4; do
	fs=tmpfs; [ "$base" = /tmp ] || fs=ext4
	if [ "$base" = /mnt/ext4 ] && ! grep -q ' /mnt/ext4 ext4 ' /proc/mounts; then
		echo "not ok - ext4: the guest's disk is mounted on /mnt/ext4"
		continue
	fi
	BASE=$base sh /credbox/idmap/idmap-suite.sh >/tmp/suite.out 2>&1
	rc=$?
	if grep -q '^@@idmap-skip' /tmp/suite.out; then
		echo "not ok - $fs: $(sed -n 's/^@@idmap-skip //p' /tmp/suite.out)"
		continue
	fi
	tagged "$fs" </tmp/suite.out | grep -v '^@@idmap-done$'
	ok $([ $rc -eq 0 ] && grep -q '^@@idmap-done$' /tmp/suite.out; echo $?) \
		"$fs: the suite ran to its end (exit $rc)"

	# The tree programs, on an ID-mapped grant beneath $base/idtree (drive's, 0700).
	t=$base/idtree
	sed -e "s|@BASE@|$t|g" /credbox/idmap/tree-idmap.ini >/root/idmap/tree.ini
	TREE_INI=/root/idmap/tree.ini TREE_BASE=$t sh /credbox/tree/guest.sh 2>&1 | tagged "$fs"
	rm -rf "$t"
done
# Debian's DOSBox, unmodified, on a drive granted by an ID-mapped mount (tmpfs).
mkdir -p /tmp/idm/drive
chown drive:drive /tmp/idm/drive
chmod 0700 /tmp/idm/drive
cp /credbox/idmap/dosbox-idmap.ini /root/idmap/dosbox.ini
DOSBOX_INI=/root/idmap/dosbox.ini DRIVE_BASE=/tmp/idm/drive \
	sh /credbox/transparent/dosbox-session.sh 2>&1 | sed -e '/^ok - /b' -e '/^not ok - /b' \
	-e 's/^/# /' | tagged "DOSBox"
echo "@@idmap-vm-done"
