# A generator dropped half-way is closed: GeneratorExit is raised where it waits, so its
# finally blocks run then. Nested functions that call themselves are freed with their frame.
def numbers(label):
    try:
        for i in range(10):
            yield i
    finally:
        print("closed", label)


def stubborn():
    try:
        yield 1
    except GeneratorExit as exit:
        print(repr(exit), "reached the yield")
        raise


g = numbers("g")
print(next(g), next(g))
del g
print("after del")
print(next(numbers("temporary")))
print([x for x in numbers("exhausted")][-1])
s = stubborn()
next(s)
s = None
print("after rebinding")


def countdown(n):
    def step(k):
        return [] if k == 0 else [k] + step(k - 1)

    return step(n)


print(countdown(3))

# Still suspended when the program ends: closed as the interpreter shuts down.
left_open = numbers("at exit")
next(left_open)
print("last line")
