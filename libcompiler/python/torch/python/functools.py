# functools, the part written in Python: partial, the wrappers' metadata copying, the caches and
# cached_property. reduce and total_ordering are native (module_functools.cpp); both halves make
# one module.

from collections import namedtuple

WRAPPER_ASSIGNMENTS = ("__module__", "__name__", "__qualname__", "__doc__")
WRAPPER_UPDATES = ("__dict__",)


class partial:
    def __init__(self, func, *args, **keywords):
        if not callable(func):
            raise TypeError("the first argument must be callable")
        if isinstance(func, partial):
            args = func.args + args
            keywords = {**func.keywords, **keywords}
            func = func.func
        self.func = func
        self.args = args
        self.keywords = keywords

    def __call__(self, *args, **keywords):
        return self.func(*self.args, *args, **{**self.keywords, **keywords})

    def __repr__(self):
        parts = [repr(self.func)] + [repr(arg) for arg in self.args]
        parts += [key + "=" + repr(value) for key, value in self.keywords.items()]
        return "functools.partial(" + ", ".join(parts) + ")"


def update_wrapper(wrapper, wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=WRAPPER_UPDATES):
    for attr in assigned:
        try:
            value = getattr(wrapped, attr)
        except AttributeError:
            continue
        setattr(wrapper, attr, value)
    wrapper.__wrapped__ = wrapped
    return wrapper


def wraps(wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=WRAPPER_UPDATES):
    return partial(update_wrapper, wrapped=wrapped, assigned=assigned, updated=updated)


CacheInfo = namedtuple("CacheInfo", ["hits", "misses", "maxsize", "currsize"])


class _KeywordMark:
    pass


_KEYWORD_MARK = _KeywordMark()


def _cache_key(args, kwargs):
    if not kwargs:
        return args
    key = list(args) + [_KEYWORD_MARK]
    for item in kwargs.items():
        key.extend(item)
    return tuple(key)


def _lru_cache_wrapper(user_function, maxsize):
    cache = {}
    stats = [0, 0]  # hits, misses

    def wrapper(*args, **kwargs):
        key = _cache_key(args, kwargs)
        if key in cache:
            stats[0] += 1
            result = cache.pop(key)
            cache[key] = result  # most recently used last
            return result
        stats[1] += 1
        result = user_function(*args, **kwargs)
        if maxsize != 0:
            cache[key] = result
            if maxsize is not None and len(cache) > maxsize:
                del cache[next(iter(cache))]
        return result

    def cache_info():
        return CacheInfo(stats[0], stats[1], maxsize, len(cache))

    def cache_clear():
        cache.clear()
        stats[0] = stats[1] = 0

    wrapper.cache_info = cache_info
    wrapper.cache_clear = cache_clear
    return update_wrapper(wrapper, user_function)


def lru_cache(maxsize=128, typed=False):
    if callable(maxsize) and not isinstance(maxsize, int):
        return _lru_cache_wrapper(maxsize, 128)
    if maxsize is not None and not isinstance(maxsize, int):
        raise TypeError("Expected first argument to be an integer, a callable, or None")
    if maxsize is not None and maxsize < 0:
        maxsize = 0

    def decorating_function(user_function):
        return _lru_cache_wrapper(user_function, maxsize)

    return decorating_function


def cache(user_function):
    return _lru_cache_wrapper(user_function, None)


class cached_property:
    # A non-data descriptor: the first access computes the value and stores it on the instance,
    # whose attribute then hides the descriptor.

    def __init__(self, func):
        self.func = func
        self.attrname = None
        self.__doc__ = getattr(func, "__doc__", None)

    def __set_name__(self, owner, name):
        if self.attrname is None:
            self.attrname = name
        elif name != self.attrname:
            raise TypeError("Cannot assign the same cached_property to two different names ("
                            + repr(self.attrname) + " and " + repr(name) + ").")

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        if self.attrname is None:
            raise TypeError("Cannot use cached_property instance without calling __set_name__ on it.")
        value = self.func(instance)
        object.__setattr__(instance, self.attrname, value)
        return value
