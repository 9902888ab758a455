#!/bin/bash
# kernel-series.t: the patch series as a reviewer receives it. kernel-patches/series
# lists every patch file once, in order; each patch says [PATCH k/N] for its place; the
# cover letter counts N and lists every subject in its shortlog; and the kernel's own
# scripts/checkpatch.pl --strict finds nothing in any patch (errors, warnings, checks).
# checkpatch comes from the pristine tree build-kernel unpacks: without it, a SKIP.
# (That every prefix of the series builds takes minutes: kernel-patches/check-prefixes.)
cd "$(dirname "$0")/../.." || exit 1
n=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }
KB=${CREDBOX_KBUILD:-${XDG_CACHE_HOME:-$HOME/.cache}/credbox/kernel}
TREE=$KB/pristine/linux-source-6.12
cover=kernel-patches/0000-cover-letter.patch

mapfile -t listed < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' kernel-patches/series | grep -v '^$')
mapfile -t present < <(cd kernel-patches && ls [0-9][0-9][0-9][0-9]-*.patch | grep -v '^0000-')
total=${#listed[@]}

ok "$([ "${listed[*]}" = "${present[*]}" ]; echo $?)" \
	"kernel-patches/series lists the $total patch files there are, in their order"
bad=
for ((i = 0; i < total; i++)); do
	want=$(printf '[PATCH %02d/%d]' $((i + 1)) "$total")
	grep -qF "Subject: $want" "kernel-patches/${listed[$i]}" 2>/dev/null || bad+=" ${listed[$i]}"
done
ok "$([ -z "$bad" ]; echo $?)" "each patch's subject says [PATCH k/$total] for its place${bad:+ (not:$bad)}"
grep -qF "$(printf '[PATCH 00/%d]' "$total")" "$cover" &&
	grep -q "^credbox developers ($total):" "$cover"
ok $? "the cover letter counts $total patches"
bad=
for p in "${listed[@]}"; do
	# the subject, unfolded, without the [PATCH k/N] prefix
	subj=$(awk '/^Subject: /{s = $0; getline; while ($0 ~ /^ /) { s = s $0; getline } print s; exit}' \
		"kernel-patches/$p" | sed -e 's/^Subject: \[PATCH [0-9]*\/[0-9]*\] //' -e 's/  */ /g')
	# the shortlog folds long subjects too
	awk '/^credbox developers \(/{on = 1; next} on && /^$/{exit} on' "$cover" |
		sed -e 's/^ *//' | tr '\n' ' ' | sed 's/  */ /g' | grep -qF -- "$subj" || bad+=" $p"
done
ok "$([ -z "$bad" ]; echo $?)" "the cover letter's shortlog has every patch's subject${bad:+ (not:$bad)}"

if [ ! -f "$TREE/scripts/checkpatch.pl" ]; then
	for p in "${listed[@]}"; do
		n=$((n + 1))
		echo "ok $n - checkpatch --strict $p # SKIP no kernel tree at $TREE (make kernel)"
	done
else
	for p in "${listed[@]}"; do
		# Debian's python3 has the modules checkpatch's SPDX check imports (tests/deps).
		out=$(cd "$TREE" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict \
			--no-summary --terse "$OLDPWD/kernel-patches/$p" 2>&1)
		ok "$([ -z "$out" ]; echo $?)" "checkpatch --strict $p"
		[ -z "$out" ] || printf '%s\n' "$out" | sed 's/^/# /'
	done
fi
echo "1..$n"
