# sorted/min/max with key and reverse, enumerate/zip/reversed, any/all, map/filter.
words = ["banana", "Apple", "cherry", "date", "fig"]
print(sorted(words), sorted(words, key=str.lower), sorted(words, key=len), sorted(words, key=len, reverse=True))
print(sorted([(2, "b"), (1, "z"), (2, "a")]), sorted([3, 1, 2], key=lambda v: -v), min(words, key=len), max(words, key=len))
print(max([1, 5, 3], key=lambda v: v % 5), min([], default="empty"), max(3, 7, key=lambda v: -v), min("bca"), max((1, 2), (1, 3)))
print(list(enumerate("ab")), list(enumerate("ab", start=5)), list(zip([1, 2, 3], "ab")), list(zip()), list(reversed([1, 2, 3])))
print(list(reversed(range(4))), list(range(10, 0, -3)), list(range(-2)), range(5)[2], len(range(0, 10, 3)), 3 in range(5))
print(any([]), all([]), any([0, "", None]), all([1, "a"]), any(x > 3 for x in range(5)), all(x < 3 for x in range(5)))
print(list(map(str, [1, 2])), list(map(lambda a, b: a + b, [1, 2], [10, 20])), list(filter(None, [0, 1, "", "x"])), list(filter(lambda v: v % 2, range(6))))
pairs = [("a", 3), ("b", 1), ("c", 2)]
pairs.sort(key=lambda p: p[1])
print(pairs, [k for k, _ in sorted(pairs, key=lambda p: p[1], reverse=True)], dict(sorted({"z": 1, "a": 2}.items())))
print(sum([0.1] * 10), sum([[1], [2]], []), abs(-2.5), round(3.14159, 2), divmod(9, 4), isinstance(3, (str, int)), callable(len))
print(type(1), type("s"), type([]), type(None).__name__, type(3.0) is float, str(type(True)), id(words) == id(words))
print(list(zip(*[(1, "a"), (2, "b")])), [x for x in reversed("abc")], next(iter([7, 8])), next(iter([]), "dflt"))
stable = sorted([("x", 2), ("y", 1), ("z", 2), ("w", 1)], key=lambda p: p[1])
print(stable, sorted("hello"), sorted({3: "a", 1: "b"}), sorted([1.5, -2, 0]), sorted([True, False, 2]))
