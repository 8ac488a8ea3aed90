# Classes: properties, class/static methods, dunders, inheritance, super chains, MRO.
import functools


class Shape:
    count = 0

    def __init__(self, name):
        self.name = name
        Shape.count += 1

    @property
    def label(self):
        return f"<{self.name}>"

    @classmethod
    def make(cls, name):
        return cls(name)

    @staticmethod
    def unit():
        return 1

    def area(self):
        return 0

    def describe(self):
        return f"{self.label} area={self.area()}"

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r})"


class Square(Shape):
    def __init__(self, side):
        super().__init__("square")
        self._side = side

    @property
    def side(self):
        return self._side

    @side.setter
    def side(self, value):
        self._side = value

    def area(self):
        return self.side ** 2

    def describe(self):
        return "square: " + super().describe()


class Cube(Square):
    def area(self):
        return 6 * super().area()


s = Square(3)
print(s, s.label, s.area(), s.describe(), Shape.make("blob"), Square.unit(), Shape.count)
s.side = 4
print(s.side, s.area(), Cube(2).describe(), [c.__name__ for c in Cube.__mro__])
print(isinstance(Cube(1), Shape), issubclass(Cube, Square), issubclass(Shape, Cube), isinstance(s, (int, Cube)), type(s) is Square)


@functools.total_ordering
class Version:
    def __init__(self, major, minor):
        self.major, self.minor = major, minor

    def __eq__(self, other):
        return (self.major, self.minor) == (other.major, other.minor)

    def __lt__(self, other):
        return (self.major, self.minor) < (other.major, other.minor)

    def __hash__(self):
        return hash((self.major, self.minor))

    def __str__(self):
        return f"{self.major}.{self.minor}"

    __repr__ = __str__


vs = [Version(1, 2), Version(0, 9), Version(1, 0)]
print(sorted(vs), max(vs), Version(1, 0) == Version(1, 0), Version(1, 0) != Version(1, 1), Version(2, 0) >= Version(1, 9), len({Version(1, 0), Version(1, 0)}))


class Bag:
    def __init__(self, *items):
        self.items = list(items)

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]

    def __contains__(self, x):
        return x in self.items

    def __iter__(self):
        return iter(self.items)

    def __add__(self, other):
        return Bag(*(self.items + other.items))

    def __bool__(self):
        return bool(self.items)

    def __call__(self, k):
        return self.items[:k]


b = Bag(1, 2, 3) + Bag(4)
print(len(b), b[0], b[-1], 3 in b, list(b), b(2), bool(Bag()), [x * 2 for x in b], hasattr(b, "items"), getattr(b, "nope", "dflt"))
setattr(b, "extra", 5)
print(b.extra, sorted(vars(Square(1)).items()), Shape.__name__, type(b).__name__, s.__class__.__name__, Square.__bases__[0].__name__)


class Base:
    def __init__(self):
        print("Base init")


class Left(Base):
    def __init__(self):
        print("Left init")
        super().__init__()


class Right(Base):
    def __init__(self):
        print("Right init")
        super().__init__()


class Diamond(Left, Right):
    def __init__(self):
        print("Diamond init")
        super().__init__()


Diamond()
print([c.__name__ for c in Diamond.__mro__])
