#!/bin/sh
# ops.sh OP DIR: one program of tests/vm/55-tree-programs.t, run under credbox as sandbox, in
# DIR (a transparent grant's tree, or the sandbox's own directory). Unmodified Debian programs;
# the archive and the source tree are /tmp/src (made by guest.sh).
op=$1 d=$2
G=/gnu/bin
export HOME=/nonexistent GIT_CONFIG_NOSYSTEM=1 GIT_PAGER=cat TZ=UTC LC_ALL=C
export GIT_AUTHOR_DATE='2001-02-03T04:05:06Z' GIT_COMMITTER_DATE='2001-02-03T04:05:06Z'
git() { $G/git -c user.name=t -c user.email=t@example.org -c init.defaultBranch=main "$@"; }
set -e
case $op in
tar)	$G/mkdir $d/tar; $G/tar -C $d/tar -xf /tmp/src/arch.tar ;;
cp)	$G/cp -a /tmp/src/t $d/cp ;;
python)	/usr/bin/python3.11 -S -I -c "if 1:
		import os, shutil, sys
		os.mkdir(sys.argv[1] + '/py')
		shutil.copy2('/tmp/src/t/a.txt', sys.argv[1] + '/py/a.txt')
		shutil.copytree('/tmp/src/t', sys.argv[1] + '/py/tree', symlinks=True)" $d ;;
git)	$G/mkdir $d/git; cd $d/git; git init -q; echo hello >f; $G/chmod 0755 f
	git add f; git commit -qm first; git log --format='%H %s' ;;
touch)	$G/mkdir $d/touch; $G/touch -d '2001-02-03 04:05:06' $d/touch/new
	echo x >$d/touch/old; $G/touch -m -d '2002-03-04 05:06:07' $d/touch/old ;;
chmod)	$G/mkdir $d/chmod; printf '#!/bin/sh\necho run\n' >$d/chmod/s.sh
	$G/chmod +x $d/chmod/s.sh; $G/chmod 0750 $d/chmod ;;
ln-s)	$G/mkdir $d/lns; $G/ln -s ../a.txt $d/lns/rel; $G/ln -s /etc/passwd $d/lns/abs ;;
ln)	$G/mkdir $d/ln; echo x >$d/ln/a; $G/ln $d/ln/a $d/ln/b ;;
# the read-only tree: each change of something that is there
ro-tar)	$G/tar -C $d -xf /tmp/src/arch.tar ;;
ro-cp)	$G/cp -a /tmp/src/t $d/cp ;;
ro-python) /usr/bin/python3.11 -S -I -c "if 1:
		import shutil, sys
		shutil.copy2('/tmp/src/t/a.txt', sys.argv[1] + '/a.txt')" $d ;;
ro-copystat) /usr/bin/python3.11 -S -I -c "if 1:
		import shutil, sys
		shutil.copystat('/tmp/src/t/a.txt', sys.argv[1] + '/a.txt')" $d ;;
ro-git)	cd $d; git init -q ;;
ro-touch) $G/touch -d '2001-02-03 04:05:06' $d/a.txt ;;
ro-chmod) $G/chmod +x $d/a.txt ;;
ro-ln-s) $G/ln -s a.txt $d/sl ;;
ro-ln)	$G/ln $d/a.txt $d/hl ;;
*)	echo "ops.sh: no op $op" >&2; exit 2 ;;
esac
