#!/bin/bash
# check.t: --check predicts a run and reports every problem at once, each with its fix: the
# working directory (missing, or one the sandboxed user cannot enter), #! scripts and the
# program's libraries that Landlock would keep from it, a library that does not exist, the
# trees even on a kernel without O_CRED_ALLOW, a draft profile of any owner (trust is one
# problem among the others, a directory named once for all its files), and a report that
# cannot be written (> /dev/full) is an error.
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
CB=${CREDBOX:-$ROOT/build/credbox}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
n=0 failed=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
chmod 755 "$TMP"

# profile NAME [PROGRAM KEYS]...: a profile at $TMP/NAME.ini with [filesystem] FS (default:
# the system's), and KEYS added to [program].
profile() {
	local name=$1
	shift
	{ printf '[program]\ncommand_line = program\n'; printf '%s\n' "$@"
	  printf '[identity]\nuser = nobody\ngroup = nogroup\n[filesystem]\n%s\nrw = /dev/null\n' \
		"${FS:-ro = /usr, /bin, /lib, -/lib64, /etc}"
	  printf '[seccomp]\npolicy = deny-list\n'; } >"$TMP/$name.ini"
}
# check NAME ARGS...: --check on $TMP/NAME.ini; rc, out, err
check() {
	local name=$1
	shift
	"$CB" --profile "$TMP/$name.ini" --check -- "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
}
stops() { [ $rc -eq 125 ] && [ "$(tail -n 1 "$TMP/out")" = "result      a run would stop here (exit 125)" ]; }
starts() { [ $rc -eq 0 ] && [ "$(tail -n 1 "$TMP/out")" = "result      a run would start" ]; }
show() { sed 's/^/# /' "$TMP/err"; }

# ---- control: a profile a run starts with --------------------------------------------------
profile good
check good /bin/true
ok $(starts && [ ! -s "$TMP/err" ]; echo $?) "control: /bin/true with the system's paths: a run would start (got $rc)"

# ---- every problem at once, each with its fix -------------------------------------------------
FS='ro = /usr/bin, /no/such/credbox-dir' profile all 'cwd = /no/such/credbox-cwd'
check all /bin/true
grep -qx "$TMP/all.ini:8: \[filesystem\] /no/such/credbox-dir: does not exist" "$TMP/err" &&
  grep -qx "$TMP/all.ini:3: \[program\] cwd /no/such/credbox-cwd: does not exist" "$TMP/err" &&
  grep -qx 'hint: the working directory must be one the sandboxed user may search' "$TMP/err" &&
  grep -qE "^$TMP/all.ini:7: /bin/true needs /[^ ]*/libc\.so\.6, which the dynamic linker cannot open once Landlock is on: /[^ ]* is under no path of \[filesystem\]\$" "$TMP/err" &&
  grep -qx 'hint: add the directory, or one above it, to \[filesystem\] ro' "$TMP/err"
found=$?
ok $(stops && [ $found -eq 0 ] && [ "$(grep -c "^$TMP/all.ini:" "$TMP/err")" -eq 3 ]; echo $?) \
	"a missing path, a missing cwd, libc outside [filesystem]: all three, each on its line with its fix (got $rc)"
show
"$CB" --profile "$TMP/all.ini" -- /bin/true >/dev/null 2>&1; runrc=$?
ok $([ $runrc -ne 0 ]; echo $?) "... and a run indeed does not go through (exit $runrc)"

# ---- the working directory as the sandboxed user would enter it ------------------------------
mkdir -m 700 "$TMP/private"
profile cwd "cwd = $TMP/private"
check cwd /bin/true
ok $(stops && grep -qx "$TMP/cwd.ini:3: \[program\] cwd $TMP/private: nobody cannot enter it: Permission denied" "$TMP/err"; echo $?) \
	"cwd nobody cannot enter: a run would stop, and says why (got $rc)"
show

# ---- scripts and libraries the program opens by name under Landlock ----------------------------
mkdir -m 755 "$TMP/bin" "$TMP/lib"
printf '#!/bin/sh\necho script ran\n' >"$TMP/bin/script" && chmod 755 "$TMP/bin/script"
profile script
check script "$TMP/bin/script"
ok $(stops && grep -qx "$TMP/script.ini:7: /bin/sh opens the script $TMP/bin/script by its name, which it cannot once Landlock is on: $TMP/bin is under no path of \[filesystem\]" "$TMP/err"; echo $?) \
	"a #! script outside [filesystem]: its interpreter could not reopen it (got $rc)"
show
FS="ro = /usr, /bin, /lib, -/lib64, /etc, $TMP/bin" profile script-ok
check script-ok "$TMP/bin/script"
ok $(starts; echo $?) "... the same script with its directory in [filesystem]: a run would start (got $rc)"
show
if command -v cc >/dev/null; then
	echo 'int gone(void) { return 0; }' >"$TMP/gone.c"
	printf 'int gone(void);\nint main(void) { return gone(); }\n' >"$TMP/main.c"
	cc -shared -fPIC -o "$TMP/lib/libcbgone.so.1" -Wl,-soname,libcbgone.so.1 "$TMP/gone.c" &&
		cc -o "$TMP/bin/needs-lib" "$TMP/main.c" "$TMP/lib/libcbgone.so.1" \
			-Wl,-rpath,"$TMP/lib"
	FS="ro = /usr, /bin, /lib, -/lib64, /etc, $TMP/bin" profile lib
	check lib "$TMP/bin/needs-lib"
	ok $(stops && grep -qx "$TMP/lib.ini:7: $TMP/bin/needs-lib needs $TMP/lib/libcbgone.so.1, which the dynamic linker cannot open once Landlock is on: $TMP/lib is under no path of \[filesystem\]" "$TMP/err"; echo $?) \
		"a library of the program's RUNPATH outside [filesystem] (got $rc)"
	show
	"$CB" --profile "$TMP/lib.ini" -- "$TMP/bin/needs-lib" >/dev/null 2>&1; runrc=$?
	ok $([ $runrc -eq 127 ]; echo $?) "... and a run's dynamic linker indeed cannot load it (exit $runrc)"
	rm "$TMP/lib/libcbgone.so.1"
	check lib "$TMP/bin/needs-lib"
	ok $(stops && grep -qx "$TMP/lib.ini:7: $TMP/bin/needs-lib needs libcbgone.so.1, which the dynamic linker will not find (RUNPATH, /etc/ld.so.cache, the system directories)" "$TMP/err"; echo $?) \
		"a library that exists nowhere (got $rc)"
	show
