# collections: OrderedDict, defaultdict, Counter, deque and namedtuple as training scripts use them.
from collections import Counter, OrderedDict, defaultdict, deque, namedtuple

od = OrderedDict()
od["b"] = 1
od["a"] = 2
od["c"] = 3
print(od, list(od), list(od.keys()), list(od.values()), list(od.items()), len(od), "a" in od)
od.move_to_end("b")
print(od, od.popitem(), od.popitem(last=False), od)
print(OrderedDict(), OrderedDict([("x", 1), ("y", 2)]) == {"y": 2, "x": 1}, dict(OrderedDict(k=1)))
print(OrderedDict([("x", 1), ("y", 2)]) == OrderedDict([("y", 2), ("x", 1)]), od.get("zz", 0), od.setdefault("q", 9), od)
state = OrderedDict((name, i * i) for i, name in enumerate(["w", "b", "g"]))
state.update(z=0)
print(state, {**state}, state.pop("w"), state.copy(), state | {"n": 1})
for key, value in state.items():
    print(key, value, end="; ")
print()

dd = defaultdict(list)
for word in ["apple", "avocado", "banana", "blueberry", "cherry"]:
    dd[word[0]].append(word)
print(dd, dd["a"], len(dd), "z" in dd, dd["z"], len(dd))
counts = defaultdict(int)
for ch in "mississippi":
    counts[ch] += 1
print(counts, dict(counts), sorted(counts.items()), defaultdict(None, {"k": 1}))
try:
    defaultdict(None)["missing"]
except KeyError as e:
    print("KeyError", e)

c = Counter("abracadabra")
print(c, c["a"], c["z"], c.most_common(2), c.most_common(), len(c), sum(c.values()), c.total())
c.update("aaz")
c.update({"b": 10})
print(c, sorted(c.elements())[:6])
c2 = Counter(a=1, b=2, q=4)
print(c + c2, c - c2, c2 - c, c | c2, c & c2, Counter(), Counter([1, 2, 2, 3, 3, 3]))
c2.subtract(["q", "q"])
print(c2, c2 == Counter(a=1, b=2, q=2), list(c2), Counter({"x": 3, "y": 5}).most_common(1))

dq = deque([1, 2, 3])
dq.append(4)
dq.appendleft(0)
print(dq, len(dq), dq[0], dq[-1], dq.pop(), dq.popleft(), dq, list(dq), 2 in dq)
window = deque(maxlen=3)
for i in range(6):
    window.append(i)
    print(list(window), end=" ")
print(window, window.maxlen, deque().maxlen, sum(window))
dq.extend([7, 8])
dq.extendleft([-1, -2])
dq.rotate(2)
print(dq, list(reversed(dq)), deque("ab") == deque(["a", "b"]), bool(deque()), deque(range(3), 2))
try:
    deque().pop()
except IndexError as e:
    print("IndexError", e)

Point = namedtuple("Point", ["x", "y"])
p = Point(1, y=2)
print(p, p.x, p.y, p[0], p[-1], len(p), list(p), p._fields, p._asdict(), p._replace(x=10), Point._make([3, 4]))
x, y = p
print(x + y, p == (1, 2), p == Point(1, 2), hash(p) == hash((1, 2)), p < Point(1, 3), Point, type(p).__name__)
Row = namedtuple("Row", "name score rank", defaults=[0])
print(Row("a", 1), Row("b", 2, 3), Row._fields, Row._field_defaults, sorted([Row("z", 2), Row("y", 1)]))
Pair = namedtuple("Pair", "left, right")
print(Pair(left=[1], right={"k": 2}), Pair(*"ab"), [f.left for f in [Pair(1, 2), Pair(3, 4)]])
for bad in [lambda: Point(1), lambda: Point(1, 2, 3), lambda: Point(1, z=2), lambda: namedtuple("T", ["a", "a"])]:
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
try:
    p.x = 5
except AttributeError as e:
    print("AttributeError", e)
