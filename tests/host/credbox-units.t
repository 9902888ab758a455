#!/bin/bash
# credbox-units.t: the launcher's C unit tests (parser and plan, privilege drop, Landlock,
# seccomp filters, pre-open checks), each a TAP program built by tests/host/rules.mk.
# Their TAP is merged into one stream with one plan.
cd "$(dirname "$0")/../.." || exit 1
export SRCDIR=$PWD
n=0 status=0
for t in t-profile t-privdrop t-landlock t-filter t-filter-bpf t-loader-maps t-sysnames t-preopen t-redirect t-deps t-idmap; do
	bin=build/tests/host/$t
	echo "# $t"
	if [ ! -x "$bin" ]; then
		n=$((n + 1))
		echo "not ok $n - $t is not built (make check-host builds it)"
		status=1
		continue
	fi
	out=$("$bin")
	rc=$?
	while IFS= read -r line; do
		case $line in
		"ok "*|"not ok "*)
			n=$((n + 1))
			rest=${line#ok }; [ "$rest" = "$line" ] && rest=${line#not ok }
			prefix=ok; case $line in "not ok "*) prefix="not ok" ;; esac
			echo "$prefix $n - $t: ${rest#* - }" ;;
		1..*) ;;
		*) echo "$line" ;;
		esac
	done <<<"$out"
	if [ $rc -ne 0 ]; then
		n=$((n + 1))
		echo "not ok $n - $t exited with status $rc"
		status=1
	fi
done
echo "1..$n"
exit $status