else
	for i in 1 2 3; do skip "a library outside [filesystem]" "no C compiler"; done
fi

# ---- the trees, and the rest, on a kernel without O_CRED_ALLOW -----------------------------------
mkdir -m 777 "$TMP/tree"
chown daemon "$TMP/tree"
FS='ro = /usr, /bin, /lib, -/lib64, /etc, /no/such/credbox-dir' profile grant
printf '[dir t]\npath = %s\nowner = daemon\naccess = rw\n' "$TMP/tree" >>"$TMP/grant.ini"
check grant /no/such/credbox-program
if grep -q '^  O_CRED_ALLOW  missing' "$TMP/out"; then
	ok $(stops && grep -q '\[dir t\]: this kernel lacks O_CRED_ALLOW' "$TMP/err" &&
	     grep -qx "$TMP/grant.ini:13: \[dir t\] $TMP/tree: writable by others (mode 0777)" "$TMP/err" &&
	     grep -q 'credbox-dir: does not exist' "$TMP/err" &&
	     grep -qx "credbox: /no/such/credbox-program does not exist" "$TMP/err"; echo $?) \
		"no O_CRED_ALLOW here: --check still checks the tree, the paths and the program (got $rc)"
	show
else
	skip "the trees on a kernel without O_CRED_ALLOW" "this kernel has it"
fi

# ---- a draft of any owner: linted, trust one of the problems ---------------------------------
mkdir -m 755 "$TMP/drafts"
chown nobody "$TMP/drafts"
profile draft
printf '[limits]\nnproc = lots\n' >>"$TMP/draft.ini"
mv "$TMP/draft.ini" "$TMP/drafts/" && chown nobody "$TMP/drafts/draft.ini"
D=$TMP/drafts/draft.ini
"$CB" --profile "$D" --check -- /bin/true >"$TMP/out" 2>"$TMP/err"; rc=$?
cat >"$TMP/want" <<EOF
$D: directory $TMP/drafts: owned by uid 65534, not by root
hint: chown root $TMP/drafts, or keep the profile in a directory of root's, such as /etc/credbox
$D:13: nproc must be number[:number], not "lots"
hint: a number, or infinity; SOFT:HARD sets the two limits apart
EOF
diff -u "$TMP/want" "$TMP/err" >"$TMP/diff"
ok $([ $rc -eq 125 ] && [ ! -s "$TMP/diff" ]; echo $?) \
	"--check of a user's draft: its trust, then its errors, each with its fix (got $rc)"
sed 's/^/# /' "$TMP/diff"
sed -i 's/^nproc = lots$/nproc = 64/' "$D"
"$CB" --profile "$D" --check -- /bin/true >"$TMP/out" 2>"$TMP/err"; rc=$?
ok $(stops && [ "$(head -n 1 "$TMP/err")" = "$D: directory $TMP/drafts: owned by uid 65534, not by root" ] &&
     [ "$(wc -l <"$TMP/err")" -eq 2 ] && grep -q '^resource limits' "$TMP/out" &&
     grep -qx '  nproc   64' "$TMP/out"; echo $?) \
	"the draft corrected: its plan is shown, only its trust stops a run (got $rc)"
show
"$CB" --profile "$D" -- /bin/true >"$TMP/out" 2>"$TMP/err"; rc=$?
ok $([ $rc -eq 125 ] && [ "$(wc -l <"$TMP/err")" -eq 2 ] && [ ! -s "$TMP/out" ]; echo $?) \
	"a run of the draft: refused on its trust alone, nothing read or run (got $rc)"
# a drop-in beside it: the same directory stops both files, and is named once
mkdir -m 755 "$TMP/drafts/draft.d"
printf '[limits]\nnofile = 64\n' >"$TMP/drafts/draft.d/more.ini"
chown -R nobody "$TMP/drafts/draft.d"
"$CB" --profile "$D" --check -- /bin/true >"$TMP/out" 2>"$TMP/err"; rc=$?
ok $(stops && [ "$(head -n 1 "$TMP/err")" = "$D: directory $TMP/drafts: owned by uid 65534, not by root" ] &&
     [ "$(wc -l <"$TMP/err")" -eq 2 ] && grep -qx '  nofile  64' "$TMP/out"; echo $?) \
	"a draft's drop-in in the same directory: read, and the directory named once (got $rc)"
show

# ---- a report that cannot be written ---------------------------------------------------------
"$CB" --profile "$TMP/good.ini" --check -- /bin/true >/dev/full 2>"$TMP/err"; rc=$?
ok $([ $rc -eq 125 ] && grep -qx 'credbox: writing to stdout: No space left on device' "$TMP/err"; echo $?) \
	"--check > /dev/full: 125, and why (got $rc)"
"$CB" --help >/dev/full 2>/dev/null; rc=$?
ok $([ $rc -eq 125 ]; echo $?) "--help > /dev/full: 125 too (got $rc)"

echo "1..$n"
[ $failed -eq 0 ]
