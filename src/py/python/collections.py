# src/py/python/collections.py: Python's collections for lesson code, in attn's Python:
# OrderedDict (native, from _attn_collections), defaultdict, Counter, namedtuple, deque.
# Written after CPython 3.11's Lib/collections/__init__.py, simplified.
# What it is not: ChainMap, UserDict/UserList/UserString, abc. defaultdict and Counter are mappings
# over a dict, not dict subclasses: isinstance(c, dict) is False. A namedtuple is a tuple
# subclass, its fields read through __getattr__.
from _attn_collections import OrderedDict
from _attn_stdlib import make_class as _make_class
from _attn_stdlib import read_only as _read_only


class _Mapping:
    def __init__(self):
        self._data = {}

    def __missing__(self, key):
        raise KeyError(key)

    def __getitem__(self, key):
        if key in self._data:
            return self._data[key]
        return self.__missing__(key)

    def __setitem__(self, key, value):
        self._data[key] = value

    def __delitem__(self, key):
        del self._data[key]

    def __contains__(self, key):
        return key in self._data

    def __len__(self):
        return len(self._data)

    def __iter__(self):
        return iter(self._data)

    def keys(self):
        return self._data.keys()

    def values(self):
        return self._data.values()

    def items(self):
        return self._data.items()

    def get(self, key, default=None):
        return self._data.get(key, default)

    def pop(self, key, *default):
        return self._data.pop(key, *default)

    def setdefault(self, key, default=None):
        return self._data.setdefault(key, default)

    def clear(self):
        self._data.clear()

    def __eq__(self, other):
        if isinstance(other, _Mapping):
            return self._data == other._data
        return self._data == other

    def __reversed__(self):
        return reversed(self._data)

    # a dict's order comparisons: NotImplemented (Counter has its own)
    def __lt__(self, other):
        return NotImplemented

    def __le__(self, other):
        return NotImplemented

    def __gt__(self, other):
        return NotImplemented

    def __ge__(self, other):
        return NotImplemented


class defaultdict(_Mapping):
    def __init__(self, default_factory=None, *args, **kwargs):
        if default_factory is not None and not callable(default_factory):
            raise TypeError("first argument must be callable or None")
        _Mapping.__init__(self)
        self.default_factory = default_factory
        self.update(*args, **kwargs)

    @classmethod
    def fromkeys(cls, iterable, value=None):
        d = cls()
        for key in iterable:
            d[key] = value
        return d

    def __missing__(self, key):
        if self.default_factory is None:
            raise KeyError(key)
        if _read_only():
            raise ValueError("a placeholder cannot read a missing key of a defaultdict: it would insert it")
        value = self.default_factory()
        self._data[key] = value
        return value

    def update(self, *args, **kwargs):
        for other in args:
            if isinstance(other, _Mapping):
                other = other._data
            self._data.update(other)
        self._data.update(kwargs)

    def copy(self):
        return defaultdict(self.default_factory, self._data)

    def __repr__(self):
        return f"{type(self).__name__}({self.default_factory!r}, {self._data!r})"

    def __or__(self, other):
        if not isinstance(other, (dict, _Mapping)):
            return NotImplemented
        new = self.copy()
        new.update(other)
        return new

    def __ror__(self, other):
        if not isinstance(other, (dict, _Mapping)):
            return NotImplemented
        new = type(self)(self.default_factory, other)
        new.update(self)
        return new

    def __ior__(self, other):   # dict.__ior__: what update takes
        self.update(other)
        return self


