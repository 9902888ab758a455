# tp-subprocess.py: python's subprocess from a working directory in the transparent tree, run
# by credbox under exec = keep (tests/vm/transparent/guest.sh): a command started directly
# (fork, then exec in place) and one through the shell, each using the tree by relative paths.
import os
import subprocess
import sys

os.chdir("/srv/tp/drive/sub")
r = subprocess.run(["/gnu/bin/cat", "NESTED.TXT", "../README"], capture_output=True, text=True)
print(r.returncode, " ".join(r.stdout.split()))
sys.stderr.write(r.stderr)
r = subprocess.run("/gnu/bin/cat ../README >SUBPROC.TXT && /gnu/bin/ls SUBPROC.TXT NESTED.TXT",
                   shell=True, capture_output=True, text=True)
print(r.returncode, " ".join(r.stdout.split()))
sys.stderr.write(r.stderr)
