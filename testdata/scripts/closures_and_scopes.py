# Closures, nonlocal, global and late binding.
counter = 0


def bump():
    global counter
    counter += 1
    return counter


def make_adders():
    return [lambda x, i=i: x + i for i in range(3)]


def outer():
    total = 0

    def add(n):
        nonlocal total
        total += n
        return total

    add(2)
    add(3)
    return total


bump()
bump()
print(counter, [f(10) for f in make_adders()], outer())
