#!/bin/bash
# credbox-cli.t: credbox as an admin runs it on the host (stock kernel): bad profiles stop
# everything with the exact message and exit 125, the filter's PFC dump, --check, runs of
# real programs through the loader with their exit status, 126/127, the filter probe.
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
CB=$ROOT/build/credbox
P=$ROOT/tests/host/profiles
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. tests/host/reach.sh
PROBE=$(reach "$ROOT/build/tests/host/sysprobe")	# run as nobody
n=0 failed=0

ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }

# ---- bad profiles: exact message, 125, nothing opened, dropped or run --------------------
have_strace=0
command -v strace >/dev/null && strace -f -qq -o /dev/null true 2>/dev/null && have_strace=1
# The marker of a run is a line on stdout, which no profile can keep the program from writing.
RUN=(/bin/sh -c 'echo RAN')
"$CB" --profile conf/minimal.ini -- "${RUN[@]}" >"$TMP/out" 2>&1
ok $(grep -qx RAN "$TMP/out"; echo $?) "control: a profile that runs the program leaves the marker"
for ini in "$P"/bad-*.ini; do
	name=$(basename "$ini")
	(cd "$P" && "$CB" --profile "./$name" -- "${RUN[@]}" >"$TMP/out" 2>"$TMP/err.raw")
	rc=$?
	sed 's|^\./||' "$TMP/err.raw" >"$TMP/err"	# the *.err files name the profile without ./
	ok $([ $rc -eq 125 ]; echo $?) "$name: exit 125 (got $rc)"
	diff -u "${ini%.ini}.err" "$TMP/err" >"$TMP/diff"
	ok $? "$name: the exact messages"
	[ -s "$TMP/diff" ] && sed 's/^/# /' "$TMP/diff"
	ok $(! grep -q RAN "$TMP/out"; echo $?) "$name: nothing run"
	if [ $have_strace = 1 ]; then
		(cd "$P" && strace -f -qq -o "$TMP/trace" -e trace=execve,openat2,setgroups,setresuid,setresgid,setuid,prctl,seccomp,landlock_restrict_self \
			"$CB" --profile "./$name" -- "${RUN[@]}" >/dev/null 2>&1)
		# one execve (credbox itself); no open with O_CRED_ALLOW, no id change, no filter
		# (libcap-ng's constructor reads capabilities with PR_GET/READ prctls: harmless)
		bad=$(grep -cE 'openat2|setgroups|setres[ug]id|setuid\(|prctl\(PR_(SET|CAP_AMBIENT_RAISE)|seccomp|landlock_restrict' "$TMP/trace")
		execs=$(grep -c 'execve(' "$TMP/trace")
		ok $([ "$bad" -eq 0 ] && [ "$execs" -eq 1 ]; echo $?) \
			"$name: no openat2, id change, prctl, seccomp or Landlock call; one execve (strace)"
	else
		skip "$name: strace check" "strace cannot run here"
	fi
done

# ---- refused while applying: the profile's line, the problem in words, the fix ------------
# apply-*.ini are valid profiles that this system refuses; *.err: the exact messages.
while read -r name want; do
	(cd "$P" && "$CB" --profile "./$name.ini" -- "${RUN[@]}" >"$TMP/out" 2>"$TMP/err.raw")
	rc=$?
	sed 's|^\./||' "$TMP/err.raw" >"$TMP/err"
	diff -u "$P/$name.err" "$TMP/err" >"$TMP/diff"
	ok $([ $rc -eq "$want" ] && [ ! -s "$TMP/diff" ] && ! grep -q RAN "$TMP/out"; echo $?) \
		"$name.ini: exit $want (got $rc), nothing run, the exact messages"
	[ -s "$TMP/diff" ] && sed 's/^/# /' "$TMP/diff"
done <<'EOF_APPLY'
apply-missing-path 125
apply-no-program 127
apply-bad-cwd 125
EOF_APPLY

