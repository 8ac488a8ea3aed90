# bytes (literals, constructor, str.encode/decode, indexing, slicing, operators, methods, repr) and
# open() in binary modes (BufferedReader/Writer, read/readline/seek/tell/append) with CPython's errors.
import os
import tempfile
folder = tempfile.mkdtemp()
b = b"ab\x00'\n\xff"
print(b, repr(b'"q"'), b"it's", bytes(3), bytes([65, 66]), bytes("hé", "utf-8"), "hé".encode(), len(b), b[0], b[-1], b[1:3])
print(b + b"z", b * 2, b"a" in b, 97 in b, list(b"hi"), b == b"ab\x00'\n\xff", b != b"", hash(b"x") == hash(b"x"))
print(b"caf\xc3\xa9".decode(), b"abc".decode("ascii"), b"ab".hex(), bytes.fromhex("4142"), b"a,b".split(b","), b",".join([b"x", b"y"]))
print(b"abc".startswith(b"ab"), b"abc".find(b"c"), b"abc".upper(), isinstance(b, bytes), type(b).__name__, b"x" < b"y", bytes(b"q"), str(b"s"))
try:
    b"\xff".decode()
except UnicodeDecodeError as e:
    print("UnicodeDecodeError", e)
with open(os.path.join(folder, "x.bin"), "wb") as f:
    print(f.write(b"\x00\x01data\n"), type(f).__name__)
with open(os.path.join(folder, "x.bin"), "rb") as f:
    print(f.read(2), f.read(), f.tell())
    f.seek(0); print(f.readline(), type(f).__name__)
with open(os.path.join(folder, "x.bin"), "ab") as f:
    f.write(bytes(range(250, 256)))
print(open(os.path.join(folder, "x.bin"), "rb").read())
try:
    open(os.path.join(folder, "x.bin"), "wb").write("text")
except TypeError as e:
    print("TypeError", e)
try:
    open(os.path.join(folder, "y.txt"), "w").write(b"raw")
except TypeError as e:
    print("TypeError", e)
