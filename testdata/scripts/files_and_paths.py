# open() for text files (write, append, read, readline(s), iteration, with), os.path and the os
# functions scripts use for files and folders, with CPython's errors.
import os
import os.path

folder = os.path.join(os.environ.get("TMPDIR", "/tmp"), "kiln_files_" + str(os.getpid()), "logs")
os.makedirs(folder, exist_ok=True)
os.makedirs(folder, exist_ok=True)
path = os.path.join(folder, "run.txt")
with open(path, "w") as f:
    print(f.write("step 1\n"), f.closed, f.mode, os.path.basename(f.name))
    f.writelines(["step 2\n", "step 3"])
print(f.closed)
with open(path, "a", encoding="utf-8") as f:
    f.write("\nstep 4\n")
with open(path) as f:
    print(repr(f.readline()), repr(f.read(4)), repr(f.read()))
print([line.rstrip() for line in open(path)], open(path).readlines())
print(os.path.exists(path), os.path.isfile(path), os.path.isdir(folder), os.path.isdir(path), os.path.getsize(path))
print(os.listdir(folder), os.path.splitext("model.best.pt"), os.path.splitext(".bashrc"), os.path.split("/a/b/c.txt"))
print(os.path.dirname("/a/b/c.txt"), os.path.dirname("c.txt"), os.path.join("a", "b", "/c", "d"), os.path.join("a/", "b"),
      os.path.normpath("a//b/./c/../d/"), os.path.isabs("/x"), os.path.abspath("/a/b/../c"), os.sep)
try:
    open(os.path.join(folder, "missing.txt"))
except FileNotFoundError as error:
    print("FileNotFoundError", str(error).replace(folder, "<folder>"))
f = open(path)
f.close()
for bad in (lambda: f.read(), lambda: open(path, "q"), lambda: os.makedirs(folder)):
    try:
        bad()
    except Exception as error:
        print(type(error).__name__, str(error).replace(folder, "<folder>"))
os.remove(path)
print(os.path.exists(path), os.getcwd() == os.path.abspath("."))
os.rmdir(folder)
os.rmdir(os.path.dirname(folder))
print(os.path.exists(os.path.dirname(folder)))
