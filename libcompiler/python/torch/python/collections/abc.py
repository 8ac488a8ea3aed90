# collections.abc: the abstract container types, for isinstance/issubclass checks and as bases
# with CPython's mixin methods. A class is an ABC's subclass when it derives from it, when it (or
# a base) was registered with the ABC or one of its descendants (the builtin types are, as CPython
# registers them), or, for the one-method ABCs (Iterable, Sized, ...), when it defines the method.
# The checks are classmethod hooks, which kiln's isinstance and issubclass consult where CPython
# asks ABCMeta.

from abc import ABC, abstractmethod


def _defines(cls, *names):
    # The structural test of CPython's __subclasshook__s: every name is defined along the MRO,
    # and not set to None there.
    for name in names:
        for base in cls.__mro__:
            if name in base.__dict__:
                if base.__dict__[name] is None:
                    return False
                break
        else:
            return False
    return True


class _ContainerABC(ABC):
    _registered = ()
    _structural = ()  # names whose definition makes a class a subclass, for the one-method ABCs

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "_registered" not in cls.__dict__:
            cls._registered = ()

    @classmethod
    def register(cls, subclass):
        cls._registered = cls._registered + (subclass,)
        return subclass

    @classmethod
    def __instancecheck__(cls, instance):
        return cls.__subclasscheck__(type(instance))

    @classmethod
    def __subclasscheck__(cls, subclass):
        mro = subclass.__mro__
        if cls in mro:
            return True
        for abc_class in _ALL:
            if cls in abc_class.__mro__ and any(registered in mro for registered in abc_class.__dict__["_registered"]):
                return True
        structural = cls.__dict__.get("_structural", ())
        return bool(structural) and _defines(subclass, *structural)


class Hashable(_ContainerABC):
    @classmethod
    def __subclasscheck__(cls, subclass):
        # object's __hash__ makes every class hashable unless it (or a base) sets __hash__ to None.
        if subclass in (list, dict, set):
            return False
        for base in subclass.__mro__:
            if "__hash__" in base.__dict__:
                return base.__dict__["__hash__"] is not None
        return True

    @abstractmethod
    def __hash__(self):
        return 0


class Iterable(_ContainerABC):
    _structural = ("__iter__",)

    @abstractmethod
    def __iter__(self):
        while False:
            yield None


class Iterator(Iterable):
    _structural = ("__iter__", "__next__")

    @abstractmethod
    def __next__(self):
        raise StopIteration

    def __iter__(self):
        return self


class Reversible(Iterable):
    _structural = ("__reversed__", "__iter__")

    @abstractmethod
    def __reversed__(self):
        while False:
            yield None


class Generator(Iterator):
    _structural = ("__iter__", "__next__", "send", "throw", "close")


class Sized(_ContainerABC):
    _structural = ("__len__",)

    @abstractmethod
    def __len__(self):
        return 0


class Container(_ContainerABC):
    _structural = ("__contains__",)

    @abstractmethod
    def __contains__(self, x):
        return False


class Collection(Sized, Iterable, Container):
    _structural = ("__len__", "__iter__", "__contains__")


class Callable(_ContainerABC):
    _structural = ("__call__",)

    @abstractmethod
    def __call__(self, *args, **kwds):
        return False


class Sequence(Reversible, Collection):
    _structural = ()

    @abstractmethod
    def __getitem__(self, index):
        raise IndexError

    def __iter__(self):
        i = 0
        try:
            while True:
                yield self[i]
                i += 1
        except IndexError:
            return

    def __contains__(self, value):
        for v in self:
            if v is value or v == value:
                return True
        return False

    def __reversed__(self):
        for i in reversed(range(len(self))):
            yield self[i]

    def index(self, value, start=0, stop=None):
        if start is not None and start < 0:
            start = max(len(self) + start, 0)
        if stop is not None and stop < 0:
            stop += len(self)
        i = start
        while stop is None or i < stop:
            try:
                v = self[i]
            except IndexError:
                break
            if v is value or v == value:
                return i
            i += 1
        raise ValueError

    def count(self, value):
        return sum(1 for v in self if v is value or v == value)


class MutableSequence(Sequence):
    @abstractmethod
    def __setitem__(self, index, value):
        raise IndexError

    @abstractmethod
    def __delitem__(self, index):
        raise IndexError

    @abstractmethod
    def insert(self, index, value):
        raise IndexError

    def append(self, value):
        self.insert(len(self), value)

    def extend(self, values):
        for v in list(values):
            self.append(v)

    def pop(self, index=-1):
        v = self[index]
        del self[index]
        return v

    def remove(self, value):
        del self[self.index(value)]

    def __iadd__(self, values):
        self.extend(values)
        return self


class Set(Collection):
    _structural = ()


class MutableSet(Set):
    pass


class Mapping(Collection):
    _structural = ()

    @abstractmethod
    def __getitem__(self, key):
        raise KeyError

    def get(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key):
        try:
            self[key]
        except KeyError:
            return False
        return True

    def keys(self):
        return [key for key in self]

    def items(self):
        return [(key, self[key]) for key in self]

    def values(self):
        return [self[key] for key in self]

    def __eq__(self, other):
        if not isinstance(other, Mapping):
            return NotImplemented
        return dict(self.items()) == dict(other.items())


class MutableMapping(Mapping):
    @abstractmethod
    def __setitem__(self, key, value):
        raise KeyError

    @abstractmethod
    def __delitem__(self, key):
        raise KeyError

    def pop(self, key, *default):
        try:
            value = self[key]
        except KeyError:
            if default:
                return default[0]
            raise
        del self[key]
        return value

    def popitem(self):
        for key in self:
            value = self[key]
            del self[key]
            return key, value
        raise KeyError

    def clear(self):
        for key in list(self):
            del self[key]

    def update(self, other=(), **kwds):
        if isinstance(other, Mapping) or hasattr(other, "keys"):
            for key in other.keys():
                self[key] = other[key]
        else:
            for key, value in other:
                self[key] = value
        for key, value in kwds.items():
            self[key] = value

    def setdefault(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            self[key] = default
        return default


class MappingView(Sized):
    _structural = ()


class KeysView(MappingView, Set):
    pass


class ItemsView(MappingView, Set):
    pass


class ValuesView(MappingView, Collection):
    pass


_ALL = (Hashable, Iterable, Iterator, Reversible, Generator, Sized, Container, Collection, Callable, Sequence,
        MutableSequence, Set, MutableSet, Mapping, MutableMapping, MappingView, KeysView, ItemsView, ValuesView)


def _register_builtins():
    import collections

    def generator():
        yield None

    Iterator.register(type(iter([])))
    Generator.register(type(generator()))
    Callable.register(type(len))
    Callable.register(type(generator))
    Callable.register(type)
    Sequence.register(tuple)
    Sequence.register(str)
    Sequence.register(range)
    Sequence.register(collections._NamedTupleBase)
    MutableSequence.register(list)
    MutableSequence.register(collections.deque)
    MutableSet.register(set)
    MutableMapping.register(dict)
    MutableMapping.register(collections._DictLike)
    KeysView.register(type({}.keys()))
    ValuesView.register(type({}.values()))
    ItemsView.register(type({}.items()))


_register_builtins()
