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
# uninstall alone, into nothing installed: quiet, and nothing made
make --no-print-directory uninstall DESTDIR="$TMP/none" PREFIX=/usr >"$TMP/log" 2>&1
ok $([ $? -eq 0 ] && ! grep -q 'ignored\|Error' "$TMP/log" && [ ! -e "$TMP/none" ]; echo $?) \
	"make uninstall of nothing: no error printed, nothing made"
grep 'ignored\|Error' "$TMP/log" | sed 's/^/# /'
make -s --no-print-directory install DESTDIR="$D" PREFIX=/usr >"$TMP/log" 2>&1
ok $? "make install DESTDIR=... PREFIX=/usr"
sed 's/^/# /' "$TMP/log"
missing=
for f in usr/bin/credbox usr/lib/libcredbox-client.a usr/lib/pkgconfig/credbox.pc \
	 usr/include/credbox.h usr/share/man/man1/credbox.1 usr/share/man/man3/credbox_openat.3 \
	 usr/share/man/man3/credbox_strerror.3 usr/share/man/man5/credbox.ini.5 \
	 usr/share/doc/credbox/examples/dosemu.ini usr/share/doc/credbox/examples/minimal.ini \
	 usr/share/doc/credbox/kernel-patches/series usr/share/doc/credbox/kernel-patches/BASE \
	 usr/share/doc/credbox/kernel-patches/0001-fs-add-O_CRED_ALLOW.patch \
	 usr/share/bash-completion/completions/credbox; do
	[ -f "$D/$f" ] || missing+=" $f"
done
ok $([ -z "$missing" ] && [ -d "$D/etc/credbox" ]; echo $?) \
	"binary, library, header, credbox.pc, man pages, examples, the kernel series, completion, etc/credbox${missing:+ (missing:$missing)}"
ok $([ "$(stat -c %a "$D/usr/bin/credbox")" = 755 ] &&
     [ "$(stat -c %a "$D/usr/share/man/man5/credbox.ini.5")" = 644 ]; echo $?) "modes 0755, 0644"
# every page of man/, and a page for each other name of a section 3 page, which man finds
missing=
for page in man/*.[0-9]; do
	sec=${page##*.}
	[ -f "$D/usr/share/man/man$sec/${page#man/}" ] || missing+=" ${page#man/}"
done
for page in man/*.3; do
	for name in $(sed -n '/^\.Sh NAME/,/^\.Nd/s/^\.Nm \([a-z_0-9]*\).*/\1/p' "$page"); do
		(cd "$D/usr/share/man" && mandoc -Tascii "man3/$name.3" 2>/dev/null) |
			col -b | grep -q "$name" || missing+=" $name(3)"
	done
done
ok $([ -z "$missing" ] && [ -f "$D/usr/share/man/man3/credbox_mkdirat_fd.3" ]; echo $?) \
	"every page installed, and every name of credbox_openat(3) and credbox_mkdirat(3)${missing:+ (missing:$missing)}"
sed "s/^\.Os\$/.Os credbox $(cat VERSION)/" man/credbox.ini.5 |
	cmp -s - "$D/usr/share/man/man5/credbox.ini.5"
ok $? "with PREFIX=/usr and SYSCONFDIR=/etc the pages are man/'s but for the footer's version"
(cd "$D/usr/share/man" && mandoc -Tascii man1/credbox.1) | tail -n 1 >"$TMP/footer"
ok $(grep -q "^credbox $(cat VERSION) " "$TMP/footer"; echo $?) "the footer: credbox $(cat VERSION), not BSD ($(tr -s ' ' <"$TMP/footer"))"

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
left=$(cd "$D" && find . -type f ! -name .installed-dirs | sort | tr '\n' ' ')
ok $([ "$left" = "./etc/credbox/mine.ini " ]; echo $?) \
	"make uninstall removes what it installed, and leaves the admin's profile (left: $left)"
