# Classes and the dunder protocol: construction, reprs, operators and their reflected forms,
# comparisons, hashing, containers, calls, attributes, properties, inheritance and super().
class V:
    count = 0
    def __init__(self, x, y=0):
        self.x, self.y = x, y
        V.count += 1
    def __repr__(self): return 'V(%r, %r)' % (self.x, self.y)
    def __str__(self): return '<%s,%s>' % (self.x, self.y)
    def __format__(self, spec): return 'V' + format(self.x, spec)
    def __add__(self, o): return V(self.x + o.x, self.y + o.y) if isinstance(o, V) else NotImplemented
    def __radd__(self, o): return V(self.x + o, self.y) if o != 0 else self
    def __sub__(self, o): return V(self.x - o.x, self.y - o.y)
    def __mul__(self, k): return V(self.x * k, self.y * k)
    def __rmul__(self, k): return self * k
    def __truediv__(self, k): return V(self.x / k, self.y / k)
    def __floordiv__(self, k): return V(self.x // k, self.y // k)
    def __mod__(self, k): return V(self.x % k, self.y % k)
    def __pow__(self, k): return V(self.x ** k, self.y ** k)
    def __matmul__(self, o): return self.x * o.x + self.y * o.y
    def __neg__(self): return V(-self.x, -self.y)
    def __pos__(self): return self
    def __abs__(self): return (self.x ** 2 + self.y ** 2) ** 0.5
    def __invert__(self): return V(self.y, self.x)
    def __and__(self, o): return 'and'
    def __or__(self, o): return 'or'
    def __xor__(self, o): return 'xor'
    def __lshift__(self, o): return 'lshift'
    def __rshift__(self, o): return 'rshift'
    def __eq__(self, o): return isinstance(o, V) and (self.x, self.y) == (o.x, o.y)
    def __lt__(self, o): return (self.x, self.y) < (o.x, o.y)
    def __le__(self, o): return (self.x, self.y) <= (o.x, o.y)
    def __hash__(self): return hash((self.x, self.y))
    def __bool__(self): return bool(self.x or self.y)
    def __len__(self): return 2
    def __getitem__(self, k): return (self.x, self.y)[k]
    def __contains__(self, v): return v in (self.x, self.y)
    def __iter__(self): return iter((self.x, self.y))
    def __call__(self, *a, **k): return 'called', a, sorted(k)
    def __int__(self): return int(self.x)
    def __float__(self): return float(self.x)
    def __index__(self): return int(self.x)

a, b = V(1, 2), V(3, 4)
print(a, repr(a), str(b), [a], {'k': a}, (a,), f'{a}', f'{a!r}', f'{a:>5}', format(b, '03d'))
print(a + b, a - b, a * 3, 3 * a, b / 2, b // 2, b % 2, a ** 2, a @ b, -a, +a, abs(b), ~a)
print(a & b, a | b, a ^ b, a << b, a >> b, sum([a, b]), sum([a, b], V(0)))
print(a == V(1, 2), a != b, a < b, a <= b, a > b, b >= a, sorted([b, a]), max(a, b), min([b, a]))
print(hash(a) == hash(V(1, 2)), len({a, V(1, 2), b}), bool(V(0)), bool(a), len(a), a[1], a[-1], 2 in a, 5 in a)
print(list(a), tuple(b), a(1, k=2), int(V(7.9)), float(a), [10, 20, 30][V(1)], hex(V(255)))
try:
    a + 1
except TypeError as e:
    print('TypeError', e)
c = a
c += b
print(c, a, c is a, V.count)

class Acc:
    def __init__(self): self.items = []
    def __iadd__(self, x):
        self.items.append(x)
        return self
    def __setitem__(self, k, v): self.items.insert(k, v)
    def __delitem__(self, k): del self.items[k]
    def __getattr__(self, name): return 'no ' + name
acc = Acc(); alias = acc
acc += 1; acc += 2; acc[0] = 'first'; del acc[1]
print(alias.items, acc is alias, acc.missing, getattr(acc, 'other'), hasattr(acc, 'items'))

class Temp:
    def __init__(self): self._c = 0
    @property
    def c(self): return self._c
    @c.setter
    def c(self, v):
        if v < -273: raise ValueError('too cold')
        self._c = v
    @staticmethod
    def unit(): return 'C'
    @classmethod
    def make(cls, v):
        t = cls(); t.c = v
        return t
t = Temp.make(25)
print(t.c, Temp.unit(), t.unit(), type(t).__name__, isinstance(t, Temp), isinstance(3, (str, int)), issubclass(bool, int))
try:
    t.c = -300
except ValueError as e:
    print('ValueError', e)

class Base:
    def __init__(self, n): self.n = n
    def who(self): return 'Base%d' % self.n
    def __repr__(self): return '%s(%d)' % (type(self).__name__, self.n)
class Left(Base):
    def who(self): return 'Left>' + super().who()
class Right(Base):
    def who(self): return 'Right>' + super().who()
class Both(Left, Right):
    def __init__(self): super().__init__(9)
    def who(self): return 'Both>' + super().who()
print(Both().who(), [k.__name__ for k in Both.__mro__], Both(), isinstance(Both(), Right))
o = Base(1)
o.extra = 5
setattr(o, 'more', 6)
print(o.extra, getattr(o, 'more'), getattr(o, 'none', 'dflt'), vars(o))
delattr(o, 'more'); del o.extra
print(vars(o), hasattr(o, 'extra'))
try:
    o.absent
except AttributeError as e:
    print('AttributeError', e)
class NoEq:
    pass
n1 = NoEq()
print(n1 == n1, n1 == NoEq(), n1 != NoEq(), hash(n1) == hash(n1))
class EqOnly:
    def __eq__(self, o): return True
try:
    hash(EqOnly())
except TypeError as e:
    print('TypeError', e)
