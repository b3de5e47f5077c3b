# src/py/python/tempfile.py: the tempfile module for lesson code, in attn's Python: gettempdir() and
# TemporaryDirectory as a name. A tutorial that saves its best model under a temporary folder
# (`with TemporaryDirectory() as d: torch.save(m.state_dict(), os.path.join(d, 'best.pt'))`) runs
# unchanged: torch.save keeps the object in memory under that name (torch's serialization.py).
# What it is not: a folder. Lesson code runs without file access, so TemporaryDirectory creates
# nothing (its name, /tmp/attn-tmpN, is only a name), and what would make a real file or folder
# (mkdtemp, mkstemp, NamedTemporaryFile, TemporaryFile) raises PermissionError naming itself.
from _attn_stdlib import refusal as _refusal

tempdir = None
_made = [0]


def gettempdir():
    return '/tmp'


class TemporaryDirectory:
    def __init__(self, suffix=None, prefix=None, dir=None, ignore_cleanup_errors=False):
        _made[0] += 1
        self.name = (dir or '/tmp') + '/' + (prefix or 'attn-tmp') + str(_made[0]) + (suffix or '')

    def __repr__(self):
        return "<TemporaryDirectory " + repr(self.name) + ">"

    def __enter__(self):
        return self.name

    def __exit__(self, *exc):
        self.cleanup()

    def cleanup(self):
        pass


def _no_files(name):
    return _refusal("tempfile." + name, "attn runs lesson code without file access: tempfile." + name + " is not available")


mkdtemp = _no_files('mkdtemp')
mkstemp = _no_files('mkstemp')
NamedTemporaryFile = _no_files('NamedTemporaryFile')
TemporaryFile = _no_files('TemporaryFile')
SpooledTemporaryFile = _no_files('SpooledTemporaryFile')
