# src/py/python/re.py: Python's re module for lesson code, in attn's Python, as CPython 3.11's
# Lib/re/__init__.py: compile/search/match/fullmatch/split/findall/finditer/sub/subn/escape/purge,
# the flags (RegexFlag, printed as re.IGNORECASE|re.MULTILINE), re.error with CPython's message
# and position, Pattern and Match objects, and replacement templates (\1 \g<name> \n) parsed as
# Lib/re/_parser.py's parse_template does. Patterns are parsed and matched natively (_re,
# module_re.cpp over re_parse.cpp / re_match.cpp).
# What it is not: bytes patterns (attn has no bytes), re.LOCALE, re.Scanner, re.template, or
# Pattern.scanner.
import _attn_re as _re

__all__ = ["match", "fullmatch", "search", "sub", "subn", "split", "findall", "finditer", "compile", "purge",
           "escape", "error", "Pattern", "Match", "A", "I", "L", "M", "S", "X", "U", "ASCII", "IGNORECASE",
           "LOCALE", "MULTILINE", "DOTALL", "VERBOSE", "UNICODE", "NOFLAG", "RegexFlag"]

MAXREPEAT = _re.MAXREPEAT
_BATCH = 4096   # module_re.cpp's kBatch

# RegexFlag's members in CPython's declaration order (its repr lists them in this order).
_FLAG_NAMES = [("ASCII", 256), ("IGNORECASE", 2), ("LOCALE", 4), ("UNICODE", 32), ("MULTILINE", 8),
               ("DOTALL", 16), ("VERBOSE", 64), ("TEMPLATE", 1), ("DEBUG", 128)]
# Pattern.__repr__'s order (Modules/_sre/sre.c's flag_names).
_REPR_ORDER = [("TEMPLATE", 1), ("IGNORECASE", 2), ("LOCALE", 4), ("MULTILINE", 8), ("DOTALL", 16),
               ("UNICODE", 32), ("VERBOSE", 64), ("DEBUG", 128), ("ASCII", 256)]


def _flag_text(value, names):
    parts = []
    rest = value
    for name, bit in names:
        if value & bit:
            parts.append("re." + name)
            rest &= ~bit
    if rest:
        parts.append(hex(rest))
    return "|".join(parts)


class RegexFlag:
    def __init__(self, value):
        self.value = int(value)

    def __repr__(self):
        if self.value == 0:
            return "re.NOFLAG"
        if self.value < 0:
            return _flag_text(self.value & 511, _FLAG_NAMES)
        return _flag_text(self.value, _FLAG_NAMES)

    __str__ = __repr__

    def __int__(self):
        return self.value

    def __index__(self):
        return self.value

    def __hash__(self):
        return hash(self.value)

    def __eq__(self, other):
        return self.value == int(other) if isinstance(other, (int, RegexFlag)) else NotImplemented

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    def __bool__(self):
        return self.value != 0

    def __or__(self, other):
        return RegexFlag(self.value | int(other)) if isinstance(other, (int, RegexFlag)) else NotImplemented

    __ror__ = __or__

    def __and__(self, other):
        return RegexFlag(self.value & int(other)) if isinstance(other, (int, RegexFlag)) else NotImplemented

    __rand__ = __and__

    def __xor__(self, other):
        return RegexFlag(self.value ^ int(other)) if isinstance(other, (int, RegexFlag)) else NotImplemented

    __rxor__ = __xor__

    def __add__(self, other):
        return self.value + int(other) if isinstance(other, (int, RegexFlag)) else NotImplemented

    __radd__ = __add__

    def __invert__(self):
        return RegexFlag(~self.value & 511)


NOFLAG = RegexFlag(0)
ASCII = A = RegexFlag(256)
IGNORECASE = I = RegexFlag(2)
LOCALE = L = RegexFlag(4)
UNICODE = U = RegexFlag(32)
MULTILINE = M = RegexFlag(8)
DOTALL = S = RegexFlag(16)
VERBOSE = X = RegexFlag(64)
TEMPLATE = T = RegexFlag(1)
DEBUG = RegexFlag(128)


class error(Exception):
    def __init__(self, msg, pattern=None, pos=None):
        self.msg = msg
        self.pattern = pattern
        self.pos = pos
        if pattern is not None and pos is not None:
            msg = '%s at position %d' % (msg, pos)
            newline = '\n'
            self.lineno = pattern.count(newline, 0, pos) + 1
            self.colno = pos - pattern.rfind(newline, 0, pos)
            if newline in pattern:
                msg = '%s (line %d, column %d)' % (msg, self.lineno, self.colno)
        else:
            self.lineno = self.colno = None
        super().__init__(msg)


PatternError = error


