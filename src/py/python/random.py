# src/py/python/random.py: Python's random module for lesson code, in attn's Python, over the
# Mersenne Twister of _random (module_random.cpp): the same numbers as CPython 3.11 for the same
# seed. Written after CPython 3.11's Lib/random.py (the methods are its algorithms, step for step:
# _randbelow by getrandbits, sample's two strategies, choices by bisect, gauss's pairs).
# What it is not: SystemRandom, the distributions beyond uniform/gauss/normalvariate/
# expovariate/triangular/betavariate-free set below.
import _attn_random as _random
from math import log as _log, exp as _exp, pi as _pi, sqrt as _sqrt, cos as _cos, sin as _sin
from math import floor as _floor, isfinite as _isfinite, ceil as _ceil

NV_MAGICCONST = 4 * _exp(-0.5) / _sqrt(2.0)
TWOPI = 2.0 * _pi
BPF = 53
RECIP_BPF = 2 ** -BPF


def _bisect_right(a, x, lo, hi):
    while lo < hi:
        mid = (lo + hi) // 2
        if x < a[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


def _int_arg(value, which):
    if isinstance(value, int):
        return int(value)
    if hasattr(value, '__index__'):
        return value.__index__()
    if isinstance(value, float) and value == int(value):
        return int(value)
    if isinstance(value, float):
        raise ValueError(f"non-integer {which} for randrange()")
    raise TypeError(f"'{type(value).__name__}' object cannot be interpreted as an integer")


class Random:
    VERSION = 3

    def __init__(self, x=None):
        self._mt = _random.MT()
        self.seed(x)
        self.gauss_next = None

    def seed(self, a=None, version=2):
        if version == 1 and isinstance(a, (str, bytes)):   # the narrower seeds of Python 2's str hash
            codes = list(a) if isinstance(a, bytes) else [ord(c) for c in a]
            x = codes[0] << 7 if codes else 0
            for c in codes:
                x = ((1000003 * x) ^ c) & 0xFFFFFFFFFFFFFFFF
            x ^= len(codes)
            a = -2 if x == -1 else x
        elif version == 2 and isinstance(a, (str, bytes, bytearray)):
            a = _random.str_seed(a)   # int.from_bytes(a + sha512(a).digest())
        elif not isinstance(a, (type(None), int, float, str, bytes, bytearray)):
            raise TypeError('The only supported seed types are: None,\nint, float, str, bytes, and bytearray.')
        if a is not None and not isinstance(a, int):
            a = hash(a) % 2 ** 64   # random_seed: (size_t) PyObject_Hash(a)
        self._mt.seed(a)
        self.gauss_next = None

    def random(self):
        return self._mt.random()

    def getrandbits(self, k):
        return self._mt.getrandbits(k)

    def getstate(self):
        return (self.VERSION, self._mt.getstate(), self.gauss_next)

    def setstate(self, state):
        version = state[0]
        if version != 3:
            raise ValueError(f"state with version {version} passed to Random.setstate() of version {self.VERSION}")
        self._mt.setstate(state[1])
        self.gauss_next = state[2]

    def _randbelow(self, n):
        getrandbits = self._mt.getrandbits
        k = _random.bit_length(n)
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r

    def randrange(self, start, stop=None, step=1):
        istart = _int_arg(start, 'arg 1')
        if stop is None:
            if step != 1:
                raise TypeError("Missing a non-None stop argument")
            if istart > 0:
                return self._randbelow(istart)
            raise ValueError("empty range for randrange()")
        istop = _int_arg(stop, 'stop')
        width = istop - istart
        istep = _int_arg(step, 'step')
        if istep == 1:
            if width > 0:
                return istart + self._randbelow(width)
            raise ValueError(f"empty range for randrange() ({istart}, {istop}, {width})")
        if istep > 0:
            n = (width + istep - 1) // istep
        elif istep < 0:
            n = (width + istep + 1) // istep
        else:
            raise ValueError("zero step for randrange()")
        if n <= 0:
            raise ValueError("empty range for randrange()")
        return istart + istep * self._randbelow(n)

    def randint(self, a, b):
        return self.randrange(a, b + 1)

    def choice(self, seq):
        if not len(seq):
            raise IndexError('Cannot choose from an empty sequence')
        return seq[self._randbelow(len(seq))]

    def shuffle(self, x):
        randbelow = self._randbelow
        for i in reversed(range(1, len(x))):
            j = randbelow(i + 1)
            x[i], x[j] = x[j], x[i]

    def sample(self, population, k, *, counts=None):
        if isinstance(population, (set, dict)) or not hasattr(population, '__getitem__') and not isinstance(population, (list, tuple, str, range)):
            raise TypeError("Population must be a sequence.  For dicts or sets, use sorted(d).")
        n = len(population)
        if counts is not None:
            cum_counts = []
            total = 0
            for c in counts:
                total += c
                cum_counts.append(total)
            if len(cum_counts) != n:
                raise ValueError('The number of counts does not match the population')
            if not isinstance(total, int):
                raise TypeError('Counts must be integers')
            if total <= 0:
                raise ValueError('Total of counts must be greater than zero')
            selections = self.sample(range(total), k=k)
            return [population[_bisect_right(cum_counts, s, 0, n - 1)] for s in selections]
        randbelow = self._randbelow
        if not 0 <= k <= n:
            raise ValueError("Sample larger than population or is negative")
        result = [None] * k
        setsize = 21
        if k > 5:
            setsize += 4 ** _ceil(_log(k * 3, 4))
        if n <= setsize:
            pool = list(population)
            for i in range(k):
                j = randbelow(n - i)
                result[i] = pool[j]
                pool[j] = pool[n - i - 1]
        else:
            selected = set()
            for i in range(k):
                j = randbelow(n)
                while j in selected:
                    j = randbelow(n)
                selected.add(j)
                result[i] = population[j]
        return result

    def choices(self, population, weights=None, *, cum_weights=None, k=1):
        random = self.random
        n = len(population)
        if cum_weights is None:
            if weights is None:
                n += 0.0
                return [population[_floor(random() * n)] for i in range(k)]
            cum_weights = []
            total = 0
            for w in weights:
                total = total + w
                cum_weights.append(total)
        elif weights is not None:
            raise TypeError('Cannot specify both weights and cumulative weights')
        if len(cum_weights) != n:
            raise ValueError('The number of weights does not match the population')
        total = cum_weights[-1] + 0.0
        if total <= 0.0:
            raise ValueError('Total of weights must be greater than zero')
        if not _isfinite(total):
            raise ValueError('Total of weights must be finite')
        hi = n - 1
        return [population[_bisect_right(cum_weights, random() * total, 0, hi)] for i in range(k)]

    def uniform(self, a, b):
        return a + (b - a) * self.random()

    def triangular(self, low=0.0, high=1.0, mode=None):
        u = self.random()
        try:
            c = 0.5 if mode is None else (mode - low) / (high - low)
        except ZeroDivisionError:
            return low
        if u > c:
            u = 1.0 - u
            c = 1.0 - c
            low, high = high, low
        return low + (high - low) * _sqrt(u * c)

    def normalvariate(self, mu=0.0, sigma=1.0):
        random = self.random
        while True:
            u1 = random()
            u2 = 1.0 - random()
            z = NV_MAGICCONST * (u1 - 0.5) / u2
            zz = z * z / 4.0
            if zz <= -_log(u2):
                break
        return mu + z * sigma

    def gauss(self, mu=0.0, sigma=1.0):
        random = self.random
        z = self.gauss_next
        self.gauss_next = None
        if z is None:
            x2pi = random() * TWOPI
            g2rad = _sqrt(-2.0 * _log(1.0 - random()))
            z = _cos(x2pi) * g2rad
            self.gauss_next = _sin(x2pi) * g2rad
        return mu + z * sigma

    def lognormvariate(self, mu, sigma):
        return _exp(self.normalvariate(mu, sigma))

    def expovariate(self, lambd):
        return -_log(1.0 - self.random()) / lambd


_inst = Random()
seed = _inst.seed
random = _inst.random
uniform = _inst.uniform
triangular = _inst.triangular
randint = _inst.randint
choice = _inst.choice
randrange = _inst.randrange
sample = _inst.sample
shuffle = _inst.shuffle
choices = _inst.choices
normalvariate = _inst.normalvariate
lognormvariate = _inst.lognormvariate
expovariate = _inst.expovariate
gauss = _inst.gauss
getstate = _inst.getstate
setstate = _inst.setstate
getrandbits = _inst.getrandbits
