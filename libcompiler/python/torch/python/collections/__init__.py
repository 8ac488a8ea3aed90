# collections: the container types training scripts use. Kiln cannot subclass the builtin dict
# and tuple, so the dict-like types keep a real dict in `_data` and namedtuple classes keep a
# real tuple in `_values`; each implements the protocols of the type it stands for.

from _field_arguments import bind_field_arguments

def _dict_items_repr(data):
    return "{" + ", ".join(repr(k) + ": " + repr(v) for k, v in data.items()) + "}"


class _DictLike:
    # The dict interface over self._data; subclasses add what makes them special.

    def __init__(self, *args, **kwargs):
        self._data = {}
        self.update(*args, **kwargs)

    def update(self, *args, **kwargs):
        if len(args) > 1:
            raise TypeError("update expected at most 1 argument, got " + str(len(args)))
        if args:
            other = args[0]
            if isinstance(other, _DictLike):
                other = other._data
            if hasattr(other, "keys"):
                for key in other.keys():
                    self[key] = other[key]
            else:
                for key, value in other:
                    self[key] = value
        for key, value in kwargs.items():
            self[key] = value

    def __getitem__(self, key):
        if key in self._data:
            return self._data[key]
        return self.__missing__(key)

    def __missing__(self, key):
        raise KeyError(key)

    def __setitem__(self, key, value):
        self._data[key] = value

    def __delitem__(self, key):
        del self._data[key]

    def __contains__(self, key):
        return key in self._data

    def __iter__(self):
        return iter(self._data)

    def __reversed__(self):
        return reversed(list(self._data))

    def __len__(self):
        return len(self._data)

    def __eq__(self, other):
        if isinstance(other, _DictLike):
            other = other._data
        if not isinstance(other, dict):
            return NotImplemented
        return self._data == other

    def __ne__(self, other):
        result = self.__eq__(other)
        if result is NotImplemented:
            return result
        return not result

    __hash__ = None

    def keys(self):
        return self._data.keys()

    def values(self):
        return self._data.values()

    def items(self):
        return self._data.items()

    def get(self, key, default=None):
        return self._data.get(key, default)

    def setdefault(self, key, default=None):
        if key not in self._data:
            self[key] = default
        return self._data[key]

    def pop(self, key, *default):
        return self._data.pop(key, *default)

    def popitem(self):
        return self._data.popitem()

    def clear(self):
        self._data.clear()

    def copy(self):
        return self.__class__(self)

    def __or__(self, other):
        result = self.copy()
        result.update(other)
        return result

    def __ior__(self, other):
        self.update(other)
        return self


class _OrderedView:
    # odict_keys/odict_values/odict_items: a live view of an OrderedDict, named as CPython's.
    _kind = None

    def __init__(self, data):
        self._data = data

    def __iter__(self):
        return iter(getattr(self._data, self._kind)())

    def __reversed__(self):
        return reversed(list(self))

    def __len__(self):
        return len(self._data)

    def __contains__(self, value):
        return value in getattr(self._data, self._kind)()

    def __repr__(self):
        return type(self).__name__ + "(" + repr(list(self)) + ")"


class odict_keys(_OrderedView):
    _kind = "keys"


class odict_values(_OrderedView):
    _kind = "values"


class odict_items(_OrderedView):
    _kind = "items"


class OrderedDict(_DictLike):
    def keys(self):
        return odict_keys(self._data)

    def values(self):
        return odict_values(self._data)

    def items(self):
        return odict_items(self._data)

    def __eq__(self, other):
        if isinstance(other, OrderedDict):
            return list(self._data.items()) == list(other._data.items())
        return _DictLike.__eq__(self, other)

    def move_to_end(self, key, last=True):
        value = self._data.pop(key)
        if last:
            self._data[key] = value
        else:
            rest = list(self._data.items())
            self._data.clear()
            self._data[key] = value
            for k, v in rest:
                self._data[k] = v

    def popitem(self, last=True):
        if not self._data:
            raise KeyError("dictionary is empty")
        key = next(reversed(list(self._data))) if last else next(iter(self._data))
        return key, self._data.pop(key)

    def __repr__(self):
        if not self._data:
            return self.__class__.__name__ + "()"
        return self.__class__.__name__ + "(" + repr(list(self._data.items())) + ")"


