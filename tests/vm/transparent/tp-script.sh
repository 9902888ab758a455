# tp-script.sh: a shell script run as the program by credbox under exec = keep
# (tests/vm/transparent/guest.sh), by bash and by busybox sh: its cd and redirections are
# the shell's own calls, its commands are programs it starts, all in the transparent tree.
cd /srv/tp/drive/sub || exit 1
/gnu/bin/cat NESTED.TXT
echo "from $1" >"$1.TXT"
/gnu/bin/cat "$1.TXT"
/gnu/bin/ls "$1.TXT" NESTED.TXT
