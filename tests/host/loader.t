#!/bin/bash
# loader.t: the in-process ELF loader (src/loader.c) against execve, on the host kernel.
#
# Every program runs twice, once with execve and once through build/tests/loader/loader-run
# (which uses only the loader's API), and stdout, stderr and exit status must match. Then
# checks from inside the loaded program (auxv, AT_RANDOM, fds, signals, /proc/self/maps), and
# the corpus of malformed ELF files made by loader-mkelf, each refused before anything is
# unmapped.
set -u
B=${B:-build}
LT=$B/tests/loader
RUN=$LT/loader-run
n=0
fails=0

ok() {	# ok CONDITION-STATUS DESCRIPTION [DIAGNOSTIC]
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		[ -n "${3:-}" ] && printf '%s\n' "$3" | sed 's/^/# /'
		fails=$((fails + 1))
	fi
}

# same DESCRIPTION -- COMMAND...: execve and loader give the same stdout, stderr and exit
# status (a message from the driver or the program on stderr is a difference too).
same() {
	local what=$1 a b sa sb ea eb
	shift 2
	a=$("$@" 2>"$tmp/stderr-a")
	sa=$?
	b=$("$RUN" "$@" 2>"$tmp/stderr-b")
	sb=$?
	ea=$(cat "$tmp/stderr-a")
	eb=$(cat "$tmp/stderr-b")
	[ "$a" = "$b" ] && [ "$sa" = "$sb" ] && [ "$ea" = "$eb" ]
	ok $? "$what (status $sa)" "execve: [$sa] $a${ea:+
stderr: $ea}
loader: [$sb] $b${eb:+
stderr: $eb}"
}

for bin in "$RUN" "$LT/loader-mkelf" "$LT/probe-static" "$LT/probe-bare"; do
	if [ ! -x "$bin" ]; then
		echo "1..1"
		echo "not ok 1 - $bin is built (run make check)"
		exit 1
	fi
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PROBE_VAR="value with spaces"

# ---- the suite's own programs, each way of linking --------------------------------------
for kind in static static-pie pie nopie; do
	p=$LT/probe-$kind
	same "$kind: argv and environment" -- "$p" args one "two words" ""
	same "$kind: TLS in the main thread and in threads" -- "$p" tls
	same "$kind: threads" -- "$p" threads
	same "$kind: malloc (brk heap and mmap chunks)" -- "$p" malloc
	same "$kind: errno" -- "$p" errno
	same "$kind: atexit handlers and exit status" -- "$p" atexit
	same "$kind: fork and execve of a child" -- "$p" fork
	same "$kind: exit status 42" -- "$p" exit 42
	same "$kind: /proc/self/cmdline, environ and auxv" -- "$p" procself a "b c"
	out=$("$RUN" "$p" auxv 1)
	ok $? "$kind: auxv sane from inside (getauxval, dl_iterate_phdr, AT_SECURE=1)" "$out"
	out=$("$p" auxv 0)
	ok $? "$kind: the same auxv checks pass under execve (AT_SECURE=0)" "$out"
done
same "PT_GNU_STACK without PF_X: stack not executable" -- "$LT/probe-pie" stackperm
same "PT_GNU_STACK with PF_X (-z execstack): executable stack" -- "$LT/probe-execstack" stackperm
same "no libc: FS and GS base, robust_list and clear_child_tid are 0 at _start" -- \
	"$LT/probe-bare"
if [ -x "$LT/probe-cxx" ]; then
	same "C++: static constructor, exception thrown and caught" -- "$LT/probe-cxx"
else
	ok 0 "C++ exceptions # SKIP g++ not installed"
fi

# ---- real system programs --------------------------------------------------------------
same "/bin/true" -- /bin/true
same "/bin/false" -- /bin/false
same "/bin/echo" -- /bin/echo hello "from the loader"
same "/usr/bin/env with a clean environment" -- /usr/bin/env -i A=1 B=two /usr/bin/env
same "/usr/bin/env execs env with the whole environment (bar \$_)" -- /usr/bin/env -u _ /usr/bin/env
same "ls" -- /bin/ls -a /
same "ld.so run as a program (ET_DYN without PT_INTERP)" -- \
	/lib64/ld-linux-x86-64.so.2 /bin/echo via ld.so
