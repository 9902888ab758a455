#!/bin/bash
# loader-fuzz.t: a short libFuzzer run over the loader's ELF header and program-header checks
# and its #! line parser (src/loader_elf.c, src/loader_script.c, built with ASan and UBSan),
# seeded with the malformed-ELF corpus, a real program and a script. `make fuzz-loader` runs
# it longer.
set -u
B=${B:-build}
LT=$B/tests/loader
echo "1..2"
if [ ! -x "$LT/fuzz-loader" ]; then
	echo "ok 1 - seed corpus # SKIP clang with libFuzzer not installed"
	echo "ok 2 - fuzz run # SKIP clang with libFuzzer not installed"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/seed" "$tmp/corpus"
if "$LT/loader-mkelf" "$tmp/seed" >/dev/null && cp /bin/true "$tmp/seed/true" &&
   printf '#! /bin/sh -e x\t \necho\n' >"$tmp/seed/script"; then
	echo "ok 1 - seed corpus"
else
	echo "not ok 1 - seed corpus"
fi
if "$LT/fuzz-loader" -max_total_time=20 -max_len=8192 -print_final_stats=1 \
	"$tmp/corpus" "$tmp/seed" >"$tmp/log" 2>&1; then
	echo "ok 2 - 20 s of fuzzing found no crash, leak or invariant violation"
	grep -E '^stat::number_of_executed_units' "$tmp/log" | sed 's/^/# /'
else
	echo "not ok 2 - fuzzing found a problem"
	tail -40 "$tmp/log" | sed 's/^/# /'
fi