rm "$D/etc/credbox/mine.ini"
make -s --no-print-directory uninstall DESTDIR="$D" PREFIX=/usr >/dev/null 2>&1
left=$(cd "$D" && find . -mindepth 1 | sort | tr '\n' ' ')
ok $([ -z "$left" ]; echo $?) \
	"... and, once the admin removed it, every directory install made${left:+ (left: $left)}"
make -s --no-print-directory install DESTDIR="$D" PREFIX=/usr >/dev/null 2>&1
make --no-print-directory uninstall DESTDIR="$D" PREFIX=/usr >"$TMP/log" 2>&1
left=$(cd "$D" && find . -mindepth 1 | sort | tr '\n' ' ')
ok $([ -z "$left" ] && ! grep -q 'ignored\|Error' "$TMP/log"; echo $?) \
	"install, then uninstall: every directory install made is gone, no error printed${left:+ (left: $left)}"

# ---- an admin's install: PREFIX, BINDIR, MANDIR, SYSCONFDIR; profiles by name -----------------
P=$TMP/opt
make -s --no-print-directory B="$TMP/build" PREFIX="$P" BINDIR="$P/sbin" MANDIR="$P/man" \
	SYSCONFDIR="$P/etc" install >"$TMP/log" 2>&1
ok $? "make install PREFIX=... BINDIR=... MANDIR=... SYSCONFDIR=... (its own build)"
sed 's/^/# /' "$TMP/log"
ok $([ -x "$P/sbin/credbox" ] && [ -f "$P/man/man1/credbox.1" ] && [ -d "$P/etc/credbox" ] &&
     [ -f "$P/share/doc/credbox/examples/viewer.ini" ]; echo $?) \
	"each file where those say"
cat "$P"/man/man?/*.[0-9] >"$TMP/pages"
ok $(grep -q "^\.It Pa $P/etc/credbox/ Ns Ar name Ns .ini" "$P/man/man1/credbox.1" &&
     grep -q "^\.It Pa $P/share/doc/credbox/examples/" "$P/man/man1/credbox.1" &&
     ! grep -v "$P/etc/credbox" "$TMP/pages" | grep -q '/etc/credbox' &&
     ! grep -q '/usr/local/share/doc' "$TMP/pages"; echo $?) \
	"the installed pages name SYSCONFDIR/credbox and DOCDIR, not /etc/credbox or /usr/local"
CB=$P/sbin/credbox
"$CB" --version >"$TMP/out"
ok $([ "$(cat "$TMP/out")" = "credbox $(cat VERSION)" ]; echo $?) "--version says VERSION: $(cat "$TMP/out")"
cp conf/minimal.ini "$P/etc/credbox/mini.ini"
out=$("$CB" --profile mini -- /bin/echo by name 2>&1); rc=$?
ok $([ $rc -eq 0 ] && [ "$out" = "by name" ]; echo $?) \
	"--profile mini reads SYSCONFDIR/credbox/mini.ini (got $rc: $out)"
out=$("$CB" --profile mini.ini -- /bin/echo by file name 2>&1); rc=$?
ok $([ $rc -eq 0 ] && [ "$out" = "by file name" ]; echo $?) \
	"--profile mini.ini: the same profile, not mini.ini.ini (got $rc: $out)"
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
spec=$(bash -c '. "$1"; complete -p credbox' _ "$P/share/bash-completion/completions/credbox")
ok $([ "$spec" = "complete -o filenames -F _credbox credbox" ]; echo $?) \
	"completed as file names (-o filenames: blanks quoted, directories end in /): $spec"
mkdir "$P/etc/credbox/my dir"
ok $(complete_words credbox --profile "$P/etc/credbox/my" | grep -qF "$P/etc/credbox/my dir"; echo $?) \
	"a path with a blank after --profile: one word"
make -s --no-print-directory B="$TMP/build" PREFIX="$P" BINDIR="$P/sbin" MANDIR="$P/man" \
	SYSCONFDIR="$P/etc" uninstall >/dev/null 2>&1
ok $([ ! -e "$CB" ]; echo $?) "make uninstall with the same variables"

echo "1..$n"
[ $failed -eq 0 ]
