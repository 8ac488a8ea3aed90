# Classes, inheritance, super(), properties, dunder methods.
class Vec:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __add__(self, other):
        return Vec(self.x + other.x, self.y + other.y)

    def __mul__(self, k):
        return Vec(self.x * k, self.y * k)

    __rmul__ = __mul__

    def __eq__(self, other):
        return (self.x, self.y) == (other.x, other.y)

    def __len__(self):
        return 2

    def __getitem__(self, i):
        return (self.x, self.y)[i]

    def __repr__(self):
        return f"Vec({self.x}, {self.y})"

    @property
    def norm2(self):
        return self.x * self.x + self.y * self.y


class Named(Vec):
    def __init__(self, name, x, y):
        super().__init__(x, y)
        self.name = name

    def __repr__(self):
        return self.name + ":" + super().__repr__()

    @staticmethod
    def origin():
        return Named("o", 0, 0)

    @classmethod
    def kind(cls):
        return cls.__name__


v = Vec(1, 2) + Vec(3, 4)
print(v, 2 * v, v == Vec(4, 6), len(v), list(v), v.norm2)
print(Named("p", 1, 1), Named.origin(), Named.kind(), isinstance(Named.origin(), Vec))
