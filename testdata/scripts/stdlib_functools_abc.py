# functools (partial, wraps, lru_cache/cache, cached_property, reduce) and abc (ABC,
# abstractmethod); with the descriptor protocol and __init_subclass__ they rest on.
import functools
from abc import ABC, abstractmethod
from functools import cache, cached_property, lru_cache, partial, reduce, wraps

add3 = partial(lambda a, b, c: a + b + c, 1, c=10)
print(add3(2), add3(2, c=0), add3.args, add3.keywords, partial(max, 1), partial(partial(pow, 2), 5)())
print(partial(int, base=2)("101"), partial(sorted, key=len)(["ccc", "a", "bb"]), repr(partial(max, 1, 2, key=abs)))


def logged(func):
    @wraps(func)
    def wrapper(*args, **kwargs):
        print("calling", func.__name__)
        return func(*args, **kwargs)

    return wrapper


@logged
def scale(x, factor=2):
    return x * factor


print(scale(3), scale.__name__, scale.__qualname__, scale.__wrapped__(4), scale.__module__)


@lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


print(fib(30), fib.cache_info(), fib.__name__)
fib.cache_clear()
print(fib.cache_info())


@lru_cache(maxsize=2)
def square(x):
    print("computing", x)
    return x * x


print(square(2), square(3), square(2), square(4), square(3), square.cache_info())


@cache
def shape_of(*dims, scale=1):
    print("shape", dims, scale)
    return tuple(d * scale for d in dims)


print(shape_of(2, 3), shape_of(2, 3), shape_of(2, 3, scale=2), shape_of.cache_info().hits)
try:
    square([1])
except TypeError as e:
    print("TypeError", e)


class Dataset:
    def __init__(self, n):
        self.n = n

    @cached_property
    def stats(self):
        print("computing stats")
        return {"n": self.n, "mean": (self.n - 1) / 2}


ds = Dataset(5)
print(ds.stats, ds.stats, "stats" in vars(ds), type(Dataset.stats).__name__)
ds.stats = "replaced"
print(ds.stats, reduce(lambda a, b: a * b, range(1, 6)), reduce(lambda a, b: a + b, [], 0), functools.reduce(max, [3, 9, 2]))


class Positive:
    def __set_name__(self, owner, name):
        self.name = "_" + name

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        return getattr(instance, self.name, 0)

    def __set__(self, instance, value):
        if value < 0:
            raise ValueError(self.name[1:] + " must be positive")
        setattr(instance, self.name, value)


class Account:
    balance = Positive()


acct = Account()
acct.balance = 10
print(acct.balance, acct._balance, type(Account.balance).__name__)
try:
    acct.balance = -1
except ValueError as e:
    print("ValueError", e)


class Plugin:
    registry = []

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        Plugin.registry.append(cls.__name__)


class Audio(Plugin):
    pass


class Video(Audio):
    pass


print(Plugin.registry)


class Shape(ABC):
    @abstractmethod
    def area(self):
        pass

    @abstractmethod
    def perimeter(self):
        pass

    def describe(self):
        return type(self).__name__ + " with area " + str(self.area())


class HalfSquare(Shape):
    def __init__(self, side):
        self.side = side

    def area(self):
        return self.side * self.side


class Square(HalfSquare):
    def perimeter(self):
        return 4 * self.side


print(Square(3).describe(), Square(2).perimeter(), isinstance(Square(1), Shape), sorted(Shape.__abstractmethods__))
for cls in (Shape, HalfSquare):
    try:
        cls(1) if cls is HalfSquare else cls()
    except TypeError as e:
        print("TypeError", e)


class Concrete(ABC):
    def run(self):
        return "ran"


print(Concrete().run())
