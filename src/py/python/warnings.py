# src/py/python/warnings.py: Python's warnings for lesson code, in attn's Python: warn() writes
# "Category: message" on stderr, once per message and category under the default action, as
# CPython's default filters decide (DeprecationWarning shown for lesson code, which is __main__;
# PendingDeprecationWarning, ImportWarning and ResourceWarning ignored); filterwarnings,
# simplefilter, resetwarnings, catch_warnings (record=True collects them), formatwarning.
# Written after CPython 3.11's Lib/warnings.py, simplified.
# What it is not: the warning's file:line on stderr (attn's interpreter does not tell a function
# its caller's line), message patterns as regular expressions (a filter's message matches as a
# case-insensitive prefix), module= filters, the warn_explicit registry.
from _attn_stdlib import write_stderr

_ACTIONS = ('error', 'ignore', 'always', 'default', 'module', 'once')


def _default_filters():
    return [('default', '', DeprecationWarning, '__main__', 0), ('ignore', '', DeprecationWarning, '', 0),
            ('ignore', '', PendingDeprecationWarning, '', 0), ('ignore', '', ImportWarning, '', 0),
            ('ignore', '', ResourceWarning, '', 0)]


filters = _default_filters()
_seen = set()
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
    _seen.clear()


def resetwarnings():
    filters.clear()
    _seen.clear()


def _action_for(text, category):
    for action, msg, cat, module, lineno in filters:
        if module and module != '__main__':
            continue
        if (not msg or text.lower().startswith(msg)) and issubclass(category, cat):
            return action
    return 'default'


def warn(message, category=None, stacklevel=1, source=None):
    if isinstance(message, Warning):
        category = type(message)
    if category is None:
        category = UserWarning
    _check_category(category)
    text = str(message)
    action = _action_for(text, category)
    if action == 'error':
        if isinstance(message, Warning):
            raise message
        raise category(message)
    if action == 'ignore':
        return
    if action != 'always':
        key = (text, category)
        if key in _seen:
            return
        _seen.add(key)
    if not isinstance(message, Warning):
        message = category(message)
    if _record[0] is not None:
        _record[0].append(WarningMessage(message, category, '<lesson>', 0))
        return
    write_stderr(f"{category.__name__}: {text}\n")


class catch_warnings:
    def __init__(self, *, record=False, action=None, category=Warning, lineno=0, append=False):
        self._record = record
        self._action = action
        self._category = category
        self._lineno = lineno
        self._append = append

    def __enter__(self):
        self._saved_filters = list(filters)
        self._saved_seen = set(_seen)
        self._saved_record = _record[0]
        _seen.clear()
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
        _seen.clear()
        _seen.update(self._saved_seen)
        _record[0] = self._saved_record