# ---- --check: what a run checks before its first change, and its verdict ------------------
# The same profiles: --check exits 125 with exactly the run's messages.
for name in apply-missing-path apply-no-program; do
	(cd "$P" && "$CB" --profile "./$name.ini" --check -- /bin/true >"$TMP/out" 2>"$TMP/err.raw")
	rc=$?
	sed 's|^\./||' "$TMP/err.raw" >"$TMP/err"
	diff -u "$P/$name.err" "$TMP/err" >"$TMP/diff"
	ok $([ $rc -eq 125 ] && [ ! -s "$TMP/diff" ] &&
	     grep -qx 'result      a run would stop here (exit 125)' "$TMP/out"; echo $?) \
		"--check $name.ini: 125 (got $rc), the run's messages, the verdict"
	[ -s "$TMP/diff" ] && sed 's/^/# /' "$TMP/diff"
done
# A missing path stops a run before the privilege drop (it was found by Landlock, after it).
if [ $have_strace = 1 ]; then
	(cd "$P" && strace -f -qq -o "$TMP/trace" -e trace=setgroups,setresuid,setresgid,prctl \
		"$CB" --profile ./apply-missing-path.ini -- /bin/true 2>/dev/null)
	ok $(! grep -qE 'setgroups|setres[ug]id|prctl\(PR_(SET|CAPBSET_DROP)' "$TMP/trace"; echo $?) \
		"a missing [filesystem] path stops a run before any privilege is dropped (strace)"
else
	skip "missing path before the drop" "strace cannot run here"
fi
"$CB" --profile conf/minimal.ini --check -- /bin/true >"$TMP/out" 2>"$TMP/err"; rc=$?
ok $([ $rc -eq 0 ] && [ ! -s "$TMP/err" ] &&
     [ "$(tail -n 1 "$TMP/out")" = "result      a run would start" ]; echo $?) \
	"--check with a program that would run: 0, \"a run would start\" (got $rc)"
"$CB" --profile conf/minimal.ini --check >"$TMP/out" 2>"$TMP/err"; rc=$?
ok $([ $rc -eq 0 ] && grep -q '^not checked: the program' "$TMP/out"; echo $?) \
	"--check without the program the command line names: 0, and says it was not checked"
# A program the run refuses with 126: --check says the same, with 125.
chmod 755 "$TMP" && mkdir -m 755 "$TMP/progs"	# reachable by the sandboxed user
cp /bin/true "$TMP/progs/rootonly" && chmod 700 "$TMP/progs/rootonly"
printf '\177ELF, but not really\n' >"$TMP/progs/notelf" && chmod 755 "$TMP/progs/notelf"
for prog in rootonly notelf; do
	"$CB" --profile conf/minimal.ini -- "$TMP/progs/$prog" >/dev/null 2>"$TMP/run.err"; runrc=$?
	"$CB" --profile conf/minimal.ini --check -- "$TMP/progs/$prog" >/dev/null 2>"$TMP/err"; rc=$?
	ok $([ $runrc -eq 126 ] && [ $rc -eq 125 ] && [ -s "$TMP/err" ] &&
	     cmp -s "$TMP/run.err" "$TMP/err"; echo $?) \
		"--check -- $prog: 125 with the messages of the run, which gives $runrc"
	sed 's/^/# /' "$TMP/err"
