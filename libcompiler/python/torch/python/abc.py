# abc: abstract base classes. ABC works out each subclass's __abstractmethods__ when the class is
# made (__init_subclass__, where CPython's ABCMeta does it in __new__); the interpreter refuses
# to instantiate a class whose set is not empty, with CPython's message.


def abstractmethod(funcobj):
    funcobj.__isabstractmethod__ = True
    return funcobj


def _is_abstract(value):
    return getattr(value, "__isabstractmethod__", False)


class ABC:
    __abstractmethods__ = set()

    def __init_subclass__(cls, **kwargs):
        abstract = {name for name, value in cls.__dict__.items() if _is_abstract(value)}
        for base in cls.__mro__[1:]:
            for name in getattr(base, "__abstractmethods__", ()):
                if _is_abstract(getattr(cls, name, None)):
                    abstract.add(name)
        cls.__abstractmethods__ = abstract
