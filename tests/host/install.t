#!/bin/bash
# install.t: make install and make uninstall, as a packager (DESTDIR) and as an admin
# (PREFIX, BINDIR, MANDIR, SYSCONFDIR) use them: every file where it belongs, credbox.pc
# good enough to build credbox_openat(3)'s example with `pkg-config --cflags --libs credbox`,
# a credbox that finds profiles by name in its SYSCONFDIR, bash completion of options and
# profile names, and an uninstall that leaves the admin's profiles alone.
# Builds a credbox of its own (another build directory and SYSCONFDIR): about ten seconds.
cd "$(dirname "$0")/../.." || exit 1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
chmod 755 "$TMP"
n=0 failed=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi; }

# ---- a packager's install: DESTDIR, PREFIX=/usr --------------------------------------------
D=$TMP/dest
make -s --no-print-directory install DESTDIR="$D" PREFIX=/usr >"$TMP/log" 2>&1
ok $? "make install DESTDIR=... PREFIX=/usr"
sed 's/^/# /' "$TMP/log"
missing=
for f in usr/bin/credbox usr/lib/libcredbox-client.a usr/lib/pkgconfig/credbox.pc \
	 usr/include/credbox.h usr/share/man/man1/credbox.1 usr/share/man/man3/credbox_openat.3 \
	 usr/share/man/man3/credbox_strerror.3 usr/share/man/man5/credbox.ini.5 \
	 usr/share/doc/credbox/examples/dosemu.ini usr/share/doc/credbox/examples/minimal.ini \
	 usr/share/bash-completion/completions/credbox; do
	[ -f "$D/$f" ] || missing+=" $f"
done
ok $([ -z "$missing" ] && [ -d "$D/etc/credbox" ]; echo $?) \
	"binary, library, header, credbox.pc, man pages, examples, completion, etc/credbox${missing:+ (missing:$missing)}"
ok $([ "$(stat -c %a "$D/usr/bin/credbox")" = 755 ] &&
     [ "$(stat -c %a "$D/usr/share/man/man5/credbox.ini.5")" = 644 ]; echo $?) "modes 0755, 0644"
cmp -s man/credbox.ini.5 "$D/usr/share/man/man5/credbox.ini.5"; ok $? "the man pages as in man/"

# credbox_openat(3)'s example, taken from the installed page, built against the installed
# library as the page says (pkg-config, with DESTDIR as the sysroot), and run outside credbox.
flags=$(PKG_CONFIG_PATH=$D/usr/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$D \
	pkg-config --cflags --libs credbox 2>&1 | xargs)
ok $([ "$flags" = "-I$D/usr/include -L$D/usr/lib -lcredbox-client" ]; echo $?) \
	"pkg-config --cflags --libs credbox: $flags"
awk '/^\.Sh EXAMPLES/ { ex = 1 } ex && /^\.Bd -literal/ { code = 1; next }
     code && /^\.Ed/ { exit } code { gsub(/\\e/, "\\"); print }' \
	"$D/usr/share/man/man3/credbox_openat.3" >"$TMP/show.c"
ok $(grep -q 'int main' "$TMP/show.c"; echo $?) "credbox_openat(3) has a whole program as its example"
cc -Wall -Werror -o "$TMP/show" "$TMP/show.c" $flags 2>"$TMP/cc.err"
ok $? "the example builds with those flags, -Wall -Werror"
sed 's/^/# /' "$TMP/cc.err"
env -u CREDBOX_DIRS "$TMP/show" >/dev/null 2>"$TMP/err"; rc=$?
ok $([ $rc -eq 1 ] && grep -q '^drive_c: .*credbox' "$TMP/err"; echo $?) \
	"run outside credbox it says so through credbox_strerror, exit 1 (got $rc)"
sed 's/^/# /' "$TMP/err"

# ---- uninstall: everything installed goes, the admin's profiles stay --------------------------
cp conf/minimal.ini "$D/etc/credbox/mine.ini"
make -s --no-print-directory uninstall DESTDIR="$D" PREFIX=/usr >"$TMP/log" 2>&1
left=$(cd "$D" && find . -type f | sort | tr '\n' ' ')
ok $([ "$left" = "./etc/credbox/mine.ini " ]; echo $?) \
	"make uninstall removes what it installed, and leaves the admin's profile (left: $left)"
rm "$D/etc/credbox/mine.ini"
make -s --no-print-directory uninstall DESTDIR="$D" PREFIX=/usr >/dev/null 2>&1
ok $([ ! -e "$D/etc/credbox" ] && [ ! -e "$D/usr/share/doc/credbox" ]; echo $?) \
	"... and its directories once they are empty"

