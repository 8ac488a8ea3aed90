# yield from evaluates to the inner generator's return value; an exception raised while handling
# another has it as __context__.
def g():
    yield 1
    return 5
def h():
    r = yield from g()
    print("got", r)
print(list(h()))
try:
    try:
        raise ValueError("a")
    except ValueError:
        raise KeyError("b")
except KeyError as e:
    print(repr(e.__context__))
