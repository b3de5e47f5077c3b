# src/py/python/functools.py: Python's functools for lesson code, in attn's Python: partial (and
# its repr), reduce, update_wrapper, wraps, lru_cache, cache, cmp_to_key, total_ordering,
# cached_property.
# Written after CPython 3.11's Lib/functools.py (its pure-Python fallbacks), simplified.
# What it is not: singledispatch, partialmethod; cached_property is a property whose getter
# keeps its value in the instance's __dict__ (attn has no non-data descriptors), so del obj.x does
# not reset it; lru_cache keeps its cache in one dict (no thread safety, nothing attn needs).

WRAPPER_ASSIGNMENTS = ('__module__', '__name__', '__qualname__', '__doc__', '__annotations__')
WRAPPER_UPDATES = ('__dict__',)


def update_wrapper(wrapper, wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=WRAPPER_UPDATES):
    for attr in assigned:
        try:
            value = getattr(wrapped, attr)
        except AttributeError:
            pass
        else:
            setattr(wrapper, attr, value)
    for attr in updated:
        try:
            getattr(wrapper, attr).update(getattr(wrapped, attr, {}))
        except AttributeError:
            pass
    wrapper.__wrapped__ = wrapped
    return wrapper


def wraps(wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=WRAPPER_UPDATES):
    return partial(update_wrapper, wrapped=wrapped, assigned=assigned, updated=updated)


_initial_missing = object()


def reduce(function, sequence, initial=_initial_missing):
    it = iter(sequence)
    if initial is _initial_missing:
        try:
            value = next(it)
        except StopIteration:
            raise TypeError("reduce() of empty iterable with no initial value") from None
    else:
        value = initial
    for element in it:
        value = function(value, element)
    return value


class partial:
    def __init__(self, func, *args, **keywords):
        if not callable(func):
            raise TypeError("the first argument must be callable")
        if type(func) is partial:
            args = func.args + args
            keywords = {**func.keywords, **keywords}
            func = func.func
        self.func = func
        self.args = args
        self.keywords = keywords

    def __call__(self, *args, **keywords):
        keywords = {**self.keywords, **keywords}
        return self.func(*self.args, *args, **keywords)

    def __repr__(self):
        args = [repr(self.func)]
        args.extend([repr(x) for x in self.args])
        args.extend([f"{k}={v!r}" for (k, v) in self.keywords.items()])
        if type(self).__module__ == "functools":
            return f"functools.partial({', '.join(args)})"
        return f"{type(self).__qualname__}({', '.join(args)})"


class _CacheInfo:
    def __init__(self, hits, misses, maxsize, currsize):
        self.hits = hits
        self.misses = misses
        self.maxsize = maxsize
        self.currsize = currsize

    def __iter__(self):
        return iter((self.hits, self.misses, self.maxsize, self.currsize))

    def __getitem__(self, k):
        return (self.hits, self.misses, self.maxsize, self.currsize)[k]

    def __len__(self):
        return 4

    def __eq__(self, other):
        return tuple(self) == tuple(other)

    def __repr__(self):
        return f"CacheInfo(hits={self.hits!r}, misses={self.misses!r}, maxsize={self.maxsize!r}, currsize={self.currsize!r})"


class _KeywordMark:
    pass


_kwd_mark = _KeywordMark()


def _make_key(args, kwds, typed):
    key = args
    if kwds:
        key = key + (_kwd_mark,)
        for item in kwds.items():
            key = key + item
    if typed:
        key = key + tuple([type(v) for v in args])
        if kwds:
            key = key + tuple([type(v) for v in kwds.values()])
    elif len(key) == 1 and type(key[0]) in (int, str):
        return key[0]
    return key


def _lru_cache_wrapper(user_function, maxsize, typed):
    cache = {}
    stats = [0, 0]   # hits, misses

    def wrapper(*args, **kwds):
        key = _make_key(args, kwds, typed)
        if key in cache:
            stats[0] += 1
            result = cache.pop(key)
            cache[key] = result   # the most recently used goes last
            return result
        stats[1] += 1
        result = user_function(*args, **kwds)
        if maxsize is None or maxsize > 0:
            cache[key] = result
            if maxsize is not None and len(cache) > maxsize:
                del cache[next(iter(cache))]
        return result

    def cache_info():
        return _CacheInfo(stats[0], stats[1], maxsize, len(cache))

    def cache_clear():
        cache.clear()
        stats[0] = 0
        stats[1] = 0

    def cache_parameters():
        return {'maxsize': maxsize, 'typed': typed}

    wrapper.cache_info = cache_info
    wrapper.cache_clear = cache_clear
    wrapper.cache_parameters = cache_parameters
    return update_wrapper(wrapper, user_function)


def lru_cache(maxsize=128, typed=False):
    if isinstance(maxsize, int) and not isinstance(maxsize, bool):
        if maxsize < 0:
            maxsize = 0
    elif callable(maxsize) and isinstance(typed, bool):
        user_function = maxsize
        return _lru_cache_wrapper(user_function, 128, typed)
    elif maxsize is not None:
        raise TypeError('Expected first argument to be an integer, a callable, or None')

    def decorating_function(user_function):
        return _lru_cache_wrapper(user_function, maxsize, typed)

    return decorating_function


def cache(user_function):
    return lru_cache(maxsize=None)(user_function)


def cmp_to_key(mycmp):
    class K:
        def __init__(self, obj):
            self.obj = obj

        def __lt__(self, other):
            return mycmp(self.obj, other.obj) < 0

        def __gt__(self, other):
            return mycmp(self.obj, other.obj) > 0

        def __eq__(self, other):
            return mycmp(self.obj, other.obj) == 0

        def __le__(self, other):
            return mycmp(self.obj, other.obj) <= 0

        def __ge__(self, other):
            return mycmp(self.obj, other.obj) >= 0

    return K


def total_ordering(cls):
    defined = [op for op in ('__lt__', '__le__', '__gt__', '__ge__') if op in cls.__dict__]
    if not defined:
        raise ValueError('must define at least one ordering operation: < > <= >=')
    root = defined[0]
    if root == '__lt__':
        def le(self, other):
            return self < other or self == other
        def gt(self, other):
            return not (self < other or self == other)
        def ge(self, other):
            return not self < other
        found = {'__le__': le, '__gt__': gt, '__ge__': ge}
    elif root == '__le__':
        def lt(self, other):
            return self <= other and not self == other
        def gt(self, other):
            return not self <= other
        def ge(self, other):
            return not self <= other or self == other
        found = {'__lt__': lt, '__gt__': gt, '__ge__': ge}
    elif root == '__gt__':
        def lt(self, other):
            return not (self > other or self == other)
        def ge(self, other):
            return self > other or self == other
        def le(self, other):
            return not self > other
        found = {'__lt__': lt, '__ge__': ge, '__le__': le}
    else:
        def le(self, other):
            return not self >= other or self == other
        def gt(self, other):
            return self >= other and not self == other
        def lt(self, other):
            return not self >= other
        found = {'__le__': le, '__gt__': gt, '__lt__': lt}
    for name, fn in found.items():
        if name not in defined:
            setattr(cls, name, fn)
    return cls


def cached_property(func):
    name = func.__name__

    def getter(self):
        d = self.__dict__
        if name in d:
            return d[name]
        value = func(self)
        d[name] = value
        return value

    def setter(self, value):
        self.__dict__[name] = value

    return property(getter, setter)
