#!/bin/sh
# guest.sh: the guest side of tests/vm/55-tree-programs.t (busybox sh, as root, one boot).
# Each program of ops.sh runs under credbox as sandbox twice: in the tree drive lends for
# writing (transparent), and in /srv/own, a directory of the sandbox's own; it must exit 0
# both times, with the same modes, times, link targets and link counts. Then each change in
# the tree drive lends for reading only must fail with EROFS ("Read-only file system").
# Prints "ok - WHAT" / "not ok - WHAT" and "# " comments, then "@@tree-done".
# TREE_INI, TREE_BASE: another profile and place for the trees (tests/vm/70-idmap.t: an
# ID-mapped grant, the trees beneath a directory only drive can search, on tmpfs or ext4).
export TREE_INI=${TREE_INI:-/credbox/tree/tree.ini}
TREE_BASE=${TREE_BASE:-/srv/tree}
OPS=/credbox/tree/ops.sh
RW=$TREE_BASE/rw
RO=$TREE_BASE/ro
OWN=/srv/own
O=/tmp/tree
umask 022
mkdir -p $O

ok() { if [ "$1" -eq 0 ]; then echo "ok - $2"; else echo "not ok - $2"; fi; }
relay() { sed -e 's/^/# /' "$1"; }
skip() { echo "ok - $1 # SKIP $2"; }

# The source tree and its archive, the sandbox's (readable by it): modes, times, a symbolic
# link and a hard link.
rm -rf /tmp/src $OWN $O
mkdir -p $O
mkdir -p /tmp/src/t/sub
echo alpha >/tmp/src/t/a.txt
printf '#!/bin/sh\necho run\n' >/tmp/src/t/run.sh
echo beta >/tmp/src/t/sub/b.txt
ln -s a.txt /tmp/src/t/sl
ln /tmp/src/t/a.txt /tmp/src/t/hl
chmod 0640 /tmp/src/t/a.txt
chmod 0755 /tmp/src/t/run.sh
chmod 0600 /tmp/src/t/sub/b.txt
chmod 0750 /tmp/src/t/sub
touch -d '2001-02-03 04:05:06' /tmp/src/t/a.txt /tmp/src/t/sub/b.txt
touch -d '2002-03-04 05:06:07' /tmp/src/t/run.sh /tmp/src/t/sub /tmp/src/t
if [ -x /gnu/bin/tar ]; then
	/gnu/bin/tar -C /tmp/src -cf /tmp/src/arch.tar t
fi
chown -R sandbox:sandbox /tmp/src
chmod 0755 /tmp/src

# The trees: drive's, 0700; the read-only one with a file in it. The sandbox's own directory.
mkdir -p $RW $RO $OWN
echo gamma >$RO/a.txt
chmod 0644 $RO/a.txt
chown -R drive:drive $TREE_BASE
[ "$TREE_BASE" = /srv/tree ] || chmod 0700 $TREE_BASE
chmod 0700 $RW $RO
chown sandbox:sandbox $OWN
out=$(su sandbox -s /bin/sh -c "ls $RW" 2>&1 | tr -d '\n')
ok $([ -n "$out" ]; echo $?) "control: sandbox alone cannot list $RW ($out)"

# snap DIR [notimes]: every entry, sorted: path, type, mode, link count, size (not of a
# directory), mtime (not
# with notimes) and a symbolic link's target. Owners differ (drive, sandbox): not compared.
snap() {
	(cd "$1" && find . | LC_ALL=C sort | while read -r f; do
		if [ -L "$f" ]; then
			echo "$f link $(readlink "$f") ${2:+x}$(/gnu/bin/stat -c %Y "$f")" |
				sed "s/ x[0-9]*$//"
		elif [ "$f" = . ]; then
			echo "$f $(/gnu/bin/stat -c '%F %a %h' "$f")"	# made now, in both
		elif [ -d "$f" ]; then	# a directory's size is its file system's, not the op's
			echo "$f $(/gnu/bin/stat -c '%F %a %h' "$f")" \
				"${2:+x}$(/gnu/bin/stat -c %Y "$f")" | sed "s/ x[0-9]*$//"
		else
			echo "$f $(/gnu/bin/stat -c '%F %a %h %s' "$f")" \
				"${2:+x}$(/gnu/bin/stat -c %Y "$f")" | sed "s/ x[0-9]*$//"
		fi
	done)
}

