# tests/python/mypkg/sub/deep.py: two levels down; `from ... import x` would leave the top package.
from ..util import double

DEPTH = double(5)


def too_far():
    from ... import anything