class Counter(_Mapping):
    def __init__(self, iterable=None, **kwds):
        _Mapping.__init__(self)
        self.update(iterable, **kwds)

    @classmethod
    def fromkeys(cls, iterable, v=None):
        raise NotImplementedError('Counter.fromkeys() is undefined.  Use Counter(iterable) instead.')

    def __missing__(self, key):
        return 0

    def total(self):
        return sum(self._data.values())

    def most_common(self, n=None):
        ranked = sorted(self._data.items(), key=lambda kv: kv[1], reverse=True)
        if n is None:
            return ranked
        return ranked[:max(n, 0)]

    def elements(self):
        out = []
        for elem, count in self._data.items():
            for _ in range(count):
                out.append(elem)
        return iter(out)

    def update(self, iterable=None, **kwds):
        if iterable is not None:
            if isinstance(iterable, _Mapping) or isinstance(iterable, dict):
                for elem, count in iterable.items():
                    self._data[elem] = count + self._data.get(elem, 0)
            else:
                for elem in iterable:
                    self._data[elem] = self._data.get(elem, 0) + 1
        if kwds:
            self.update(kwds)

    def subtract(self, iterable=None, **kwds):
        if iterable is not None:
            if isinstance(iterable, _Mapping) or isinstance(iterable, dict):
                for elem, count in iterable.items():
                    self._data[elem] = self._data.get(elem, 0) - count
            else:
                for elem in iterable:
                    self._data[elem] = self._data.get(elem, 0) - 1
        if kwds:
            self.subtract(kwds)

    def copy(self):
        return type(self)(self)

    def __delitem__(self, elem):
        if elem in self._data:
            del self._data[elem]

    def __eq__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        for c in (self, other):
            for e in c:
                if self[e] != other[e]:
                    return False
        return True

    def __ne__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        return not self == other

    def __repr__(self):
        if not self._data:
            return f'{type(self).__name__}()'
        try:
            d = dict(self.most_common())
        except TypeError:
            d = dict(self._data)
        return f'{type(self).__name__}({d!r})'

    def __add__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        result = Counter()
        for elem, count in self.items():
            newcount = count + other[elem]
            if newcount > 0:
                result[elem] = newcount
        for elem, count in other.items():
            if elem not in self and count > 0:
                result[elem] = count
        return result

    def __sub__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        result = Counter()
        for elem, count in self.items():
            newcount = count - other[elem]
            if newcount > 0:
                result[elem] = newcount
        for elem, count in other.items():
            if elem not in self and count < 0:
                result[elem] = 0 - count
        return result

    def __or__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        result = Counter()
        for elem, count in self.items():
            other_count = other[elem]
            newcount = other_count if count < other_count else count
            if newcount > 0:
                result[elem] = newcount
        for elem, count in other.items():
            if elem not in self and count > 0:
                result[elem] = count
        return result

    def __and__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        result = Counter()
        for elem, count in self.items():
            other_count = other[elem]
            newcount = count if count < other_count else other_count
            if newcount > 0:
                result[elem] = newcount
        return result

    # multiset inclusion (Python 3.10+): every count of one at most the other's
    def __le__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        return all(self[e] <= other[e] for c in (self, other) for e in c)

    def __lt__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        return self <= other and self != other

    def __ge__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        return all(self[e] >= other[e] for c in (self, other) for e in c)

    def __gt__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        return self >= other and self != other

    def _keep_positive(self):
        for elem in [e for e, count in self._data.items() if not count > 0]:
            del self._data[elem]
        return self

    def __iadd__(self, other):
        for elem, count in other.items():
            self[elem] += count
        return self._keep_positive()

    def __isub__(self, other):
        for elem, count in other.items():
            self[elem] -= count
        return self._keep_positive()

    def __ior__(self, other):
        for elem, other_count in other.items():
            count = self[elem]
            if other_count > count:
                self[elem] = other_count
        return self._keep_positive()

    def __iand__(self, other):
        for elem, count in self.items():
            other_count = other[elem]
            if other_count < count:
                self[elem] = other_count
        return self._keep_positive()

    def __pos__(self):
        result = Counter()
        for elem, count in self.items():
            if count > 0:
                result[elem] = count
        return result

    def __neg__(self):
        result = Counter()
        for elem, count in self.items():
            if count < 0:
                result[elem] = 0 - count
        return result


class _NamedTuple(tuple):
    def __new__(cls, *args, **kwargs):
        fields = cls._fields
        defaults = cls._field_defaults
        name = cls.__name__ + ".__new__()"
        if len(args) > len(fields):
            n = len(fields) + 1
            if defaults:
                shown = f"from {n - len(defaults)} to {n}"
            else:
                shown = str(n)
            raise TypeError(f"{name} takes {shown} positional argument{'s' if n != 1 else ''} but {len(args) + 1} were given")
        values = {}
        for k in range(len(args)):
            values[fields[k]] = args[k]
        for key, value in kwargs.items():
            if key not in fields:
                raise TypeError(f"{name} got an unexpected keyword argument '{key}'")
            if key in values:
                raise TypeError(f"{name} got multiple values for argument '{key}'")
            values[key] = value
        missing = [f for f in fields if f not in values and f not in defaults]
        if missing:
            quoted = [repr(f) for f in missing]
            if len(quoted) == 1:
                names = quoted[0]
            elif len(quoted) == 2:
                names = quoted[0] + " and " + quoted[1]
            else:
                names = ", ".join(quoted[:-1]) + ", and " + quoted[-1]
            raise TypeError(f"{name} missing {len(missing)} required positional argument{'s' if len(missing) > 1 else ''}: {names}")
        return tuple.__new__(cls, [values[f] if f in values else defaults[f] for f in fields])

    def __getattr__(self, name):
        fields = type(self)._fields
        if name in fields:
            return self[fields.index(name)]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        if name in type(self)._fields:
            raise AttributeError("can't set attribute")
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __repr__(self):
        parts = [f"{f}={v!r}" for f, v in zip(type(self)._fields, self)]
        return f"{type(self).__name__}({', '.join(parts)})"

    def _asdict(self):
        return dict(zip(type(self)._fields, self))

    def _replace(self, **kwds):
        values = dict(zip(type(self)._fields, self))
        for key, value in kwds.items():
            if key not in values:
                raise ValueError(f'Got unexpected field names: {list(kwds)!r}')
            values[key] = value
        return type(self)(**values)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        from copy import deepcopy
        return type(self)(*[deepcopy(v, memo) for v in self])


