# Every statement form of Kiln's Python subset (DESIGN.md section 4), for the front-end tests.
import os
import torch.nn as nn, math
from torch import nn as tnn, optim
from . import sibling
from ..pkg.mod import (alpha as a, beta,)
from os.path import *

x = 1
x = y = z = 2
a, b = b, a
(a, b), [c, *d] = t
first, *rest = items
obj.attr = value
obj.items[0] = 1
obj.m(1).n[2:3] = []
counter += 1
total -= 2 * x
m @= w
s //= 3; p **= 2; q %= 5; r <<= 1; r >>= 1; f &= 1; f |= 2; f ^= 3; g /= 4; g *= 5
width: int = 3
height: float
(paren): int = 4
self.w: list[int] = []

def plain():
    pass

def positional(a, b, c=1, d=2):
    return a + b + c + d

def variadic(*args, **kwargs):
    return args, kwargs

def keyword_only(a, *, b, c=3, **rest):
    return a, b, c, rest

def slash_only(a, b=2, /, c=3, *args, d, e=5, **kw) -> int:
    return a

def annotated(x: "torch.Tensor", y: int = 2, *rest: int, flag: bool = False, **more: str) -> None:
    return

@decorator
@decorator.with_args(1, key="v")
@(lambda f: f)
def decorated():
    """Docstring."""
    global counter, total
    counter = 1
    def inner():
        nonlocal_value = 1
        def innermost():
            nonlocal nonlocal_value
            nonlocal_value += 1
        return innermost
    return inner

def generator(n):
    i = 0
    while i < n:
        yield i
        i += 1
    yield
    x = yield i
    yield from range(3)

class Empty:
    pass

class Model(nn.Module, Mixin):
    scale: float = 2.0

    def __init__(self, hidden=64):
        super().__init__()
        self.linear = nn.Linear(hidden, hidden)

    @staticmethod
    def helper(*, flag=True):
        return not flag

if x:
    pass
elif y:
    x = 2
elif z:
    x = 3
else:
    x = 4

if a: b = 1
else: b = 2

for i in range(10):
    if i % 2 == 0:
        continue
    if i > 7:
        break
else:
    done = True

for i, (k, v) in enumerate(d.items()):
    print(i, k, v)

for x, in pairs: pass
for *init, last in rows: pass

while True:
    break
else:
    never = 1

with torch.no_grad():
    y = model(x)

with open("a") as f, open("b") as (g, h):
    pass

with (torch.no_grad(), torch.enable_grad() as e,):
    pass

with (a, b) as c:
    pass

try:
    risky()
except ValueError:
    pass
except (KeyError, IndexError) as error:
    raise RuntimeError("bad") from error
except Exception as e:
    raise
else:
    ok = True
finally:
    cleanup()

try:
    pass
finally:
    pass

try:
    pass
except:
    pass

raise
raise ValueError
assert x
assert x > 0, "x must be positive"
del x
del a, b[0], c.d, (e, f), [g]
pass; x = 1;

def binds_later():
    def inner():
        nonlocal later, imported
        later = 2
    later = 1
    import imported
    return inner
