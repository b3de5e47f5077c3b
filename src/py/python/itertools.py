# src/py/python/itertools.py: Python's itertools for lesson code, in attn's Python: each function
# a lazy iterator class (__iter__/__next__), as CPython's Modules/itertoolsmodule.c objects are,
# following the pure-Python equivalents in CPython 3.11's documentation of itertools.
# What it is not: tee, batched (3.12); product's odometer (native, py/lazy_iterators.cpp); the
# combinatoric iterators read their input into a tuple first, as CPython's do.
from _attn_stdlib import product as _product


class _Iterator:
    def __iter__(self):
        return self


class count(_Iterator):
    def __init__(self, start=0, step=1):
        self._n = start
        self._step = step

    def __next__(self):
        n = self._n
        self._n = n + self._step
        return n

    def __repr__(self):
        if self._step == 1:
            return f"count({self._n!r})"
        return f"count({self._n!r}, {self._step!r})"


class cycle(_Iterator):
    def __init__(self, iterable):
        self._it = iter(iterable)
        self._saved = []
        self._k = -1

    def __next__(self):
        if self._k < 0:
            try:
                x = next(self._it)
                self._saved.append(x)
                return x
            except StopIteration:
                if not self._saved:
                    raise
                self._k = 0
        x = self._saved[self._k]
        self._k = (self._k + 1) % len(self._saved)
        return x


class repeat(_Iterator):
    def __init__(self, object, times=None):
        self._object = object
        self._times = times

    def __next__(self):
        if self._times is not None:
            if self._times <= 0:
                raise StopIteration
            self._times -= 1
        return self._object

    def __len__(self):
        raise TypeError("object of type 'itertools.repeat' has no len()")

    def __repr__(self):
        if self._times is None:
            return f"repeat({self._object!r})"
        return f"repeat({self._object!r}, {max(self._times, 0)})"


def _add(a, b):
    return a + b


class accumulate(_Iterator):
    def __init__(self, iterable, func=None, *, initial=None):
        self._it = iter(iterable)
        self._func = _add if func is None else func
        self._total = initial
        self._started = initial is not None
        self._pending_initial = initial is not None

    def __next__(self):
        if self._pending_initial:
            self._pending_initial = False
            return self._total
        x = next(self._it)
        if not self._started:
            self._started = True
            self._total = x
        else:
            self._total = self._func(self._total, x)
        return self._total


class chain(_Iterator):
    def __init__(self, *iterables):
        self._sources = iter(iterables)
        self._it = None

    @classmethod
    def from_iterable(cls, iterables):
        c = cls()
        c._sources = iter(iterables)
        return c

    def __next__(self):
        while True:
            if self._it is None:
                self._it = iter(next(self._sources))
            try:
                return next(self._it)
            except StopIteration:
                self._it = None


class compress(_Iterator):
    def __init__(self, data, selectors):
        self._data = iter(data)
        self._selectors = iter(selectors)

    def __next__(self):
        while True:
            d = next(self._data)
            s = next(self._selectors)
            if s:
                return d


class dropwhile(_Iterator):
    def __init__(self, predicate, iterable):
        self._pred = predicate
        self._it = iter(iterable)
        self._dropping = True

    def __next__(self):
        while self._dropping:
            x = next(self._it)
            if not self._pred(x):
                self._dropping = False
                return x
        return next(self._it)


class takewhile(_Iterator):
    def __init__(self, predicate, iterable):
        self._pred = predicate
        self._it = iter(iterable)
        self._done = False

    def __next__(self):
        if self._done:
            raise StopIteration
        x = next(self._it)
        if self._pred(x):
            return x
        self._done = True
        raise StopIteration


class filterfalse(_Iterator):
    def __init__(self, predicate, iterable):
        self._pred = bool if predicate is None else predicate
        self._it = iter(iterable)

    def __next__(self):
        while True:
            x = next(self._it)
            if not self._pred(x):
                return x


_NONE = object()   # groupby's "no key/value yet" (CPython's NULL)


def _same(a, b):
    return a is b or a == b   # PyObject_RichCompareBool: identity first


class groupby(_Iterator):
    """CPython's groupby_next: a group (_grouper) reads the shared iterator as it is consumed,
    so advancing the groupby empties the group before it, and a long group costs nothing until
    it is read or skipped."""

    def __init__(self, iterable, key=None):
        self._keyfunc = key
        self._it = iter(iterable)
        self._tgtkey = self._currkey = self._currvalue = _NONE
        self._currgrouper = None
        self._fresh = False

    def _step(self):
        value = next(self._it)
        self._currkey = value if self._keyfunc is None else self._keyfunc(value)
        self._currvalue = value

    def __next__(self):
        self._currgrouper = None
        while True:   # skip to the next group
            if self._currkey is _NONE:
                pass
            elif self._tgtkey is _NONE or not _same(self._tgtkey, self._currkey):
                break
            self._step()
        self._tgtkey = self._currkey
        self._fresh = True   # the current value starts the group (CPython: tgtkey is currkey)
        group = _grouper(self, self._tgtkey)
        self._currgrouper = group
        return (self._currkey, group)


class _grouper(_Iterator):
    def __init__(self, parent, tgtkey):
        self._parent = parent
        self._tgtkey = tgtkey

    def __next__(self):
        gb = self._parent
        if gb._currgrouper is not self:
            raise StopIteration
        if gb._currvalue is _NONE:
            gb._step()
            gb._fresh = False
        # The group's first value needs no comparison: its key is the group's key itself (`is`
        # of two floats compares values here, so a NaN key would otherwise end its own group).
        if not gb._fresh and not _same(self._tgtkey, gb._currkey):
            raise StopIteration
        gb._fresh = False
        value = gb._currvalue
        gb._currvalue = _NONE
        return value


