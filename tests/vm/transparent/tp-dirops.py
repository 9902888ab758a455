# tp-dirops.py: python3's os module, unmodified, making and removing in the transparent grant
# of tp.ini (tests/vm/50-transparent.t): prints "UID GID LISTING" of the new directory.
import os
d = "/srv/tp/drive/PYDIR"
os.mkdir(d)
with open(d + "/A.TXT", "w") as f:
    f.write("a\n")
os.rename(d + "/A.TXT", d + "/B.TXT")
os.mkdir(d + "/SUB")
open(d + "/GONE.TXT", "w").close()
os.remove(d + "/GONE.TXT")
os.rmdir(d + "/SUB")
st = os.stat(d)
print(st.st_uid, st.st_gid, " ".join(sorted(os.listdir(d))))