# ---- an admin's install: PREFIX, BINDIR, MANDIR, SYSCONFDIR; profiles by name -----------------
P=$TMP/opt
make -s --no-print-directory B="$TMP/build" PREFIX="$P" BINDIR="$P/sbin" MANDIR="$P/man" \
	SYSCONFDIR="$P/etc" install >"$TMP/log" 2>&1
ok $? "make install PREFIX=... BINDIR=... MANDIR=... SYSCONFDIR=... (its own build)"
sed 's/^/# /' "$TMP/log"
ok $([ -x "$P/sbin/credbox" ] && [ -f "$P/man/man1/credbox.1" ] && [ -d "$P/etc/credbox" ] &&
     [ -f "$P/share/doc/credbox/examples/viewer.ini" ]; echo $?) \
	"each file where those say"
CB=$P/sbin/credbox
"$CB" --version >"$TMP/out"
ok $([ "$(cat "$TMP/out")" = "credbox $(cat VERSION)" ]; echo $?) "--version says VERSION: $(cat "$TMP/out")"
cp conf/minimal.ini "$P/etc/credbox/mini.ini"
out=$("$CB" --profile mini -- /bin/echo by name 2>&1); rc=$?
ok $([ $rc -eq 0 ] && [ "$out" = "by name" ]; echo $?) \
	"--profile mini reads SYSCONFDIR/credbox/mini.ini (got $rc: $out)"
"$CB" --profile mini --check >"$TMP/out" 2>&1
ok $(grep -qx "profile     $P/etc/credbox/mini.ini" "$TMP/out"; echo $?) "--check names the file"
mkdir "$P/etc/credbox/mini.d"
printf '[environment]\nset = FROM=drop-in\n' >"$P/etc/credbox/mini.d/10-env.ini"
out=$("$CB" --profile mini -- /usr/bin/env 2>&1)
ok $(grep -qx 'FROM=drop-in' <<<"$out"; echo $?) "and its drop-ins, SYSCONFDIR/credbox/mini.d/*.ini"
"$CB" --profile nonesuch -- /bin/true 2>"$TMP/err"; rc=$?
printf '%s\n' "$P/etc/credbox/nonesuch.ini: No such file or directory" \
	"hint: --profile nonesuch reads $P/etc/credbox/nonesuch.ini; a file is given by a path with a '/', such as ./nonesuch" \
	>"$TMP/want"
ok $([ $rc -eq 125 ] && cmp -s "$TMP/want" "$TMP/err"; echo $?) \
	"a name with no profile: 125, where it looked, how to give a file"
diff "$TMP/want" "$TMP/err" | sed 's/^/# /'
"$CB" --profile 'no good' -- /bin/true 2>"$TMP/err"; rc=$?
ok $([ $rc -eq 125 ] && grep -qx 'credbox: --profile no good: not a profile name' "$TMP/err"; echo $?) \
	"a name that cannot be one: 125 (got $rc)"
chmod 775 "$P/etc/credbox/mini.ini"
"$CB" --profile mini -- /bin/true 2>"$TMP/err"; rc=$?
ok $([ $rc -eq 125 ] && grep -q "^$P/etc/credbox/mini.ini: group-writable (mode 0775)" "$TMP/err"; echo $?) \
	"a profile by name is trusted by the same rules (got $rc)"
chmod 644 "$P/etc/credbox/mini.ini"

# ---- bash completion: options, and profile names after --profile --------------------------------
complete_words() { # WORDS...: what the installed completion offers for the last word
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		 _credbox; printf "%s\n" "${COMPREPLY[@]}"' _ \
		"$P/share/bash-completion/completions/credbox" "$@" | sort | tr '\n' ' '
}
ok $([ "$(complete_words credbox --pro)" = "--profile " ]; echo $?) \
	"credbox --pro<TAB>: --profile ($(complete_words credbox --pro))"
ok $([ "$(complete_words credbox --profile mi)" = "mini " ]; echo $?) \
	"credbox --profile mi<TAB>: the profile names of SYSCONFDIR ($(complete_words credbox --profile mi))"
opts=$("$CB" --help | grep -o -- '--[a-z-]*' | sort -u | grep -v -- '^--$' | tr '\n' ' ')
ok $([ "$(complete_words credbox --)" = "-- $opts" ]; echo $?) \
	"every option of --help is completed (got $(complete_words credbox --))"
ok $(complete_words credbox -p mini -- /bin/ec | grep -q '/bin/echo'; echo $?) \
	"after the options: the program"
make -s --no-print-directory B="$TMP/build" PREFIX="$P" BINDIR="$P/sbin" MANDIR="$P/man" \
	SYSCONFDIR="$P/etc" uninstall >/dev/null 2>&1
ok $([ ! -e "$CB" ]; echo $?) "make uninstall with the same variables"

echo "1..$n"
[ $failed -eq 0 ]
