#!/bin/bash
# credbox-man.t: the launcher's man pages are clean under mandoc -Tlint, and credbox.ini(5)
# has exactly one entry per key of the profile key table (credbox --dump-keys), in the
# right section, saying "Required." exactly for the required keys.
cd "$(dirname "$0")/../.." || exit 1
n=0 failed=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

for page in man/credbox.1 man/credbox.ini.5 man/credbox_*.3; do
	# cross references to pages not installed on this machine, and a stale mandoc.db,
	# depend on the machine, not on the page
	mandoc -Tlint "$page" 2>&1 | grep -v -e 'referenced manual not found' \
		-e 'outdated mandoc.db' >"$TMP/lint"
	ok $([ ! -s "$TMP/lint" ]; echo $?) "mandoc -Tlint $page"
	sed 's/^/# /' "$TMP/lint"
done

build/credbox --dump-keys | awk -F'\t' '{ split($4, f, ","); print $1 "." $2 " " f[1] }' |
	sort >"$TMP/table"
# .Ss \&[dir NAME]\& starts a section; .It Cm KEY an entry; "Required." in its text
awk '
	/^\.Ss / { sec = $0; sub(/^\.Ss (\\&)?\[/, "", sec); sub(/\](\\&)?$/, "", sec);
		   sub(/ .*/, "", sec); inkeys = 1; next }
	/^\.Sh / { flush(); inkeys = 0; next }
	inkeys && /^\.It Cm / { flush(); key = $3; req = 0; next }
	inkeys && /^\.El/ { flush(); next }
	inkeys && key != "" && /Required\./ { req = 1 }
	function flush() { if (key != "") print sec "." key " " (req ? "required" : "optional"); key = "" }
	END { flush() }' man/credbox.ini.5 | sort >"$TMP/page"
diff -u "$TMP/table" "$TMP/page" >"$TMP/diff"
ok $? "credbox.ini(5) documents every key of the table, and only those, with the right Required."
sed 's/^/# /' "$TMP/diff"
ok $([ "$(wc -l <"$TMP/table")" -gt 20 ]; echo $?) "the key table is not empty"

echo "1..$n"
[ $failed -eq 0 ]
