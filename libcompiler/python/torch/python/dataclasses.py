# dataclasses: @dataclass generates __init__, __repr__, __eq__ (and the orderings, a hash, frozen
# assignment checks) from the class's annotated fields. The generated methods are closures over
# the field list rather than compiled source, with CPython's messages for bad calls.

import copy
from _field_arguments import bind_field_arguments


class _MissingType:
    def __repr__(self):
        return "<dataclasses._MISSING_TYPE object>"


MISSING = _MissingType()


class FrozenInstanceError(AttributeError):
    pass


class Field:
    def __init__(self, default, default_factory, init, repr, hash, compare, metadata, kw_only):
        self.name = None
        self.type = None
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.hash = hash
        self.compare = compare
        self.metadata = {} if metadata is None else metadata
        self.kw_only = kw_only


def field(*, default=MISSING, default_factory=MISSING, init=True, repr=True, hash=None, compare=True,
          metadata=None, kw_only=MISSING):
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, init, repr, hash, compare, metadata, kw_only)


def _own_fields(cls):
    # The fields the class itself annotates, in order, with their defaults taken from the class.
    own = cls.__dict__
    annotations = own.get("__annotations__", {})
    result = []
    for name, annotation in annotations.items():
        value = own.get(name, MISSING)
        spec = value if isinstance(value, Field) else field(default=value)
        spec.name = name
        spec.type = annotation
        if isinstance(spec.default, (list, dict, set)):
            raise ValueError("mutable default " + repr(type(spec.default)) + " for field " + name
                             + " is not allowed: use default_factory")
        if isinstance(value, Field):
            # The class keeps a plain default as its attribute, and no attribute for a factory.
            if spec.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, spec.default)
        result.append(spec)
    return result


def _collect_fields(cls):
    fields_by_name = {}
    for base in reversed(cls.__mro__[1:]):
        for spec in getattr(base, "__dataclass_fields__", {}).values():
            fields_by_name[spec.name] = spec
    for spec in _own_fields(cls):
        fields_by_name[spec.name] = spec
    return list(fields_by_name.values())


def _make_init(cls, all_fields, frozen):
    init_fields = [f for f in all_fields if f.init]
    names = [f.name for f in init_fields]
    defaults = {}
    seen_default = False
    for f in init_fields:
        if f.default is not MISSING or f.default_factory is not MISSING:
            seen_default = True
            defaults[f.name] = f.default if f.default is not MISSING else MISSING
        elif seen_default:
            raise TypeError("non-default argument " + repr(f.name) + " follows default argument")
    where = cls.__qualname__ + ".__init__()"
    store = object.__setattr__ if frozen else setattr

    def __init__(self, *args, **kwargs):
        values = bind_field_arguments(where, names, defaults, args, kwargs)
        for f, value in zip(init_fields, values):
            if value is MISSING:
                value = f.default_factory()
            store(self, f.name, value)
        for f in all_fields:
            if not f.init and f.default_factory is not MISSING:
                store(self, f.name, f.default_factory())
            elif not f.init and f.default is not MISSING:
                store(self, f.name, f.default)
        post_init = getattr(self, "__post_init__", None)
        if post_init is not None:
            post_init()

    return __init__


def _make_repr(all_fields):
    shown = [f.name for f in all_fields if f.repr]

    def __repr__(self):
        parts = [name + "=" + repr(getattr(self, name)) for name in shown]
        return type(self).__qualname__ + "(" + ", ".join(parts) + ")"

    return __repr__


def _make_comparison(compared, compare):
    def method(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return compare(tuple(getattr(self, name) for name in compared),
                       tuple(getattr(other, name) for name in compared))

    return method


def _make_frozen_guards(cls, all_fields):
    names = [f.name for f in all_fields]

    def __setattr__(self, name, value):
        if type(self) is cls or name in names:
            raise FrozenInstanceError("cannot assign to field " + repr(name))
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in names:
            raise FrozenInstanceError("cannot delete field " + repr(name))
        object.__delattr__(self, name)

    return __setattr__, __delattr__


def _own(cls, name):
    return name in cls.__dict__


def _process_class(cls, init, repr, eq, order, unsafe_hash, frozen):
    if order and not eq:
        raise ValueError("eq must be true if order is true")
    all_fields = _collect_fields(cls)
    cls.__dataclass_fields__ = {f.name: f for f in all_fields}
    cls.__dataclass_params__ = (init, repr, eq, order, unsafe_hash, frozen)
    if init and not _own(cls, "__init__"):
        cls.__init__ = _make_init(cls, all_fields, frozen)
    if repr and not _own(cls, "__repr__"):
        cls.__repr__ = _make_repr(all_fields)
    compared = [f.name for f in all_fields if f.compare]
    if eq and not _own(cls, "__eq__"):
        cls.__eq__ = _make_comparison(compared, lambda a, b: a == b)
    if order:
        for name, compare in [("__lt__", lambda a, b: a < b), ("__le__", lambda a, b: a <= b),
                              ("__gt__", lambda a, b: a > b), ("__ge__", lambda a, b: a >= b)]:
            if _own(cls, name):
                raise TypeError("Cannot overwrite attribute " + name + " in class " + cls.__name__
                                + ". Consider using functools.total_ordering")
            setattr(cls, name, _make_comparison(compared, compare))
    if frozen:
        cls.__setattr__, cls.__delattr__ = _make_frozen_guards(cls, all_fields)
    hashed = [f.name for f in all_fields if (f.compare if f.hash is None else f.hash)]
    if not _own(cls, "__hash__") or cls.__dict__["__hash__"] is None:
        if unsafe_hash or (eq and frozen):
            cls.__hash__ = lambda self: hash(tuple(getattr(self, name) for name in hashed))
        elif eq:
            cls.__hash__ = None
    return cls


def dataclass(cls=None, *, init=True, repr=True, eq=True, order=False, unsafe_hash=False, frozen=False):
    def wrap(cls):
        return _process_class(cls, init, repr, eq, order, unsafe_hash, frozen)

    if cls is None:
        return wrap
    return wrap(cls)


def is_dataclass(obj):
    cls = obj if isinstance(obj, type) else type(obj)
    return hasattr(cls, "__dataclass_fields__")


def fields(class_or_instance):
    try:
        found = class_or_instance.__dataclass_fields__
    except AttributeError:
        raise TypeError("must be called with a dataclass type or instance") from None
    return tuple(found.values())


def _converted(value, convert):
    if is_dataclass(value) and not isinstance(value, type):
        return convert(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_converted(item, convert) for item in value)
    if isinstance(value, dict):
        return {_converted(k, convert): _converted(v, convert) for k, v in value.items()}
    return copy.deepcopy(value)


def asdict(obj):
    if not is_dataclass(obj) or isinstance(obj, type):
        raise TypeError("asdict() should be called on dataclass instances")
    return {f.name: _converted(getattr(obj, f.name), asdict) for f in fields(obj)}


def astuple(obj):
    if not is_dataclass(obj) or isinstance(obj, type):
        raise TypeError("astuple() should be called on dataclass instances")
    return tuple(_converted(getattr(obj, f.name), astuple) for f in fields(obj))


def replace(obj, **changes):
    for f in fields(obj):
        if not f.init:
            if f.name in changes:
                raise ValueError("field " + f.name + " is declared with init=False, it cannot be specified with replace()")
            continue
        if f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return obj.__class__(**changes)