printf 'my @x = map { $_ * 3 } 1 .. 5;\nprint "perl: @x\\n";\nexit 3;\n' >"$tmp/s.pl"
if [ -x /usr/bin/perl ]; then
	same "perl running a script" -- /usr/bin/perl "$tmp/s.pl"
else
	ok 0 "perl running a script # SKIP no /usr/bin/perl"
fi
printf 'import sys, json\nprint(json.dumps({"argv": sys.argv[1:]}))\nsys.exit(4)\n' >"$tmp/s.py"
if [ -x /usr/bin/python3 ]; then
	same "python3 running a script" -- /usr/bin/python3 "$tmp/s.py" a b
else
	ok 0 "python3 running a script # SKIP no /usr/bin/python3"
fi

# ---- from inside -----------------------------------------------------------------------
r1=$("$RUN" "$LT/probe-static" random)
r2=$("$RUN" "$LT/probe-static" random)
[[ $r1 =~ ^[0-9a-f]{32}$ ]] && [ "$r1" != "$r2" ] && [ "$r1" != 00000000000000000000000000000000 ]
ok $? "AT_RANDOM: 16 bytes, fresh on every start" "$r1 / $r2"

# A small stack limit with long arguments: execve accepts up to 128 KiB (ARG_MAX) of them
# however small the limit, and leaves the program room below them.
big=()
for i in $(seq 600); do big+=("$(printf "%0100d" "$i")"); done
for kb in 30 60; do
	args=("${big[@]:0:$((kb * 10))}")
	a=$(bash -c 'ulimit -s 100; exec "$@"' _ "$LT/probe-pie" args "${args[@]}" 2>&1)
	sa=$?
	b=$(bash -c 'ulimit -s 100; exec "$@"' _ "$RUN" "$LT/probe-pie" args "${args[@]}" 2>&1)
	sb=$?
	[ "$sa" = 0 ] && [ "$sb" = 0 ] && [ "$a" = "$b" ]
	ok $? "ulimit -s 100 and $kb KB of arguments: as under execve" "execve: $sa ${a:0:200}
loader: $sb ${b:0:200}"
done

# ASLR: a PIE program lands at ELF_ET_DYN_BASE (0x555555554000) plus a random offset of its
# own, below 2^40 bytes above it, and its libraries in the mmap region, randomised apart from
# it: the image-to-libc distance differs on every run ("offset2lib"), under execve as well.
aslr=$(cat /proc/sys/kernel/randomize_va_space 2>/dev/null || echo 2)
for how in execve loader; do
	if [ "$aslr" = 0 ]; then
		ok 0 "$how: a PIE at ELF_ET_DYN_BASE + random # SKIP kernel.randomize_va_space = 0"
		continue
	fi
	runs=""
	for i in 1 2 3 4; do
		if [ $how = execve ]; then
			runs+=$("$LT/probe-pie" aslr)$'\n'
		else
			runs+=$("$RUN" "$LT/probe-pie" aslr)$'\n'
		fi
	done
	distinct=$(awk '{ print $6 }' <<<"$runs" | grep . | sort -u | wc -l)
	region=0
	while read -r _ img _ libc _; do
		((img >= 0x555555554000 && img < 0x555555554000 + (1 << 40) &&
		  libc >= 0x700000000000)) || region=1
	done < <(grep . <<<"$runs")
	[ "$distinct" = 4 ] && [ "$region" = 0 ]
	ok $? "$how: a PIE at ELF_ET_DYN_BASE + random, its libc in the mmap region, 4 distances" \
		"$runs"
done