class _MappingProxy:
    def __init__(self, d):
        self._d = d

    def __getitem__(self, key):
        return self._d[key]

    def __contains__(self, key):
        return key in self._d

    def __iter__(self):
        return iter(self._d)

    def __len__(self):
        return len(self._d)

    def __eq__(self, other):
        if isinstance(other, _MappingProxy):
            other = other._d
        return self._d == other

    def get(self, key, default=None):
        return self._d.get(key, default)

    def keys(self):
        return self._d.keys()

    def values(self):
        return self._d.values()

    def items(self):
        return self._d.items()

    def copy(self):
        return dict(self._d)

    def __repr__(self):
        return 'mappingproxy(' + repr(self._d) + ')'

    def __str__(self):
        return str(self._d)


def _int_flags(flags):
    if isinstance(flags, RegexFlag):
        return flags.value
    if isinstance(flags, bool) or not isinstance(flags, int):
        raise TypeError("'%s' object cannot be interpreted as an integer" % type(flags).__name__)
    return flags


def _pos_arg(value, name):
    # an int argument (pos, endpos, count, maxsplit); None only where the caller allows it
    if value is None or isinstance(value, RegexFlag):
        return None if value is None else value.value
    if not isinstance(value, int):
        raise TypeError("'%s' object cannot be interpreted as an integer" % type(value).__name__)
    return value


def _bounds(string, pos, endpos):
    pos = _pos_arg(pos, 'pos')
    endpos = _pos_arg(endpos, 'endpos')
    n = len(string)
    if pos < 0:
        pos = 0
    if endpos is None or endpos > n:
        endpos = n
    if endpos < 0:
        endpos = 0
    return pos, endpos


class Pattern:
    def __init__(self, pattern, flags, groups, groupindex, matcher, hash_value):
        self._hash = hash_value
        self.pattern = pattern
        self.flags = flags
        self.groups = groups
        self._groupindex = dict(groupindex)
        self._names = {}
        for name, index in groupindex:
            self._names[index] = name
        self._matcher = matcher

    @property
    def groupindex(self):
        return _MappingProxy(self._groupindex)

    def __repr__(self):
        flags = self.flags
        if flags & (4 | 32 | 256) == 32:
            flags &= ~32
        text = repr(self.pattern)
        if len(text) > 200:
            text = text[:200]
        if flags:
            return 're.compile(%s, %s)' % (text, _flag_text(flags, _REPR_ORDER))
        return 're.compile(%s)' % text

    def __eq__(self, other):
        if not isinstance(other, Pattern):
            return NotImplemented
        return self.pattern == other.pattern and self.flags == other.flags

    def __ne__(self, other):
        if not isinstance(other, Pattern):
            return NotImplemented
        return not self.__eq__(other)

    def __hash__(self):
        return self._hash

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def _check(self, string):
        if not isinstance(string, str):
            raise TypeError("expected string or bytes-like object, got '%s'" % type(string).__name__)

    def _run(self, string, pos, endpos, mode):
        self._check(string)
        pos, endpos = _bounds(string, pos, endpos)
        r = self._matcher(string, pos, endpos, mode, 0, False)
        if r is None:
            return None
        return Match(self, string, pos, endpos, r[0], r[1])

    def match(self, string, pos=0, endpos=None):
        return self._run(string, pos, endpos, 0)

    def fullmatch(self, string, pos=0, endpos=None):
        return self._run(string, pos, endpos, 1)

    def search(self, string, pos=0, endpos=None):
        return self._run(string, pos, endpos, 2)

    def _all(self, string, pos, endpos, count):
        self._check(string)
        pos, endpos = _bounds(string, pos, endpos)
        if pos > endpos:
            return pos, endpos, []
        return pos, endpos, self._scan(string, pos, endpos, count)

    def _scan(self, string, pos, endpos, count):
        # the matches from pos on, in batches of _BATCH from the native matcher
        found = []
        must_advance = False
        while True:
            want = 0 if count == 0 else count - len(found)
            batch = self._matcher(string, pos, endpos, 3, want, must_advance)
            found.extend(batch)
            if len(batch) < _BATCH or (count and len(found) >= count):
                return found
            spans = batch[-1][0]
            must_advance = spans[0] == spans[1]
            pos = spans[1]

    def finditer(self, string, pos=0, endpos=None):
        pos, endpos, found = self._all(string, pos, endpos, 0)
        return iter([Match(self, string, pos, endpos, spans, last) for spans, last in found])

    def findall(self, string, pos=0, endpos=None):
        self._check(string)
        pos, endpos = _bounds(string, pos, endpos)
        if pos > endpos:
            return []
        return self._matcher(string, pos, endpos, 4, 0, False)

    def split(self, string, maxsplit=0):
        self._check(string)
        maxsplit = _pos_arg(maxsplit, 'maxsplit')
        if maxsplit < 0:
            return [string]
        return self._matcher(string, 0, len(string), 5, maxsplit, False)

    def subn(self, repl, string, count=0):
        count = _pos_arg(count, 'count')
        if callable(repl):
            fn = repl
            literal = None
        else:
            if not isinstance(repl, str):
                raise TypeError("expected str instance, %s found" % type(repl).__name__)
            template = _compile_template(self, repl)
            fn = None
            literal = template[1][0] if not template[0] and len(template[1]) == 1 else None
            if not template[0] and not template[1]:
                literal = ''
        self._check(string)
        if count < 0:
            return string, 0
        if literal is not None:
            return self._matcher(string, 0, len(string), 6, count, False, literal)
        pos, endpos, found = self._all(string, 0, None, count)
        pieces = []
        last = 0
        for spans, lastindex in found:
            pieces.append(string[last:spans[0]])
            if literal is not None:
                pieces.append(literal)
            elif fn is not None:
                item = fn(Match(self, string, pos, endpos, spans, lastindex))
                if item is not None:
                    pieces.append(item)
            else:
                pieces.append(_expand_template(template, Match(self, string, pos, endpos, spans, lastindex)))
            last = spans[1]
        pieces.append(string[last:])
        return ''.join(pieces), len(found)

    def sub(self, repl, string, count=0):
        return self.subn(repl, string, count)[0]


