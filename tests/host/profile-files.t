#!/bin/bash
# profile-files.t: which profile files root trusts (sshd's StrictModes: the file and every
# directory above it root's and writable by nobody else, symbolic links resolved and checked,
# regular files only, decided without blocking), with messages that name the real cause and
# the fix; and profiles made of several files: include lines and NAME.d drop-ins, in order,
# under the same rules, errors naming the file and line they come from.
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
CB=$ROOT/build/credbox
TMP=$(mktemp -d)	# in /tmp: sticky and world-writable, as a directory above a profile may be
trap 'rm -rf "$TMP"' EXIT
chmod 755 "$TMP"
n=0 failed=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }

if [ "$(id -u)" -ne 0 ]; then
	skip "profile trust" "needs root (files of other owners)"
	echo "1..$n"
	exit 0
fi

# A profile that runs its command line as nobody (conf/minimal.ini), which echoes "ran".
profile() { # FILE [MODE]
	mkdir -p "$(dirname "$1")"
	cp conf/minimal.ini "$1" && chmod "${2:-644}" "$1"
}
run() { # PROFILE: credbox's status; the program's stdout in $TMP/out, stderr in $TMP/err
	timeout 20 "$CB" --profile "$1" -- /bin/echo ran >"$TMP/out" 2>"$TMP/err"
}
ran() { [ "$(cat "$TMP/out")" = ran ]; }
# refused NAME PROFILE MESSAGES: exit 125, nothing run, stderr exactly MESSAGES
refused() {
	run "$2"
	local rc=$?
	printf '%s\n' "$3" >"$TMP/want"
	diff -u "$TMP/want" "$TMP/err" >"$TMP/diff"
	ok $([ $rc -eq 125 ] && ! ran && [ ! -s "$TMP/diff" ]; echo $?) \
		"$1: 125 (got $rc), nothing run, the exact messages"
	sed 's/^/# /' "$TMP/diff"
}
accepted() { # NAME PROFILE
	run "$2"
	local rc=$?
	ok $([ $rc -eq 0 ] && ran; echo $?) "$1: accepted, the program ran (got $rc)"
	[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/err"
}

D=$TMP/etc	# root's, 0755: as /etc/credbox
profile "$D/good.ini"
accepted "a root-owned profile, 0644, in root's directories (one of them /tmp, sticky)" "$D/good.ini"

# ---- the file itself --------------------------------------------------------------------------
profile "$D/gw.ini" 664
refused "group-writable" "$D/gw.ini" "$D/gw.ini: group-writable (mode 0664)
hint: chmod go-w $D/gw.ini"
profile "$D/ow.ini" 646
refused "writable by others" "$D/ow.ini" "$D/ow.ini: writable by others (mode 0646)
hint: chmod go-w $D/ow.ini"
profile "$D/nobody.ini" && chown 65534 "$D/nobody.ini"
refused "owned by another user" "$D/nobody.ini" \
	"$D/nobody.ini: owned by uid 65534, not by root (the profile decides what root hands out)
hint: chown root $D/nobody.ini"
mkfifo "$D/fifo.ini"
start=$SECONDS
refused "a FIFO is refused at once, never opened (it would block)" "$D/fifo.ini" \
	"$D/fifo.ini: a FIFO, not a profile"
ok $([ $((SECONDS - start)) -lt 10 ]; echo $?) "the FIFO took $((SECONDS - start)) s, not a hang"
refused "a directory" "$D" "$D: a directory, not a profile
hint: name the profile file; the .ini files of a directory NAME.d are read after NAME.ini"
refused "a device" /dev/null "/dev/null: a character device, not a profile"
head -c 1100000 /dev/zero | tr '\0' ';' >"$D/big.ini"
refused "larger than 1 MiB" "$D/big.ini" "$D/big.ini: larger than 1048576 bytes"
refused "missing" "$D/none.ini" "$D/none.ini: No such file or directory"

# ---- the directories above it -----------------------------------------------------------------
profile "$TMP/user/p.ini" && chown 65534 "$TMP/user"
refused "a directory above owned by another user (who can swap the file)" "$TMP/user/p.ini" \
	"$TMP/user/p.ini: directory $TMP/user: owned by uid 65534, not by root
hint: chown root $TMP/user, or keep the profile in a directory of root's, such as /etc/credbox"
profile "$TMP/gwd/sub/p.ini" && chmod 775 "$TMP/gwd"
refused "a group-writable directory above" "$TMP/gwd/sub/p.ini" \
	"$TMP/gwd/sub/p.ini: directory $TMP/gwd: group-writable (mode 0775)
hint: chmod go-w $TMP/gwd"
profile "$TMP/sticky/p.ini" && chmod 1777 "$TMP/sticky"
refused "its own directory sticky and world-writable (a hard link planted there)" \
	"$TMP/sticky/p.ini" "$TMP/sticky/p.ini: directory $TMP/sticky: group- and world-writable (mode 1777)
hint: keep profiles in a directory only root can write to, such as /etc/credbox"
profile "$TMP/sticky/sub/p.ini"
accepted "a sticky world-writable directory further up (only root renames root's entries)" \
	"$TMP/sticky/sub/p.ini"
(cd "$D" && run ./good.ini); rc=$?
ok $([ $rc -eq 0 ] && ran; echo $?) "a relative path: the current directory's parents checked too"
(cd "$TMP/gwd/sub" && run ./p.ini); rc=$?
ok $([ $rc -eq 125 ] && grep -q "directory $TMP/gwd: group-writable" "$TMP/err"; echo $?) \
	"a relative path below a group-writable directory is refused"
(cd "$TMP/gwd/sub" && run ../../etc/good.ini); rc=$?
ok $([ $rc -eq 125 ] && grep -q "directory $TMP/gwd: group-writable" "$TMP/err"; echo $?) \
	"a path through .. is checked on the way it really takes"

# ---- symbolic links: followed if root's, their targets checked --------------------------------
ln -s "$D/good.ini" "$D/link.ini"
accepted "a symbolic link of root's to a good profile" "$D/link.ini"
ln -s "$D/gw.ini" "$D/link-gw.ini"
refused "a symbolic link to a group-writable profile (resolved, then checked)" "$D/link-gw.ini" \
	"$D/link-gw.ini: group-writable (mode 0664)
hint: chmod go-w $D/link-gw.ini"
ln -s "$TMP/gwd/sub" "$D/dirlink"
refused "a symbolic link to a directory below a group-writable one" "$D/dirlink/p.ini" \
	"$D/dirlink/p.ini: directory $TMP/gwd: group-writable (mode 0775)
hint: chmod go-w $TMP/gwd"
ln -s "$D/good.ini" "$TMP/sticky/planted.ini" && chown -h 65534 "$TMP/sticky/planted.ini"
ln -s "$D" "$TMP/sticky/dl" && chown -h 65534 "$TMP/sticky/dl"
refused "a symbolic link planted by another user in a sticky directory" "$TMP/sticky/dl/good.ini" \
	"$TMP/sticky/dl/good.ini: $TMP/sticky/dl: a symbolic link owned by uid 65534, not by root
hint: give the path the link points to"

# ---- checked unprivileged: what root would refuse ----------------------------------------------
if command -v setpriv >/dev/null; then
	asnobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	asnobody "$CB" --profile "$D/gw.ini" --check >/dev/null 2>"$TMP/err"; rc=$?
	ok $([ $rc -eq 125 ] && grep -q 'group-writable (mode 0664)' "$TMP/err"; echo $?) \
		"--check run by nobody refuses the group-writable profile root would refuse ($rc)"
	asnobody "$CB" --profile "$D/good.ini" --check >/dev/null 2>"$TMP/err"; rc=$?
	ok $([ $rc -eq 0 ]; echo $?) "--check run by nobody accepts the good one ($rc)"
	sed 's/^/# /' "$TMP/err"
else
	skip "--check unprivileged" "no setpriv"
	skip "--check unprivileged" "no setpriv"
fi

# ---- profiles of several files: includes, drop-ins ---------------------------------------------
C=$TMP/comp
mkdir -p "$C/main.d" "$C/common"
cat >"$C/common/id.ini" <<'EOF'
; shared by several profiles
[identity]
user = nobody
group = nogroup
EOF
cat >"$C/fs.ini" <<'EOF'
[filesystem]
ro = /usr, /bin, /lib, -/lib64, -/sbin, /etc
landlock = best-effort
EOF
cat >"$C/main.ini" <<'EOF'
include = common/id.ini
include = "fs.ini"

[program]
command_line = program

[seccomp]
policy = deny-list
deny = @mount
EOF
cat >"$C/main.d/20-more.ini" <<'EOF'
[seccomp]
deny = @reboot
[filesystem]
rw = /dev/null
EOF
cat >"$C/main.d/10-log.ini" <<'EOF'
[seccomp]
action = kill
EOF
touch "$C/main.d/30-notes.txt" "$C/main.d/.hidden.ini"
chmod 666 "$C/main.d/30-notes.txt" "$C/main.d/.hidden.ini"	# not read, so not checked
accepted "include lines and main.d/*.ini make one profile" "$C/main.ini"
"$CB" --profile "$C/main.ini" --print-filter >"$TMP/pfc" 2>&1
ok $(grep -q reboot "$TMP/pfc" && grep -q umount2 "$TMP/pfc"; echo $?) \
	"the drop-in's deny and the profile's deny both reach the filter"
"$CB" --profile "$C/main.ini" --check >"$TMP/out" 2>&1
ok $(grep -q '^  rw   /dev/null' "$TMP/out" && grep -q 'nobody (uid 65534' "$TMP/out"; echo $?) \
	"--check shows the included identity and the drop-in's path"

echo '[seccomp]' >"$C/main.d/40-bad.ini" && echo 'action = errno' >>"$C/main.d/40-bad.ini"
refused "a key set in a drop-in and in another file: both places named" "$C/main.ini" \
	"$C/main.d/40-bad.ini:2: duplicate key \"action\" in [seccomp] (first on $C/main.d/10-log.ini:2)"
rm "$C/main.d/40-bad.ini"
printf '[seccomp]\nallow = read\n[seccomp]\n' >"$C/main.d/40-bad.ini"
refused "a section twice in one file is an error, in another file it continues" "$C/main.ini" \
	"$C/main.d/40-bad.ini:3: duplicate section [seccomp] (first on line 1)"
rm "$C/main.d/40-bad.ini"
printf '[identity]\nuser = nobody\nfrob = 1\n' >"$C/common/bad.ini"
sed -i '1i include = common/bad.ini' "$C/main.ini"
refused "an error in an included file names that file and its line" "$C/main.ini" \
	"$C/common/bad.ini:3: unknown key \"frob\" in [identity]
$C/common/id.ini:3: duplicate key \"user\" in [identity] (first on $C/common/bad.ini:2)"
sed -i 1d "$C/main.ini"
chmod 664 "$C/fs.ini"
refused "an included file under the same trust rules, at the include's line" "$C/main.ini" \
	"$C/main.ini:2: include $C/fs.ini: group-writable (mode 0664)
hint: chmod go-w $C/fs.ini"
chmod 644 "$C/fs.ini"
chmod 664 "$C/main.d/10-log.ini"
refused "a drop-in under the same trust rules" "$C/main.ini" \
	"$C/main.ini: drop-in $C/main.d/10-log.ini: group-writable (mode 0664)
hint: chmod go-w $C/main.d/10-log.ini"
chmod 644 "$C/main.d/10-log.ini"
chmod 1777 "$C/main.d"
refused "a drop-in directory others may write to" "$C/main.ini" \
	"$C/main.ini: drop-ins $C/main.d: directory $C/main.d: group- and world-writable (mode 1777)
hint: keep profiles in a directory only root can write to, such as /etc/credbox"
chmod 755 "$C/main.d"
mv "$C/main.d" "$C/main.d.away" && ln -s "$C/nowhere" "$C/main.d" && chown -h nobody "$C/main.d"
refused "a drop-in directory that is a dangling link of another user's: checked, not taken for none" \
	"$C/main.ini" "$C/main.ini: drop-ins $C/main.d: $C/main.d: a symbolic link owned by uid 65534, not by root
hint: give the path the link points to"
rm "$C/main.d" && mv "$C/main.d.away" "$C/main.d"
printf 'include = main.ini\n[program]\ncommand_line = program\n' >"$C/loop.ini"
sed -i '1i include = ../loop.ini' "$C/common/id.ini"
refused "an include cycle" "$C/loop.ini" \
	"$C/common/id.ini:1: include $C/common/../loop.ini: already read as part of this profile
$C/loop.ini:3: duplicate key \"command_line\" in [program] (first on $C/main.ini:5)"
sed -i 1d "$C/common/id.ini"
printf '[program]\ncommand_line = program\ninclude = fs.ini\n' >"$C/late.ini"
refused "include after a section" "$C/late.ini" \
	"$C/late.ini:3: include after a section header
hint: move it above the first section of the file
$C/late.ini: missing section [identity]
$C/late.ini: missing section [seccomp]"

echo "1..$n"
[ $failed -eq 0 ]
