import glob
import os
import shutil
import tempfile

print(os.path.isdir(tempfile.gettempdir()), tempfile.gettempdir() == os.path.abspath(tempfile.gettempdir()))
d = tempfile.mkdtemp(prefix="run_", suffix=".d")
base = os.path.basename(d)
print(os.path.isdir(d), base.startswith("run_"), base.endswith(".d"), len(base), os.path.dirname(d) == tempfile.gettempdir())
os.makedirs(os.path.join(d, "ckpt", "old"))
for name in ["ckpt/e1.pt", "ckpt/e2.pt", "ckpt/old/e0.pt", "ckpt/.tmp.pt", "log.txt", "cfg.yaml"]:
    with open(os.path.join(d, name), "w") as f:
        f.write("content of " + name + "\n")
rel = lambda paths: sorted(p[len(d) + 1:] for p in paths)
print(rel(glob.glob(os.path.join(d, "*"))))
print(rel(glob.glob(os.path.join(d, "ckpt", "*.pt"))))
print(rel(glob.glob(os.path.join(d, "ckpt", ".*"))))
print(rel(glob.glob(os.path.join(d, "*", "e?.pt"))))
print(rel(glob.glob(os.path.join(d, "**", "*.pt"), recursive=True)))
print(rel(glob.glob(os.path.join(d, "**"), recursive=True)))
print(rel(glob.glob(os.path.join(d, "**", "*.pt"))))
print(rel(glob.glob(os.path.join(d, "log.txt"))), glob.glob(os.path.join(d, "nope*")), glob.glob(os.path.join(d, "nope")))
print(rel(glob.glob(os.path.join(d, "*", ""))))
print(sorted(glob.glob("*.pt", root_dir=os.path.join(d, "ckpt"))), sorted(glob.glob("**/*.pt", root_dir=d, recursive=True)))
print(glob.has_magic("a*"), glob.has_magic("abc"), glob.escape("data[1]*.csv?"))

shutil.copyfile(os.path.join(d, "log.txt"), os.path.join(d, "log2.txt"))
print(open(os.path.join(d, "log2.txt")).read().strip())
print(os.path.basename(shutil.copy(os.path.join(d, "cfg.yaml"), os.path.join(d, "ckpt"))))
try:
    shutil.copyfile(os.path.join(d, "log.txt"), os.path.join(d, "log.txt"))
except shutil.SameFileError as e:
    print("SameFileError", str(e) == "%r and %r are the same file" % (os.path.join(d, "log.txt"), os.path.join(d, "log.txt")))
shutil.copytree(os.path.join(d, "ckpt"), os.path.join(d, "backup"))
print(sorted(os.listdir(os.path.join(d, "backup"))), sorted(os.listdir(os.path.join(d, "backup", "old"))))
shutil.rmtree(os.path.join(d, "ckpt"))
print(sorted(os.listdir(d)))
shutil.rmtree(os.path.join(d, "missing"), ignore_errors=True)
try:
    shutil.rmtree(os.path.join(d, "missing"))
except FileNotFoundError as e:
    print("FileNotFoundError", str(e).endswith("missing'"))
shutil.rmtree(d)
print(os.path.exists(d))

with tempfile.TemporaryDirectory() as tmp:
    print(os.path.isdir(tmp), os.path.basename(tmp).startswith("tmp"))
    with open(os.path.join(tmp, "x.txt"), "w") as f:
        f.write("x")
    os.makedirs(os.path.join(tmp, "sub", "deeper"))
print(os.path.exists(tmp))
td = tempfile.TemporaryDirectory(prefix="exp")
print(repr(td) == "<TemporaryDirectory %r>" % td.name, os.path.isdir(td.name))
td.cleanup()
print(os.path.exists(td.name))
with tempfile.NamedTemporaryFile("w+", suffix=".json") as f:
    print(f.name.endswith(".json"), os.path.exists(f.name))
    f.write('{"a": 1}')
    f.flush()
    print(open(f.name).read())
    name = f.name
print(os.path.exists(name))
f = tempfile.NamedTemporaryFile(mode="w", delete=False)
f.write("kept")
f.close()
print(open(f.name).read())
os.remove(f.name)
print(shutil.get_terminal_size((100, 30)))
