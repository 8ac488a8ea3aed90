# itertools: the iterator building blocks, as generators. Each checks its arguments when called,
# as CPython's do, so misuse fails at the call rather than at the first next().


def _chain(iterables):
    for iterable in iterables:
        for item in iterable:
            yield item


class chain:
    def __init__(self, *iterables):
        self._items = _chain(iterables)

    @classmethod
    def from_iterable(cls, iterables):
        result = cls()
        result._items = _chain(iterables)
        return result

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._items)


def _count(start, step):
    while True:
        yield start
        start += step


def count(start=0, step=1):
    return _count(start, step)


def _cycle(saved):
    while saved:
        for item in saved:
            yield item


def cycle(iterable):
    return _cycle(list(iterable))


def _repeat(value, times):
    if times is None:
        while True:
            yield value
    for _ in range(times):
        yield value


def repeat(object, times=None):
    return _repeat(object, times)


def _islice(iterable, start, stop, step):
    iterator = iter(iterable)
    index = 0
    wanted = start
    # The bound is checked before each next(): a shared iterator loses no item past `stop`.
    while stop is None or index < stop:
        try:
            item = next(iterator)
        except StopIteration:
            return
        if index == wanted:
            yield item
            wanted += step
        index += 1


def islice(iterable, *args):
    if not 1 <= len(args) <= 3:
        raise TypeError("islice expected at most 4 arguments, got " + str(len(args) + 1))
    if len(args) == 1:
        start, stop, step = 0, args[0], 1
    else:
        start, stop, step = (list(args) + [None])[:3]
        start = 0 if start is None else start
        step = 1 if step is None else step
    for value in (start, stop):
        if value is not None and (not isinstance(value, int) or value < 0):
            which = "Stop argument" if len(args) == 1 else "Indices"
            raise ValueError(which + " for islice() must be None or an integer: 0 <= x <= sys.maxsize.")
    if not isinstance(step, int) or step <= 0:
        raise ValueError("Step for islice() must be a positive integer or None.")
    return _islice(iterable, start, stop, step)


def _product(pools):
    indices = [0] * len(pools)
    if any(len(pool) == 0 for pool in pools):
        return
    while True:
        yield tuple(pool[i] for pool, i in zip(pools, indices))
        position = len(pools) - 1
        while position >= 0:
            indices[position] += 1
            if indices[position] < len(pools[position]):
                break
            indices[position] = 0
            position -= 1
        if position < 0:
            return


def product(*iterables, repeat=1):
    if repeat < 0:
        raise ValueError("repeat argument cannot be negative")
    pools = [tuple(iterable) for iterable in iterables] * repeat
    return _product(pools)


def _permutations(pool, r):
    n = len(pool)
    if r > n:
        return
    indices = list(range(n))
    cycles = list(range(n, n - r, -1))
    yield tuple(pool[i] for i in indices[:r])
    while n:
        for i in reversed(range(r)):
            cycles[i] -= 1
            if cycles[i] == 0:
                indices[i:] = indices[i + 1:] + indices[i:i + 1]
                cycles[i] = n - i
            else:
                j = cycles[i]
                indices[i], indices[-j] = indices[-j], indices[i]
                yield tuple(pool[k] for k in indices[:r])
                break
        else:
            return


def permutations(iterable, r=None):
    pool = tuple(iterable)
    if r is not None and r < 0:
        raise ValueError("r must be non-negative")
    return _permutations(pool, len(pool) if r is None else r)


def _combinations(pool, r, with_replacement):
    n = len(pool)
    if r > n and not with_replacement or n == 0 and r > 0:
        return
    indices = [0] * r if with_replacement else list(range(r))
    yield tuple(pool[i] for i in indices)
    while True:
        for i in reversed(range(r)):
            limit = n - 1 if with_replacement else i + n - r
            if indices[i] != limit:
                break
        else:
            return
        if with_replacement:
            indices[i:] = [indices[i] + 1] * (r - i)
        else:
            indices[i] += 1
            for j in range(i + 1, r):
                indices[j] = indices[j - 1] + 1
        yield tuple(pool[k] for k in indices)


def combinations(iterable, r):
    if r < 0:
        raise ValueError("r must be non-negative")
    return _combinations(tuple(iterable), r, False)


def combinations_with_replacement(iterable, r):
    if r < 0:
        raise ValueError("r must be non-negative")
    return _combinations(tuple(iterable), r, True)


def _zip_longest(iterators, fillvalue):
    while True:
        row = []
        live = 0
        for index, iterator in enumerate(iterators):
            if iterator is None:
                row.append(fillvalue)
                continue
            try:
                row.append(next(iterator))
                live += 1
            except StopIteration:
                iterators[index] = None
                row.append(fillvalue)
        if not live:
            return
        yield tuple(row)


def zip_longest(*iterables, fillvalue=None):
    return _zip_longest([iter(iterable) for iterable in iterables], fillvalue)


def _accumulate(iterable, func, initial):
    iterator = iter(iterable)
    total = initial
    if initial is None:
        try:
            total = next(iterator)
        except StopIteration:
            return
    yield total
    for item in iterator:
        total = total + item if func is None else func(total, item)
        yield total


def accumulate(iterable, func=None, *, initial=None):
    return _accumulate(iterable, func, initial)


def _group(first, key_value, iterator, key, state):
    yield first
    for item in iterator:
        item_key = item if key is None else key(item)
        if item_key != key_value:
            state.append((item_key, item))
            return
        yield item
    state.append(None)


def _groupby(iterable, key):
    iterator = iter(iterable)
    try:
        item = next(iterator)
    except StopIteration:
        return
    pending = (item if key is None else key(item), item)
    while pending is not None:
        state = []
        group = _group(pending[1], pending[0], iterator, key, state)
        yield pending[0], group
        # Whatever of the group the caller did not read is skipped to reach the next key.
        for _ in group:
            pass
        pending = state[0]


def groupby(iterable, key=None):
    return _groupby(iterable, key)


def _starmap(function, iterable):
    for args in iterable:
        yield function(*args)


def starmap(function, iterable):
    return _starmap(function, iter(iterable))


def _takewhile(predicate, iterable):
    for item in iterable:
        if not predicate(item):
            return
        yield item


def takewhile(predicate, iterable):
    return _takewhile(predicate, iter(iterable))


def _dropwhile(predicate, iterable):
    iterator = iter(iterable)
    for item in iterator:
        if not predicate(item):
            yield item
            break
    for item in iterator:
        yield item


def dropwhile(predicate, iterable):
    return _dropwhile(predicate, iterable)


def _compress(data, selectors):
    for item, selected in zip(data, selectors):
        if selected:
            yield item


def compress(data, selectors):
    return _compress(data, selectors)


def _filterfalse(predicate, iterable):
    for item in iterable:
        if not (bool(item) if predicate is None else predicate(item)):
            yield item


def filterfalse(predicate, iterable):
    return _filterfalse(predicate, iter(iterable))


def _pairwise(iterable):
    iterator = iter(iterable)
    try:
        previous = next(iterator)
    except StopIteration:
        return
    for item in iterator:
        yield previous, item
        previous = item


def pairwise(iterable):
    return _pairwise(iterable)