out=$("$RUN" "$LT/probe-pie" fds 0 1 2 5 7 9 5</dev/null 7>/dev/null 9>&-)
[ "$out" = "fd 0 open
fd 1 open
fd 2 open
fd 5 open
fd 7 open
fd 9 closed" ]
ok $? "fds passed in are open at the same numbers, no others appear" "$out"

out=$("$RUN" --dirty-signals "$LT/probe-pie" signals)
ok $? "signals: handled -> default, ignored stays, mask empty, no altstack, name set" "$out"

for kind in static nopie pie; do
	p=$LT/probe-$kind
	[ "$kind" = static ] || same "$kind: brk heap after the image, and it grows" -- "$p" brk
	out=$("$RUN" --late-stack "$p" brk)
	[[ $out == *"sbrk grows: yes"* ]]
	ok $? "$kind: without loader_build_stack the brk heap still grows" "$out"
done

# Nothing of the driver survives the jump but the stub's page. For the static program, which
# maps nothing itself: every mapping the driver had before loading (but the kernel's vDSO) is
# gone. For both: one page of the driver, r-x, and no second libc.
drv=$(readlink -f "$RUN")
after=$("$RUN" --maps-before "$tmp/before" "$LT/probe-static" maps)
left=$(grep -v -e '\[vdso\]' -e '\[vvar' -e '\[vsyscall\]' "$tmp/before" |
	while read -r range rest; do
		grep -q "^$range " <<<"$after" && echo "$range $rest"
	done)
[ -z "$left" ] && [ "$(grep -c . "$tmp/before")" -gt 5 ]
ok $? "static: every mapping the driver had is gone after the jump" "$left"
for kind in static pie; do
	after=$("$RUN" "$LT/probe-$kind" maps)
	line=$(grep "$drv\$" <<<"$after")
	range=${line%% *}
	size=$(( 0x${range#*-} - 0x${range%-*} ))
	[ "$(grep -c "$drv\$" <<<"$after")" = 1 ] && [ "$size" = 4096 ] && [[ $line == *" r-xp "* ]]
	ok $? "$kind: what remains of the driver is one r-x page (the stub)" "$after"
	libc=$(grep -c 'r-xp.*/libc\.so' <<<"$after")
	want=1
	[ "$kind" = static ] && want=0
	[ "$libc" = "$want" ] && [ "$(grep -c '\[stack\]' <<<"$after")" = 1 ]
	ok $? "$kind: no copy of the driver's libc, one stack (the program's)" "$after"
done

# ---- refusals before the point of no return ---------------------------------------------
"$LT/loader-mkelf" "$tmp" >"$tmp/MANIFEST"
ok $? "loader-mkelf writes the corpus"
while IFS=$'\t' read -r name want msg; do
	out=$("$RUN" --prepare-only "$tmp/$name" 2>&1)
	got=$?
	[ "$got" = "$want" ] && [[ $out == *"$msg"* ]]
	ok $? "corpus: $name -> $want${msg:+ \"$msg\"}" "got $got: $out"
done <"$tmp/MANIFEST"
for good in good-min good-bss good-dyn; do
	"$tmp/$good"
	a=$?
	"$RUN" "$tmp/$good"
	b=$?
	[ "$a" = "$b" ] && [ "$a" != 0 ]
	ok $? "corpus: $good runs, same status as execve ($a; bss zeroed)" "loader: $b"
done

out=$("$RUN" --occupy 0x400000 "$tmp/good-min" 2>&1)
got=$?
[ "$got" = 126 ] && [[ $out == *"already in use by credbox"* ]]
ok $? "ET_EXEC colliding with an existing mapping is refused" "$got: $out"

# ---- files that are not what they should be, and #! scripts, as execve treats them ----------
# refused DESCRIPTION STATUS MESSAGE [execve] -- COMMAND...: the loader refuses with STATUS and
# MESSAGE within 10 s (a FIFO must not hang it); with "execve", execve gives STATUS too.
refused() {
	local what=$1 want=$2 msg=$3 cmp=$4 out got sa=-
	[ "$cmp" = -- ] || shift
	shift 4
	out=$(timeout 10 "$RUN" "$@" 2>&1)
	got=$?
	[ "$cmp" = execve ] && { (timeout 10 "$@") >/dev/null 2>&1; sa=$?; }
	[ "$got" = "$want" ] && [[ $out == *"$msg"* ]] && { [ "$cmp" != execve ] || [ "$sa" = "$want" ]; }
	ok $? "$what: $want, \"$msg\"" "loader: $got: $out${cmp/#execve/
execve: $sa}"
}
S=$tmp/scripts
mkdir "$S"
script() {	# script NAME CONTENT: an executable file
	printf '%s' "$2" >"$S/$1" && chmod 755 "$S/$1"
}
"$LT/loader-mkelf" --interp "$tmp/fifo" "$S/interp-fifo" >/dev/null
mkfifo "$tmp/fifo"
refused "a PT_INTERP naming a FIFO is refused at once" 126 "not a regular file" execve -- \
	"$S/interp-fifo"
refused "the program itself a FIFO" 126 "not a regular file" -- "$tmp/fifo"
refused "a directory" 126 "not a regular file" execve -- /tmp

script sh.sh $'#!/bin/sh\necho "sh: $0 [$1] [$2]" >&2; exit 5\n'
same "#!/bin/sh: \$0 is the script's path, its arguments follow" -- "$S/sh.sh" one "two words"
script arg $'#!/bin/echo  one  \ttwo \t \n'
same "#! with one argument: blanks inside kept, around trimmed" -- "$S/arg" x
script noarg $'#! \t /bin/echo\n'
same "#! with no argument, blanks before the interpreter" -- "$S/noarg" x y
script nonl '#!/bin/echo end of file, no newline'
same "#! line without a newline" -- "$S/nonl"
script long "#!/bin/echo $(printf 'a%.0s' {1..300})"
same "#! line past 256 bytes: the argument cut where the kernel cuts it" -- "$S/long"
script relative $'#!build/tests/loader/probe-pie args\n'
[ "$B" = build ] && same "#! naming a relative path (from the current directory)" -- \
	"$S/relative" args x
# A chain: c1 runs c2 runs ... c5 runs echo, each with an argument; d1 ... d6 is one too many.
for i in 1 2 3 4 5; do
	script c$i "#!$S/c$((i + 1)) a$i"$'\n'
	script d$i "#!$S/d$((i + 1))"$'\n'
done
script c5 $'#!/bin/echo a5\n'
script d6 $'#!/bin/echo\n'
same "a chain of 5 scripts: interpreters and arguments, last first" -- "$S/c1" x
refused "a chain of 6 scripts" 126 "more than 5 scripts" execve -- "$S/d1"
script loop "#!$S/loop"$'\n'
refused "a script naming itself" 126 "more than 5 scripts" execve -- "$S/loop"
script missing $'#!/nonexistent/credbox-interp\n'
refused "#! naming a missing interpreter" 127 "interpreter /nonexistent/credbox-interp" \
	execve -- "$S/missing"
script fifo "#!$tmp/fifo"$'\n'
refused "#! naming a FIFO" 126 "not a regular file" execve -- "$S/fifo"
script dir $'#!/tmp\n'
refused "#! naming a directory" 126 "not a regular file" execve -- "$S/dir"
printf 'plain text\n' >"$S/plain"
script noexec "#!$S/plain"$'\n'
refused "#! naming a file without x bit" 126 "not executable" execve -- "$S/noexec"
chmod 644 "$S/sh.sh"
refused "a script without x bit" 126 "not executable" execve -- "$S/sh.sh"
script empty $'#!  \t\n'
refused "#! naming no interpreter" 126 "names no interpreter" -- "$S/empty"
script cut "#!/$(printf 'x%.0s' {1..300})"
refused "#! interpreter name longer than 256 bytes" 126 "names no interpreter" -- "$S/cut"

echo "1..$n"
[ "$fails" -eq 0 ]
