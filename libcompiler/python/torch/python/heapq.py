# heapq: binary min-heaps kept in plain lists (heap[k] <= heap[2k+1] and heap[2k+2]), with the
# same sift order as CPython so heaps print identically, plus nlargest/nsmallest/merge.


def _sift_toward_root(heap, start, pos):
    # Moves heap[pos] up past larger parents, stopping at index start.
    item = heap[pos]
    while pos > start:
        parent = (pos - 1) >> 1
        if item < heap[parent]:
            heap[pos] = heap[parent]
            pos = parent
        else:
            break
    heap[pos] = item


def _sift_toward_leaves(heap, pos):
    # Moves the smaller child up until a leaf is reached, puts the item there, then lets it rise
    # back: fewer comparisons than stopping early, and the layout CPython produces.
    end = len(heap)
    start = pos
    item = heap[pos]
    child = 2 * pos + 1
    while child < end:
        right = child + 1
        if right < end and not heap[child] < heap[right]:
            child = right
        heap[pos] = heap[child]
        pos = child
        child = 2 * pos + 1
    heap[pos] = item
    _sift_toward_root(heap, start, pos)


def heappush(heap, item):
    heap.append(item)
    _sift_toward_root(heap, 0, len(heap) - 1)


def heappop(heap):
    if not heap:
        raise IndexError("index out of range")
    last = heap.pop()
    if heap:
        smallest = heap[0]
        heap[0] = last
        _sift_toward_leaves(heap, 0)
        return smallest
    return last


def heapreplace(heap, item):
    if not heap:
        raise IndexError("index out of range")
    smallest = heap[0]
    heap[0] = item
    _sift_toward_leaves(heap, 0)
    return smallest


def heappushpop(heap, item):
    if heap and heap[0] < item:
        item, heap[0] = heap[0], item
        _sift_toward_leaves(heap, 0)
    return item


def heapify(x):
    for i in reversed(range(len(x) // 2)):
        _sift_toward_leaves(x, i)


def nlargest(n, iterable, key=None):
    return sorted(iterable, key=key, reverse=True)[:max(n, 0)]


def nsmallest(n, iterable, key=None):
    return sorted(iterable, key=key)[:max(n, 0)]


def merge(*iterables, key=None, reverse=False):
    # Lazily merges sorted inputs; equal items come out in input order.  Entries are
    # [sort key, input number, value, iterator]; the input number breaks ties.
    entries = []
    for number, iterable in enumerate(iterables):
        iterator = iter(iterable)
        for value in iterator:
            sort_key = value if key is None else key(value)
            entries.append([_Reversed(sort_key) if reverse else sort_key, number, value, iterator])
            break
    heapify(entries)
    while entries:
        entry = entries[0]
        yield entry[2]
        for value in entry[3]:
            sort_key = value if key is None else key(value)
            entry[0] = _Reversed(sort_key) if reverse else sort_key
            entry[2] = value
            heapreplace(entries, entry)
            break
        else:
            heappop(entries)


class _Reversed:
    # Orders keys backwards, for merge(reverse=True) on a min-heap.
    def __init__(self, key):
        self.key = key

    def __lt__(self, other):
        return other.key < self.key

    def __eq__(self, other):
        return self.key == other.key