done
if command -v setpriv >/dev/null; then
	CBN=$(reach "$CB") MIN=$(reach conf/minimal.ini)	# credbox and the profile, as nobody
	setpriv --reuid=65534 --regid=65534 --clear-groups "$CBN" --profile "$MIN" \
		--check -- /bin/true >"$TMP/out" 2>"$TMP/err"; rc=$?
	ok $([ $rc -eq 0 ] && grep -q '^not checked without root' "$TMP/out"; echo $?) \
		"--check unprivileged: 0, saying what only root can check (got $rc)"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$CBN" --profile "$MIN" \
		--check -- /no/such/prog >/dev/null 2>"$TMP/err"; rc=$?
	ok $([ $rc -eq 125 ] && grep -q 'does not exist' "$TMP/err"; echo $?) \
		"--check unprivileged still finds a missing program (got $rc)"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$CBN" --profile "$MIN" \
		-- /bin/true 2>"$TMP/err"; rc=$?
	ok $([ $rc -eq 125 ] && [ "$(head -n 1 "$TMP/err")" = "credbox: must be started as root (it opens each grant as its owner, then drops to the profile's user)" ] &&
	     grep -qx "hint: credbox --profile $MIN --check checks a profile without root" "$TMP/err"; echo $?) \
		"a run started unprivileged: says first that it needs root, and that --check does not"
	sed 's/^/# /' "$TMP/err"
else
	for i in 1 2 3; do skip "unprivileged" "no setpriv"; done
fi

# (which profiles root trusts: profile-files.t)

# ---- options -------------------------------------------------------------------------------
"$CB" --help >"$TMP/out"; rc=$?
ok $([ $rc -eq 0 ] && grep -q -- '--print-filter' "$TMP/out"; echo $?) "--help"
"$CB" --version | grep -q '^credbox '; ok $? "--version"
"$CB" --frobnicate 2>/dev/null; ok $([ $? -eq 125 ]; echo $?) "unknown option: 125"
"$CB" /bin/true 2>/dev/null; ok $([ $? -eq 125 ]; echo $?) "no --profile: 125"
"$CB" --profile "$P/probe.ini" --check --print-filter 2>/dev/null
ok $([ $? -eq 125 ]; echo $?) "two modes: 125"
# as getopt_long(3) parses: an argument joined to its option, grouped short options, unique
# prefixes of long options; stop at the program
"$CB" -pconf/minimal.ini -c >"$TMP/out" 2>&1; rc=$?
ok $([ $rc -eq 0 ] && grep -q '^program' "$TMP/out"; echo $?) "-pFILE -c (got $rc)"
"$CB" -hV >"$TMP/out" 2>&1; rc=$?
ok $([ $rc -eq 0 ] && grep -q '^usage: credbox' "$TMP/out"; echo $?) "-hV: the help, which wins"
"$CB" --prof=conf/minimal.ini --che >"$TMP/out" 2>&1; rc=$?
ok $([ $rc -eq 0 ] && grep -q '^program' "$TMP/out"; echo $?) "unique prefixes: --prof=FILE --che"
"$CB" --pr conf/minimal.ini 2>"$TMP/err"; rc=$?
ok $([ $rc -eq 125 ] && grep -q "^credbox: option '--pr' is ambiguous" "$TMP/err"; echo $?) \
	"an ambiguous prefix: 125, and which options it could be"
out=$("$CB" -p conf/minimal.ini /bin/echo -p -c); rc=$?
ok $([ $rc -eq 0 ] && [ "$out" = "-p -c" ]; echo $?) "options after the program are its own"
"$CB" -p conf/minimal.ini --profile "$P/probe.ini" -- /bin/true 2>"$TMP/err"; rc=$?
ok $([ $rc -eq 125 ] && grep -qx 'credbox: --profile given twice ("conf/minimal.ini", then ".*probe.ini")' "$TMP/err"; echo $?) \
	"--profile twice: 125, naming both (got $rc)"
"$CB" -p '' -- /bin/true 2>"$TMP/err"; rc=$?
ok $([ $rc -eq 125 ] && grep -q '^credbox: --profile needs a file or a profile name, not an empty word' "$TMP/err"; echo $?) \
	"-p '': 125, and what it needs (got $rc)"

# ---- --check and --print-filter ------------------------------------------------------------
env -i "$CB" --profile conf/minimal.ini --check >"$TMP/out"; rc=$?
ok $([ $rc -eq 0 ] && grep -q '^granted directories' "$TMP/out" &&
     grep -q 'none: runs on any kernel' "$TMP/out" && grep -q '^this kernel' "$TMP/out"
     echo $?) "--check conf/minimal.ini prints the plan and the kernel's features"
