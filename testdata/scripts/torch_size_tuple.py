# torch.Size is a tuple: isinstance, concatenation, repetition, ordering, hashing, unpacking.
import torch
s = torch.zeros(2, 3, 2).shape
def attempt(label, fn):
    try:
        print(label, fn())
    except Exception as e:
        print(label, type(e).__name__, e)
attempt("add", lambda: s + (1,))
attempt("radd", lambda: (1,) + s)
attempt("mul", lambda: s * 2)
attempt("lt", lambda: s < (3,))
attempt("max", lambda: max(s))
attempt("sorted", lambda: sorted(s))
attempt("sum", lambda: sum(s))
attempt("index7", lambda: s.index(7))
attempt("star", lambda: [*s])
attempt("unpack", lambda: (lambda a, b, c: a + b + c)(*s))
attempt("dict key", lambda: {s: 1}[(2, 3, 2)])
attempt("tuple()", lambda: tuple(s) == s)
attempt("ne", lambda: s != (2, 3))
print(isinstance(s, tuple), s.count(2), s.index(3), list(s), tuple(s), 3 in s, len(s), s[1:], s == (2, 3, 2),
      hash(s) == hash((2, 3, 2)), torch.Size([4, 5]), torch.Size(), torch.Size(range(3)))
try:
    torch.Size([1.5])
except TypeError as error:
    print(error)
