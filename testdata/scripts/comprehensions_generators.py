# Comprehensions, generators, builtins over iterables.
def squares(n):
    for i in range(n):
        yield i * i


def pipeline():
    yield from squares(3)
    yield 100


evens = [x for x in range(10) if x % 2 == 0]
pairs = {k: v for k, v in zip("abc", [1, 2, 3])}
nested = [[i * j for j in range(3)] for i in range(3)]
print(evens, pairs, nested, {x % 3 for x in range(10)})
print(list(pipeline()), sum(squares(4)), max(squares(5)), any(x > 8 for x in squares(4)))
print(sorted(["pear", "fig", "apple"], key=len), list(reversed(range(4))), list(enumerate("ab", start=1)))
print(list(map(lambda a, b: a * b, [1, 2], [3, 4])), list(filter(None, [0, 1, "", "x"])), divmod(-7, 2))
a, *rest = [1, 2, 3, 4]
(b, c), d = (5, 6), 7
print(a, rest, b, c, d, min([3, 1, 2]), abs(-2.5), all([]), 7 // 2, -7 // 2, 7 % -3, 2 ** -1)