"$CB" --profile "$P/grants.ini" --check >"$TMP/out" 2>"$TMP/err"; rc=$?
ok $(grep -qE '^  tmp +3  ro +refused +/tmp' "$TMP/out"; echo $?) \
	"--check shows the grant table (name, fd, access, symlinks, path)"
if ! grep -q '^  O_CRED_ALLOW  available' "$TMP/out"; then
	grep -q 'a run stops before any change (exit 125)' "$TMP/out" &&
		[ $rc -eq 125 ] && grep -q 'this kernel lacks O_CRED_ALLOW' "$TMP/err"
	ok $? "--check says that a run would stop on this kernel, and exits 125 (got $rc)"
else
	skip "--check on a kernel without O_CRED_ALLOW" "this kernel has it"
fi
grep -qE '^  directory ops (available|missing \(unlinkat refuses AT_CRED_INHERIT\))' "$TMP/out"
ok $? "--check says whether the kernel has the directory operations"
"$CB" --profile conf/minimal.ini --print-filter >"$TMP/pfc"; rc=$?
ok $([ $rc -eq 0 ] && grep -q '^# credbox filter 2 of 2' "$TMP/pfc"; echo $?) "--print-filter"
ver=$(pkg-config --modversion libseccomp 2>/dev/null)
if [ "$(uname -m)" = x86_64 ] && [ "$ver" = 2.5.4 ]; then
	diff -u tests/host/golden/minimal.pfc "$TMP/pfc" >"$TMP/diff"
	ok $? "--print-filter conf/minimal.ini matches golden/minimal.pfc"
	[ -s "$TMP/diff" ] && head -40 "$TMP/diff" | sed 's/^/# /'
else
	skip "--print-filter golden" "golden made on x86_64 with libseccomp 2.5.4"
fi

# ---- runs: the loader starts real programs; exit statuses -----------------------------------
out=$("$CB" --profile conf/minimal.ini -- /bin/echo hello world); rc=$?
ok $([ $rc -eq 0 ] && [ "$out" = "hello world" ]; echo $?) "/bin/echo through credbox"
"$CB" --profile conf/minimal.ini -- /bin/sh -c 'exit 7'; rc=$?
ok $([ $rc -eq 7 ]; echo $?) "the program's exit status (7, got $rc)"
out=$("$CB" --profile conf/minimal.ini -- /usr/bin/id -u); rc=$?
ok $([ $rc -eq 0 ] && [ "$out" = 65534 ]; echo $?) "runs as nobody"
"$CB" --profile conf/minimal.ini -- /nonexistent/prog 2>"$TMP/err"; rc=$?
ok $([ $rc -eq 127 ]; echo $?) "program not found: 127 (got $rc)"
"$CB" --profile conf/minimal.ini -- no-such-program-anywhere 2>/dev/null; rc=$?
ok $([ $rc -eq 127 ]; echo $?) "program not found in PATH: 127"
"$CB" --profile conf/minimal.ini -- /etc/hostname 2>/dev/null; rc=$?
ok $([ $rc -eq 126 ]; echo $?) "not executable: 126 (got $rc)"
printf 'this is not an ELF file\n' >"$TMP/notelf" && chmod 755 "$TMP/notelf"
"$CB" --profile conf/minimal.ini -- "$TMP/notelf" 2>/dev/null; rc=$?
ok $([ $rc -eq 126 ]; echo $?) "not an ELF file: 126 (got $rc)"
cp /bin/true "$TMP/rootonly" && chmod 700 "$TMP/rootonly"
"$CB" --profile conf/minimal.ini -- "$TMP/rootonly" 2>/dev/null; rc=$?
ok $([ $rc -eq 126 ]; echo $?) "executable by root only, not by the sandbox: 126"
(cd "$P" && "$CB" --profile ./grants.ini -- "${RUN[@]}" >"$TMP/out" 2>"$TMP/err.raw")
rc=$?
sed 's|^\./||' "$TMP/err.raw" >"$TMP/err"
if grep -q 'O_CRED_ALLOW' "$TMP/err"; then
	diff -u - "$TMP/err" >"$TMP/diff" <<-'EOF_ERR'
	grants.ini:7: [dir tmp]: this kernel lacks O_CRED_ALLOW (openat2 refuses the flag), which a cred-fd grant needs
	hint: boot a kernel with the credbox series (kernel-patches/), or set "method = auto" to grant it by an ID-mapped mount here
	EOF_ERR
	ok $([ $rc -eq 125 ] && ! grep -q RAN "$TMP/out" && [ ! -s "$TMP/diff" ]; echo $?) \
		"grants on a kernel without O_CRED_ALLOW: 125, nothing run, the [dir] line and a hint"
	[ -s "$TMP/diff" ] && sed 's/^/# /' "$TMP/diff"
