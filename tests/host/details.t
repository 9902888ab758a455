#!/bin/bash
# details.t: the smaller things an admin meets (issue 21, items 6 and 8): a profile named with
# its .ini, an empty program name, a binary file given as a profile, messages written a line
# at a time, "did you mean" for system calls and groups, a program that is neither ELF nor #!,
# where action = log logs, no empty lines in --check for what a profile does not have,
# --list-groups GROUP.
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
CB=${CREDBOX:-$ROOT/build/credbox}
P=$ROOT/tests/host/profiles
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
n=0 failed=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
chmod 755 "$TMP"
show() { sed 's/^/# /' "$1"; }

# ---- --profile NAME.ini ---------------------------------------------------------------------
cp conf/minimal.ini "$TMP/here.ini"
(cd "$TMP" && "$CB" --profile here.ini -- /bin/true 2>"$TMP/err"); rc=$?
sysconf=$("$CB" --help | sed -n 's|.*NAME of \(.*\)/credbox/NAME.ini|\1|p')
[ -n "$sysconf" ] || sysconf=/etc
ok $([ $rc -eq 125 ] && grep -qx "hint: --profile here.ini reads $sysconf/credbox/here.ini; for the file here.ini of this directory, give its path: --profile ./here.ini" "$TMP/err"; echo $?) \
	"--profile here.ini: reads $sysconf/credbox/here.ini, not here.ini.ini, and says how to give ./here.ini (got $rc)"
show "$TMP/err"
(cd "$TMP" && "$CB" --profile here -- /bin/true 2>"$TMP/err"); rc=$?
ok $([ $rc -eq 125 ] && grep -qx "hint: --profile here reads $sysconf/credbox/here.ini; for the file here.ini of this directory, give its path: --profile ./here.ini" "$TMP/err"; echo $?) \
	"--profile here, with ./here.ini beside: the same hint (got $rc)"

# ---- an empty program name -----------------------------------------------------------------
"$CB" --profile conf/minimal.ini -- '' 2>"$TMP/err"; rc=$?
printf 'credbox: the program'"'"'s name is empty\nhint: name the program after --\n' >"$TMP/want"
ok $([ $rc -eq 127 ] && cmp -s "$TMP/want" "$TMP/err"; echo $?) "an empty program name: 127, as env(1) gives (got $rc)"
show "$TMP/err"

# ---- a binary file as a profile -----------------------------------------------------------
cp /bin/true "$TMP/binary.ini" && chmod 644 "$TMP/binary.ini"
"$CB" --profile "$TMP/binary.ini" -- /bin/true 2>"$TMP/err"; rc=$?
ok $([ $rc -eq 125 ] && [ "$(wc -l <"$TMP/err")" -eq 2 ] &&
     grep -qx "$TMP/binary.ini:1: not a text file (a NUL byte)" "$TMP/err"; echo $?) \
	"an ELF file as the profile: one message and its hint, not one per line (got $rc, $(wc -l <"$TMP/err") lines)"
show "$TMP/err"
head -c 20000 /dev/urandom | tr -d '\000' >"$TMP/noise.ini"
"$CB" --profile "$TMP/noise.ini" -- /bin/true 2>"$TMP/err"; rc=$?
ok $([ $rc -eq 125 ] && [ "$(wc -l <"$TMP/err")" -le 45 ] &&
     tail -n 1 "$TMP/err" | grep -q 'more errors\? not shown (credbox stops listing at 20)$'; echo $?) \
	"random bytes without NUL: 20 messages at most, then how many more (got $rc, $(wc -l <"$TMP/err") lines)"

# ---- stderr a line at a time ------------------------------------------------------------------
if strace -qq -o /dev/null true 2>/dev/null; then
	(cd "$P" && strace -qq -e trace=write -e signal=none -o "$TMP/trace" \
		"$CB" --profile ./apply-missing-path.ini -- /bin/true 2>"$TMP/err")
	writes=$(grep -c '^write(2, ' "$TMP/trace")
	ok $([ "$writes" -eq "$(wc -l <"$TMP/err")" ]; echo $?) \
		"a message and its hint: one write(2) a line ($writes writes for $(wc -l <"$TMP/err") lines)"
