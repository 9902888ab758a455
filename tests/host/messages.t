#!/bin/bash
# messages.t: what credbox says about a profile, line by line, as a new admin meets it: a
# UTF-8 byte order mark, a mistyped section, bytes a terminal would obey, two settings of one
# system call on one line or two, quotes and blanks in values (conf/debug-shell.ini's prompt),
# an errno that would never be returned, a bad group named as the group. Exact messages.
cd "$(dirname "$0")/../.." || exit 1
CB=$PWD/build/credbox
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
chmod 755 "$TMP"
n=0 failed=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi; }

# The head of a profile that runs its command line as nobody (lines 1-11), then the lines of
# the test.
head_lines() {
	printf '[program]\ncommand_line = program\n[identity]\nuser = nobody\ngroup = nogroup\n'
	printf '[filesystem]\nro = /usr, /bin, /lib, -/lib64, /etc\nrw = /dev/null\n'
	printf 'landlock = best-effort\n[seccomp]\npolicy = deny-list\n'
}
# says NAME LINES MESSAGES: the profile head + LINES; credbox exits 125 and says exactly
# MESSAGES (@ stands for the profile's path)
says() {
	{ head_lines; printf '%s\n' "$2"; } >"$TMP/p.ini"
	printf '%s\n' "$3" | sed "s|@|$TMP/p.ini|g" >"$TMP/want"
	"$CB" --profile "$TMP/p.ini" -- /bin/true >/dev/null 2>"$TMP/err"
	local rc=$?
	diff -u "$TMP/want" "$TMP/err" >"$TMP/diff"
	ok $([ $rc -eq 125 ] && [ ! -s "$TMP/diff" ]; echo $?) "$1: 125 (got $rc), the exact messages"
	sed 's/^/# /' "$TMP/diff"
}
# env_of LINES: the environment the program gets under the head + LINES
env_of() {
	{ head_lines; printf '%s\n' "$1"; } >"$TMP/p.ini"
	"$CB" --profile "$TMP/p.ini" -- /usr/bin/env 2>&1
}

# ---- a byte order mark: no part of the first line -----------------------------------------------
{ printf '\xef\xbb\xbf'; head_lines; } >"$TMP/bom.ini"
out=$("$CB" --profile "$TMP/bom.ini" -- /bin/echo ran 2>&1); rc=$?
ok $([ $rc -eq 0 ] && [ "$out" = ran ]; echo $?) "a profile saved with a UTF-8 BOM runs (got $rc: $out)"

# ---- sections: did you mean -------------------------------------------------------------------------
says "a mistyped section" "[enviroment]
keep = TERM" "@:12: unknown section [enviroment]
hint: did you mean [environment]?"
says "a mistyped [dir NAME]" "[dri drive_c]
path = /srv" "@:12: unknown section [dri drive_c]
hint: did you mean [dir drive_c]?"
says "a section that is nothing like one" "[network]" "@:12: unknown section [network]
hint: sections are [program], [identity], [environment], [filesystem], [seccomp], [limits] and [dir NAME]"

# ---- bytes a terminal would obey are shown escaped --------------------------------------------
says "an escape sequence in a key" $'fr\e[2Job = 1' '@:12: unknown key "fr\x1b[2Job" in [seccomp]'
says "a C1 control and a broken UTF-8 byte in a value" $'[environment]\nkeep = A\xc2\x9b\xff' \
	'@:13: keep: "A\xc2\x9b\xff" is not a variable name
hint: a name, or a prefix followed by '"'*'"
{ head_lines; printf '[environment]\nset = GREETING=grüße\n'; } >"$TMP/p.ini"
out=$("$CB" --profile "$TMP/p.ini" -- /usr/bin/env 2>&1)
ok $(grep -qx 'GREETING=grüße' <<<"$out"; echo $?) "UTF-8 text passes unchanged"

# ---- one system call set twice -------------------------------------------------------------------
says "two errnos for one call on one line: \"this line\", not \"here\" and its number" \
	"deny = chmod:EPERM, chmod:EIO" \
	"@:12: chmod: errno EIO and errno EPERM on this line
hint: name the system call on its own to settle it"
says "two errnos for one call on two lines" "deny = chmod:EPERM
deny = chmod:EIO" "@:13: chmod: errno EIO here, errno EPERM on line 12
hint: name the system call on its own to settle it"
says "a variable set twice" "[environment]
set = A=1
set = A=2" "@:14: set: A is already set on line 13"

# ---- quotes and blanks ----------------------------------------------------------------------------
ps1=$(sed -n 's/^set *= *\(PS1=.*\)$/\1/p' conf/debug-shell.ini)
out=$(env_of "[environment]
set = $ps1")
ok $(grep -qx 'PS1=credbox\$ ' <<<"$out"; echo $?) \
	"conf/debug-shell.ini's prompt keeps its trailing space (PS1=\"credbox\$ \")"
out=$(env_of "[environment]
set = A=two  words   
set = B=\"  kept  \"
set = 'C=it\"s'")
ok $(grep -qx 'A=two  words' <<<"$out" && grep -qx 'B=  kept  ' <<<"$out" &&
     grep -qx 'C=it"s' <<<"$out"; echo $?) \
	"blanks at the ends of a value are trimmed, inside kept; quotes keep them; a quote in the other"
grep -E '^[ABC]=' <<<"$out" | sed 's/^/# /'
says "an unterminated quote in a single value" "[environment]
set = A=\"open" "@:13: unterminated \" quote in \"set\"
hint: close the quote; write a quote inside the other kind"

# ---- what a setting would never do is an error --------------------------------------------------
says "errno with action = kill" "errno = EIO" "@:12: errno is used only with action = errno, and action is kill
hint: set \"action = errno\", or remove errno"
says "errno with action = log" "action = log
errno = EIO" "@:13: errno is used only with action = errno, and action is log
hint: set \"action = errno\", or remove errno"

# ---- a bad group is named as the group, not the user ------------------------------------------------
{ head_lines; } | sed 's/^group = nogroup$/group = no-such-group-x/' >"$TMP/p.ini"
"$CB" --profile "$TMP/p.ini" -- /bin/true 2>"$TMP/err"; rc=$?
ok $([ $rc -eq 125 ] && grep -q '^[^ ]*:5: \[identity\] group: no such group "no-such-group-x"' "$TMP/err"; echo $?) \
	"a bad group = is blamed on group, at its line (got $rc)"
sed 's/^/# /' "$TMP/err"

echo "1..$n"
[ $failed -eq 0 ]
