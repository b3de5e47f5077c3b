# src/py/python/json.py: Python's json module for lesson code, in attn's Python: dumps (indent,
# sort_keys, separators, ensure_ascii, allow_nan, skipkeys, default) and loads, the text exactly
# CPython 3.11's. dumps follows Lib/json/encoder.py's _make_iterencode, building a list of chunks
# where CPython yields them; the string escapes and the scanner are native (_json,
# module_json.cpp) as CPython's are.
# What it is not: dump/load to files (attn lessons have no files), JSONEncoder/JSONDecoder
# subclassing, object_hook and the parse_* hooks.
import _attn_json as _json


class JSONDecodeError(ValueError):
    def __init__(self, msg, doc, pos):
        lineno = _count_lines(doc, pos)
        colno = pos - _last_newline(doc, pos)
        errmsg = '%s: line %d column %d (char %d)' % (msg, lineno, colno, pos)
        super().__init__(errmsg)
        self.msg = msg
        self.doc = doc
        self.pos = pos
        self.lineno = lineno
        self.colno = colno


def _count_lines(doc, pos):
    return len(doc[:pos].split('\n'))


def _last_newline(doc, pos):
    before = doc[:pos]
    k = len(before) - 1
    while k >= 0 and before[k] != '\n':
        k -= 1
    return k


def loads(s, **kw):
    if kw:
        raise NotImplementedError("attn's json.loads takes no keyword arguments (" + ", ".join(kw) + ")")
    if not isinstance(s, str):
        raise TypeError(f'the JSON object must be str, bytes or bytearray, not {type(s).__name__}')
    ok, value, pos = _json.scan(s)
    if not ok:
        raise JSONDecodeError(value, s, pos)
    return value


_INFINITY = float('inf')


def _floatstr(o, allow_nan):
    if o != o:
        text = 'NaN'
    elif o == _INFINITY:
        text = 'Infinity'
    elif o == -_INFINITY:
        text = '-Infinity'
    else:
        return repr(o)
    if not allow_nan:
        raise ValueError("Out of range float values are not JSON compliant")
    return text


def _default(o):
    raise TypeError(f'Object of type {type(o).__name__} is not JSON serializable')


class _Encoder:
    def __init__(self, skipkeys, ensure_ascii, check_circular, allow_nan, indent, separators, default, sort_keys):
        self.skipkeys = skipkeys
        self.encoder = _json.encode_basestring_ascii if ensure_ascii else _json.encode_basestring
        self.markers = {} if check_circular else None
        self.allow_nan = allow_nan
        if indent is not None and not isinstance(indent, str):
            indent = ' ' * indent
        self.indent = indent
        item_separator, key_separator = ', ', ': '
        if separators is not None:
            item_separator, key_separator = separators
        elif indent is not None:
            item_separator = ','
        self.item_separator = item_separator
        self.key_separator = key_separator
        self.default = _default if default is None else default
        self.sort_keys = sort_keys
        self.out = []

    def scalar(self, o):
        if isinstance(o, str):
            return self.encoder(o)
        if o is None:
            return 'null'
        if o is True:
            return 'true'
        if o is False:
            return 'false'
        if isinstance(o, int):
            return repr(int(o))
        if isinstance(o, float):
            return _floatstr(o, self.allow_nan)
        return None

    def mark(self, o):
        if self.markers is not None:
            key = id(o)
            if key in self.markers:
                raise ValueError("Circular reference detected")
            self.markers[key] = o

    def unmark(self, o):
        if self.markers is not None:
            del self.markers[id(o)]

    def value(self, o, level, buf):
        text = self.scalar(o)
        if text is not None:
            self.out.append(buf + text)
            return
        self.out.append(buf)
        if isinstance(o, (list, tuple)):
            self.array(o, level)
        elif isinstance(o, dict):
            self.object(o, level)
        else:
            self.mark(o)
            self.value(self.default(o), level, '')
            self.unmark(o)

    def array(self, lst, level):
        if not lst:
            self.out.append('[]')
            return
        self.mark(lst)
        buf = '['
        if self.indent is not None:
            level += 1
            newline_indent = '\n' + self.indent * level
            separator = self.item_separator + newline_indent
            buf += newline_indent
        else:
            newline_indent = None
            separator = self.item_separator
        first = True
        for value in lst:
            if first:
                first = False
            else:
                buf = separator
            self.value(value, level, buf)
        if newline_indent is not None:
            level -= 1
            self.out.append('\n' + self.indent * level)
        self.out.append(']')
        self.unmark(lst)

    def object(self, dct, level):
        if not dct:
            self.out.append('{}')
            return
        self.mark(dct)
        self.out.append('{')
        if self.indent is not None:
            level += 1
            newline_indent = '\n' + self.indent * level
            item_separator = self.item_separator + newline_indent
            self.out.append(newline_indent)
        else:
            newline_indent = None
            item_separator = self.item_separator
        first = True
        items = sorted(dct.items()) if self.sort_keys else dct.items()
        for key, value in items:
            if isinstance(key, str):
                pass
            elif isinstance(key, float):
                key = _floatstr(key, self.allow_nan)
            elif key is True:
                key = 'true'
            elif key is False:
                key = 'false'
            elif key is None:
                key = 'null'
            elif isinstance(key, int):
                key = repr(int(key))
            elif self.skipkeys:
                continue
            else:
                raise TypeError(f'keys must be str, int, float, bool or None, not {type(key).__name__}')
            if first:
                first = False
            else:
                self.out.append(item_separator)
            self.out.append(self.encoder(key))
            self.value(value, level, self.key_separator)
        if newline_indent is not None:
            level -= 1
            self.out.append('\n' + self.indent * level)
        self.out.append('}')
        self.unmark(dct)


def dumps(obj, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True, cls=None,
          indent=None, separators=None, default=None, sort_keys=False, **kw):
    if cls is not None or kw:
        raise NotImplementedError("attn's json.dumps does not take cls= or other keyword arguments")
    e = _Encoder(skipkeys, ensure_ascii, check_circular, allow_nan, indent, separators, default, sort_keys)
    e.value(obj, 0, '')
    return ''.join(e.out)
