#!/bin/sh
# guest.sh: the guest side of tests/vm/50-transparent.t (busybox sh, as root, one boot).
# Prints "ok - WHAT" / "not ok - WHAT" (the .t numbers them) and "# " comments, then
# "@@tp-done".
# Each run is bounded: a program that hangs fails its own test (status 143, SIGTERM),
# and the rest of the script still runs, instead of vm-run's timeout ending them all.
CB="timeout 300 /credbox/build/credbox"
P=/credbox/transparent/tp.ini
PROBE=/credbox/build/tests/tp/tp-probe
D=/srv/tp/drive
O=/tmp/tp
umask 022
mkdir -p $O

ok() { if [ "$1" -eq 0 ]; then echo "ok - $2"; else echo "not ok - $2"; fi; }
relay() { sed -e '/^ok - /b' -e '/^not ok - /b' -e '/^# /b' -e 's/^/# /' "$1"; }

# The drive: drive's, mode 0700, files 0600; another user's tree beside it.
mkdir -p $D/sub $D/empty /srv/tp/other
echo hello >$D/README
echo nested >$D/sub/NESTED.TXT
echo secret >/srv/tp/other/SECRET
ln -s README $D/LINK
ln -s /credbox/transparent/exec.txt $D/OUT
chown -R drive:drive $D
chown -R other:other /srv/tp/other
chmod 0700 $D $D/sub $D/empty /srv/tp/other
chmod 0600 $D/README $D/sub/NESTED.TXT /srv/tp/other/SECRET
out=$(su sandbox -s /bin/sh -c "cat $D/README" 2>&1 | tr -d '\n')
ok $([ "$out" != hello ]; echo $?) "control: sandbox alone cannot read $D/README ($out)"

# run NAME PROGRAM [ARG...]: under credbox as root; the program's lines; exit status 0.
run() {
	name=$1
	shift
	$CB --profile $P -- "$@" >$O/out 2>&1
	rc=$?
	relay $O/out
	ok $([ $rc -eq 0 ]; echo $?) "$name: exits 0 (got $rc)"
}

for kind in dynamic static; do
	prog=$PROBE
	[ $kind = static ] && prog=$PROBE-static
	rm -f $D/NEW.TXT
	run "$kind files" $prog files
	ok $([ "$(stat -c %u:%g:%s $D/NEW.TXT 2>&1)" = 1001:1001:3 ]; echo $?) \
		"$kind: NEW.TXT, created by sandbox through its own path, is drive's (1001:1001), 3 bytes"
	run "$kind dirops" $prog dirops
	run "$kind attrs" $prog attrs
	rm -rf $D/PA $D/PB $D/PC
	run "$kind paths" $prog paths
	rm -rf $D/PA $D/PB $D/PC
	run "$kind openat2" $prog openat2
	run "$kind threads" $prog threads
	run "$kind stacks" $prog stacks
	run "$kind masks" $prog masks
	run "$kind faults" $prog faults
	run "$kind altstack" $prog altstack
	rm -f $D/sub/ORPHAN.TXT
	run "$kind spawn" $prog spawn
	run "$kind sigsys" $prog sigsys
	run "$kind exempt" $prog exempt
	run "$kind fork" $prog fork
	# The program's own execve, done in place by the runtime (to dynamic and static).
	run "$kind exec" $prog exec
	ok $(grep -q '^ok - the runtime is still there' $O/out; echo $?) \
		"$kind: execve of the dynamic tp-probe ran it"
	run "$kind exec-static" $prog exec-static
	ok $(grep -q '^ok - the runtime is still there' $O/out; echo $?) \
		"$kind: execve of the static tp-probe ran it"
	run "$kind exec-threads" $prog exec-threads
	ok $(grep -q '^ok - one thread' $O/out; echo $?) \
		"$kind: execve from a program with 5 threads leaves one"
	run "$kind deny" $prog deny
	ok $(grep -q "^credbox: tp-probe.* called uname, denied by $P:29 (uname:ENODATA)" $O/out; echo $?) \
		"$kind: the denied uname is named on stderr with the profile's line"
	$CB --profile $P -- $prog kill >$O/out 2>&1
	rc=$?
	relay $O/out
	ok $([ $rc -eq 159 ] && ! grep -q 'still alive' $O/out; echo $?) \
		"$kind: a call outside the allow-list kills by SIGSYS (status $rc, want 159)"
	ok $(grep -q "^credbox: tp-probe.* called sethostname, not allowed by $P:26 (policy = allow-list)" $O/out; echo $?) \
		"$kind: and is named on stderr first"
done

