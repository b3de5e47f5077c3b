# tests/python/mypkg/layers.py: imports a sibling with `from .util import ...`.
from .util import double


class Scale:
    def __init__(self, k):
        self.k = double(k)

    def __call__(self, x):
        return self.k * x

    def __repr__(self):
        return "Scale(%d)" % self.k
