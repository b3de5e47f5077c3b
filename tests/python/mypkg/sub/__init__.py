# tests/python/mypkg/sub/__init__.py: a package inside the package; `..` is mypkg.
from .. import util
from ..util import double as twice
