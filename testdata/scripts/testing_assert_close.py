# torch.testing.assert_close and collections.abc: PyTorch's tolerances and mismatch messages.
import collections
import collections.abc
import torch
from torch.testing import assert_close


def attempt(label, *args, **kwargs):
    try:
        assert_close(*args, **kwargs)
        print(label, "ok")
    except Exception as error:
        print(label, type(error).__name__)
        print(str(error))


a = torch.tensor([1.0, 2.0, 3.0])
attempt("equal", a, a.clone())
attempt("within float32 tolerance", a, a + 1e-6)
attempt("one element off", a, torch.tensor([1.0, 2.5, 3.0]))
attempt("two off 2d", torch.arange(6.0).reshape(2, 3), torch.arange(6.0).reshape(2, 3) * 1.5)
attempt("explicit tolerances", a, a + 0.01, rtol=0, atol=0.1)
attempt("only rtol", a, a, rtol=0.1)
attempt("dtype", a, a.double())
attempt("dtype unchecked", a, a.double() + 1e-9, check_dtype=False)
attempt("shape", a, torch.ones(2))
attempt("integers", torch.tensor([1, 2, 3]), torch.tensor([1, 5, 3]))
attempt("scalar tensor", torch.tensor(1.0), torch.tensor(1.5))
attempt("nan", torch.tensor([float("nan"), 1.0]), torch.tensor([float("nan"), 1.0]))
attempt("nan equal_nan", torch.tensor([float("nan"), 1.0]), torch.tensor([float("nan"), 1.0]), equal_nan=True)
attempt("numbers", 1.0, 1.0 + 1e-9)
attempt("numbers off", 1.0, 1.5)
attempt("int vs float", 1, 1.0)
attempt("none", None, None)
attempt("none vs tensor", None, a)
attempt("booleans", True, False)
attempt("list of tensors", [a, a], [a, a * 2])
attempt("length", [a], [a, a])
attempt("dict", {"w": a, "b": torch.zeros(1)}, {"w": a, "b": torch.ones(1)})
attempt("keys", {"w": a}, {"v": a})
attempt("tensor vs list", a, [1.0, 2.0, 3.0])
attempt("message", a, a * 2, msg="custom text")
attempt("message callable", a, a * 2, msg=lambda text: "wrapped: " + text.splitlines()[0])
attempt("sizes", torch.zeros(2, 3).shape, (2, 3))
attempt("bfloat16", a.bfloat16(), (a * 1.01).bfloat16())
state = collections.OrderedDict(weight=torch.ones(2, 2))
attempt("state dict", state, {"weight": torch.ones(2, 2)})

print(isinstance([1], collections.abc.Sequence), isinstance((1,), collections.abc.Sequence),
      isinstance("s", collections.abc.Sequence), isinstance({}, collections.abc.Mapping),
      isinstance(state, collections.abc.MutableMapping), isinstance(a.shape, collections.abc.Sequence),
      isinstance(a, collections.abc.Sequence), isinstance(len, collections.abc.Callable),
      isinstance(iter([]), collections.abc.Iterator), isinstance(3, collections.abc.Hashable),
      isinstance([], collections.abc.Hashable), issubclass(list, collections.abc.Iterable))


class Window(collections.abc.Sequence):
    def __init__(self, data, size):
        self.data, self.size = data, size

    def __len__(self):
        return len(self.data) - self.size + 1

    def __getitem__(self, i):
        if i >= len(self):
            raise IndexError(i)
        return self.data[i:i + self.size]


w = Window([1, 2, 3, 4], 2)
print(list(w), w.index([2, 3]), [3, 4] in w, isinstance(w, collections.abc.Iterable), w.count([1, 2]))


class Registry(collections.abc.Mapping):
    def __init__(self):
        self._items = {"a": 1, "b": 2}

    def __getitem__(self, key):
        return self._items[key]

    def __iter__(self):
        return iter(self._items)

    def __len__(self):
        return len(self._items)


r = Registry()
print(r.get("a"), r.get("z", 0), "b" in r, sorted(r.keys()), isinstance(r, collections.abc.Mapping))
try:
    collections.abc.Sequence()
except TypeError as error:
    print(error)
print(torch.Size([2, 3]), torch.Size(), torch.Size(range(3)))
try:
    torch.Size([1.5])
except TypeError as error:
    print(error)
