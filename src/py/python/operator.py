# src/py/python/operator.py: Python's operator module for lesson code, in attn's Python: the
# operators as functions (add, mul, getitem, ...) and itemgetter, attrgetter, methodcaller with
# CPython 3.11's reprs. Written after CPython 3.11's Lib/operator.py.
# What it is not: the in-place forms beyond iadd/isub/imul/itruediv, length_hint, call.


def lt(a, b):
    return a < b


def le(a, b):
    return a <= b


def eq(a, b):
    return a == b


def ne(a, b):
    return a != b


def ge(a, b):
    return a >= b


def gt(a, b):
    return a > b


def not_(a):
    return not a


def truth(a):
    return True if a else False


def is_(a, b):
    return a is b


def is_not(a, b):
    return a is not b


_abs = abs


def abs(a):
    return _abs(a)


def add(a, b):
    return a + b


def and_(a, b):
    return a & b


def floordiv(a, b):
    return a // b


def index(a):
    if isinstance(a, int):
        return int(a)
    if not hasattr(a, '__index__'):
        raise TypeError(f"'{type(a).__name__}' object cannot be interpreted as an integer")
    return a.__index__()


def inv(a):
    return ~a


invert = inv


def lshift(a, b):
    return a << b


def mod(a, b):
    return a % b


def mul(a, b):
    return a * b


def matmul(a, b):
    return a @ b


def neg(a):
    return -a


def or_(a, b):
    return a | b


def pos(a):
    return +a


def pow(a, b):
    return a ** b


def rshift(a, b):
    return a >> b


def sub(a, b):
    return a - b


def truediv(a, b):
    return a / b


def xor(a, b):
    return a ^ b


def concat(a, b):
    if not hasattr(a, '__getitem__') and not isinstance(a, (list, tuple, str)):
        raise TypeError(f"'{type(a).__name__}' object can't be concatenated")
    return a + b


def contains(a, b):
    return b in a


def countOf(a, b):
    return sum([1 for x in a if x is b or x == b])


def indexOf(a, b):
    k = 0
    for x in a:
        if x is b or x == b:
            return k
        k += 1
    raise ValueError('sequence.index(x): x not in sequence')


def getitem(a, b):
    return a[b]


def setitem(a, b, c):
    a[b] = c


def delitem(a, b):
    del a[b]


def iadd(a, b):
    a += b
    return a


def isub(a, b):
    a -= b
    return a


def imul(a, b):
    a *= b
    return a


def itruediv(a, b):
    a /= b
    return a


class attrgetter:
    def __init__(self, attr, *attrs):
        for a in (attr,) + attrs:
            if not isinstance(a, str):
                raise TypeError('attribute name must be a string')
        self._attrs = (attr,) + attrs

    def _get(self, obj, name):
        for part in name.split('.'):
            obj = getattr(obj, part)
        return obj

    def __call__(self, obj):
        if len(self._attrs) == 1:
            return self._get(obj, self._attrs[0])
        return tuple([self._get(obj, a) for a in self._attrs])

    def __repr__(self):
        return f"operator.attrgetter({', '.join([repr(a) for a in self._attrs])})"


class itemgetter:
    def __init__(self, item, *items):
        self._items = (item,) + items

    def __call__(self, obj):
        if len(self._items) == 1:
            return obj[self._items[0]]
        return tuple([obj[i] for i in self._items])

    def __repr__(self):
        return f"operator.itemgetter({', '.join([repr(i) for i in self._items])})"


class methodcaller:
    def __init__(self, name, *args, **kwargs):
        if not isinstance(name, str):
            raise TypeError('method name must be a string')
        self._name = name
        self._args = args
        self._kwargs = kwargs

    def __call__(self, obj):
        return getattr(obj, self._name)(*self._args, **self._kwargs)

    def __repr__(self):
        args = [repr(self._name)]
        args.extend([repr(a) for a in self._args])
        args.extend([f'{k}={v!r}' for k, v in self._kwargs.items()])
        return f"operator.methodcaller({', '.join(args)})"


__lt__ = lt
__le__ = le
__eq__ = eq
__ne__ = ne
__ge__ = ge
__gt__ = gt
__add__ = add
__sub__ = sub
__mul__ = mul
__truediv__ = truediv
__neg__ = neg
__getitem__ = getitem