else
	skip "grants on a kernel without O_CRED_ALLOW" "this kernel has it"
fi

# ---- --verbose: one summary on stderr of what was applied, just before the program starts ------
"$CB" --verbose --profile conf/minimal.ini -- /bin/sh -c 'echo from the program >&2' 2>"$TMP/err"
rc=$?
ok $([ $rc -eq 0 ] && [ "$(head -n 1 "$TMP/err")" = "credbox: applied conf/minimal.ini: the program runs as nobody (uid 65534, gid 65534)," ] &&
     grep -q '^credbox:   seccomp: the profile.s deny-list' "$TMP/err" &&
     [ "$(tail -n 2 "$TMP/err" | head -n 1)" = "credbox:   starting /bin/sh -c echo from the program >&2" ] &&
     [ "$(tail -n 1 "$TMP/err")" = "from the program" ]; echo $?) \
	"--verbose: the summary, ending with the command, then the program's own output (got $rc)"
sed 's/^/# /' "$TMP/err"
"$CB" --profile conf/minimal.ini -- /bin/sh -c 'echo from the program >&2' 2>"$TMP/err"
ok $([ "$(cat "$TMP/err")" = "from the program" ]; echo $?) "without --verbose: not a word"
"$CB" -v --profile conf/minimal.ini -- /no/such/program 2>"$TMP/err"; rc=$?
ok $([ $rc -eq 127 ] && ! grep -q applied "$TMP/err"; echo $?) \
	"--verbose and a run that stops: no summary, only the error (got $rc)"

# ---- the filter probe: denied system calls fail as configured --------------------------------
# expect PROFILE: stdin holds "call result" lines that sysprobe must print under PROFILE
expect() {
	while read -r call want; do
		got=$(awk -v c="$call" '$1 == c { print $2 }' "$TMP/probe")
		ok $([ "$got" = "$want" ]; echo $?) \
			"under $1: $call -> $want (got ${got:-nothing})"
	done
}
"$CB" --profile "$P/probe.ini" -- "$PROBE" >"$TMP/probe" 2>&1; rc=$?
ok $rc "sysprobe ran under probe.ini"
expect probe.ini <<'EOF_EXPECT'
ptrace EPERM
prctl_dumpable EPERM
prctl_dumpable_hi EPERM
prctl_name ok
unshare_user EPERM
clone3 ENOSYS
io_uring_setup EPERM
bpf EPERM
userfaultfd EPERM
personality_norandom EPERM
personality_query ok
personality_linux ok
personality_linux32 EPERM
personality_bsd EPERM
personality_query_hi ok
tiocsti EPERM
mount EPERM
keyctl EPERM
pidfd_getfd EPERM
process_vm_readv EPERM
socket EAFNOSUPPORT
fdatasync EIO
getpid ok
EOF_EXPECT
grep -qx 'fds 0 1 2' "$TMP/probe"; ok $? "the program finds only fds 0, 1, 2"
grep -qx 'uid 65534 gid 65534' "$TMP/probe"; ok $? "the program runs as nobody:nogroup"
grep -qx 'env CREDBOX_DIRS=' "$TMP/probe"; ok $? "CREDBOX_DIRS is set (empty: no grants)"
# An allow-list with action = errno: its errno (EIO) for what it does not allow, always-denied
# calls included (credbox.ini(5), ALWAYS DENIED); credbox's errno for what it allows.
"$CB" --profile "$P/probe-errno.ini" -- "$PROBE" >"$TMP/probe" 2>&1; rc=$?
ok $rc "sysprobe ran under probe-errno.ini"
expect probe-errno.ini <<'EOF_EXPECT'
ptrace EIO
mount EIO
clone3 EIO
keyctl EROFS
prctl_dumpable EPERM
tiocsti EPERM
prctl_name ok
getpid ok
EOF_EXPECT
("$CB" --profile "$P/probe.ini" -- "$PROBE" kill >"$TMP/out" 2>&1) 2>/dev/null; rc=$?
ok $([ $rc -eq $((128 + 31)) ] && ! grep -q 'still alive' "$TMP/out"; echo $?) \
	"action = kill: a denied call (@clock) kills the program with SIGSYS"

