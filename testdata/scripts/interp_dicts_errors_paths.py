# Interpreter behaviour real scripts rely on: instance __dict__/vars() in insertion order and as a
# dict, SystemExit.code, OSError's errno/strerror/filename, "%s" % obj, splitlines(keepends),
# path-like objects in open()/os/os.path, os.rename/mkdir, sys.exc_info, print() to a
# reassigned sys.stdout and contextlib.redirect_stdout.
import os, sys, pathlib, tempfile
class N: pass
a, b = N(), N()
for k in ["mode", "lr", "amp", "b"]:
    setattr(a, k, 1); setattr(b, k, 1)
print(list(a.__dict__.keys()), vars(a), vars(a) == vars(b), list(vars(a)), dict(vars(a)))
try:
    raise SystemExit(2)
except SystemExit as e:
    print(e.code, SystemExit().code, SystemExit(1, 2).code)
e = FileExistsError(17, "File exists", "a/b")
print(str(e), e.errno, e.strerror, e.filename, e.args, repr(OSError("plain")))
try:
    open("/nonexistent/x")
except FileNotFoundError as err:
    print(err, err.errno, err.filename)
class A:
    def __str__(self): return "A!"
    def __repr__(self): return "A()"
print("%s %r" % (A(), A()), "%s" % A(), "x=%s" % [1])
print("a\nb\r\nc".splitlines(True), "a\nb\n".splitlines())
d = pathlib.Path(tempfile.mkdtemp())
p = d / "cfg.txt"
with open(p, "w") as f:
    f.write("hi")
print(os.path.exists(p), os.path.basename(p), os.fspath(p) == str(p), open(p).read())
os.rename(p, d / "c2.txt"); print(sorted(os.listdir(d)))
os.mkdir(d / "sub"); print(os.path.isdir(d / "sub"))
try:
    os.mkdir(d / "sub")
except FileExistsError as err:
    print(type(err).__name__, err.errno)
try:
    raise ValueError("boom")
except ValueError:
    t, v, tb = sys.exc_info()
    print(t.__name__, v, sys.exception())
print(sys.exc_info())
import io
buf = io.StringIO(); old = sys.stdout; sys.stdout = buf; print("captured"); sys.stdout = old; print(repr(buf.getvalue()))
import contextlib
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    print("inside")
print(repr(buf.getvalue()))