# exec = keep: the grant stays for the programs the program execs (a shell's too).
sed 's|^transparent = yes$|transparent = yes\nexec = keep|' $P >$O/keep.ini
rm -f $D/SHELL.TXT
$CB --profile $P -- $PROBE exec-keep >$O/out 2>&1
rc=$?
ok $([ $rc -eq 1 ] && grep -q '^not ok - exec = keep: after the execve' $O/out &&
	[ ! -e $D/SHELL.TXT ]; echo $?) "exec = close, the default: after the execve the tree is closed (exit $rc)"
$CB --profile $O/keep.ini -- $PROBE exec-keep >$O/out 2>&1
rc=$?
relay $O/out
ok $([ $rc -eq 0 ]; echo $?) "exec = keep: exits 0 (got $rc)"

# A Go program: goroutines on small stacks, Go's threads (raw clone) and signal stacks.
if [ -x /credbox/build/tests/tp/tp-go ]; then
	rm -f $D/GO.TXT
	run "go" /credbox/build/tests/tp/tp-go
	ok $([ "$(stat -c %u:%s $D/GO.TXT 2>&1)" = 1001:3 ]; echo $?) "go: GO.TXT is drive's, 3 bytes"
else
	echo "ok - go # SKIP build/tests/tp/tp-go missing (no Go: tests/deps installs golang-go)"
fi

# execve of a #! script (its interpreter: tp-probe script-child).
run "exec-script" $PROBE exec-script
ok $(grep -q '^ok - a #! script runs its interpreter' $O/out; echo $?) "execve of a #! script ran it"

