#!/bin/bash
# credbox-fuzz.t: a short libFuzzer run of the profile parser (ASan, UBSan), seeded with the
# example and test profiles; `make fuzz` runs it longer.
cd "$(dirname "$0")/../.." || exit 1
F=build/tests/host/fuzz-profile
if [ ! -x $F ]; then
	echo "ok 1 - profile parser fuzzing # SKIP no clang/libFuzzer build"
	echo "1..1"
	exit 0
fi
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
cp conf/*.ini tests/host/profiles/*.ini "$corpus"/
if $F -max_total_time=20 -max_len=2048 -print_final_stats=0 "$corpus" >"$corpus.log" 2>&1; then
	echo "ok 1 - 20 s of libFuzzer on the profile parser: no crash, leak or UB"
	grep -E '^#[0-9]+ +DONE' "$corpus.log" | sed 's/^/# /'
	rm -f "$corpus.log"
	echo "1..1"
else
	echo "not ok 1 - the profile parser fuzzer found a problem"
	tail -30 "$corpus.log" | sed 's/^/# /'
	rm -f "$corpus.log"
	echo "1..1"
	exit 1
fi
