# User classes in containers and protocols: __str__ vs __repr__, iteration, copy, operator.
import copy
import operator


class Tag:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"Tag({self.name!r})"

    def __str__(self):
        return f"#{self.name}"


class Countdown:
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return self

    def __next__(self):
        if self.n <= 0:
            raise StopIteration
        self.n -= 1
        return self.n


class Vec:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __add__(self, o):
        return Vec(self.x + o.x, self.y + o.y)

    def __mul__(self, k):
        return Vec(self.x * k, self.y * k)

    def __rmul__(self, k):
        return self * k

    def __neg__(self):
        return Vec(-self.x, -self.y)

    def __eq__(self, o):
        return isinstance(o, Vec) and (self.x, self.y) == (o.x, o.y)

    def __getitem__(self, i):
        return (self.x, self.y)[i]

    def __repr__(self):
        return f"Vec({self.x}, {self.y})"


t = Tag("a")
print(t, str(t), repr(t), [t], (t,), {"k": t}, f"{t}", f"{t!r}", "%s %r" % (t, t), "{} {!r}".format(t, t))
print(list(Countdown(3)), sum(Countdown(4)), [x * 2 for x in Countdown(2)], max(Countdown(5)), sorted(Countdown(3)))
v = Vec(1, 2)
print(v + Vec(3, 4), v * 3, 2 * v, -v, v == Vec(1, 2), v != Vec(0, 0), v[0], list(v), Vec(1, 2) in [Vec(1, 2)])
nested = {"a": [1, {"b": [2, 3]}], "t": (Tag("x"),)}
deep = copy.deepcopy(nested)
shallow = copy.copy(nested)
deep["a"][1]["b"].append(4)
print(nested, deep, shallow["a"] is nested["a"], deep["a"] is nested["a"])
print(operator.add(2, 3), operator.mul("ab", 2), operator.itemgetter(1)([5, 6]), operator.attrgetter("name")(t), operator.neg(4))
print(sorted([Tag("b"), Tag("a")], key=operator.attrgetter("name")), sorted([(1, "b"), (0, "c")], key=operator.itemgetter(1)))
d = {"x": 1, "y": 2, "z": 3}
del d["x"]
d["x"] = 4
print(d, list(d.items())[0], {k: v for k, v in sorted(d.items(), key=lambda kv: -kv[1])})
print(repr("tab\there"), repr("é ü"), repr("new\nline"), str(["a'b", 'c"d']), repr("\x00\x7f"), "\u00e9" == "é", len("日本"))
