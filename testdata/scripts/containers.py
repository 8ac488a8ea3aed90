# list, dict, set and tuple methods; insertion order of dicts.
a = [3, 1, 4, 1, 5, 9, 2, 6]
a.append(5)
a.extend([3, 5])
a.insert(0, 0)
a.insert(-1, 8)
print(a, a.count(5), a.index(4), a.pop(), a.pop(0), a)
a.remove(1)
a.reverse()
print(a, sorted(a), sorted(a, reverse=True), a[::-2], a[2:5], a[-3:], len(a))
b = a.copy()
b.sort()
b[1:3] = [10, 20, 30]
del b[0]
print(b, a == b, [1, 2] + [3], [0] * 3, [[1]] * 2, 4 in b, min(b), max(b))
a.clear()
print(a, list("abc"), list(range(3)), list((1, 2)), list({"x": 1, "y": 2}))
d = {"b": 1, "a": 2}
d["c"] = 3
d["b"] = 10
print(d, list(d), list(d.keys()), list(d.values()), list(d.items()), d.get("z"), d.get("z", 0), "a" in d)
print(d.pop("a"), d, d.setdefault("e", 5), d.setdefault("b", 0), d)
d.update({"f": 6}, g=7)
d.update([("h", 8)])
print(d, len(d), dict(zip("xy", [1, 2])), dict(a=1, b=2), {k: v * 2 for k, v in d.items() if v > 5})
del d["f"]
print(d.popitem(), d, dict.fromkeys(["p", "q"], 0), {**d, "z": 0}, d | {"b": -1})
s = {3, 1, 2}
s.add(4)
s.discard(10)
s.remove(1)
print(sorted(s), 2 in s, len(s), sorted(s | {9}), sorted(s & {2, 3, 7}), sorted(s - {2}), sorted(s ^ {2, 8}), {1, 2} <= {1, 2, 3})
print(set(), sorted(set("hello")), {1, 2} == {2, 1}, {x % 3 for x in range(10)})
t = (1, 2, 3, 2)
print(t, t.count(2), t.index(3), t + (4,), t * 2, t[1:], tuple([1, 2]), tuple(), (1,) == (1,), len(t), hash((1, 2)) == hash((1, 2)))
print({}, [], (), [[]], {"a": [1, {"b": None}]}, str({1: "x"}), repr([1.5, "s", None]))