class Match:
    def __init__(self, pattern, string, pos, endpos, spans, lastindex):
        self.re = pattern
        self.string = string
        self.pos = pos
        self.endpos = endpos
        self._spans = spans
        self.lastindex = lastindex if lastindex else None

    @property
    def lastgroup(self):
        if self.lastindex is None:
            return None
        return self.re._names.get(self.lastindex)

    @property
    def regs(self):
        return tuple((self._spans[2 * g], self._spans[2 * g + 1]) for g in range(self.re.groups + 1))

    def _index(self, g):
        if isinstance(g, str):
            if g in self.re._groupindex:
                return self.re._groupindex[g]
        elif isinstance(g, (int, RegexFlag)):
            g = int(g)
            if 0 <= g <= self.re.groups:
                return g
        raise IndexError("no such group")

    def _get(self, g, default=None):
        k = self._index(g)
        a = self._spans[2 * k]
        if a < 0:
            return default
        return self.string[a:self._spans[2 * k + 1]]

    def group(self, *args):
        if not args:
            return self._get(0)
        if len(args) == 1:
            return self._get(args[0])
        return tuple(self._get(g) for g in args)

    def __getitem__(self, g):
        return self._get(g)

    def groups(self, default=None):
        return tuple(self._get(g, default) for g in range(1, self.re.groups + 1))

    def groupdict(self, default=None):
        return {name: self._get(index, default) for name, index in self.re._groupindex.items()}

    def start(self, group=0):
        return self._spans[2 * self._index(group)]

    def end(self, group=0):
        return self._spans[2 * self._index(group) + 1]

    def span(self, group=0):
        k = self._index(group)
        return (self._spans[2 * k], self._spans[2 * k + 1])

    def expand(self, template):
        return _expand_template(_compile_template(self.re, template), self)

    def __bool__(self):
        return True

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __repr__(self):
        return '<re.Match object; span=(%d, %d), match=%r>' % (self._spans[0], self._spans[1], self.group(0))


# ---- replacement templates (Lib/re/_parser.py parse_template / expand_template) ----

