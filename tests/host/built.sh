# built.sh: sourced by the host tests that need programs of build/.
#
#   built FILE...    unless each FILE is an executable, prints a TAP plan of one failed test
#                    naming the first missing one ("is built (make check)") and exits 1
built() {
	local f

	for f; do
		if [ ! -x "$f" ]; then
			echo "1..1"
			echo "not ok 1 - $f is built (make check)"
			exit 1
		fi
	done
}
