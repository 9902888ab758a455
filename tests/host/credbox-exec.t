#!/bin/bash
# credbox-exec.t: credbox starts the program as execve(2) would start it for the sandboxed
# identity, on the host (stock kernel, no grants). Each case runs twice where it can: through
# credbox as root, and with execve as that identity (setpriv, the control), and both must end
# the same way:
#   - the program, a script's #! interpreters and the ELF interpreter are opened as the
#     sandboxed user: one only root can reach gives 126, a FIFO in their place never hangs;
#   - #! scripts run with the interpreter, its argument and the script's path;
#   - fds 0, 1 and 2 closed: the program finds /dev/null there (and glibc does not kill it);
#   - a small stack (ulimit -s 100) with long arguments: credbox does not crash.
set -u
cd "$(dirname "$0")/../.." || exit 1
CB=$PWD/build/credbox
LT=$PWD/build/tests/loader
n=0 failed=0
ok() {	# ok STATUS DESCRIPTION [DIAGNOSTIC]
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
		[ -n "${3:-}" ] && printf '%s\n' "$3" | sed 's/^/# /'
	fi
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }

. tests/host/built.sh
built "$CB" "$LT/loader-mkelf"
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP credbox runs as root"
	exit 0
fi
have_setpriv=0
setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null && have_setpriv=1

# $T is searchable by everyone; $T/pub is the sandbox's (read-only), $T/private root's alone.
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
chmod 755 "$T"
mkdir -m 755 "$T/pub" "$T/corpus" && mkdir -m 700 "$T/private"
"$LT/loader-mkelf" "$T/corpus" >/dev/null
cat >"$T/exec.ini" <<EOF
[program]
command_line = program

[identity]
user = nobody
group = nogroup

[filesystem]
ro = /usr, /bin, /lib, -/lib64, -/sbin, /etc, /proc, $T/pub
rw = /dev/null
landlock = best-effort

[seccomp]
policy = deny-list
deny = @mount
EOF

# both DESCRIPTION STATUS MESSAGE -- PROGRAM [ARG...]: credbox exits STATUS (within 10 s) with
# MESSAGE on stderr (empty: any), and so does execve as nobody; the output is the same.
both() {
	local what=$1 want=$2 msg=$3 out got ctl=- cout=
	shift 4
	out=$(timeout 10 "$CB" --profile "$T/exec.ini" -- "$@" 2>"$T/err")
	got=$?
	if [ $have_setpriv = 1 ]; then
		# setpriv keeps root's effective capabilities up to its own execve: sh runs without
		cout=$(timeout 10 setpriv --reuid=nobody --regid=nogroup --clear-groups -- \
			/bin/sh -c 'exec "$@"' sh "$@" 2>/dev/null)
		ctl=$?
	fi
	[ "$got" = "$want" ] && { [ -z "$msg" ] || grep -qF -- "$msg" "$T/err"; } &&
		{ [ $have_setpriv = 0 ] || { [ "$ctl" = "$want" ] && [ "$cout" = "$out" ]; }; }
	ok $? "$what: $want${msg:+, \"$msg\"}" "credbox: $got: $out $(cat "$T/err")
execve as nobody: $ctl: $cout"
}

# ---- the ELF interpreter and the program, opened as the sandboxed user -----------------------
cp "$T/corpus/good-dyn" "$T/pub/interp"
cp "$T/corpus/good-dyn" "$T/private/interp"
"$LT/loader-mkelf" --interp "$T/pub/interp" "$T/pub/prog" >/dev/null
"$LT/loader-mkelf" --interp "$T/private/interp" "$T/pub/prog-private-interp" >/dev/null
"$LT/loader-mkelf" --interp "$T/pub/fifo" "$T/pub/prog-fifo-interp" >/dev/null
mkfifo -m 666 "$T/pub/fifo"
both "control: a PT_INTERP the sandbox can reach runs it (exit 7)" 7 "" -- "$T/pub/prog"
both "a PT_INTERP only root can reach" 126 \
	"interpreter $T/private/interp: Permission denied" -- "$T/pub/prog-private-interp"
both "a PT_INTERP naming a FIFO, refused at once" 126 "not a regular file" -- \
	"$T/pub/prog-fifo-interp"
cp /bin/true "$T/private/true"
both "a program (mode 755) in a directory only root can search" 126 "Permission denied" -- \
	"$T/private/true"