_ESCAPES = {'a': '\a', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v', '\\': '\\'}
_OCT = '01234567'
_DEC = '0123456789'


class _Source:
    def __init__(self, text):
        self.text = text
        self.index = 0
        self.next = None
        self._advance()

    def _advance(self):
        k = self.index
        if k >= len(self.text):
            self.next = None
            return
        c = self.text[k]
        if c == '\\':
            k += 1
            if k >= len(self.text):
                raise error("bad escape (end of pattern)", self.text, len(self.text) - 1)
            c += self.text[k]
        self.index = k + 1
        self.next = c

    def get(self):
        c = self.next
        self._advance()
        return c

    def match(self, c):
        if c == self.next:
            self._advance()
            return True
        return False

    def tell(self):
        return self.index - len(self.next or '')

    def error(self, msg, offset=0):
        return error(msg, self.text, self.tell() - offset)

    def getuntil(self, terminator, name):
        result = ''
        while True:
            c = self.next
            self._advance()
            if c is None:
                if not result:
                    raise self.error("missing " + name)
                raise self.error("missing %s, unterminated name" % terminator, len(result))
            if c == terminator:
                if not result:
                    raise self.error("missing " + name, 1)
                break
            result += c
        return result


def _parse_template(source, pattern):
    s = _Source(source)
    groups = []
    literals = []
    literal = []

    def addgroup(index, pos):
        if index > pattern.groups:
            raise s.error("invalid group reference %d" % index, pos)
        if literal:
            literals.append(''.join(literal))
            del literal[:]
        groups.append((len(literals), index))
        literals.append(None)

    while True:
        this = s.get()
        if this is None:
            break
        if this[0] == '\\':
            c = this[1]
            if c == 'g':
                if not s.match('<'):
                    raise s.error("missing <")
                name = s.getuntil('>', 'group name')
                if name.isidentifier():
                    if name not in pattern._groupindex:
                        raise IndexError("unknown group name %r" % name)
                    index = pattern._groupindex[name]
                else:
                    if not (name.isdigit() and name.isascii()):
                        raise s.error("bad character in group name %r" % name, len(name) + 1)
                    index = int(name)
                    if index >= 1073741823:
                        raise s.error("invalid group reference %d" % index, len(name) + 1)
                addgroup(index, len(name) + 1)
            elif c == '0':
                if s.next is not None and s.next in _OCT:
                    this += s.get()
                    if s.next is not None and s.next in _OCT:
                        this += s.get()
                literal.append(chr(int(this[1:], 8) & 0xff))
            elif c in _DEC:
                isoctal = False
                if s.next is not None and s.next in _DEC:
                    this += s.get()
                    if c in _OCT and this[2] in _OCT and s.next is not None and s.next in _OCT:
                        this += s.get()
                        isoctal = True
                        value = int(this[1:], 8)
                        if value > 0o377:
                            raise s.error('octal escape value %s outside of range 0-0o377' % this, len(this))
                        literal.append(chr(value))
                if not isoctal:
                    addgroup(int(this[1:]), len(this) - 1)
            else:
                if c in _ESCAPES:
                    this = _ESCAPES[c]
                elif c.isascii() and c.isalpha():
                    raise s.error('bad escape %s' % this, len(this))
                literal.append(this)
        else:
            literal.append(this)
    if literal:
        literals.append(''.join(literal))
    return groups, literals


_template_cache = {}


def _compile_template(pattern, repl):
    key = (pattern.pattern, pattern.flags, repl)
    t = _template_cache.get(key)
    if t is None:
        t = _parse_template(repl, pattern)
        if len(_template_cache) >= 512:
            _template_cache.clear()
        _template_cache[key] = t
    return t


def _expand_template(template, match):
    groups, literals = template
    literals = literals[:]
    for index, group in groups:
        literals[index] = match.group(group) or ''
    return ''.join(literals)


# ---- the module functions ----

_cache = {}
_MAXCACHE = 512


def _compile(pattern, flags):
    flags = _int_flags(flags)
    if isinstance(pattern, Pattern):
        if flags:
            raise ValueError("cannot process flags argument with a compiled pattern")
        return pattern
    if not isinstance(pattern, str):
        raise TypeError("first argument must be string or compiled pattern")
    key = (pattern, flags)
    p = _cache.get(key)
    if p is not None:
        return p
    r = _re.compile(pattern, flags)
    if not r[0]:
        kind, msg, pos = r[1], r[2], r[3]
        if kind == 'OverflowError':
            raise OverflowError(msg)
        if kind == 'RecursionError':
            raise RecursionError(msg)
        if kind == 'ValueError':
            raise ValueError(msg)
        raise error(msg, pattern, pos)
    p = Pattern(pattern, r[1], r[2], r[3], r[4], r[5])
    if len(_cache) >= _MAXCACHE:
        del _cache[next(iter(_cache))]
    _cache[key] = p
    return p


def compile(pattern, flags=0):
    return _compile(pattern, flags)


def match(pattern, string, flags=0):
    return _compile(pattern, flags).match(string)


def fullmatch(pattern, string, flags=0):
    return _compile(pattern, flags).fullmatch(string)


def search(pattern, string, flags=0):
    return _compile(pattern, flags).search(string)


def sub(pattern, repl, string, count=0, flags=0):
    return _compile(pattern, flags).sub(repl, string, count)


def subn(pattern, repl, string, count=0, flags=0):
    return _compile(pattern, flags).subn(repl, string, count)


def split(pattern, string, maxsplit=0, flags=0):
    return _compile(pattern, flags).split(string, maxsplit)


def findall(pattern, string, flags=0):
    return _compile(pattern, flags).findall(string)


def finditer(pattern, string, flags=0):
    return _compile(pattern, flags).finditer(string)


def purge():
    _cache.clear()
    _template_cache.clear()


_SPECIAL = '()[]{}?*+-|^$\\.&~# \t\n\r\v\f'


def escape(pattern):
    if not isinstance(pattern, str):
        raise TypeError("attn's re.escape takes a str (attn has no bytes)")
    return ''.join('\\' + c if c in _SPECIAL else c for c in pattern)
