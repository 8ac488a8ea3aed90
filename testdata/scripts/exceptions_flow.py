# try/except/else/finally, raise, custom exceptions, with.
class MyError(ValueError):
    pass


def risky(n):
    if n > 2:
        raise MyError(f"too big: {n}")
    return n


for n in range(5):
    try:
        r = risky(n)
    except MyError as e:
        print("caught", type(e).__name__, e, isinstance(e, ValueError))
    else:
        print("ok", r)
    finally:
        print("done", n)


class Ctx:
    def __enter__(self):
        print("enter")
        return self

    def __exit__(self, kind, value, tb):
        print("exit", kind.__name__ if kind else None)
        return True


with Ctx() as c:
    raise KeyError("k")
print("after with")
try:
    {}["missing"]
except KeyError as e:
    print(repr(e), str(e))
try:
    assert 1 == 2, "math is broken"
except AssertionError as e:
    print("assert:", e)
