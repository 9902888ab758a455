#!/bin/bash
# docs.t: what the pages and the repository promise a reader: real dates on the man pages,
# the sections an admin looks for (credbox(1) FILES and SECURITY CONSIDERATIONS, credbox.ini(5)
# on quoting, includes and trust, credbox_openat(3) RETURN VALUES for every function), every
# option of --help in credbox(1), references to README sections that exist, a LICENSE that
# covers every SPDX line, --version from VERSION.
cd "$(dirname "$0")/../.." || exit 1
n=0 failed=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# ---- man pages ----------------------------------------------------------------------------------
for page in man/*.[1-9]; do
	dd=$(sed -n 's/^\.Dd //p' "$page")
	ok $(date -d "$dd" +%F >/dev/null 2>&1 && [[ $dd =~ ^[A-Z][a-z]+\ [0-9]{1,2},\ [0-9]{4}$ ]]
	     echo $?) "$page: .Dd is a date ($dd)"
done
mandoc -Tlint man/credbox_openat.3 2>&1 | grep -v -e 'referenced manual not found' \
	-e 'outdated mandoc.db' >"$TMP/lint"
ok $([ ! -s "$TMP/lint" ]; echo $?) "mandoc -Tlint man/credbox_openat.3"
sed 's/^/# /' "$TMP/lint"
has_section() { grep -qx "\.Sh $2" "$1"; }
for s in FILES "SECURITY CONSIDERATIONS" "EXIT STATUS"; do
	has_section man/credbox.1 "$s"; ok $? "credbox(1) has $s"
done
for s in "INCLUDES AND DROP-INS" "WHICH FILES CREDBOX TRUSTS" FILES; do
	has_section man/credbox.ini.5 "$s"; ok $? "credbox.ini(5) has $s"
done
grep -q 'Quotes keep them' man/credbox.ini.5 && grep -q 'Blanks around a value are removed' man/credbox.ini.5
ok $? "credbox.ini(5) says how values are trimmed and quoted"
awk '/^\.Sh RETURN VALUES/ { r = 1; next } /^\.Sh / { r = 0 } r' man/credbox_openat.3 >"$TMP/rv"
missing=
for f in credbox_dir credbox_openat credbox_openat_fd credbox_strerror; do
	grep -q "^\.Fn $f\b" "$TMP/rv" || missing+=" $f"
done
ok $([ -z "$missing" ]; echo $?) "credbox_openat(3) RETURN VALUES covers every function${missing:+ (not:$missing)}"
missing=
for o in $(build/credbox --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
	grep -q "^\.It .*Fl .*-${o#--}\b" man/credbox.1 || missing+=" $o"
done
ok $([ -z "$missing" ]; echo $?) "every option of --help has an entry in credbox(1)${missing:+ (not:$missing)}"

# ---- the README sections others refer to --------------------------------------------------------
git ls-files | grep -v '^README.md$' | xargs grep -ohE 'README(,|'"'"'s) "[^"]+"' 2>/dev/null |
	sed -E 's/.*"([^"]+)".*/\1/' | sort -u >"$TMP/refs"
missing=
while read -r ref; do
	grep -qx "## $ref" README.md || missing+=" \"$ref\""
done <"$TMP/refs"
ok $([ -s "$TMP/refs" ] && [ -z "$missing" ]; echo $?) \
	"every README section referred to exists ($(tr '\n' ',' <"$TMP/refs"))${missing:+ (not:$missing)}"

# ---- licence and version ------------------------------------------------------------------------
git ls-files | grep -v '^kernel-patches/' | xargs grep -ohE 'SPDX-License-Identifier: *[A-Za-z0-9.+-]+' 2>/dev/null |
	sed 's/.*: *//' | sort -u >"$TMP/spdx"
missing=
while read -r id; do
	base=${id%-or-later}
	base=${base%-only}
	grep -qw -- "$id" LICENSE && [ -s "LICENSES/$base" ] || missing+=" $id"
done <"$TMP/spdx"
ok $([ -s "$TMP/spdx" ] && [ -z "$missing" ]; echo $?) \
	"LICENSE and LICENSES/ cover every SPDX line ($(tr '\n' ' ' <"$TMP/spdx"))${missing:+ (not:$missing)}"
ok $(head -n 2 LICENSES/GPL-2.0 | grep -q 'Version 2' && head -n 2 LICENSES/LGPL-2.1 | grep -q 'Version 2.1'
     echo $?) "LICENSES/ hold the texts of those versions"
[ -s VERSION ] && [ "$(build/credbox --version)" = "credbox $(cat VERSION)" ]
ok $? "credbox --version prints VERSION ($(build/credbox --version))"

echo "1..$n"
[ $failed -eq 0 ]
