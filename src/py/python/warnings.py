# src/py/python/warnings.py: Python's warnings for lesson code, in attn's Python: warn() writes
# "FILE:LINE: Category: message" and the source line on stderr, as CPython 3.11 does, where FILE
# and LINE are those of the frame stacklevel calls up (the lesson file for lesson code, which is
# __main__). Its filters decide as CPython's: the default action once per (message, category,
# line) of a module, 'module' once per module, 'once' once in all, 'always', 'ignore', 'error'
# (DeprecationWarning shown for __main__; PendingDeprecationWarning, ImportWarning and
# ResourceWarning ignored); filterwarnings, simplefilter, resetwarnings, catch_warnings
# (record=True collects them), formatwarning, warn_explicit. Written after Lib/warnings.py.
# What it is not: message and module patterns as regular expressions (a filter's message
# matches as a case-insensitive prefix, its module as a prefix), showwarning replaced by the
# lesson, the skipping of importlib's frames.
from _attn_stdlib import write_stderr as _write_stderr, location as _location, getline as _getline

_ACTIONS = ('error', 'ignore', 'always', 'default', 'module', 'once')


def _default_filters():
    return [('default', '', DeprecationWarning, '__main__', 0), ('ignore', '', DeprecationWarning, '', 0),
            ('ignore', '', PendingDeprecationWarning, '', 0), ('ignore', '', ImportWarning, '', 0),
            ('ignore', '', ResourceWarning, '', 0)]


filters = _default_filters()
_registries = {}      # module name -> {(text, category, lineno): True}: CPython's __warningregistry__
_onceregistry = {}
_record = [None]


class WarningMessage:
    def __init__(self, message, category, filename, lineno, file=None, line=None, source=None):
        self.message = message
        self.category = category
        self.filename = filename
        self.lineno = lineno
        self.file = file
        self.line = line
        self.source = source
        self._category_name = category.__name__ if category else None

    def __str__(self):
        return ("{message : %r, category : %r, filename : %r, lineno : %s, line : %r}" %
                (self.message, self._category_name, self.filename, self.lineno, self.line))


def formatwarning(message, category, filename, lineno, line=None):
    s = f"{filename}:{lineno}: {category.__name__}: {message}\n"
    if line is None:
        line = _getline(filename, lineno)
    if line:
        s += "  %s\n" % line.strip()
    return s


def _check_category(category):
    if not (isinstance(category, type) and issubclass(category, Warning)):
        raise TypeError("category must be a Warning subclass, not '%s'" % type(category).__name__)


def filterwarnings(action, message="", category=Warning, module="", lineno=0, append=False):
    if action not in _ACTIONS:
        raise AssertionError("invalid action: %r" % (action,))
    if not isinstance(message, str):
        raise AssertionError("message must be a string")
    _check_category(category)
    if not isinstance(lineno, int) or lineno < 0:
        raise AssertionError("lineno must be an int >= 0")
    _add_filter((action, message.lower(), category, module, lineno), append)


def simplefilter(action, category=Warning, lineno=0, append=False):
    if action not in _ACTIONS:
        raise AssertionError("invalid action: %r" % (action,))
    if not isinstance(lineno, int) or lineno < 0:
        raise AssertionError("lineno must be an int >= 0")
    _add_filter((action, '', category, '', lineno), append)


def _add_filter(item, append):
    if item in filters:
        filters.remove(item)
    if append:
        filters.append(item)
    else:
        filters.insert(0, item)
    _registries.clear()


def resetwarnings():
    filters.clear()
    _registries.clear()


def _action_for(text, category, module, lineno):
    for action, msg, cat, mod, ln in filters:
        if ((not msg or text.lower().startswith(msg)) and issubclass(category, cat)
                and (not mod or module.startswith(mod)) and (ln == 0 or lineno == ln)):
            return action
    return 'default'


def warn(message, category=None, stacklevel=1, source=None):
    if isinstance(message, Warning):
        category = type(message)
    if category is None:
        category = UserWarning
    _check_category(category)
    where = _location(max(stacklevel, 1))   # 0 would be warn itself, 1 its caller (stacklevel 0 is 1 too)
    if where is None:
        filename, lineno, module = 'sys', 1, 'sys'
    else:
        filename, lineno, module = where
    warn_explicit(message, category, filename, lineno, module, _registries.setdefault(module, {}), None, source)


def warn_explicit(message, category, filename, lineno, module=None, registry=None, module_globals=None, source=None):
    lineno = int(lineno)
    if module is None:
        module = filename or "<unknown>"
        if module[-3:].lower() == ".py":
            module = module[:-3]
    if registry is None:
        registry = {}
    if isinstance(message, Warning):
        text = str(message)
        category = message.__class__
    else:
        text = message
        message = category(message)
    key = (text, category, lineno)
    if registry.get(key):
        return
    action = _action_for(str(text), category, module, lineno)
    if action == 'ignore':
        return
    if action == 'error':
        raise message
    if action == 'once':
        registry[key] = 1
        if _onceregistry.get((text, category)):
            return
        _onceregistry[(text, category)] = 1
    elif action == 'module':
        registry[key] = 1
        if registry.get((text, category, 0)):
            return
        registry[(text, category, 0)] = 1
    elif action == 'default':
        registry[key] = 1
    if _record[0] is not None:
        _record[0].append(WarningMessage(message, category, filename, lineno, None, None, source))
        return
    _write_stderr(formatwarning(message, category, filename, lineno))


class catch_warnings:
    def __init__(self, *, record=False, action=None, category=Warning, lineno=0, append=False):
        self._record = record
        self._action = action
        self._category = category
        self._lineno = lineno
        self._append = append

    def __enter__(self):
        self._saved_filters = list(filters)
        self._saved_record = _record[0]
        _registries.clear()
        if self._action is not None:
            simplefilter(self._action, self._category, self._lineno, self._append)
        if self._record:
            log = []
            _record[0] = log
            return log
        return None

    def __exit__(self, *exc_info):
        filters.clear()
        filters.extend(self._saved_filters)
        _registries.clear()
        _record[0] = self._saved_record
