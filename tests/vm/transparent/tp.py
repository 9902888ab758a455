# tp.py: python3, unmodified, on the transparent grant of tp.ini (tests/vm/50-transparent.t).
import os
d = "/srv/tp/drive"
print(open(d + "/README").read().strip())
with open(d + "/PY.TXT", "w") as f:
    f.write("from python\n")
print(" ".join(sorted(os.listdir(d))))
os.chdir(d + "/sub")
print(os.getcwd(), open("NESTED.TXT").read().strip())
