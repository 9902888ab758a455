#!/bin/sh
# dosbox-session.sh: Debian's DOSBox, unmodified, under credbox --profile conf/dosbox.ini as
# sandbox, on a drive C: owned by drive (mode 0700) that sandbox cannot open by itself. Run
# as root in the guest (busybox sh) by tests/vm/transparent/guest.sh (50-transparent.t) and
# by tests/vm/run-demo (make run). Prints what it does, then "ok - " / "not ok - " lines.
# DOSBOX_INI, DRIVE_BASE: another profile, and the directory of the drive and of the private
# tree (tests/vm/70-idmap.t: an ID-mapped grant, the drive beneath a directory of drive's).
CB=/credbox/build/credbox
P=${DOSBOX_INI:-/credbox/conf/dosbox.ini}
C=${DRIVE_BASE:-/srv/dosemu}/drive_c
X=${DRIVE_BASE:-/srv/dosemu}/private
O=/tmp/dosbox-session
mkdir -p $O

ok() { if [ "$1" -eq 0 ]; then echo "ok - $2"; else echo "not ok - $2"; fi; }
owner() { stat -c %u:%g "$1" 2>/dev/null; }
txt() { cat "$C/$1" 2>/dev/null | tr -d '\r'; }

if [ ! -x /usr/bin/dosbox ]; then
	echo "ok - DOSBox session # SKIP /usr/bin/dosbox is missing (Debian package dosbox)"
	exit 0
fi
rm -rf $C $X /srv/dosemu/home
mkdir -p $C/GONE $X /srv/dosemu/home
printf 'hello from dos\r\n' >$C/README.TXT
printf 'rename me\r\n' >$C/RENME.TXT
printf 'delete me\r\n' >$C/DELME.TXT
printf 'secret\r\n' >$X/SECRET.TXT
# The session, as a DOS batch file (DOSBox runs few -c commands; a batch has no limit).
printf '%s\r\n' '@echo off' 'dir c:\ > c:\DIR.TXT' 'type c:\README.TXT > c:\TYPE.TXT' \
	'echo new > c:\NEW.TXT' 'copy c:\README.TXT c:\COPY.TXT' 'md c:\NEWDIR' 'cd c:\NEWDIR' \
	'echo in newdir > IN.TXT' 'cd c:\' 'ren c:\RENME.TXT MOVED.TXT' 'del c:\DELME.TXT' \
	'rd c:\GONE' 'dir d:\ > c:\DIRD.TXT' 'exit' >$C/RUN.BAT
chown -R drive:drive $C $X
chmod 0700 $C $C/GONE $X
chmod 0600 $C/*.* $X/*
chown sandbox:sandbox /srv/dosemu/home
echo "DOSBox on a drive only its owner can open"
echo "  $C: owner drive (uid 1001), mode 0700: $(cd $C && echo *)"
echo "  $X: owner drive, mode 0700, not granted: SECRET.TXT"
out=$(su sandbox -s /bin/sh -c "ls $C" 2>&1 | tr -d '\n')
ok $([ -n "$out" ] && ! echo "$out" | grep -q README; echo $?) \
	"sandbox alone cannot list C: ($out)"
echo "  RUN.BAT: $(tr -d '\r' <$C/RUN.BAT | tr '\n' ';')"
echo "  root runs: SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy credbox --profile $P -- \\"
echo "                 -c 'mount c $C' -c 'mount d $X' -c 'c:' -c 'RUN.BAT'"
SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy timeout 120 $CB --profile $P -- \
	-c "mount c $C" -c "mount d $X" -c "c:" -c "RUN.BAT" >$O/out 2>&1
rc=$?
grep -v '^ALSA\|^MIDI\|^CONFIG\|^DOSBox\|^Copyright\|^---\|^$\|^Please\|^Writing\|^SHELL:Redirect' \
	$O/out | sed 's/^/  | /'
ok $([ $rc -eq 0 ]; echo $?) "credbox -- dosbox exits 0 (got $rc)"
echo "  C: afterwards, as root:"
ls -ln $C | sed 's/^/  | /'
ok $(txt DIR.TXT | grep -q '^README *TXT' && txt DIR.TXT | grep -q '^RUN *BAT'; echo $?) \
	"DIR lists C: (DIR.TXT: $(txt DIR.TXT | grep -c 'TXT\|BAT') entries)"
ok $([ "$(txt TYPE.TXT)" = "hello from dos" ]; echo $?) "TYPE shows README.TXT"
ok $(txt NEW.TXT | grep -q '^new'; echo $?) "ECHO > NEW.TXT creates a file"
ok $([ "$(txt COPY.TXT)" = "hello from dos" ]; echo $?) "COPY copies README.TXT"
bad=
for f in DIR.TXT TYPE.TXT NEW.TXT COPY.TXT DIRD.TXT NEWDIR NEWDIR/IN.TXT MOVED.TXT; do
	[ "$(owner $C/$f)" = 1001:1001 ] || bad="$bad $f:$(owner $C/$f)"
done
ok $([ -z "$bad" ]; echo $?) \
	"every file and directory DOSBox created or renamed belongs to drive (1001:1001)$bad"
ok $([ -f $C/DIRD.TXT ] && ! grep -qi secret $C/DIRD.TXT; echo $?) \
	"a drive mounted from outside every grant shows nothing of drive's SECRET.TXT"
# The directory operations: the kernel's, with drive's credentials.
ok $([ -d $C/NEWDIR ] && [ "$(owner $C/NEWDIR)" = 1001:1001 ]; echo $?) \
	"MD NEWDIR makes a directory that belongs to drive"
ok $([ "$(txt NEWDIR/IN.TXT)" = "in newdir" ]; echo $?) "CD NEWDIR, then a file created in it"
ok $([ "$(txt MOVED.TXT)" = "rename me" ] && [ ! -e $C/RENME.TXT ]; echo $?) \
	"REN RENME.TXT MOVED.TXT"
ok $([ ! -e $C/DELME.TXT ] && [ -f $C/README.TXT ]; echo $?) "DEL DELME.TXT"
ok $([ ! -e $C/GONE ]; echo $?) "RD GONE"
