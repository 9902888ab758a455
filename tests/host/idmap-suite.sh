#!/bin/sh
# idmap-suite.sh: grants through an ID-mapped mount (method = idmap), what a program may do
# there and what it must not, from inside and from outside. POSIX sh and busybox's tools:
# tests/host/idmap.t runs it on the host's own kernel, tests/vm/70-idmap.t in the guest on the
# kernel without the series, on tmpfs and on ext4.
#
#   CB=CREDBOX PROBE=IDMAP-PROBE BASE=DIR sh idmap-suite.sh
#
# BASE: where the trees are made (its file system is the one tested). A tree of uid 4242 (0700,
# beneath its owner's 0700 home) is granted to a program of uid 4343 (dedicated = yes):
#   - read, create (4242 on disk, 4343 through the mount), chmod, utime, symlink, link, rename,
#     unlink in the tree; nothing in a read-only grant (EROFS);
#   - no set-ID mode, FIFO or socket made in the tree; links and renames across its edge EXDEV;
#     umount, mount, open_tree and unshare refused;
#   - the program stays undumpable through its own execve, which keeps the tree;
#   - another process of uid 4343 gets nothing through /proc/PID/root or ptrace, before and
#     after that execve; a directory fd sent out over a socket opens nothing for uid 4444;
#   - after the runs no mount is left, nor a process of uid 4343, and the tree's owner on disk
#     is 4242;
#   - each condition of an ID-mapped grant stops the run (125) with its reason: the user not
#     dedicated, or running already; no closed directory above the tree; its top not the
#     owner's.
# Prints "ok - WHAT" / "not ok - WHAT" and "# " comments; "@@idmap-skip REASON" and nothing
# else when BASE's file system takes no ID-mapped mount; "@@idmap-done" at the end.
: "${CB:?}" "${PROBE:?}" "${BASE:?}"

ok() {	# ok STATUS DESCRIPTION [DIAGNOSTIC]
	if [ "$1" -eq 0 ]; then
		echo "ok - $2"
	else
		echo "not ok - $2"
		[ -n "${3:-}" ] && printf '%s\n' "$3" | sed 's/^/# /'
	fi
	return 0
}