# ---- a read-only grant that nothing would enforce (issue 11.7) --------------------------------
# nolandlock runs credbox as on a kernel without Landlock; "landlock = best-effort" does not
# make an ro grant acceptable: the fd carries its owner's credentials, which may write.
NOLL=$ROOT/build/tests/host/nolandlock
(cd "$P" && "$NOLL" "$CB" --profile ./nolandlock-ro.ini -- /bin/true 2>"$TMP/err.raw")
rc=$?
sed 's|^\./||' "$TMP/err.raw" >"$TMP/err"
diff -u "$P/nolandlock-ro.err" "$TMP/err" >"$TMP/diff"
ok $([ $rc -eq 125 ] && [ ! -s "$TMP/diff" ]; echo $?) \
	"an ro grant without Landlock, landlock = best-effort: 125, the access line, why (got $rc)"
[ -s "$TMP/diff" ] && sed 's/^/# /' "$TMP/diff"
sed 's/^access = ro$/access = rw/' "$P/nolandlock-ro.ini" >"$TMP/nolandlock-rw.ini"
"$NOLL" "$CB" --profile "$TMP/nolandlock-rw.ini" -- /bin/true 2>"$TMP/err"
ok $(! grep -q 'access' "$TMP/err"; echo $?) \
	"... the same grant rw: not refused for want of Landlock"

# ---- where the program starts: working directory, umask, session, terminal ------------------
# status_of OUT CMD...: how CMD ended ("exit N" or "signal N"), its output in OUT, started as a
# process group leader as an interactive shell starts a job: setsid(2) refuses a group leader.
status_of() {
	perl -e 'my $out = shift; my $p = fork;
		 if (!$p) { open(STDOUT, ">", $out); open(STDERR, ">&STDOUT"); setpgrp(0, 0);
			    exec @ARGV; exit 127 }
		 waitpid($p, 0); print(($? & 127) ? "signal " . ($? & 127) : "exit " . ($? >> 8))' \
		-- "$@"
}
(cd "$TMP" && umask 022 && "$CB" --profile "$P/probe.ini" -- "$PROBE") >"$TMP/where" 2>&1
grep -qx 'cwd /' "$TMP/where"; ok $? "the program starts in /, not in credbox's working directory"
grep -qx 'umask 0077' "$TMP/where"; ok $? "the program's umask is 0077, not the caller's 0022"
grep -qx 'session own' "$TMP/where"; ok $? "the program has a session of its own"
"$CB" --profile "$P/probe-terminal.ini" -- "$PROBE" >"$TMP/where" 2>&1
ok $(grep -qx 'cwd /usr' "$TMP/where" && grep -qx 'umask 0027' "$TMP/where" &&
     grep -qx 'session inherited' "$TMP/where"; echo $?) \
	"cwd = /usr, umask = 027, new_session = no: as the profile says"
