# torch/python/serialization.py: torch.save and torch.load for lesson code, kept in the session's
# memory: torch.save(obj, 'model.pth') keeps a deep copy of obj under that name, and a later
# torch.load('model.pth') in the same run gives a deep copy back, so a tutorial that saves its best
# model and loads it again runs unchanged and prints what PyTorch prints (tensors, Parameters,
# state_dicts, nn.Modules, containers: whatever copy.deepcopy copies).
# What it is not: a file. Lesson code runs without file access (docs/instructors.md, "Untrusted lesson and answer files"):
# nothing is written or read, the name is only a key (the first save says so on stderr, once), and
# loading a name this run has not saved is PyTorch's FileNotFoundError, saying why. map_location and the
# pickle arguments are accepted and change nothing (everything is on the CPU already).
import copy
from _attn_stdlib import write_stderr as _write_stderr

_saved = {}
_told = []


def _key(f, what):
    if isinstance(f, str):
        return f
    raise TypeError("attn's torch." + what + " takes a file name (str): lesson code has no file objects, got " +
                    type(f).__name__)


def save(obj, f, pickle_module=None, pickle_protocol=2, _use_new_zipfile_serialization=True):
    key = _key(f, 'save')
    _saved[key] = copy.deepcopy(obj)
    if not _told:
        _told.append(True)
        _write_stderr("attn: torch.save keeps " + repr(key) + " in memory for torch.load in this run; "
                     "lesson code writes no files\n")


def load(f, map_location=None, pickle_module=None, *, weights_only=False, **pickle_load_args):
    key = _key(f, 'load')
    if key not in _saved:
        raise FileNotFoundError("[Errno 2] No such file or directory: " + repr(key) + " (attn's torch.load reads only what "
                                "torch.save kept in this run: lesson code has no file access)")
    return copy.deepcopy(_saved[key])
