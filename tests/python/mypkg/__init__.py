# tests/python/mypkg/__init__.py: a package beside the lesson for the import cases (imports.cases):
# its __init__ runs once and imports from its own modules relatively.
print("mypkg runs once, as", __name__)
from .util import double
from . import layers

VERSION = "0.1"
