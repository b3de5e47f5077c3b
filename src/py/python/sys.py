# src/py/python/sys.py: the sys module for lesson code, in attn's Python: what tutorials read
# (version, version_info, platform, maxsize, byteorder, argv, path), sys.stdout/sys.stderr with
# write() and flush(), exit() (SystemExit), and the recursion limit's getter and setter.
# What it is not: the interpreter's internals. sys.modules, sys.path and sys.argv are plain lists
# and dicts nothing reads (imports follow attn's rules, not sys.path); setrecursionlimit checks its
# argument as CPython does but attn's own nesting limit stays what stops deep recursion.
from collections import namedtuple
from _attn_stdlib import write_stderr as _write_stderr, exit

version_info = namedtuple('version_info', ['major', 'minor', 'micro', 'releaselevel', 'serial'])(3, 11, 2, 'final', 0)
version = '3.11.2 (attn)'
hexversion = 0x30b02f0
platform = 'linux'
byteorder = 'little'
maxsize = 9223372036854775807
argv = ['']
path = []
modules = {}
executable = ''
_limit = [1000]


class _Stream:
    def __init__(self, name, write):
        self.name = name
        self._write = write

    def write(self, s):
        if not isinstance(s, str):
            raise TypeError("write() argument must be str, not " + type(s).__name__)
        self._write(s)
        return len(s)

    def flush(self):
        pass

    def isatty(self):
        return False

    def __repr__(self):
        return "<_io.TextIOWrapper name='" + self.name + "' mode='w' encoding='utf-8'>"


def _print_text(s):
    print(s, end='')


stdout = _Stream('<stdout>', _print_text)
stderr = _Stream('<stderr>', _write_stderr)
__stdout__ = stdout
__stderr__ = stderr


def getrecursionlimit():
    return _limit[0]


def setrecursionlimit(limit):
    if not isinstance(limit, int):
        raise TypeError("'" + type(limit).__name__ + "' object cannot be interpreted as an integer")
    if limit < 1:
        raise ValueError("recursion limit must be greater or equal than 1")
    _limit[0] = limit