class islice(_Iterator):
    def __init__(self, iterable, *args):
        if len(args) == 1:
            start, stop, step = None, args[0], None
        elif len(args) in (2, 3):
            start, stop = args[0], args[1]
            step = args[2] if len(args) == 3 else None
        else:
            raise TypeError(f"islice expected at most 4 arguments, got {len(args) + 1}")
        start = 0 if start is None else start
        step = 1 if step is None else step
        if stop is not None and (not isinstance(stop, int) or stop < 0):
            raise ValueError("Stop argument for islice() must be None or an integer: 0 <= x <= sys.maxsize.")
        if not isinstance(start, int) or start < 0:
            raise ValueError("Indices for islice() must be None or an integer: 0 <= x <= sys.maxsize.")
        if not isinstance(step, int) or step <= 0:
            raise ValueError("Step for islice() must be a positive integer or None.")
        self._it = iter(iterable)
        self._next = start
        self._stop = stop
        self._step = step
        self._k = 0

    def __next__(self):
        if self._stop is not None and self._next >= self._stop:
            for _ in range(self._k, self._stop):   # CPython consumes up to stop
                try:
                    next(self._it)
                except StopIteration:
                    break
                self._k += 1
            raise StopIteration
        while self._k < self._next:
            next(self._it)
            self._k += 1
        x = next(self._it)
        self._k += 1
        self._next += self._step
        return x


class starmap(_Iterator):
    def __init__(self, function, iterable):
        self._fn = function
        self._it = iter(iterable)

    def __next__(self):
        return self._fn(*next(self._it))


class zip_longest(_Iterator):
    def __init__(self, *iterables, fillvalue=None):
        self._its = [iter(it) for it in iterables]
        self._active = len(self._its)
        self._fill = fillvalue

    def __next__(self):
        if not self._active:
            raise StopIteration
        values = []
        for k in range(len(self._its)):
            it = self._its[k]
            if it is None:
                values.append(self._fill)
                continue
            try:
                values.append(next(it))
            except StopIteration:
                self._its[k] = None
                self._active -= 1
                if not self._active:
                    raise
                values.append(self._fill)
        return tuple(values)


class pairwise(_Iterator):
    def __init__(self, iterable):
        self._it = iter(iterable)
        self._last = None
        self._started = False

    def __next__(self):
        if not self._started:
            self._started = True
            self._last = next(self._it)
        x = next(self._it)
        pair = (self._last, x)
        self._last = x
        return pair


# product: native (py/lazy_iterators.cpp), lazy as CPython's: the pools read whole first, the last fastest
product = _product

class _Indices(_Iterator):
    """Walks index tuples of a pool lazily: the state machine of CPython's documented equivalents."""

    def __init__(self, iterable, r):
        self._pool = tuple(iterable)
        self._r = r
        self._first = True
        self._done = False

    def __next__(self):
        if self._done:
            raise StopIteration
        if self._first:
            self._first = False
            if not self._start():
                self._done = True
                raise StopIteration
        elif not self._step():
            self._done = True
            raise StopIteration
        return tuple([self._pool[i] for i in self._current()])


class permutations(_Indices):
    def __init__(self, iterable, r=None):
        pool = tuple(iterable)
        _Indices.__init__(self, pool, len(pool) if r is None else r)
        if self._r < 0:
            raise ValueError("r must be non-negative")

    def _start(self):
        n = len(self._pool)
        if self._r > n:
            return False
        self._indices = list(range(n))
        self._cycles = list(range(n, n - self._r, -1))
        return True

    def _current(self):
        return self._indices[:self._r]

    def _step(self):
        n = len(self._pool)
        r = self._r
        indices = self._indices
        cycles = self._cycles
        for i in reversed(range(r)):
            cycles[i] -= 1
            if cycles[i] == 0:
                indices[i:] = indices[i + 1:] + indices[i:i + 1]
                cycles[i] = n - i
            else:
                j = cycles[i]
                indices[i], indices[-j] = indices[-j], indices[i]
                return True
        return False


class combinations(_Indices):
    def __init__(self, iterable, r):
        _Indices.__init__(self, iterable, r)
        if r < 0:
            raise ValueError("r must be non-negative")

    def _start(self):
        if self._r > len(self._pool):
            return False
        self._indices = list(range(self._r))
        return True

    def _current(self):
        return self._indices

    def _step(self):
        n = len(self._pool)
        r = self._r
        indices = self._indices
        for i in reversed(range(r)):
            if indices[i] != i + n - r:
                indices[i] += 1
                for j in range(i + 1, r):
                    indices[j] = indices[j - 1] + 1
                return True
        return False


class combinations_with_replacement(_Indices):
    def __init__(self, iterable, r):
        _Indices.__init__(self, iterable, r)
        if r < 0:
            raise ValueError("r must be non-negative")

    def _start(self):
        if not self._pool and self._r:
            return False
        self._indices = [0] * self._r
        return True

    def _current(self):
        return self._indices

    def _step(self):
        n = len(self._pool)
        r = self._r
        indices = self._indices
        for i in reversed(range(r)):
            if indices[i] != n - 1:
                indices[i:] = [indices[i] + 1] * (r - i)
                return True
        return False