got=$(status_of "$TMP/where" "$CB" --profile "$P/probe.ini" -- "$PROBE")
ok $([ "$got" = "exit 0" ] && grep -qx 'session own' "$TMP/where"; echo $?) \
	"credbox as a process group leader: the program still gets a session of its own ($got)"
got=$(status_of /dev/null "$CB" --profile conf/minimal.ini -- /bin/sh -c 'exit 7')
ok $([ "$got" = "exit 7" ]; echo $?) "... and its exit status is passed on ($got)"
got=$(status_of /dev/null "$CB" --profile "$P/probe.ini" -- "$PROBE" kill)
ok $([ "$got" = "signal 31" ]; echo $?) "... and its death by SIGSYS too ($got)"
start=$SECONDS
got=$(perl -e 'my $p = fork; if (!$p) { setpgrp(0, 0); exec @ARGV; exit 127 }
	       sleep 1; kill "TERM", $p; waitpid($p, 0); print "status $?"' \
	-- "$CB" --profile conf/minimal.ini -- /bin/sleep 30)
ok $([ "$got" = "status 15" ] && [ $((SECONDS - start)) -lt 20 ]; echo $?) \
	"... and a SIGTERM sent to credbox's pid reaches the program ($got)"
if script -qec true /dev/null >/dev/null 2>&1 </dev/null; then
	script -qec "$CB --profile $P/probe.ini -- $PROBE" /dev/null </dev/null 2>&1 |
		tr -d '\r' >"$TMP/where"
	grep -qx 'tty not controlling' "$TMP/where"
	ok $? "on a terminal (script(1)): the terminal is not the program's controlling one"
	script -qec "$CB --profile $P/probe-terminal.ini -- $PROBE" /dev/null </dev/null 2>&1 |
		tr -d '\r' >"$TMP/where"
	grep -qx 'tty controlling' "$TMP/where"
	ok $? "on a terminal, new_session = no: the program keeps the controlling terminal"
else
	skip "the program on a terminal" "script(1) cannot run here"
	skip "the program on a terminal, new_session = no" "script(1) cannot run here"
fi

# ---- a writable path on a tree's filesystem (issue 10) ----------------------------------------
# The program could hard-link a file it makes through the grant (the owner's) into a directory
# it may write, on the same filesystem, when it can also reach the tree by path.
L=$TMP/linkout
mkdir -p "$L/tree" "$L/w"
chmod 0755 "$TMP" "$L" "$L/tree"; chmod 1777 "$L/w"; chown daemon "$L/tree"
cat >"$L/p.ini" <<EOF_INI
[program]
command_line = program
[identity]
user = nobody
group = nogroup
[dir t]
path = $L/tree
owner = daemon
access = rw
[filesystem]
rw = /dev/null, $L/w
[seccomp]
policy = deny-list
EOF_INI
chmod 0644 "$L/p.ini"
"$CB" --profile "$L/p.ini" -- /bin/true 2>"$TMP/err"; rc=$?
ok $([ $rc -eq 125 ] && grep -qx "$L/p.ini:11: \[filesystem\] rw = $L/w is on the filesystem of \[dir t\] ($L/tree), which nobody can reach by path: it could hard-link a file it makes through the grant, owned by daemon, into $L/w" "$TMP/err" &&
     grep -q '^hint: make the tree.s top directory one only its owner can search' "$TMP/err"; echo $?) \
	"a writable path on the filesystem of a tree the program can reach by path: 125, why, the fix (got $rc)"
sed 's/^/# /' "$TMP/err"
chmod 0700 "$L/tree"
"$CB" --profile "$L/p.ini" -- /bin/true 2>"$TMP/err"; rc=$?
ok $([ $rc -eq 125 ] && ! grep -q 'hard-link' "$TMP/err"; echo $?) \
	"... with the tree's top 0700 (only daemon may search it): not refused for that (got $rc)"
chmod 0700 "$TMP"

echo "1..$n"
[ $failed -eq 0 ]
