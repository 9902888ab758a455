#!/bin/sh
# ops.sh OP DIR: one program of tests/vm/55-tree-programs.t, in DIR (a transparent grant's
# tree, or the sandbox's own directory). Run as root in the guest: each step is one program
# started by credbox as sandbox (a grant does not survive an execve, so no shell runs them),
# unmodified Debian programs; the archive and the source tree are /tmp/src (guest.sh). Stops
# at the first step that fails, with its status.
op=$1 d=$2
G=/gnu/bin
cb() { /credbox/build/credbox --profile "${TREE_INI:-/credbox/tree/tree.ini}" -- "$@"; }
# safe.directory: the repository in a lent tree is the lender's, not the program's uid
git() { cb $G/git -c safe.directory='*' -c user.name=t -c user.email=t@example.org \
	-c init.defaultBranch=main "$@"; }
py() { cb /usr/bin/python3.11 -S -I -c "$@"; }
set -e
case $op in
tar)	cb $G/mkdir $d/tar; cb $G/tar -C $d/tar -xf /tmp/src/arch.tar ;;
cp)	cb $G/cp -a /tmp/src/t $d/cp ;;
python)	py "if 1:
		import os, shutil, sys
		os.mkdir(sys.argv[1] + '/py')
		shutil.copy2('/tmp/src/t/a.txt', sys.argv[1] + '/py/a.txt')
		shutil.copytree('/tmp/src/t', sys.argv[1] + '/py/tree', symlinks=True)" $d ;;
git)	cb $G/mkdir $d/git; git -C $d/git init -q; cb $G/cp /tmp/src/t/run.sh $d/git/f
	git -C $d/git add f; git -C $d/git commit -qm first; git -C $d/git log --format='%H %s'
	git -C $d/git status --porcelain ;;
touch)	cb $G/mkdir $d/touch; cb $G/touch -d '2001-02-03 04:05:06' $d/touch/new
	cb $G/touch $d/touch/old; cb $G/touch -m -d '2002-03-04 05:06:07' $d/touch/old ;;
chmod)	cb $G/mkdir $d/chmod; cb $G/cp /tmp/src/t/a.txt $d/chmod/s.sh
	cb $G/chmod +x $d/chmod/s.sh; cb $G/chmod 0750 $d/chmod ;;
ln-s)	cb $G/mkdir $d/lns; cb $G/ln -s ../a.txt $d/lns/rel; cb $G/ln -s /etc/passwd $d/lns/abs ;;
ln)	cb $G/mkdir $d/ln; cb $G/touch $d/ln/a; cb $G/ln $d/ln/a $d/ln/b ;;
# the read-only tree: each change of something that is there
ro-tar)	cb $G/tar -C $d -xf /tmp/src/arch.tar ;;
ro-cp)	cb $G/cp -a /tmp/src/t $d/cp ;;
ro-python) py "if 1:
		import shutil, sys
		shutil.copy2('/tmp/src/t/a.txt', sys.argv[1] + '/a.txt')" $d ;;
ro-copystat) py "if 1:
		import shutil, sys
		shutil.copystat('/tmp/src/t/a.txt', sys.argv[1] + '/a.txt')" $d ;;
ro-git)	git -C $d init -q ;;
ro-touch) cb $G/touch -d '2001-02-03 04:05:06' $d/a.txt ;;
ro-chmod) cb $G/chmod +x $d/a.txt ;;
ro-ln-s) cb $G/ln -s a.txt $d/sl ;;
ro-ln)	cb $G/ln $d/a.txt $d/hl ;;
*)	echo "ops.sh: no op $op" >&2; exit 2 ;;
esac