both "the program a FIFO" 126 "not a regular file" -- "$T/pub/fifo"

# ---- #! scripts ---------------------------------------------------------------------------------
printf '#!/bin/sh -e\necho "uid $(id -u): $0 [$1] [$2]"\nexit 3\n' >"$T/pub/hello.sh"
chmod 755 "$T/pub/hello.sh"
both "a #! script runs as execve runs it" 3 "" -- "$T/pub/hello.sh" one "two words"
out=$("$CB" --profile "$T/exec.ini" -- "$T/pub/hello.sh" one 2>&1)
[ "$out" = "uid 65534: $T/pub/hello.sh [one] []" ]
ok $? "the script sees its path as \$0 and runs as nobody" "$out"
out=$(cd "$T/pub" && "$CB" --profile "$T/exec.ini" -- ./hello.sh one 2>&1)
[ "$out" = "uid 65534: $T/pub/hello.sh [one] []" ]
ok $? "a script named relative to credbox's directory (the program starts in /)" "$out"
(cd "$T/pub" && "$CB" --profile "$T/exec.ini" -- ./prog 2>/dev/null)
rc=$?
ok $([ $rc = 7 ]; echo $?) "an ELF program named relative to credbox's directory (got $rc)"
printf '#!/bin/echo  one argument \n' >"$T/pub/echo"
chmod 755 "$T/pub/echo"
both "#! with an argument" 0 "" -- "$T/pub/echo" x
cp /bin/sh "$T/private/sh"
printf '#!%s\necho ran\n' "$T/private/sh" >"$T/pub/private-sh"
chmod 755 "$T/pub/private-sh"
both "#! naming an interpreter only root can reach" 126 \
	"interpreter $T/private/sh: Permission denied" -- "$T/pub/private-sh"
printf '#!/bin/sh\necho ran\n' >"$T/pub/root-only.sh"
chmod 700 "$T/pub/root-only.sh"
both "a script only root may execute" 126 "Permission denied" -- "$T/pub/root-only.sh"
printf '#!%s/pub/fifo\n' "$T" >"$T/pub/fifo.sh"
chmod 755 "$T/pub/fifo.sh"
both "#! naming a FIFO" 126 "not a regular file" -- "$T/pub/fifo.sh"

# ---- closed fds 0-2: /dev/null there, or glibc (secure mode) kills the program at start -------
"$CB" --profile "$T/exec.ini" -- /bin/cat <&- >"$T/out" 2>&1
rc=$?
ok $([ $rc = 0 ] && [ ! -s "$T/out" ]; echo $?) \
	"stdin closed: the program runs, reads EOF (got $rc)" "$(cat "$T/out")"
out=$("$CB" --profile "$T/exec.ini" -- /bin/sh -c \
	'[ /proc/self/fd/0 -ef /dev/null ] && [ /proc/self/fd/1 -ef /dev/null ] && echo yes >&2' \
	2>&1 <&- >&-)
[ "$out" = yes ]
ok $? "stdin and stdout closed: both are /dev/null for the program" "$out"
# A program without libc: glibc in secure mode would itself reopen a closed 2 on /dev/null.
cp "$LT/probe-bare" "$T/pub/bare"
out=$("$CB" --profile "$T/exec.ini" -- "$T/pub/bare" 2>&-)
case $out in *" fd2_rdev=0x103"*) r=0 ;; *) r=1 ;; esac	# /dev/null is device 1:3
ok $r "stderr closed: it is /dev/null for a program without libc" "$out"

# ---- a small stack: credbox keeps its large structures off it ---------------------------------
big=()
for i in $(seq 600); do big+=("$(printf "%0100d" "$i")"); done
for kb in 30 60; do
	args=("${big[@]:0:$((kb * 10))}")
	a=$(bash -c 'ulimit -s 100; exec "$@"' _ /bin/echo "${args[@]}" 2>&1)
	b=$(bash -c 'ulimit -s 100; exec "$@"' _ "$CB" --profile "$T/exec.ini" -- /bin/echo \
		"${args[@]}" 2>&1)
	rc=$?
	[ $rc = 0 ] && [ "$a" = "$b" ]
	ok $? "ulimit -s 100 and $kb KB of arguments: credbox runs the program (got $rc)" \
		"${b:0:300}"
done

[ $have_setpriv = 1 ] || skip "execve as nobody as the control" "setpriv cannot switch to nobody"
echo "1..$n"
[ $failed -eq 0 ]