class defaultdict(_DictLike):
    def __init__(self, default_factory=None, *args, **kwargs):
        if default_factory is not None and not callable(default_factory):
            raise TypeError("first argument must be callable or None")
        self.default_factory = default_factory
        _DictLike.__init__(self, *args, **kwargs)

    def __missing__(self, key):
        if self.default_factory is None:
            raise KeyError(key)
        value = self.default_factory()
        self._data[key] = value
        return value

    def copy(self):
        return defaultdict(self.default_factory, self._data)

    def __repr__(self):
        return "defaultdict(" + repr(self.default_factory) + ", " + _dict_items_repr(self._data) + ")"


class Counter(_DictLike):
    def __init__(self, iterable=None, **kwargs):
        self._data = {}
        self.update(iterable, **kwargs)

    def __missing__(self, key):
        return 0

    def update(self, iterable=None, **kwargs):
        if iterable is not None:
            if isinstance(iterable, _DictLike):
                iterable = iterable._data
            if isinstance(iterable, dict):
                for key, count in iterable.items():
                    self._data[key] = self._data.get(key, 0) + count
            else:
                for key in iterable:
                    self._data[key] = self._data.get(key, 0) + 1
        if kwargs:
            self.update(kwargs)

    def subtract(self, iterable=None, **kwargs):
        if iterable is not None:
            if isinstance(iterable, _DictLike):
                iterable = iterable._data
            if isinstance(iterable, dict):
                for key, count in iterable.items():
                    self._data[key] = self._data.get(key, 0) - count
            else:
                for key in iterable:
                    self._data[key] = self._data.get(key, 0) - 1
        if kwargs:
            self.subtract(kwargs)

    def most_common(self, n=None):
        ranked = sorted(self._data.items(), key=lambda item: item[1], reverse=True)
        return ranked if n is None else ranked[:n]

    def elements(self):
        for key, count in self._data.items():
            for _ in range(count):
                yield key

    def total(self):
        return sum(self._data.values())

    def copy(self):
        return Counter(self)

    def _combine(self, other, combine):
        if not isinstance(other, Counter):
            return NotImplemented
        result = Counter()
        for key in list(self._data) + [k for k in other._data if k not in self._data]:
            count = combine(self[key], other[key])
            if count > 0:
                result._data[key] = count
        return result

    def __add__(self, other):
        return self._combine(other, lambda a, b: a + b)

    def __sub__(self, other):
        return self._combine(other, lambda a, b: a - b)

    def __or__(self, other):
        return self._combine(other, max)

    def __and__(self, other):
        return self._combine(other, min)

    def __repr__(self):
        if not self._data:
            return "Counter()"
        return "Counter(" + _dict_items_repr(dict(self.most_common())) + ")"


class deque:
    def __init__(self, iterable=(), maxlen=None):
        if maxlen is not None and maxlen < 0:
            raise ValueError("maxlen must be non-negative")
        self._maxlen = maxlen
        self._items = []
        self.extend(iterable)

    @property
    def maxlen(self):
        return self._maxlen

    def append(self, item):
        self._items.append(item)
        if self._maxlen is not None and len(self._items) > self._maxlen:
            del self._items[0]

    def appendleft(self, item):
        self._items.insert(0, item)
        if self._maxlen is not None and len(self._items) > self._maxlen:
            self._items.pop()

    def extend(self, iterable):
        for item in list(iterable):
            self.append(item)

    def extendleft(self, iterable):
        for item in list(iterable):
            self.appendleft(item)

    def pop(self):
        if not self._items:
            raise IndexError("pop from an empty deque")
        return self._items.pop()

    def popleft(self):
        if not self._items:
            raise IndexError("pop from an empty deque")
        return self._items.pop(0)

    def rotate(self, n=1):
        if self._items:
            n = n % len(self._items)
            self._items[:] = self._items[-n:] + self._items[:-n]

    def clear(self):
        self._items.clear()

    def count(self, item):
        return self._items.count(item)

    def index(self, item):
        return self._items.index(item)

    def remove(self, item):
        self._items.remove(item)

    def reverse(self):
        self._items.reverse()

    def copy(self):
        return deque(self._items, self._maxlen)

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        return iter(self._items)

    def __reversed__(self):
        return reversed(self._items)

    def __contains__(self, item):
        return item in self._items

    def __getitem__(self, index):
        if isinstance(index, slice):
            raise TypeError("sequence index must be integer, not 'slice'")
        if not -len(self._items) <= index < len(self._items):
            raise IndexError("deque index out of range")
        return self._items[index]

    def __setitem__(self, index, value):
        if not -len(self._items) <= index < len(self._items):
            raise IndexError("deque index out of range")
        self._items[index] = value

    def __eq__(self, other):
        if not isinstance(other, deque):
            return NotImplemented
        return self._items == other._items

    __hash__ = None

    def __repr__(self):
        if self._maxlen is None:
            return "deque(" + repr(self._items) + ")"
        return "deque(" + repr(self._items) + ", maxlen=" + str(self._maxlen) + ")"