T=$(mktemp -d "$BASE/credbox-idmap-XXXXXX") || exit 1
cleanup() {
	for p in $("$PROBE" pids 4343); do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT
chmod 755 "$T"
mkdir -p "$T/home/o/drive/sub" "$T/home/o/ro" "$T/bin" "$T/out"
printf 'data\n' >"$T/home/o/drive/file"
printf 'data\n' >"$T/home/o/ro/file"
chown -R 4242:4242 "$T/home/o"
chmod 700 "$T/home/o" "$T/home/o/drive" "$T/home/o/ro"
chmod 1777 "$T/out"
cp "$PROBE" "$T/bin/probe"
chmod 755 "$T/bin" "$T/bin/probe"
D=$T/home/o/drive
R=$T/home/o/ro
P=$T/bin/probe

profile() {	# profile FILE DIR ACCESS [IDENTITY-LINE]
	cat >"$1" <<EOF
[program]
command_line = program

[identity]
user = 4343
group = 4343
${4-dedicated = yes}

[filesystem]
ro = -/usr, -/lib, -/lib64, -/bin, /proc, $T/bin
rw = $T/out

[seccomp]
policy = deny-list

[dir drive]
path = $2
owner = 4242
group = 4242
access = $3
method = idmap
EOF
}
profile "$T/rw.ini" "$D" rw
profile "$T/ro.ini" "$R" ro

cut -d' ' -f5 /proc/self/mountinfo | sort >"$T/mounts.before"
"$CB" --profile "$T/rw.ini" -- "$P" read "$D/file" >"$T/o" 2>"$T/e"
rc=$?
if [ $rc -eq 125 ] && grep -q 'takes no ID-mapped mount' "$T/e"; then
	echo "@@idmap-skip $BASE is on a file system without ID-mapped mounts"
	exit 0
fi
ok $([ $rc -eq 0 ] && [ "$(cat "$T/o")" = 0 ]; echo $?) \
	"the program of uid 4343 reads the tree of uid 4242 by its path" "$(cat "$T/o" "$T/e")"

probe() {	# probe PROFILE EXPECTED DESCRIPTION ACTION ARGS...
	ini=$1 want=$2 what=$3
	shift 3
	got=$("$CB" --profile "$ini" -- "$P" "$@" 2>"$T/e")
	ok $([ "$got" = "$want" ]; echo $?) "$what" "got '$got', wanted '$want'; $(cat "$T/e")"
}
probe "$T/rw.ini" 4343:4343 "through the mount the tree's owner 4242 is the program's uid" \
	owner "$D/file"
probe "$T/rw.ini" 0 "the program creates a file in the tree" create "$D/new"
ok $([ "$(stat -c %u:%g "$D/new")" = 4242:4242 ]; echo $?) \
	"... which belongs to 4242 on disk, the tree's owner"
probe "$T/rw.ini" 0 "chmod 0640 in the tree" chmod "$D/new" 0640
probe "$T/rw.ini" 0 "utime in the tree" utime "$D/new"
probe "$T/rw.ini" 0 "symlink in the tree" symlink new "$D/link"
probe "$T/rw.ini" 0 "hard link in the tree" link "$D/new" "$D/sub/new2"
probe "$T/rw.ini" 0 "rename in the tree" rename "$D/sub/new2" "$D/new3"
probe "$T/rw.ini" 0 "unlink in the tree" unlink "$D/new3"
probe "$T/rw.ini" EPERM "no set-user-ID mode by chmod" chmod "$D/new" 4755
probe "$T/rw.ini" EPERM "no set-group-ID file made by open" create-mode "$D/sg" 2755
probe "$T/rw.ini" EACCES "no FIFO made in the tree" mkfifo "$D/fifo"
probe "$T/rw.ini" EACCES "no unix socket bound in the tree" bind "$D/sock"
probe "$T/rw.ini" EXDEV "no hard link out across the mount's edge" link "$D/new" "$T/out/x"
probe "$T/rw.ini" EXDEV "no rename out across the mount's edge" rename "$D/new" "$T/out/x"
probe "$T/rw.ini" EPERM "umount of the tree refused" umount "$D"
probe "$T/rw.ini" EPERM "a mount over the tree refused" mount "$D"
probe "$T/rw.ini" EPERM "open_tree of the tree refused" open-tree "$D"
probe "$T/rw.ini" EPERM "unshare of a user and mount namespace refused" unshare
probe "$T/rw.ini" EPERM "setns refused" setns
probe "$T/rw.ini" EACCES "the tree's original path through /proc/1/root refused" \
	proc-root 1 "$D/file"
probe "$T/rw.ini" 0 "the program is not dumpable" dumpable
probe "$T/rw.ini" 0 "... nor after its own execve (done in place)" exec dumpable
probe "$T/rw.ini" 0 "... which keeps the tree" exec read "$D/file"
# A program that knows credbox: the client library, on the grant's fd (CREDBOX_DIRS).
probe "$T/rw.ini" 0 "the client library reads through the grant's fd" client-read drive file
probe "$T/rw.ini" 0 "... creates a file" client-create drive cnew
ok $([ "$(stat -c %u:%g "$D/cnew")" = 4242:4242 ]; echo $?) "... which belongs to 4242 on disk"
probe "$T/rw.ini" 0 "... makes a directory" client-mkdir drive cdir
probe "$T/rw.ini" 0 "... changes a mode through an fd (credbox_fchmod)" client-fchmod drive \
	cnew 0600
probe "$T/rw.ini" EPERM "... but no set-user-ID one" client-fchmod drive cnew 4755
probe "$T/rw.ini" 0 "... and removes a file" client-unlink drive cnew
probe "$T/ro.ini" 0 "a read-only grant reads" read "$R/file"
probe "$T/ro.ini" EROFS "... and changes nothing (a read-only mount)" create "$R/new"
probe "$T/ro.ini" EROFS "... not even a mode" chmod "$R/file" 0644

# The original path stays closed to everyone else, whatever the program made of the tree.
probe "$T/rw.ini" 0 "the program may chmod 0777 the tree's top, as its owner" chmod "$D" 0777
got=$("$P" as 4444 read "$D/file")
ok $([ "$got" = EACCES ]; echo $?) "... and uid 4444 still cannot reach it (got $got)"
chmod 700 "$D"

# Another process of the sandbox's uid, started after it: nothing through /proc or ptrace.
attack() {	# attack DESCRIPTION PROBE-ARGS...: the sandbox waits while uid 4343 tries
	what=$1
	shift
	mkfifo "$T/in"
	"$CB" --profile "$T/rw.ini" -- "$P" "$@" <"$T/in" >"$T/o" 2>"$T/e" &
	pid=$!
	exec 7>"$T/in"
	for _ in $(seq 100); do grep -q ready "$T/o" && break; sleep 0.1; done
	got1=$("$P" as 4343 proc-root "$pid" "$D/file")
	got2=$("$P" as 4343 ptrace "$pid")
	kill -CONT "$pid" 2>/dev/null	# had ptrace stopped it
	echo >&7
	exec 7>&-
	wait "$pid"
	rm -f "$T/in"
	ok $([ "$got1" = EACCES ] && [ "$got2" = EPERM ]; echo $?) \
		"$what: /proc/PID/root gives uid 4343 nothing ($got1), nor does ptrace ($got2)" \
		"$(cat "$T/o" "$T/e")"
}
attack "the sandbox waiting" wait
attack "the sandbox waiting after its own execve" exec wait

# A directory fd of the tree sent out over a socket, to a process of another uid.
got=$("$P" relay 4444 file -- "$CB" --profile "$T/rw.ini" -- "$P" sendfd "$D" 2>"$T/e" |
      tr '\n' ' ')
ok $([ "$got" = "0 EACCES " ]; echo $?) \
	"a directory fd sent out over SCM_RIGHTS opens nothing for uid 4444 (sent, opened: $got)" \
	"$(cat "$T/e")"

cut -d' ' -f5 /proc/self/mountinfo | sort >"$T/mounts.after"
ok $(cmp -s "$T/mounts.before" "$T/mounts.after"; echo $?) \
	"no mount is left after the runs" "$(diff "$T/mounts.before" "$T/mounts.after")"
ok $([ -z "$("$P" pids 4343)" ]; echo $?) "no process of uid 4343 is left"

# Each condition of an ID-mapped grant, refused before anything runs.
refused() {	# refused PROFILE PATTERN DESCRIPTION
	"$CB" --profile "$1" -- "$P" read "$D/file" >"$T/o" 2>"$T/e"
	rc=$?
	ok $([ $rc -eq 125 ] && ! grep -q . "$T/o" && grep -q -- "$2" "$T/e"; echo $?) "$3" \
		"exit $rc; $(cat "$T/o" "$T/e")"
}
profile "$T/nd.ini" "$D" rw ""
refused "$T/nd.ini" "does not say the user is credbox's alone" \
	"a user not marked dedicated is refused (125)"
"$P" as 4343 sleep 30 &
sleeper=$!
sleep 0.3
refused "$T/rw.ini" "process $sleeper runs as 4343" \
	"a dedicated user some process already runs as is refused (125)"
kill $sleeper
wait $sleeper 2>/dev/null
chmod 755 "$T/home/o"
refused "$T/rw.ini" 'no directory above it is closed' \
	"a tree with no closed directory above it is refused (125)"
chmod 700 "$T/home/o"
chown 0 "$D"
refused "$T/rw.ini" 'is owned by uid 0, not by 4242' \
	"a tree whose top is not its owner's is refused (125)"
chown 4242 "$D"
"$CB" --check --profile "$T/rw.ini" >"$T/o" 2>"$T/e"
grep -q 'an ID-mapped mount (method = idmap): uid 4242 and gid 4242 on disk are 4343' "$T/o"
ok $? "--check names the method and shows the map" "$(cat "$T/o" "$T/e")"
"$CB" --verbose --profile "$T/rw.ini" -- "$P" read "$D/file" >"$T/o" 2>"$T/e"
grep -q 'an ID-mapped mount (uid_map "4242 4343 1", gid_map "4242 4343 1")' "$T/e"
ok $? "--verbose names the method and shows the map" "$(cat "$T/o" "$T/e")"

# method = auto, on this kernel without O_CRED_ALLOW: the same mount.
sed 's/^method = idmap$/method = auto/' "$T/rw.ini" >"$T/auto.ini"
"$CB" --check --profile "$T/auto.ini" >"$T/o" 2>"$T/e"
grep -q 'method = auto, no O_CRED_ALLOW here' "$T/o"
ok $? "method = auto takes the ID-mapped mount where the kernel has no O_CRED_ALLOW" \
	"$(cat "$T/o" "$T/e")"
probe "$T/auto.ini" 4343:4343 "... and a run under it sees the tree as its own" owner "$D/file"
echo "@@idmap-done"
