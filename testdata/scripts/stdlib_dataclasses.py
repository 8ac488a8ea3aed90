# dataclasses: generated __init__/__repr__/__eq__, field defaults and factories, frozen and
# ordered classes, inheritance, asdict/astuple/fields/replace, and the errors of bad calls.
import dataclasses
from dataclasses import asdict, dataclass, field, fields, replace


@dataclass
class TrainConfig:
    lr: float
    epochs: int = 3
    layers: list = field(default_factory=lambda: [64, 32])
    name: str = "run"


cfg = TrainConfig(0.1)
print(cfg, cfg.lr, cfg.epochs, cfg.layers, TrainConfig(lr=0.01, epochs=5, name="b"))
other = TrainConfig(0.1)
other.layers.append(16)
print(cfg == TrainConfig(0.1), cfg == other, cfg != other, cfg.layers is other.layers, TrainConfig.epochs)
print([f.name for f in fields(cfg)], [f.type for f in fields(TrainConfig)], asdict(other), dataclasses.astuple(cfg))
print(replace(cfg, epochs=10), cfg, dataclasses.is_dataclass(cfg), dataclasses.is_dataclass(TrainConfig), dataclasses.is_dataclass(3))


@dataclass(frozen=True)
class Point:
    x: int
    y: int = 0

    def norm2(self):
        return self.x * self.x + self.y * self.y


p = Point(3, 4)
print(p, p.norm2(), hash(p) == hash(Point(3, 4)), {p: "a"}[Point(3, 4)], p == Point(3, 4), p == (3, 4))
try:
    p.x = 10
except dataclasses.FrozenInstanceError as e:
    print(type(e).__name__, e, isinstance(e, AttributeError))


@dataclass(order=True)
class Version:
    major: int
    minor: int = 0
    label: str = field(default="", compare=False, repr=False)


versions = [Version(1, 2), Version(0, 9, "old"), Version(1, 0)]
print(sorted(versions), max(versions), Version(1, 2) < Version(1, 10), Version(2) >= Version(1, 99), Version(1, 0, "a") == Version(1, 0, "b"))


@dataclass
class Base:
    id: int
    tags: dict = field(default_factory=dict)


@dataclass
class Child(Base):
    score: float = 0.0

    def __post_init__(self):
        self.score = round(self.score, 2)


c = Child(7, score=0.456)
print(c, Child(1, {"k": 1}), [f.name for f in fields(Child)], asdict(c), Child(1) == Child(1))


@dataclass
class Nested:
    point: Point
    children: list


print(asdict(Nested(Point(1), [Child(2), (Point(0, 1),)])))


@dataclass(eq=False)
class Handle:
    value: int


h = Handle(1)
print(h == Handle(1), h == h, hash(h) == hash(h), Handle(2))


@dataclass
class Custom:
    a: int

    def __repr__(self):
        return "Custom<" + str(self.a) + ">"


print(Custom(5), [Custom(1)])
try:
    hash(Custom(1))
except TypeError as e:
    print("TypeError", e)

for bad in [lambda: TrainConfig(), lambda: TrainConfig(1, 2, [], "x", 5), lambda: TrainConfig(1, rate=2),
            lambda: TrainConfig(1, lr=2), lambda: Point(), lambda: fields(3), lambda: asdict(TrainConfig)]:
    try:
        bad()
    except TypeError as e:
        print("TypeError", e)
try:

    @dataclass
    class Bad:
        items: list = []
except ValueError as e:
    print("ValueError", e)
try:

    @dataclass
    class Bad2:
        a: int = 1
        b: int
except TypeError as e:
    print("TypeError", e)


@dataclass
class Optional:
    a: int | None = None
    b: "list[int]" = None
    c: Point | str | None = "c"


print(Optional(), [f.type for f in fields(Optional)], (int | None).__args__, int | str | int, float | float, None | dict)


def make_record_type():
    class Local:
        pass

    @dataclass
    class Record:
        owner: Local
        count: int = 0

    return Record, Local


Record, Local = make_record_type()
print(Record(None), [f.type.__name__ for f in fields(Record)], Record.__qualname__)
