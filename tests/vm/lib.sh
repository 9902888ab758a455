# tests/vm/lib.sh: shared helpers of the VM tests (sourced, not run).
#
#   vm_kernel_env          eval build-kernel --print-env (KSRC KOUT BZIMAGE KHDR ...);
#                          $CREDBOX_KERNEL_ARGS selects another kernel, e.g.
#                          CREDBOX_KERNEL_ARGS=--baseline runs a test on the tree
#                          without the series (tests then pass --kernel "$BZIMAGE")
#   vm_test_init           what a kselftest-running test does first: vm_kernel_env,
#                          and a scratch directory $tmp removed on exit
#   ksft_guest_cmd PROG... a guest shell command running each kselftest program
#                          between section markers
#   ksft_merge FILE        turn that output into one TAP stream: every program's
#                          results renumbered, plans checked per program, a
#                          non-zero exit without a failure line counted as one
#   ksft_report FILE STATUS [START]
#                          ksft_merge, then a failure when vm-run's STATUS is not 0,
#                          then the plan
#   extract_new_file PATCH PATH
#                          print the file a patch creates (its new-file hunk)
#   vm_require_bins FILE...
#                          the test's programs are built: else one failing result, the
#                          plan, and exit 1
#   ksft_on_ext4 DIR PROG env|tmp
#                          write DIR/ext4-PROG, a guest script that runs ./PROG with
#                          its files on the guest's ext4 disk: CRED_TEST_DIR set for
#                          the series' fixtures (env), or /tmp itself on the disk for
#                          tests that use /tmp (tmp); a result fails when the disk is
#                          not mounted

VM_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
VMRUN=$VM_REPO/tests/vm/vm-run

vm_kernel_env() {
	# shellcheck disable=SC2086
	eval "$("$VM_REPO/kernel-patches/build-kernel" --print-env ${CREDBOX_KERNEL_ARGS:-})"
}

vm_test_init() {
	vm_kernel_env
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
}

ksft_guest_cmd() {
	local p out=
	for p in "$@"; do
		out+="echo '@@ksft-begin $p'; $p; echo \"@@ksft-end $p \$?\"; "
	done
	echo "$out"
}