# GNU coreutils, unmodified, on the transparent grant.
if [ -x /gnu/bin/cat ]; then
	out=$($CB --profile $P -- $PROBE exec-cat 2>&1)
	ok $([ "$out" = "outside the trees" ]; echo $?) "execve of GNU cat on a file outside the trees: $out"
	out=$($CB --profile $P -- /gnu/bin/cat $D/README 2>&1)
	ok $([ "$out" = hello ]; echo $?) "coreutils cat $D/README: $out"
	out=$($CB --profile $P -- /gnu/bin/ls $D 2>&1 | tr '\n' ' ')
	ok $(echo "$out" | grep -q 'README.*sub'; echo $?) "coreutils ls $D: $out"
	out=$($CB --profile $P -- /gnu/bin/ls -ln $D/README 2>&1)
	ok $(echo "$out" | grep -q '^-rw------- 1 1001 1001 6 '; echo $?) "coreutils ls -ln: $out"
	rm -f $D/COPY
	out=$($CB --profile $P -- /gnu/bin/cp $D/README $D/COPY 2>&1)
	ok $([ "$(cat $D/COPY 2>&1)" = hello ] && [ "$(stat -c %u $D/COPY)" = 1001 ]; echo $?) \
		"coreutils cp README COPY: a copy owned by drive ($out)"
	# [program] cwd in the tree: the runtime keeps it (the kernel's is /).
	sed 's|^command_line = program$|command_line = program\ncwd = /srv/tp/drive/sub|' $P >$O/cwd.ini
	out=$($CB --profile $O/cwd.ini -- /gnu/bin/cat NESTED.TXT ../README 2>&1 | tr '\n' ' ')
	ok $([ "$out" = "nested hello " ]; echo $?) "[program] cwd = $D/sub: cat NESTED.TXT ../README: $out"
	# The directory operations, through the kernel's with drive's credentials.
	out=$($CB --profile $P -- /gnu/bin/mkdir $D/NEWDIR 2>&1)
	ok $([ "$(stat -c %F:%u:%g $D/NEWDIR 2>&1)" = directory:1001:1001 ]; echo $?) \
		"coreutils mkdir $D/NEWDIR: a directory of drive's ($out)"
	out=$($CB --profile $P -- /gnu/bin/mkdir -p $D/NEWDIR/a/b 2>&1)
	ok $([ "$(stat -c %u $D/NEWDIR/a/b 2>&1)" = 1001 ]; echo $?) "coreutils mkdir -p NEWDIR/a/b ($out)"
	out=$($CB --profile $P -- /gnu/bin/mv $D/COPY $D/NEWDIR/MOVED 2>&1)
	ok $([ "$(cat $D/NEWDIR/MOVED 2>&1)" = hello ] && [ ! -e $D/COPY ]; echo $?) \
		"coreutils mv COPY NEWDIR/MOVED ($out)"
	out=$($CB --profile $P -- /gnu/bin/rmdir $D/NEWDIR/a/b 2>&1)
	ok $([ ! -e $D/NEWDIR/a/b ] && [ -d $D/NEWDIR/a ]; echo $?) "coreutils rmdir NEWDIR/a/b ($out)"
	out=$($CB --profile $P -- /gnu/bin/rm $D/NEWDIR/MOVED 2>&1)
	ok $([ ! -e $D/NEWDIR/MOVED ]; echo $?) "coreutils rm NEWDIR/MOVED ($out)"
	out=$($CB --profile $P -- /gnu/bin/rm -r $D/NEWDIR 2>&1)
	ok $([ ! -e $D/NEWDIR ]; echo $?) "coreutils rm -r NEWDIR ($out)"
	# GNU find on a tree deeper than PATH_MAX: it walks by directory fds (fts).
	run "deep tree made" $PROBE deep
	out=$($CB --profile $P -- /gnu/bin/find $D/PD -name f 2>$O/err)
	rc=$?
	ok $([ $rc -eq 0 ] && [ "$(echo "$out" | wc -l)" = 1 ] && [ ${#out} -gt 4096 ]; echo $?) \
		"GNU find $D/PD -name f, past PATH_MAX: exit $rc, ${#out} bytes: ${out##*/}"
	grep -v 'called uname, denied' $O/err | sed 's/^/# find: /' | cut -c1-200
	run "deep tree removed" $PROBE deep-clean
else
	echo "ok - coreutils # SKIP /gnu/bin missing"
fi

# python3, unmodified.
if [ -x /usr/bin/python3.11 ]; then
	out=$($CB --profile $P -- /usr/bin/python3.11 -I -S /credbox/transparent/tp.py 2>$O/err)
	echo "$out" | sed 's/^/# python: /'
	sed 's/^/# python stderr: /' $O/err
	ok $(echo "$out" | sed -n 1p | grep -qx hello; echo $?) "python3 open().read() in the tree"
	ok $(echo "$out" | sed -n 2p | grep -q 'PY.TXT README'; echo $?) "python3 os.listdir lists the tree"
	ok $([ "$(stat -c %u $D/PY.TXT)" = 1001 ]; echo $?) "python3's new file is drive's"
	ok $(echo "$out" | sed -n 3p | grep -qx "$D/sub nested"; echo $?) "python3 os.chdir, os.getcwd, relative open"
	out=$($CB --profile $P -- /usr/bin/python3.11 -I -S /credbox/transparent/tp-exec.py 2>$O/err)
	sed 's/^/# python stderr: /' $O/err
	ok $([ "$out" = "outside the trees" ]; echo $?) "python3 os.execv of GNU cat: $out"
	out=$($CB --profile $P -- /usr/bin/python3.11 -I -S /credbox/transparent/tp-dirops.py 2>$O/err)
	sed 's/^/# python stderr: /' $O/err
	ok $([ "$out" = "1001 1001 B.TXT" ]; echo $?) \
		"python3 os.mkdir (drive's), os.rename, os.remove, os.rmdir in the tree: $out"
	ok $([ -f $D/PYDIR/B.TXT ] && [ "$(ls $D/PYDIR)" = B.TXT ] &&
		[ "$(stat -c %u $D/PYDIR/B.TXT)" = 1001 ]; echo $?) "python3: as root, PYDIR holds B.TXT only"
	# subprocess under exec = keep: a command, and one through the shell, in the tree.
	rm -f $D/sub/SUBPROC.TXT
	out=$($CB --profile $O/keep.ini -- /usr/bin/python3.11 -I -S \
		/credbox/transparent/tp-subprocess.py 2>$O/err)
	sed 's/^/# python stderr: /' $O/err
	ok $([ "$out" = "0 nested hello
0 NESTED.TXT SUBPROC.TXT" ] && [ "$(stat -c %u $D/sub/SUBPROC.TXT)" = 1001 ]; echo $?) \
		"python3 subprocess.run of cat, and of a shell command line, from a working directory in the tree: $(echo $out)"
else
	echo "ok - python3 # SKIP /usr/bin/python3.11 missing"
fi

# Shell scripts as the program (exec = keep): cd, a redirection, commands it starts.
for sh in /gnu/bin/bash /bin/sh; do
	name=${sh##*/}
	[ -x $sh ] || { echo "ok - $name script # SKIP $sh missing"; continue; }
	rm -f $D/sub/$name.TXT
	out=$($CB --profile $O/keep.ini -- $sh /credbox/transparent/tp-script.sh $name 2>$O/err)
	sed 's/^/# script stderr: /' $O/err
	ok $([ "$(echo $out)" = "nested from $name NESTED.TXT $name.TXT" ] &&
		[ "$(stat -c %u $D/sub/$name.TXT)" = 1001 ]; echo $?) \
		"a $name script: cd into the tree, cat, a redirection, ls: $(echo $out)"
done
# Debian's DOSBox, unmodified (conf/dosbox.ini).
sh /credbox/transparent/dosbox-session.sh >$O/dosbox 2>&1
sed -e '/^ok - /b' -e '/^not ok - /b' -e 's/^/# /' $O/dosbox
echo "@@tp-done"
