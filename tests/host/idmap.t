#!/bin/bash
# idmap.t: grants through an ID-mapped mount (method = idmap) on the host's own kernel, which
# has no O_CRED_ALLOW: a stock feature, nothing loaded. tests/host/idmap-suite.sh says what it
# checks; here its trees are made in /tmp (the host's file system for it).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/host/built.sh
built build/credbox build/tests/host/idmap-probe
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP an ID-mapped grant is made by root"
	exit 0
fi
out=$(CB=$PWD/build/credbox PROBE=$PWD/build/tests/host/idmap-probe BASE=/tmp \
      sh tests/host/idmap-suite.sh 2>&1)
status=$?
if skip=$(printf '%s\n' "$out" | sed -n 's/^@@idmap-skip //p') && [ -n "$skip" ]; then
	echo "1..0 # SKIP $skip"
	exit 0
fi
printf '%s\n' "$out" | awk -v status="$status" '
	/^ok - / { n++; print "ok " n " " substr($0, 4); next }
	/^not ok - / { n++; bad++; print "not ok " n " " substr($0, 8); next }
	$0 == "@@idmap-done" { done = 1; next }
	/^#/ { print; next }
	{ print "# " $0 }
	END {
		n++
		print (done && status == 0 ? "ok " : "not ok ") n " - the suite ran to its end" \
			" (exit " status ")"
		print "1.." n
		exit (bad || !done || status)
	}'