_keywords = {'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue',
             'def', 'del', 'elif', 'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in',
             'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'try', 'while', 'with', 'yield'}


def _isidentifier(name):
    if not name or name[0].isdigit():
        return False
    for ch in name:
        if not (ch.isalpha() or ch.isdigit() or ch == '_'):
            return False
    return True


def _make(cls, iterable):
    values = tuple(iterable)
    if len(values) != len(cls._fields):
        raise TypeError(f'Expected {len(cls._fields)} arguments, got {len(values)}')
    return cls(*values)


def namedtuple(typename, field_names, *, rename=False, defaults=None, module=None):
    if isinstance(field_names, str):
        field_names = field_names.replace(',', ' ').split()
    field_names = [str(f) for f in field_names]
    typename = str(typename)
    if rename:
        seen = set()
        for index in range(len(field_names)):
            name = field_names[index]
            if (not _isidentifier(name) or name in _keywords or name.startswith('_') or name in seen):
                field_names[index] = f'_{index}'
            seen.add(field_names[index])
    for name in [typename] + field_names:
        if type(name) is not str:
            raise TypeError('Type names and field names must be strings')
        if not _isidentifier(name):
            raise ValueError(f'Type names and field names must be valid identifiers: {name!r}')
        if name in _keywords:
            raise ValueError(f'Type names and field names cannot be a keyword: {name!r}')
    seen = set()
    for name in field_names:
        if name.startswith('_') and not rename:
            raise ValueError(f'Field names cannot start with an underscore: {name!r}')
        if name in seen:
            raise ValueError(f'Encountered duplicate field name: {name!r}')
        seen.add(name)
    field_defaults = {}
    if defaults is not None:
        defaults = tuple(defaults)
        if len(defaults) > len(field_names):
            raise TypeError('Got more default values than field names')
        field_defaults = dict(zip(field_names[len(field_names) - len(defaults):], defaults))
    cls = _make_class(typename, (_NamedTuple,), '__main__' if module is None else module)
    cls._fields = tuple(field_names)
    cls._field_defaults = field_defaults
    cls._make = classmethod(_make)
    return cls


def _as_index(k):
    """An int, or what an object's __index__ gives (deque indexes and rotate counts), as CPython."""
    if isinstance(k, int):
        return k
    index = getattr(type(k), "__index__", None)
    if index is None:
        raise TypeError(f"sequence index must be integer, not '{type(k).__name__}'")
    return index(k)


class deque:
    def __init__(self, iterable=(), maxlen=None):
        if maxlen is not None:
            if not isinstance(maxlen, int):
                raise TypeError("an integer is required")
            if maxlen < 0:
                raise ValueError("maxlen must be non-negative")
        object.__setattr__(self, '_items', [])
        object.__setattr__(self, '_maxlen', maxlen)
        object.__setattr__(self, '_state', 0)   # counts changes, as CPython's deque->state: iterators check it
        self.extend(iterable)

    @property
    def maxlen(self):
        return self._maxlen

    def _changed(self):
        object.__setattr__(self, '_state', self._state + 1)

    def append(self, x):
        self._changed()
        self._items.append(x)
        if self._maxlen is not None and len(self._items) > self._maxlen:
            self._items.pop(0)

    def appendleft(self, x):
        self._changed()
        self._items.insert(0, x)
        if self._maxlen is not None and len(self._items) > self._maxlen:
            self._items.pop()

    def extend(self, iterable):
        if iterable is self:
            iterable = list(iterable)
        for x in iterable:
            self.append(x)

    def extendleft(self, iterable):
        if iterable is self:
            iterable = list(iterable)
        for x in iterable:
            self.appendleft(x)

    def pop(self):
        if not self._items:
            raise IndexError("pop from an empty deque")
        self._changed()
        return self._items.pop()

    def popleft(self):
        if not self._items:
            raise IndexError("pop from an empty deque")
        self._changed()
        return self._items.pop(0)

    def rotate(self, n=1):
        n = _as_index(n)
        self._changed()
        size = len(self._items)
        if size > 1:
            n = n % size
            if n:
                object.__setattr__(self, '_items', self._items[size - n:] + self._items[:size - n])

    def clear(self):
        self._changed()
        self._items.clear()

    def copy(self):
        return deque(self._items, self._maxlen)

    def _scan(self, x, start=0, stop=None):
        """The first position from start whose item is or == x, else -1; CPython's RuntimeError
        when an __eq__ changed the deque meanwhile."""
        state, items = self._state, self._items
        stop = len(items) if stop is None else min(stop, len(items))
        k = start
        while k < stop:
            item = items[k]
            found = item is x or item == x
            if self._state != state:
                raise RuntimeError("deque mutated during iteration")
            if found:
                return k
            k += 1
        return -1

    def count(self, x):
        n, k = 0, self._scan(x)
        while k >= 0:
            n += 1
            k = self._scan(x, k + 1)
        return n

    def index(self, x, start=0, stop=None):
        size = len(self._items)
        start = max(start + size, 0) if start < 0 else start
        stop = size if stop is None else (max(stop + size, 0) if stop < 0 else stop)
        k = self._scan(x, start, stop)
        if k < 0:
            raise ValueError(f"{x!r} is not in deque")
        return k

    def insert(self, i, x):
        if self._maxlen is not None and len(self._items) >= self._maxlen:
            raise IndexError("deque already at its maximum size")
        self._changed()
        self._items.insert(i, x)

    def remove(self, value):
        state = self._state
        try:
            k = self._scan(value)
        except RuntimeError:
            raise IndexError("deque mutated during iteration") from None
        if k < 0 or self._state != state:
            raise ValueError(f"{value!r} is not in deque")
        self._changed()
        del self._items[k]

    def reverse(self):
        self._items.reverse()

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        return _deque_iterator(self, False)

    def __reversed__(self):
        return _deque_iterator(self, True)

    def __contains__(self, x):
        return self._scan(x) >= 0

    def __getitem__(self, k):
        k = _as_index(k)
        try:
            return self._items[k]
        except IndexError:
            raise IndexError("deque index out of range") from None

    def __setitem__(self, k, v):
        try:
            self._items[k] = v
        except IndexError:
            raise IndexError("deque index out of range") from None

    def __delitem__(self, k):
        self._changed()
        del self._items[k]

    def __eq__(self, other):
        if not isinstance(other, deque):
            return NotImplemented
        if len(self._items) != len(other._items):
            return False
        states = (self._state, other._state)
        for a, b in zip(list(self._items), list(other._items)):
            same = a is b or a == b
            if (self._state, other._state) != states:
                raise RuntimeError("deque mutated during iteration")
            if not same:
                return False
        return True

    def __add__(self, other):
        if not isinstance(other, deque):
            raise TypeError(f'can only concatenate deque (not "{type(other).__name__}") to deque')
        return deque(self._items + other._items, self._maxlen)

    def __iadd__(self, other):
        self.extend(other)
        return self

    def __mul__(self, n):
        return deque(self._items * n, self._maxlen)

    def __rmul__(self, n):
        return deque(self._items * n, self._maxlen)

    def __imul__(self, n):
        if n <= 0:
            self.clear()
        else:
            self.extend(list(self._items) * (n - 1))
        return self

    def _order(self, other, op):
        if not isinstance(other, deque):
            return NotImplemented
        return op(list(self._items), list(other._items))

    def __lt__(self, other):
        return self._order(other, lambda a, b: a < b)

    def __le__(self, other):
        return self._order(other, lambda a, b: a <= b)

    def __gt__(self, other):
        return self._order(other, lambda a, b: a > b)

    def __ge__(self, other):
        return self._order(other, lambda a, b: a >= b)

    def __repr__(self):
        if self._maxlen is None:
            return f"deque({self._items!r})"
        return f"deque({self._items!r}, maxlen={self._maxlen})"


class _deque_iterator:
    """iter(d) and reversed(d): position by position in the deque as it is now, and CPython's
    RuntimeError once the deque was changed other than by d[i] = x (its _state moved on)."""

    def __init__(self, d, backwards):
        self._deque = d
        self._state = d._state
        self._left = len(d._items)
        self._backwards = backwards

    def __iter__(self):
        return self

    def __next__(self):
        d = self._deque
        if d._state != self._state:
            self._left = 0
            raise RuntimeError("deque mutated during iteration")
        if self._left == 0:
            raise StopIteration
        items = d._items
        k = len(items) - self._left
        self._left -= 1
        return items[len(items) - 1 - k] if self._backwards else items[k]
