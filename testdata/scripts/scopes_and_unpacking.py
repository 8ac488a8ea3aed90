# nonlocal/global, closures, starred unpacking, default arguments, keyword arguments.
counter = 0


def bump():
    global counter
    counter += 1
    return counter


bump()
bump()
print(counter)


def make_acc():
    total = 0

    def add(x):
        nonlocal total
        total += x
        return total

    return add


acc = make_acc()
print(acc(1), acc(10), acc(100))
first, *rest = [1, 2, 3, 4]
*init, last = "abc"
a, (b, c), d = 1, (2, 3), 4
head, *mid, tail = range(5)
print(first, rest, init, last, a, b, c, d, head, mid, tail)
x, y = y, x = 1, 2
print(x, y)
print([*range(3), *"ab"], (*[1], 2), {**{"a": 1}, "b": 2}, {*[1, 2], 3} == {1, 2, 3})


def f(a, b=2, *args, c, d=4, **kwargs):
    return a, b, args, c, d, sorted(kwargs.items())


print(f(1, c=3), f(1, 2, 3, 4, c=5, e=6, d=0), f(*[1, 2], **{"c": 3, "z": 9}))


def defaults(x, acc=[]):
    acc.append(x)
    return acc


print(defaults(1), defaults(2), defaults(3, []))
fns = [lambda i=i: i * i for i in range(3)]
print([fn() for fn in fns], (lambda *a, **k: (a, k))(1, q=2), (lambda: "nil")())
for i, (k, v) in enumerate({"p": 1, "q": 2}.items()):
    print(i, k, v)
matrix = [[1, 2], [3, 4]]
print([[row[i] for row in matrix] for i in range(2)], [v for row in matrix for v in row if v % 2 == 0])
n = 10
while n > 0:
    n -= 3
    if n == 4:
        continue
    if n < 2:
        break
    print("n", n)
else:
    print("no break")
for i in range(2):
    pass
else:
    print("for else", i)


def gen(n):
    for i in range(n):
        yield i * i
    return "done"


def delegate():
    yield from gen(3)
    yield from "ab"


print(list(gen(4)), list(delegate()), sum(x for x in gen(5)), next(gen(2)))
g = (c.upper() for c in "hi")
print(next(g), next(g), next(g, "end"))