class _NamedTupleBase:
    # A namedtuple instance: its values in a real tuple, its fields on the class.

    def __len__(self):
        return len(self._values)

    def __iter__(self):
        return iter(self._values)

    def __getitem__(self, index):
        return self._values[index]

    def __contains__(self, item):
        return item in self._values

    def __eq__(self, other):
        if isinstance(other, _NamedTupleBase):
            other = other._values
        if not isinstance(other, tuple):
            return NotImplemented
        return self._values == other

    def __ne__(self, other):
        result = self.__eq__(other)
        if result is NotImplemented:
            return result
        return not result

    def __lt__(self, other):
        return self._values < tuple(other)

    def __le__(self, other):
        return self._values <= tuple(other)

    def __gt__(self, other):
        return self._values > tuple(other)

    def __ge__(self, other):
        return self._values >= tuple(other)

    def __add__(self, other):
        return self._values + tuple(other)

    def __hash__(self):
        return hash(self._values)

    def __setattr__(self, name, value):
        raise AttributeError("can't set attribute")

    def count(self, item):
        return self._values.count(item)

    def index(self, item):
        return self._values.index(item)

    def _asdict(self):
        return dict(zip(self._fields, self._values))

    def _replace(self, **changes):
        values = [changes.pop(name, value) for name, value in zip(self._fields, self._values)]
        if changes:
            raise ValueError("Got unexpected field names: " + repr(list(changes)))
        return self._make(values)

    def __repr__(self):
        parts = [name + "=" + repr(value) for name, value in zip(self._fields, self._values)]
        return self.__class__.__name__ + "(" + ", ".join(parts) + ")"


def _field_getter(index):
    return property(lambda self: self._values[index])


def _check_field_names(typename, field_names, rename):
    seen = set()
    checked = []
    for index, name in enumerate(field_names):
        if rename and (not name.isidentifier() or name.startswith("_") or name in seen):
            name = "_" + str(index)
        checked.append(name)
        seen.add(name)
    for name in [typename] + checked:
        if not isinstance(name, str):
            raise TypeError("Type names and field names must be strings")
        if not name.isidentifier():
            raise ValueError("Type names and field names must be valid identifiers: " + repr(name))
    seen = set()
    for name in checked:
        if name.startswith("_") and not rename:
            raise ValueError("Field names cannot start with an underscore: " + repr(name))
        if name in seen:
            raise ValueError("Encountered duplicate field name: " + repr(name))
        seen.add(name)
    return tuple(checked)


def namedtuple(typename, field_names, *, rename=False, defaults=None, module=None):
    if isinstance(field_names, str):
        field_names = field_names.replace(",", " ").split()
    fields = _check_field_names(typename, list(field_names), rename)
    field_defaults = {}
    if defaults is not None:
        defaults = tuple(defaults)
        if len(defaults) > len(fields):
            raise TypeError("Got more default values than field names")
        field_defaults = dict(zip(fields[len(fields) - len(defaults):], defaults))

    class _NamedTuple(_NamedTupleBase):
        def __init__(self, *args, **kwargs):
            object.__setattr__(self, "_values", tuple(bind_field_arguments(typename + ".__new__()", fields, field_defaults, args, kwargs)))

        @classmethod
        def _make(cls, iterable):
            values = tuple(iterable)
            if len(values) != len(fields):
                raise TypeError("Expected " + str(len(fields)) + " arguments, got " + str(len(values)))
            return cls(*values)

    _NamedTuple._fields = fields
    _NamedTuple._field_defaults = field_defaults
    for index, name in enumerate(fields):
        setattr(_NamedTuple, name, _field_getter(index))
    _NamedTuple.__name__ = typename
    _NamedTuple.__qualname__ = typename
    _NamedTuple.__module__ = module if module is not None else "__main__"
    return _NamedTuple
