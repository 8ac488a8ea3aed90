import tempfile
import os
from pathlib import Path

os.chdir(tempfile.mkdtemp())  # the paths printed are relative to a fresh folder
root = Path("pathlib_fs_scratch")
print(root.exists(), root.is_dir())
root.mkdir()
print(root.exists(), root.is_dir(), root.is_file())
try:
    root.mkdir()
except FileExistsError as e:
    print("FileExistsError:", e)
root.mkdir(exist_ok=True)
try:
    (root / "a" / "b").mkdir()
except FileNotFoundError as e:
    print("FileNotFoundError:", e)
(root / "a" / "b").mkdir(parents=True)
(root / "a" / "b").mkdir(parents=True, exist_ok=True)

cfg = root / "config.json"
n = cfg.write_text('{"lr": 0.1}\n')
print(n, repr(cfg.read_text()), cfg.is_file(), cfg.is_dir())
try:
    cfg.write_text(5)
except TypeError as e:
    print("TypeError:", e)
try:
    cfg.mkdir(exist_ok=True)
except FileExistsError as e:
    print("FileExistsError:", e)
with (root / "metrics.csv").open("w") as f:
    f.write("epoch,loss\n")
    for epoch in range(3):
        f.write("%d,%.3f\n" % (epoch, 1.0 / (epoch + 1)))
with (root / "metrics.csv").open() as f:
    print([line.rstrip("\n") for line in f])
with (root / "metrics.csv").open("a") as f:
    f.write("3,0.200\n")
print((root / "metrics.csv").read_text().splitlines()[-1])
for name in ["model_1.pt", "model_2.pt", "notes.txt", ".hidden.pt"]:
    (root / "a" / name).write_text(name)
(root / "a" / "b" / "deep.pt").write_text("deep")
(root / "a" / "touched").touch()
(root / "a" / "touched").touch()
try:
    (root / "a" / "touched").touch(exist_ok=False)
except FileExistsError as e:
    print("FileExistsError:", e)

print(sorted(root.iterdir()))
print(sorted(p.name for p in (root / "a").iterdir()))
print(sorted((root / "a").glob("*.pt")))
print(sorted(root.glob("a/model_?.pt")))
print(sorted(root.glob("*/*.txt")))
print(sorted(root.glob("**/*.pt")))
print(sorted(root.rglob("*.pt")))
print(sorted(root.glob("**")))
print(sorted(root.glob("a/b")), sorted(root.glob("nope/*")), sorted(root.glob("config.json")))
print(sorted(root.glob("[ac]*")))

print(Path.cwd() == Path(os.getcwd()), Path.cwd().is_absolute(), Path.home() == Path(os.path.expanduser("~")))
print(root.absolute() == Path.cwd() / root, root.resolve() == Path.cwd() / root)
print((root / "a" / ".." / "config.json").resolve() == Path.cwd() / root / "config.json")
print(Path("~/x").expanduser() == Path.home() / "x")
print(Path("/").absolute(), root.absolute().is_absolute())

(root / "a" / "notes.txt").unlink()
try:
    (root / "a" / "notes.txt").unlink()
except FileNotFoundError as e:
    print("FileNotFoundError:", e)
(root / "a" / "notes.txt").unlink(missing_ok=True)
try:
    (root / "missing.txt").read_text()
except FileNotFoundError as e:
    print("FileNotFoundError:", e)

def remove_tree(path):
    for child in path.iterdir():
        if child.is_dir():
            remove_tree(child)
        else:
            child.unlink()
    path.rmdir()

remove_tree(root)
print(root.exists())
