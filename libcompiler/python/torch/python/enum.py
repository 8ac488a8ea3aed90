# enum: Enum, IntEnum, Flag, IntFlag and auto. EnumType, the metaclass, turns the class body's plain
# attributes into members when the class is made, and gives the class its container protocol
# (iteration, len, `in`, Color['RED']) and value lookup (Color(1)).


class auto:
    # Replaced by the next value (_generate_next_value_) when the enum class is made.
    pass


def _is_member_name(name, value):
    if name.startswith("_"):
        return False
    return not (callable(value) or isinstance(value, (property, classmethod, staticmethod)))


class EnumType(type):
    def __new__(mcls, name, bases, classdict, **kwargs):
        definitions = [(key, value) for key, value in classdict.items() if _is_member_name(key, value)]
        for key, _ in definitions:
            del classdict[key]
        cls = super().__new__(mcls, name, bases, classdict, **kwargs)
        cls._member_names_ = []
        cls._member_map_ = {}
        cls._value2member_map_ = {}
        values = []
        for key, value in definitions:
            if isinstance(value, auto):
                value = cls._generate_next_value_(key, 1, len(values), values[:])
            values.append(value)
            if value in cls._value2member_map_:
                # A second name for an existing value is an alias of that member.
                member = cls._value2member_map_[value]
            else:
                member = object.__new__(cls)
                object.__setattr__(member, "_name_", key)
                object.__setattr__(member, "_value_", value)
                cls._member_names_.append(key)
                cls._value2member_map_[value] = member
            cls._member_map_[key] = member
            setattr(cls, key, member)
        cls.__members__ = dict(cls._member_map_)
        return cls

    def __call__(cls, value):
        if isinstance(value, cls):
            return value
        try:
            return cls._value2member_map_[value]
        except (KeyError, TypeError):
            member = cls._missing_(value)
            if member is None:
                raise ValueError(repr(value) + " is not a valid " + cls.__qualname__) from None
            return member

    def __getitem__(cls, name):
        return cls._member_map_[name]

    def __iter__(cls):
        return iter([cls._member_map_[name] for name in cls._member_names_])

    def __reversed__(cls):
        return iter([cls._member_map_[name] for name in reversed(cls._member_names_)])

    def __len__(cls):
        return len(cls._member_names_)

    def __contains__(cls, member):
        if not isinstance(member, Enum):
            raise TypeError("unsupported operand type(s) for 'in': '" + type(member).__qualname__ + "' and '"
                            + type(cls).__qualname__ + "'")
        return isinstance(member, cls) and member._name_ in cls._member_map_

    def __repr__(cls):
        return "<enum " + repr(cls.__name__) + ">"


EnumMeta = EnumType


class Enum(metaclass=EnumType):
    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        if not last_values:
            return start
        return last_values[-1] + 1

    @classmethod
    def _missing_(cls, value):
        return None

    @property
    def name(self):
        return self._name_

    @property
    def value(self):
        return self._value_

    def __repr__(self):
        return "<" + type(self).__qualname__ + "." + self._name_ + ": " + repr(self._value_) + ">"

    def __str__(self):
        return type(self).__qualname__ + "." + self._name_

    def __format__(self, format_spec):
        return format(str(self), format_spec)

    def __hash__(self):
        return hash(self._name_)


class IntEnum(Enum):
    # Members stand for their int values (Kiln cannot subclass int, so the number protocol is
    # delegated to the value; isinstance(member, int) is False).

    def __str__(self):
        return repr(self._value_)

    def __format__(self, format_spec):
        return format(self._value_, format_spec)

    def __int__(self):
        return self._value_

    def __index__(self):
        return self._value_

    def __float__(self):
        return float(self._value_)

    def __bool__(self):
        return bool(self._value_)

    def __hash__(self):
        return hash(self._value_)

    def __eq__(self, other):
        return self._value_ == _int_value(other)

    def __ne__(self, other):
        return self._value_ != _int_value(other)

    def __lt__(self, other):
        return self._value_ < _int_value(other)

    def __le__(self, other):
        return self._value_ <= _int_value(other)

    def __gt__(self, other):
        return self._value_ > _int_value(other)

    def __ge__(self, other):
        return self._value_ >= _int_value(other)

    def __add__(self, other):
        return self._value_ + _int_value(other)

    def __radd__(self, other):
        return other + self._value_

    def __sub__(self, other):
        return self._value_ - _int_value(other)

    def __rsub__(self, other):
        return other - self._value_

    def __mul__(self, other):
        return self._value_ * _int_value(other)

    def __rmul__(self, other):
        return other * self._value_

    def __floordiv__(self, other):
        return self._value_ // _int_value(other)

    def __truediv__(self, other):
        return self._value_ / _int_value(other)

    def __mod__(self, other):
        return self._value_ % _int_value(other)

    def __neg__(self):
        return -self._value_


class Flag(Enum):
    # Members are bits; a combination of them is a pseudo-member made on first use, named by its
    # bits in ascending order ("RED|BLUE").

    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        high = 1
        while last_values and high <= max(last_values):
            high *= 2
        return high

    @classmethod
    def _missing_(cls, value):
        if not isinstance(value, int):
            return None
        bits = sorted((m for m in cls._member_map_.values() if m._value_ and m._value_ & (m._value_ - 1) == 0),
                      key=lambda m: m._value_)
        names = []
        for m in bits:
            if value & m._value_ and m._name_ not in names:
                names.append(m._name_)
        member = object.__new__(cls)
        object.__setattr__(member, "_name_", "|".join(names) if value else None)
        object.__setattr__(member, "_value_", value)
        cls._value2member_map_[value] = member
        return member

    def _combine(self, other, op):
        if not isinstance(other, type(self)):
            return NotImplemented
        return type(self)(op(self._value_, other._value_))

    def __or__(self, other):
        return self._combine(other, lambda a, b: a | b)

    def __and__(self, other):
        return self._combine(other, lambda a, b: a & b)

    def __xor__(self, other):
        return self._combine(other, lambda a, b: a ^ b)

    __ror__ = __or__
    __rand__ = __and__
    __rxor__ = __xor__

    def __invert__(self):
        all_bits = 0
        for m in type(self)._member_map_.values():
            all_bits |= m._value_
        return type(self)(all_bits & ~self._value_)

    def __contains__(self, other):
        return other._value_ & self._value_ == other._value_

    def __bool__(self):
        return bool(self._value_)

    def __iter__(self):
        return iter([m for m in type(self) if m._value_ & self._value_ and m._value_ & (m._value_ - 1) == 0])

    def __repr__(self):
        if self._name_ is None:
            return "<" + type(self).__qualname__ + ": " + repr(self._value_) + ">"
        return "<" + type(self).__qualname__ + "." + self._name_ + ": " + repr(self._value_) + ">"

    def __str__(self):
        if self._name_ is None:
            return type(self).__qualname__ + "(" + repr(self._value_) + ")"
        return type(self).__qualname__ + "." + self._name_


class IntFlag(IntEnum, Flag):
    # Flag's bit operations on IntEnum's int stand-in; an int operand is accepted (re.I | 8).
    def _combine(self, other, op):
        return type(self)(op(self._value_, _int_value(other)))


def _int_value(value):
    return value._value_ if isinstance(value, IntEnum) else value


def unique(enumeration):
    duplicates = [(name, member._name_) for name, member in enumeration._member_map_.items() if name != member._name_]
    if duplicates:
        details = ", ".join(alias + " -> " + name for alias, name in duplicates)
        raise ValueError("duplicate values found in " + repr(enumeration) + ": " + details)
    return enumeration
