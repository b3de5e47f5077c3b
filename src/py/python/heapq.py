# src/py/python/heapq.py: Python's heapq for lesson code (beam search, top-k), in attn's Python:
# heappush, heappop, heapify, heapreplace, heappushpop, nlargest, nsmallest, merge. The sift
# loops are those of CPython 3.11's Lib/heapq.py (its C module moves items the same way), so a
# heap holds its items in CPython's order and ties come out as CPython's.
# merge is lazy, as CPython's generator, and native (py/lazy_iterators.cpp) for speed.
# What it is not: the private _heapify_max family.
from _attn_stdlib import merge as _merge


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


# merge: native (py/lazy_iterators.cpp), lazy as CPython's generator, its heap sifted as _heapq's
merge = _merge
