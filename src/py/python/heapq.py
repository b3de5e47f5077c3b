# src/py/python/heapq.py: Python's heapq for lesson code (beam search, top-k), in attn's Python:
# heappush, heappop, heapify, heapreplace, heappushpop, nlargest, nsmallest, merge. The sift
# loops are those of CPython 3.11's Lib/heapq.py (its C module moves items the same way), so a
# heap holds its items in CPython's order and ties come out as CPython's.
# merge is lazy (a generator over a heap of the inputs' next items), as CPython's.
# What it is not: the private _heapify_max family.


def _siftdown(heap, startpos, pos):
    newitem = heap[pos]
    while pos > startpos:
        parentpos = (pos - 1) >> 1
        parent = heap[parentpos]
        if newitem < parent:
            heap[pos] = parent
            pos = parentpos
            continue
        break
    heap[pos] = newitem


def _siftup(heap, pos):
    endpos = len(heap)
    startpos = pos
    newitem = heap[pos]
    childpos = 2 * pos + 1
    while childpos < endpos:
        rightpos = childpos + 1
        if rightpos < endpos and not heap[childpos] < heap[rightpos]:
            childpos = rightpos
        heap[pos] = heap[childpos]
        pos = childpos
        childpos = 2 * pos + 1
    heap[pos] = newitem
    _siftdown(heap, startpos, pos)


def _check_list(heap, name, which='argument 1'):
    if not isinstance(heap, list):
        raise TypeError(f"{name}() {which} must be list, not {type(heap).__name__}")


def heappush(heap, item):
    _check_list(heap, 'heappush')
    heap.append(item)
    _siftdown(heap, 0, len(heap) - 1)


def heappop(heap):
    _check_list(heap, 'heappop', 'argument')
    if not heap:
        raise IndexError("index out of range")
    lastelt = heap.pop()
    if heap:
        returnitem = heap[0]
        heap[0] = lastelt
        _siftup(heap, 0)
        return returnitem
    return lastelt


def heapreplace(heap, item):
    _check_list(heap, 'heapreplace')
    if not heap:
        raise IndexError("index out of range")
    returnitem = heap[0]
    heap[0] = item
    _siftup(heap, 0)
    return returnitem


def heappushpop(heap, item):
    _check_list(heap, 'heappushpop')
    if heap and heap[0] < item:
        item, heap[0] = heap[0], item
        _siftup(heap, 0)
    return item


def heapify(x):
    _check_list(x, 'heapify', 'argument')
    n = len(x)
    for i in reversed(range(n // 2)):
        _siftup(x, i)


def nsmallest(n, iterable, key=None):
    # sorted() is stable, as CPython's decorated heap is: ties keep their input order
    if n <= 0:
        return []
    return sorted(iterable, key=key)[:n]


def nlargest(n, iterable, key=None):
    if n <= 0:
        return []
    return sorted(iterable, key=key, reverse=True)[:n]


class _Reversed:
    # merge(reverse=True): a min-heap over these compares as CPython's max-heap over the values
    def __init__(self, value):
        self.value = value

    def __lt__(self, other):
        return other.value < self.value

    def __eq__(self, other):
        return self.value == other.value


def merge(*iterables, key=None, reverse=False):
    # Lazily, as CPython's heapq.merge: a heap of [sort value, input number, item, iterator],
    # one item read from an input only when the last one it gave was yielded; ties in input order.
    h = []
    for order, it in enumerate(map(iter, iterables)):
        for value in it:
            k = value if key is None else key(value)
            h.append([_Reversed(k) if reverse else k, order, value, it])
            break
    heapify(h)
    while len(h) > 1:
        s = h[0]
        yield s[2]
        for value in s[3]:
            k = value if key is None else key(value)
            s[0] = _Reversed(k) if reverse else k
            s[2] = value
            heapreplace(h, s)
            break
        else:
            heappop(h)
    if h:
        yield h[0][2]
        yield from h[0][3]
