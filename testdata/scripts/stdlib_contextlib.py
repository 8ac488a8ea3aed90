# contextlib: generator-based context managers (exceptions thrown into the generator),
# nullcontext, suppress and ExitStack; and the generator methods they rest on.
from contextlib import ExitStack, contextmanager, nullcontext, suppress


@contextmanager
def tag(name):
    print("<" + name + ">")
    try:
        yield name.upper()
    finally:
        print("</" + name + ">")


with tag("a") as value:
    print("inside", value)
print(tag.__name__)
try:
    with tag("b"):
        raise ValueError("boom")
except ValueError as e:
    print("propagated", e)


@contextmanager
def swallow(kind):
    try:
        yield
    except kind as e:
        print("swallowed", type(e).__name__, e)


with swallow(KeyError):
    {}["missing"]
print("after swallow")
try:
    with swallow(KeyError):
        [][1]
except IndexError as e:
    print("not swallowed", e)


@contextmanager
def translate():
    try:
        yield
    except ZeroDivisionError:
        raise ArithmeticError("translated")


try:
    with translate():
        1 / 0
except ArithmeticError as e:
    print(type(e).__name__, e)


@contextmanager
def no_yield():
    if False:
        yield


try:
    with no_yield():
        pass
except RuntimeError as e:
    print("RuntimeError", e)


@contextmanager
def accumulate(log):
    log.append("enter")
    yield log
    log.append("exit")


events = []
with accumulate(events) as log:
    log.append("body")
print(events)

with nullcontext(5) as five, nullcontext() as nothing:
    print(five, nothing)
with suppress(KeyError, IndexError):
    [][0]
print("suppressed")
try:
    with suppress(KeyError):
        raise ValueError("kept")
except ValueError as e:
    print("ValueError", e)

with ExitStack() as stack:
    names = [stack.enter_context(tag(n)) for n in ["x", "y"]]
    stack.callback(print, "callback", 1)
    print(names)
with ExitStack() as stack:
    stack.enter_context(swallow(RuntimeError))
    stack.callback(print, "runs first")
    raise RuntimeError("handled by the stack")
print("stack done")


def numbers():
    received = yield 1
    print("received", received)
    try:
        yield 2
    except KeyError as e:
        print("caught", e)
        yield 3
    finally:
        print("cleanup")


gen = numbers()
print(next(gen), gen.send("hello"), gen.throw(KeyError("k")))
gen.close()
gen.close()
try:
    numbers().send(1)
except TypeError as e:
    print("TypeError", e)
try:
    gen.send(None)
except StopIteration as e:
    print("StopIteration", e)
