# enum: Enum, IntEnum, auto and unique, with the metaclass machinery they rest on
# (metaclass=..., type.__new__ through super(), a metaclass's __call__/__iter__/__len__/__repr__);
# Flag and IntFlag: bit members, combinations as pseudo-members, in, ~ and iteration.
import enum
from enum import Enum, IntEnum, auto, unique


class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3
    CRIMSON = 1

    def describe(self):
        return self.name.lower() + "=" + str(self.value)

    @property
    def is_warm(self):
        return self in (Color.RED,)


print(Color, Color.RED, repr(Color.GREEN), Color.RED.name, Color.RED.value, Color.BLUE.describe(), Color.RED.is_warm)
print(list(Color), len(Color), [c.name for c in Color], Color(2), Color["BLUE"], Color.CRIMSON is Color.RED, Color(1).name)
print(Color.RED in Color, Color.RED == Color.RED, Color.RED == 1, Color.RED != Color.BLUE, type(Color.RED), isinstance(Color.RED, Color))
print({Color.RED: "r"}[Color.CRIMSON], f"{Color.GREEN}", "{:>12}|".format(Color.GREEN), str(Color.BLUE), Color.__members__)
print(sorted(Color.__members__), list(reversed(Color)), Color(Color.RED))


class Phase(Enum):
    TRAIN = auto()
    EVAL = auto()
    TEST = "test"


print(list(Phase), Phase.EVAL.value, Phase("test"))


class Level(IntEnum):
    LOW = auto()
    MID = 5
    HIGH = auto()


print(Level.LOW, repr(Level.HIGH), Level.MID + 1, Level.HIGH * 2, Level.LOW == 1, Level.MID > Level.LOW, int(Level.HIGH))
print(sorted([Level.HIGH, Level.LOW]), f"{Level.MID:03d}", [10, 20, 30, 40, 50, 60][Level.MID], Level(6), hash(Level.MID) == hash(5))


class Meta(type):
    def __repr__(cls):
        return "<Meta class " + cls.__name__ + ">"

    def __len__(cls):
        return len(cls.items)


class Registry(metaclass=Meta):
    items = [1, 2, 3]


class Sub(Registry):
    items = []


print(Registry, len(Registry), Sub, len(Sub), type(Registry) is Meta, isinstance(Sub, Meta))
for bad in [lambda: Color(7), lambda: Color["PURPLE"], lambda: Color(None)]:
    try:
        bad()
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        print(type(e).__name__, e)
try:

    @unique
    class Dup(Enum):
        A = 1
        B = 1
except ValueError as e:
    print("ValueError", e)
class Perm(enum.Flag):
    R = enum.auto()
    W = enum.auto()
    X = enum.auto()
class Mode(enum.IntFlag):
    A = 1
    B = 2
    C = 4
rw = Perm.R | Perm.W
print(repr(rw), rw, Perm.R in rw, Perm.X in rw, bool(Perm.R & Perm.X), repr(Perm.R & Perm.X), [m.value for m in Perm])
print(repr(Mode.A | Mode.C), int(Mode.A | 2), Mode.A | Mode.B == 3, str(Mode.B), list(rw), repr(~Perm.R))
print(Perm(3) is rw, Mode(6).name, Perm.W.value)