else
	skip "one write a line" "strace cannot run here"
fi

# ---- did you mean, for system calls and groups ---------------------------------------------------
printf '[program]\npath = /bin/true\n[identity]\nuser = nobody\n[seccomp]\npolicy = deny-list\ndeny = opennat\ndeny = @basic_io\ndeny = frobnicate\n' >"$TMP/typo.ini"
"$CB" --profile "$TMP/typo.ini" --check >/dev/null 2>"$TMP/err"; rc=$?
cat >"$TMP/want" <<EOF
$TMP/typo.ini:7: deny: unknown system call "opennat"
hint: did you mean "openat"?
$TMP/typo.ini:8: deny: unknown syscall group "@basic_io"
hint: did you mean "@basic-io"?
$TMP/typo.ini:9: deny: unknown system call "frobnicate"
EOF
ok $([ $rc -eq 125 ] && cmp -s "$TMP/want" "$TMP/err"; echo $?) \
	"a mistyped system call or group: did you mean the nearest (none for a word far from all)"
diff "$TMP/want" "$TMP/err" | sed 's/^/# /'

# ---- neither ELF nor #! ----------------------------------------------------------------------
printf 'echo no interpreter line\n' >"$TMP/script" && chmod 755 "$TMP/script"
"$CB" --profile conf/minimal.ini -- "$TMP/script" 2>"$TMP/err"; rc=$?
ok $([ $rc -eq 126 ] && grep -qx "credbox: $TMP/script: not an ELF file" "$TMP/err" &&
     grep -q '^hint: .*#!.*/bin/sh SCRIPT' "$TMP/err"; echo $?) \
	"a script without #!: 126, and a hint to give it to its interpreter (got $rc)"
show "$TMP/err"

# ---- where action = log logs ------------------------------------------------------------------
printf '[program]\ncommand_line = program\n[identity]\nuser = nobody\n[filesystem]\nro = /usr, /lib, /etc\n[seccomp]\npolicy = allow-list\nallow = @basic-io, @file-system, @memory, @signal\naction = log\n' >"$TMP/log.ini"
"$CB" --profile "$TMP/log.ini" --check >"$TMP/out" 2>&1
ok $(grep -qE '^  seccomp log   action = log (reaches the audit log \(.*journalctl -k.*\)|is NOT logged on this kernel): kernel.seccomp.actions_logged = ' "$TMP/out"; echo $?) \
	"--check with action = log: where the kernel logs, and whether this one does"
grep 'seccomp log' "$TMP/out" | sed 's/^/# /'

# ---- no empty lines for empty lists --------------------------------------------------------------
# The redirect runtime armed for a program that cannot execve, with no transparent grant: two of
# its three lists of calls are empty.
sed 's/^action = log$/action = kill/' "$TMP/log.ini" >"$TMP/armed.ini"
"$CB" --profile "$TMP/armed.ini" --check >"$TMP/out" 2>&1
ok $(grep -q '^redirect runtime: armed' "$TMP/out" && ! grep -qE '^ +$' "$TMP/out"; echo $?) \
	"--check of a profile the runtime is armed for, with no transparent grant and no execve: no line of blanks alone"
grep -nE '^ +$' "$TMP/out" | sed 's/^/# line /'

# ---- --list-groups GROUP ------------------------------------------------------------------------
"$CB" --list-groups @timer basic-io >"$TMP/out" 2>&1; rc=$?
ok $([ $rc -eq 0 ] && [ "$(grep -c '^@' "$TMP/out")" -eq 2 ] && grep -q '^@timer' "$TMP/out" &&
     grep -q '^@basic-io' "$TMP/out"; echo $?) "--list-groups @timer basic-io: those two groups only (got $rc)"
"$CB" --list-groups @timr >"$TMP/out" 2>"$TMP/err"; rc=$?
ok $([ $rc -eq 125 ] && [ ! -s "$TMP/out" ] && grep -qx 'hint: did you mean @timer?' "$TMP/err"; echo $?) \
	"--list-groups @timr: 125, did you mean @timer (got $rc)"

echo "1..$n"
[ $failed -eq 0 ]
