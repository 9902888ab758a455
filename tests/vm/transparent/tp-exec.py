# tp-exec.py: python3's os.execv under the transparent grant of tp.ini (50-transparent.t):
# the runtime starts GNU cat in place; the grant is closed for it.
import os
os.execv("/gnu/bin/cat", ["cat", "/credbox/transparent/exec.txt"])
