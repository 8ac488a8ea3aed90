# Exception objects: args, repr, chaining with from, __cause__ and __context__, finally ordering.
class AppError(Exception):
    def __init__(self, code, msg):
        super().__init__(code, msg)
        self.code = code


def convert(text):
    try:
        return int(text)
    except ValueError as e:
        raise AppError(2, "bad number") from e


try:
    convert("x")
except AppError as e:
    print(repr(e), e.args, e.code, str(e), type(e.__cause__).__name__, e.__cause__.args)
    print(e.__suppress_context__)
try:
    try:
        1 / 0
    except ZeroDivisionError:
        raise KeyError("inner")
except KeyError as e:
    print(repr(e), e.__cause__, e.__suppress_context__)
try:
    raise ValueError("no cause") from None
except ValueError as e:
    print(repr(e), e.__cause__, e.__suppress_context__)
print(repr(ValueError()), repr(ValueError(1, 2)), str(ValueError(1, 2)), str(KeyError("k")), repr(RuntimeError("r")))
print(repr(Exception("a", "b").args), str(Exception()), repr(TypeError("t")), isinstance(KeyError(), LookupError))
print(issubclass(ZeroDivisionError, ArithmeticError), issubclass(IndexError, LookupError), issubclass(AppError, Exception))


def order():
    try:
        print("try")
        return "from try"
    finally:
        print("finally")


print(order())


def finally_wins():
    try:
        return 1
    finally:
        return 2


print(finally_wins())
for i in range(3):
    try:
        if i == 1:
            continue
        print("body", i)
    finally:
        print("cleanup", i)
try:
    try:
        raise IndexError("first")
    finally:
        print("inner finally")
except IndexError as e:
    print("outer got", e)
try:
    raise
except RuntimeError as e:
    print(repr(e))
errors = []
for exc in (ValueError, TypeError, KeyError, IndexError):
    try:
        raise exc("m")
    except (ValueError, TypeError) as e:
        errors.append(("vt", type(e).__name__))
    except LookupError as e:
        errors.append(("lookup", type(e).__name__))
print(errors)
try:
    [1][5]
except IndexError as e:
    print(e)
try:
    int("abc")
except ValueError as e:
    print(e)
try:
    None.foo
except AttributeError as e:
    print(e)
try:
    "a" + 1
except TypeError as e:
    print(e)
try:
    undefined_name
except NameError as e:
    print(e)
