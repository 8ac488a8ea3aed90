import io

buf = io.StringIO()
print(buf.write("epoch,loss\n"), buf.tell())
for i in range(3):
    buf.write("%d,%.2f\n" % (i, 1.0 / (i + 1)))
print(repr(buf.getvalue()), buf.tell())
buf.seek(0)
print(repr(buf.readline()), buf.tell())
print([line for line in buf])
buf.seek(0)
print(repr(buf.read(5)), repr(buf.read()), repr(buf.read()))
print(buf.seek(0, io.SEEK_END), buf.seek(3), buf.write("XY"), repr(buf.getvalue()))
buf.seek(2)
print(buf.truncate(), repr(buf.getvalue()), buf.tell())
buf.seek(6)
buf.write("!")
print(repr(buf.getvalue()))
print(buf.readable(), buf.writable(), buf.seekable(), buf.isatty(), buf.closed)
s = io.StringIO("line one\nline two\nlast")
print(s.tell(), s.readlines())
s.seek(0)
print(repr(s.readline(4)), repr(s.readline()), repr(s.readline()), repr(s.readline()), repr(s.readline()))
with io.StringIO("ctx") as f:
    print(f.read())
print(f.closed)
for op in [lambda: f.read(), lambda: f.getvalue(), lambda: f.write("x")]:
    try:
        op()
    except ValueError as e:
        print("ValueError:", e)
g = io.StringIO()
for op in [lambda: g.seek(-1), lambda: g.seek(1, 1), lambda: g.seek(1, 2), lambda: g.fileno(), lambda: g.write(5)]:
    try:
        op()
    except io.UnsupportedOperation as e:
        print("UnsupportedOperation:", e, isinstance(e, OSError), isinstance(e, ValueError))
    except (OSError, ValueError, TypeError) as e:
        print(type(e).__name__ + ":", e)
print(io.StringIO(None).getvalue() == "", io.SEEK_SET, io.SEEK_CUR, io.SEEK_END)
import sys
old = sys.stdout  # kiln gap: print() ignores a reassigned sys.stdout
capture = io.StringIO()
sys.stdout = capture
print("captured", 1, 2)
sys.stdout = old
print(repr(capture.getvalue()))
