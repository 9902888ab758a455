# reach.sh: sourced by the host tests that run files of the clone as nobody (uid 65534): the
# test programs of build/ under credbox, credbox itself for --check unprivileged, a profile it
# reads. A clone in a directory nobody may not enter (/root is 0700, the natural place for
# `git clone` as root) keeps them out of nobody's reach, and the tests would fail for that
# alone.
#
#   reach FILE    prints the path at which nobody can read and run FILE: FILE itself when it
#                 can, else a copy in $TMP/reach (TMP then searchable by everyone, as /tmp is;
#                 the copy keeps FILE's owner root and its mode, which the trust rules of a
#                 profile want)
# Needs TMP (the test's own directory, removed at its exit).
reach() {
	local abs=$1

	# credbox makes a relative profile path absolute, and walks it from /: so does the test
	[ "${abs#/}" != "$abs" ] || abs=$PWD/$1
	if ! command -v setpriv >/dev/null 2>&1 ||
	   setpriv --reuid=65534 --regid=65534 --clear-groups test -r "$abs" 2>/dev/null; then
		printf '%s\n' "$1"
		return
	fi
	mkdir -p "$TMP/reach" && chmod 0755 "$TMP/reach" && chmod go+x "$TMP" &&
		cp -p "$1" "$TMP/reach/" && printf '%s\n' "$TMP/reach/${1##*/}"
}