# ksft_merge FILE [START]: print the TAP results (numbered from START+1)
# without a plan; the last number is written to $KSFT_COUNT_FILE when set.
ksft_merge() {
	awk -v start="${2:-0}" -v countfile="${KSFT_COUNT_FILE:-}" '
		function result(okv, text) {
			n++
			printf "%s %d %s\n", okv, n, text
		}
		{ sub(/\r$/, "") }
		/^@@ksft-begin / { prog = $2; plans = 0; got = 0; fails = 0; inprog = 1; next }
		/^@@ksft-end / {
			st = $3 + 0
			if (got != plans)
				result("not ok", "- " prog ": planned " plans " results, got " got)
			if (st != 0 && st != 4 && fails == 0)
				result("not ok", "- " prog " exited with status " st)
			if (st == 4 && got == 0)
				result("ok", "- " prog " # SKIP whole program skipped")
			inprog = 0; seen[prog] = 1; next
		}
		/^1\.\.[0-9]+/ { plans += substr($0, 4) + 0; print "# " $0; next }
		/^(not )?ok [0-9]+/ {
			okv = ($1 == "ok") ? "ok" : "not ok"
			line = $0
			sub(/^(not )?ok [0-9]+ ?/, "", line)
			if (okv == "not ok" && line !~ /# *TODO/) fails++
			got++
			result(okv, "- " (inprog ? prog ": " : "") line)
			next
		}
		/^TAP version/ { next }
		{ print "# " $0 }
		BEGIN { n = start }
		END {
			if (inprog)
				result("not ok", "- " prog " did not finish (guest died or timed out)")
			if (countfile != "") print n > countfile
		}
	' "$1"
}

# ksft_report FILE STATUS [START]: the TAP of a kselftest boot: ksft_merge FILE [START], one
# more failure if vm-run exited with STATUS other than 0, and the plan.
ksft_report() {
	local count n
	count=$(mktemp)
	KSFT_COUNT_FILE=$count ksft_merge "$1" "${3:-0}"
	n=$(cat "$count")
	rm -f "$count"
	if [ "$2" -ne 0 ]; then
		n=$((n + 1))
		echo "not ok $n - vm-run exited with status $2"
	fi
	echo "1..$n"
}

extract_new_file() {
	awk -v want="$2" '
		/^diff --git / { cur = ""; next }
		/^\+\+\+ b\// { cur = substr($0, 7); next }
		cur == want && /^@@ -0,0 \+1(,[0-9]+)? @@/ {
			len = $3; sub(/^\+1,?/, "", len); len = (len == "") ? 1 : len + 0
			for (i = 0; i < len && (getline l) > 0; i++) {
				if (l !~ /^\+/) exit 2
				print substr(l, 2)
			}
			found = (i == len); exit
		}
		END { exit found ? 0 : 1 }
	' "$1"
}

vm_require_bins() {
	local f
	for f in "$@"; do
		if [ ! -x "$f" ]; then
			echo "1..1"
			echo "not ok 1 - $f is missing (make all TEST_BINS)"
			exit 1
		fi
	done
}

ksft_on_ext4() {
	local dir=$1 prog=$2 mode=$3 run
	case $mode in
	env) run="CRED_TEST_DIR=/mnt/ext4/tmp exec ./$prog" ;;
	tmp) run="mount --bind /mnt/ext4/tmp /tmp || exit 1; ./$prog; st=\$?; umount /tmp; exit \$st" ;;
	*) echo "ksft_on_ext4: mode env or tmp, not '$mode'" >&2; return 2 ;;
	esac
	cat >"$dir/ext4-$prog" <<-EOF
	#!/bin/sh
	# $prog with its files on the guest's ext4 disk (tests/vm/lib.sh, ksft_on_ext4)
	if ! grep -q '^/dev/vda /mnt/ext4 ext4 ' /proc/mounts; then
		echo "1..1"
		echo "not ok 1 - $prog on ext4: the guest's disk is not mounted on /mnt/ext4"
		exit 1
	fi
	$run
	EOF
	chmod 0755 "$dir/ext4-$prog"
}

# ksft_cc OUT SRC... [FLAGS]: compile a kselftest program for the guest.
# Static (the guest has only what the initramfs carries) and without the
# -fsanitize=address,undefined of the tree's Makefile: those runtimes cannot
# be linked into a static executable, and they would check the test program,
# not the kernel under test, which KASAN checks.
ksft_cc() {
	local out=$1
	shift
	"${CC:-cc}" -static -O2 -g -Wall -D_GNU_SOURCE= -isystem "$KHDR" \
		-I "$KSRC/tools/testing/selftests" -o "$out" "$@"
}

# guest_tap OUT ERR MARKER STATUS: the TAP of a guest script that prints "ok - WHAT" and
# "not ok - WHAT" lines (numbered here; anything else becomes a comment) and MARKER last:
# one more result for reaching MARKER, one for vm-run's STATUS, vm-run's stderr ERR as
# comments, and the plan. Exits non-zero when a result failed (not counting # TODO).
guest_tap() {
	awk -v marker="$3" -v status="$4" '
		{ sub(/\r$/, "") }
		/^ok - / { n++; print "ok " n " " substr($0, 4); next }
		/^not ok - / { n++; print "not ok " n " " substr($0, 8); next }
		$0 == marker { done = 1; next }
		/^#/ { print; next }
		{ print "# " $0 }
		END {
			n++
			print (done ? "ok " : "not ok ") n " - the guest script ran to its end"
			n++
			print (status == 0 ? "ok " : "not ok ") n " - vm-run exit status " status \
				(status == 0 ? "" : " (kernel report, timeout or guest failure)")
			print "1.." n
		}' "$1" >"$1.tap"
	sed 's/^/# vm-run: /' "$2" >>"$1.tap"
	cat "$1.tap"
	! grep -v '# TODO' "$1.tap" | grep -q '^not ok'
}