# need PROGRAM...: the programs an op runs are in the guest
need() {
	for n in "$@"; do [ -x "$n" ] || { echo "$n"; return 1; }; done
	return 0
}

# same OP SUBDIR [notimes]: the op in the tree and in the sandbox's own directory
same() {
	op=$1 sub=$2
	sh $OPS $op $RW >$O/tree.out 2>&1
	rc=$?
	relay $O/tree.out
	ok $rc "$op in the lent tree exits 0 (got $rc)"
	sh $OPS $op $OWN >$O/own.out 2>&1
	rc2=$?
	relay $O/own.out
	ok $rc2 "$op in the sandbox's own directory exits 0 (got $rc2)"
	snap $RW/$sub $3 >$O/tree.snap
	snap $OWN/$sub $3 >$O/own.snap
	relay $O/tree.snap
	if diff $O/own.snap $O/tree.snap >$O/diff; then
		ok 0 "$op: the tree's result equals the own directory's (modes, times, links)"
	else
		relay $O/diff
		ok 1 "$op: the tree's result equals the own directory's (modes, times, links)"
	fi
	if cmp -s $O/own.out $O/tree.out; then
		ok 0 "$op: prints the same in both$( [ -s $O/tree.out ] && echo ' (git log: the same commit)')"
	else
		ok 1 "$op: prints the same in both"
	fi
	owners=$(find $RW/$sub | while read -r f; do /gnu/bin/stat -c '%U %n' "$f"; done |
		grep -v '^drive ' | head -3)
	ok $([ -z "$owners" ]; echo $?) "$op: everything it made in the tree is drive's ($owners)"
}

# refused OP PROGRAM: the op on the read-only tree fails, with EROFS
refused() {
	op=$1
	before=$(snap $RO)
	sh $OPS ro-$op $RO >$O/ro.out 2>&1
	rc=$?
	relay $O/ro.out
	ok $([ $rc -ne 0 ] && grep -q -e 'Read-only file system' -e 'Errno 30' $O/ro.out; echo $?) \
		"$op on the read-only tree fails (exit $rc) with EROFS: $(grep -m1 -o -e 'Read-only file system' -e 'Errno 30' $O/ro.out)"
	ok $([ "$before" = "$(snap $RO)" ]; echo $?) "$op: the read-only tree is unchanged"
}

# OP SUBDIR NOTIMES PROGRAMS...
while read -r op sub notimes progs; do
	[ -n "$op" ] || continue
	[ "$notimes" = - ] && notimes=
	# shellcheck disable=SC2086
	if miss=$(need $progs); then
		same $op $sub $notimes
		refused $op
	else
		skip "$op in a lent tree" "$miss is not in the guest (not installed on the host)"
	fi
done <<'LIST'
tar	tar	-	/gnu/bin/tar /gnu/bin/mkdir
cp	cp	-	/gnu/bin/cp
python	py	-	/usr/bin/python3.11
git	git	notimes	/gnu/bin/git /gnu/bin/mkdir /gnu/bin/chmod
touch	touch	-	/gnu/bin/touch /gnu/bin/mkdir
chmod	chmod	notimes	/gnu/bin/chmod /gnu/bin/mkdir
ln-s	lns	notimes	/gnu/bin/ln /gnu/bin/mkdir
ln	ln	notimes	/gnu/bin/ln /gnu/bin/mkdir
LIST
if [ -x /usr/bin/python3.11 ]; then
	refused copystat
fi
echo "@@tree-done"
