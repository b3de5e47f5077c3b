# src/py/python/pickle.py: the pickle module for lesson code, in attn's Python: dumps/dump and
# loads/load, writing the bytes CPython 3.11's _pickle writes for None, bool, int, float, str,
# bytes, bytearray, tuple, list, dict, set and instances of user classes (object.__reduce_ex__:
# NEWOBJ + BUILD from protocol 2, copyreg._reconstructor below it; __reduce__, __reduce_ex__,
# __getstate__, __setstate__), functions and classes by reference (STACK_GLOBAL / GLOBAL), with
# the memo (shared and recursive containers) and protocol 4's frames; frozenset; _pickle's errors on
# malformed input (stack underflow, a missing MARK, ...) and _compat_pickle's Python 2 names; Python 2's
# STRING, INST and OBJ opcodes (INST and OBJ find their class as GLOBAL does: the same refusals).
# What it is not: persistent ids, the copyreg dispatch table and extension registry (their opcodes
# are _pickle's errors), out-of-band buffers (protocol 5's PickleBuffer), or files other than io.BytesIO.
from _attn_stdlib import main_module as _main_module, import_module as _import_module, float_pack as _float_pack, float_unpack as _float_unpack

HIGHEST_PROTOCOL = 5
DEFAULT_PROTOCOL = 4


class PickleError(Exception):
    pass


class PicklingError(PickleError):
    pass


class UnpicklingError(PickleError):
    pass


_FRAME_TARGET = 64 * 1024
_BATCHSIZE = 1000


def _pack_u(n, size):
    return n.to_bytes(size, 'little')


def _reconstructor(cls, base, state):
    # copyreg._reconstructor: what protocols 0 and 1 rebuild a plain instance with
    return object.__new__(cls)


def _newobj(cls, *args):
    # copyreg.__newobj__
    return cls.__new__(cls, *args)


class _Global:
    # a module-level name pickled by reference that attn cannot reach as an object of its own
    def __init__(self, module, name):
        self.module = module
        self.name = name


def _module(name):
    if name == '__main__':
        return _main_module()
    return _import_module(name)


def _lookup(module_name, qualname):
    obj = _module(module_name)
    parent = None
    for part in qualname.split('.'):
        if part == '<locals>':
            raise AttributeError(part)
        parent = obj
        obj = getattr(obj, part)
    return obj, parent


class _Pickler:
    def __init__(self, protocol):
        if protocol is None:
            protocol = DEFAULT_PROTOCOL
        if protocol < 0:
            protocol = HIGHEST_PROTOCOL
        elif protocol > HIGHEST_PROTOCOL:
            raise ValueError("pickle protocol must be <= %d" % HIGHEST_PROTOCOL)
        self.proto = protocol
        self.bin = protocol >= 1
        self.out = []
        self.frame = None
        self.frame_len = 0
        self.memo = {}

    # ---- output and frames ----
    def write(self, data):
        if self.frame is not None:
            self.frame.append(data)
            self.frame_len += len(data)
        else:
            self.out.append(data)

    def commit_frame(self, force=False):
        if self.frame is None or (self.frame_len < _FRAME_TARGET and not force):
            return
        if self.frame_len >= 4:
            self.out.append(b'\x95' + _pack_u(self.frame_len, 8))
        self.out.extend(self.frame)
        self.frame = []
        self.frame_len = 0

    def dump(self, obj):
        if self.proto >= 2:
            self.write(b'\x80' + bytes([self.proto]))
        if self.proto >= 4:
            self.frame = []
        self.save(obj)
        self.write(b'.')
        if self.frame is not None:
            self.commit_frame(True)
        return b''.join(self.out)

    # ---- the memo ----
    def memoize(self, obj):
        idx = len(self.memo)
        if self.proto >= 4:
            self.write(b'\x94')
        elif self.bin:
            self.write(b'q' + bytes([idx]) if idx < 256 else b'r' + _pack_u(idx, 4))
        else:
            self.write(b'p' + repr(idx).encode('ascii') + b'\n')
        self.memo[id(obj)] = (idx, obj)

    def get(self, idx):
        if self.bin:
            return b'h' + bytes([idx]) if idx < 256 else b'j' + _pack_u(idx, 4)
        return b'g' + repr(idx).encode('ascii') + b'\n'

    # ---- saving ----
    def save(self, obj):
        self.commit_frame()
        x = self.memo.get(id(obj))
        if x is not None:
            self.write(self.get(x[0]))
            return
        t = type(obj)
        if obj is None:
            self.write(b'N')
        elif t is bool:
            self.save_bool(obj)
        elif t is int:
            self.save_long(obj)
        elif t is float:
            self.write(b'G' + _float_pack(obj) if self.bin else b'F' + repr(obj).encode('ascii') + b'\n')
        elif t is str:
            self.save_str(obj)
        elif t is bytes:
            self.save_bytes(obj)
        elif t is bytearray:
            self.save_bytearray(obj)
        elif t is tuple:
            self.save_tuple(obj)
        elif t is list:
            self.save_list(obj)
        elif t is dict:
            self.save_dict(obj)
        elif t is set:
            self.save_set(obj)
        elif t is frozenset:
            self.save_frozenset(obj)
        elif isinstance(obj, type) or callable(obj) and hasattr(obj, '__qualname__'):
            self.save_global(obj)
        elif t is _Global:
            self.save_global(obj, obj.name, obj.module)
        else:
            self.save_object(obj)

    def save_bool(self, obj):
        if self.proto >= 2:
            self.write(b'\x88' if obj else b'\x89')
        else:
            self.write(b'I01\n' if obj else b'I00\n')

    def save_long(self, obj):
        if self.bin:
            if 0 <= obj <= 0xff:
                self.write(b'K' + bytes([obj]))
                return
            if 0 <= obj <= 0xffff:
                self.write(b'M' + _pack_u(obj, 2))
                return
            if -0x80000000 <= obj <= 0x7fffffff:
                self.write(b'J' + obj.to_bytes(4, 'little', signed=True))
                return
        if self.proto >= 2:
            encoded = _encode_long(obj)
            n = len(encoded)
            if n < 256:
                self.write(b'\x8a' + bytes([n]) + encoded)
            else:
                self.write(b'\x8b' + n.to_bytes(4, 'little', signed=True) + encoded)
            return
        if -0x80000000 <= obj <= 0x7fffffff:
            self.write(b'I' + repr(obj).encode('ascii') + b'\n')
        else:
            self.write(b'L' + repr(obj).encode('ascii') + b'L\n')

    def save_str(self, obj):
        if self.bin:
            encoded = obj.encode('utf-8')
            n = len(encoded)
            if n <= 0xff and self.proto >= 4:
                self.write(b'\x8c' + bytes([n]) + encoded)
            else:
                self.write(b'X' + _pack_u(n, 4) + encoded)
        else:
            self.write(b'V' + _raw_unicode_escape(obj) + b'\n')
        self.memoize(obj)

    def save_bytes(self, obj):
        if self.proto < 3:
            if not obj:
                self.save_reduce(bytes, (), obj)
            else:
                self.save_reduce(_Global('_codecs', 'encode'), (obj.decode('latin-1'), 'latin1'), obj)
            return
        n = len(obj)
        if n <= 0xff:
            self.write(b'C' + bytes([n]) + obj)
        else:
            self.write(b'B' + _pack_u(n, 4) + obj)
        self.memoize(obj)

    def save_bytearray(self, obj):
        if self.proto < 5:
            if not obj:
                self.save_reduce(bytearray, (), obj)
            else:
                self.save_reduce(bytearray, (bytes(obj),), obj)
            return
        self.write(b'\x96' + _pack_u(len(obj), 8) + bytes(obj))
        self.memoize(obj)

    def save_tuple(self, obj):
        if not obj:
            self.write(b')' if self.bin else b'(t')
            return
        n = len(obj)
        if n <= 3 and self.proto >= 2:
            for element in obj:
                self.save(element)
            if id(obj) in self.memo:
                self.write(b'0' * n + self.get(self.memo[id(obj)][0]))
            else:
                self.write([b'\x85', b'\x86', b'\x87'][n - 1])
                self.memoize(obj)
            return
        self.write(b'(')
        for element in obj:
            self.save(element)
        if id(obj) in self.memo:
            get = self.get(self.memo[id(obj)][0])
            self.write(b'1' + get if self.bin else b'0' * (n + 1) + get)
            return
        self.write(b't')
        self.memoize(obj)

    def save_list(self, obj):
        self.write(b']' if self.bin else b'(l')
        self.memoize(obj)
        self.batch_appends(obj, len(obj) != 1)

    def batch_appends(self, items, exact=False):
        # exact: a list's own items, as _pickle's batch_list_exact writes them (every batch with
        # MARK ... APPENDS, unless the list has one item); else pickle.py's _batch_appends
        if not self.bin:
            for x in items:
                self.save(x)
                self.write(b'a')
            return
        items = list(items)
        for start in range(0, len(items), _BATCHSIZE):
            batch = items[start:start + _BATCHSIZE]
            if len(batch) > 1 or exact:
                self.write(b'(')
                for x in batch:
                    self.save(x)
                self.write(b'e')
            else:
                self.save(batch[0])
                self.write(b'a')

    def save_dict(self, obj):
        self.write(b'}' if self.bin else b'(d')
        self.memoize(obj)
        self.batch_setitems(obj.items(), len(obj) != 1)

    def batch_setitems(self, items, exact=False):
        items = list(items)
        if not self.bin:
            for k, v in items:
                self.save(k)
                self.save(v)
                self.write(b's')
            return
        for start in range(0, len(items), _BATCHSIZE):
            batch = items[start:start + _BATCHSIZE]
            if len(batch) > 1 or exact:
                self.write(b'(')
                for k, v in batch:
                    self.save(k)
                    self.save(v)
                self.write(b'u')
            else:
                self.save(batch[0][0])
                self.save(batch[0][1])
                self.write(b's')

    def save_set(self, obj):
        if self.proto < 4:
            self.save_reduce(set, (list(obj),), obj)
            return
        self.write(b'\x8f')
        self.memoize(obj)
        items = list(obj)
        for start in range(0, len(items), _BATCHSIZE):
            batch = items[start:start + _BATCHSIZE]
            self.write(b'(')
            for x in batch:
                self.save(x)
            self.write(b'\x90')

    def save_frozenset(self, obj):
        if self.proto < 4:
            self.save_reduce(frozenset, (list(obj),), obj)
            return
        self.write(b'(')
        for x in obj:
            self.save(x)
        if id(obj) in self.memo:   # reached through its own items: POP_MARK, then the memo's copy
            self.write(b'1' + self.get(self.memo[id(obj)][0]))
            return
        self.write(b'\x91')
        self.memoize(obj)

    def save_global(self, obj, name=None, module_name=None):
        if name is None:
            name = getattr(obj, '__qualname__', None) or obj.__name__
        if module_name is None:
            module_name = getattr(obj, '__module__', None)
            if module_name is None and _BUILTINS.get(name) is obj:   # attn's builtin functions have no __module__
                module_name = 'builtins'
            module_name = module_name or '__main__'
        if '<locals>' in name:
            raise AttributeError("Can't pickle local object %r" % name)
        if t_is_global(obj) or module_name == 'builtins':
            parent = None
        else:
            try:
                obj2, parent = _lookup(module_name, name)
            except (ImportError, KeyError, AttributeError):
                raise PicklingError("Can't pickle %r: attribute lookup %s on %s failed" % (obj, name, module_name)) from None
            if obj2 is not obj:
                raise PicklingError("Can't pickle %r: it's not the same object as %s.%s" % (obj, module_name, name))
        if self.proto >= 4:
            self.save(module_name)
            self.save(name)
            self.write(b'\x93')
        else:
            if self.proto < 3:
                module_name = _PY2_NAMES.get(module_name, module_name)
            self.write(b'c' + module_name.encode('utf-8') + b'\n' + name.encode('utf-8') + b'\n')
        self.memoize(obj)

    def save_object(self, obj):
        cls = type(obj)
        if hasattr(cls, '__reduce_ex__') and cls.__reduce_ex__ is not object.__reduce_ex__:
            rv = obj.__reduce_ex__(self.proto)
        elif hasattr(cls, '__reduce__'):
            rv = obj.__reduce__()
        elif cls.__module__ != '__main__' and cls.__module__ != 'collections' or not hasattr(obj, '__dict__'):
            raise TypeError("cannot pickle '%s' object" % cls.__name__)
        else:
            rv = _default_reduce(obj, self.proto)
        if isinstance(rv, str):
            self.save_global(obj, rv)
            return
        if not isinstance(rv, tuple):
            raise PicklingError("__reduce__ must return a string or tuple")
        if not 2 <= len(rv) <= 6:
            raise PicklingError("tuple returned by __reduce__ must contain 2 through 6 elements")
        self.save_reduce(rv[0], rv[1], obj, *rv[2:])

    def save_reduce(self, func, args, obj=None, state=None, listitems=None, dictitems=None, state_setter=None):
        if not isinstance(args, tuple):
            raise PicklingError("args from save_reduce() must be a tuple")
        if func is _newobj and self.proto >= 2:
            cls = args[0]
            self.save(cls)
            self.save(args[1:])
            self.write(b'\x81')
        else:
            self.save(func)
            self.save(args)
            self.write(b'R')
        if obj is not None:
            if id(obj) in self.memo:
                self.write(b'0' + self.get(self.memo[id(obj)][0]))
            else:
                self.memoize(obj)
        if listitems is not None:
            self.batch_appends(listitems)
        if dictitems is not None:
            self.batch_setitems(dictitems)
        if state is not None:
            self.save(state)
            self.write(b'b')


_PY2_NAMES = {'builtins': '__builtin__', 'copyreg': 'copy_reg'}   # fix_imports below protocol 3


def t_is_global(obj):
    return type(obj) is _Global


def _default_reduce(obj, proto):
    cls = type(obj)
    if hasattr(cls, '__getstate__'):
        state = obj.__getstate__()
    else:
        state = obj.__dict__ or None
    if proto >= 2:
        return (_newobj, (cls,), state)
    return (_Global('copyreg', '_reconstructor'), (cls, object, None), state)


def _encode_long(x):
    if x == 0:
        return b''
    nbytes = (x.bit_length() >> 3) + 1
    result = x.to_bytes(nbytes, 'little', signed=True)
    if x < 0 and nbytes > 1:
        if result[-1] == 0xff and (result[-2] & 0x80) != 0:
            result = result[:-1]
    return result


def _decode_long(data):
    return int.from_bytes(data, 'little', signed=True)


def _raw_unicode_escape(s):
    s = s.replace("\\", "\\u005c").replace("\0", "\\u0000").replace("\n", "\\u000a").replace("\r", "\\u000d").replace("\x1a", "\\u001a")
    out = []
    for ch in s:
        o = ord(ch)
        if o < 256:
            out.append(bytes([o]))
        elif o < 0x10000:
            out.append(('\\u%04x' % o).encode('ascii'))
        else:
            out.append(('\\U%08x' % o).encode('ascii'))
    return b''.join(out)


class _Unpickler:
    def __init__(self, data):
        self.data = data
        self.pos = 0
        self.stack = []
        self.metastack = []
        self.memo = {}
        self.proto = 0

    def read(self, n):
        if self.pos + n > len(self.data):
            raise UnpicklingError("pickle data was truncated")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def readline(self):
        end = self.data.find(b'\n', self.pos)
        if end < 0:
            raise UnpicklingError("pickle data was truncated")
        out = self.data[self.pos:end]
        self.pos = end + 1
        return out

    def pop_mark(self):
        if not self.metastack:
            raise UnpicklingError("could not find MARK")
        items = self.stack
        self.stack = self.metastack.pop()
        return items

    # _pickle's Pdata: the items above the last MARK only; below them is an underflow
    def underflow(self):
        return UnpicklingError("unexpected MARK found" if self.metastack else "unpickling stack underflow")

    def pop(self):
        if not self.stack:
            raise self.underflow()
        return self.stack.pop()

    def top(self):
        if not self.stack:
            raise self.underflow()
        return self.stack[-1]

    def load(self):
        while True:
            if self.pos >= len(self.data):
                raise EOFError("Ran out of input")
            op = self.data[self.pos]
            self.pos += 1
            if op == 0x2e:  # STOP
                return self.pop()
            handler = _DISPATCH.get(op)
            if handler is None:
                raise UnpicklingError("invalid load key, '%s'." % chr(op))
            handler(self)

    def u(self, n):
        return int.from_bytes(self.read(n), 'little')

    def find_class(self, module, name):
        if self.proto < 3:   # _compat_pickle's NAME_MAPPING, then IMPORT_MAPPING (the modules attn has)
            module, name = _NAME_MAPPING.get((module, name), (module, name))
            module = _IMPORT_MAPPING.get(module, module)
        if module == 'copyreg' and name == '_reconstructor':
            return _reconstructor
        if module == 'copyreg' and name == '__newobj__':
            return _newobj
        if module == '_codecs' and name == 'encode':
            return _codecs_encode
        if module == 'builtins':
            if name not in _BUILTINS:
                raise AttributeError("Can't get attribute %r on <module 'builtins' (built-in)>" % name)
            return _BUILTINS[name]
        if self.proto < 4 and '.' in name:   # a dotted name is a path from protocol 4 on; before, one attribute
            raise AttributeError("Can't get attribute %r on %r" % (name, _module(module)))
        obj, parent = _lookup(module, name)
        return obj


def _append(u, x):
    u.top().append(x)


def _codecs_encode(text, encoding):
    return text.encode(encoding)


# builtins by name (attn's Python has no builtins module): every builtin attn has
_BUILTINS = {x.__name__: x for x in [
    ArithmeticError, AssertionError, AttributeError, BaseException, BufferError, BytesWarning, DeprecationWarning,
    EOFError, Exception, FileNotFoundError, FloatingPointError, FutureWarning, GeneratorExit, ImportError,
    ImportWarning, IndentationError, IndexError, KeyError, KeyboardInterrupt, LookupError, MemoryError,
    ModuleNotFoundError, NameError, NotImplementedError, OSError, OverflowError, PendingDeprecationWarning,
    PermissionError, RecursionError, ResourceWarning, RuntimeError, RuntimeWarning, StopIteration, SyntaxError,
    SyntaxWarning, SystemError, SystemExit, TabError, TimeoutError, TypeError, UnboundLocalError,
    UnicodeDecodeError, UnicodeEncodeError, UnicodeError, UnicodeWarning, UserWarning, ValueError, Warning,
    ZeroDivisionError, abs, all, any, ascii, bin, bool, bytearray, bytes, callable, chr, classmethod, delattr, dict,
    divmod, enumerate, filter, float, format, frozenset, getattr, hasattr, hash, hex, id, int, isinstance,
    issubclass, iter, len, list, map, max, min, next, object, oct, ord, pow, print, property, range, repr,
    reversed, round, set, setattr, slice, sorted, staticmethod, str, sum, super, tuple, type, vars, zip]}
_BUILTINS.update({'True': True, 'False': False, 'None': None, 'Ellipsis': Ellipsis, 'NotImplemented': NotImplemented})

# _compat_pickle: Python 2's names in protocols 0-2, for the modules attn has
_IMPORT_MAPPING = {'__builtin__': 'builtins', 'copy_reg': 'copyreg', 'cPickle': 'pickle', 'cStringIO': 'io', 'StringIO': 'io',
                   'exceptions': 'builtins'}
_NAME_MAPPING = {
    ('__builtin__', 'xrange'): ('builtins', 'range'), ('__builtin__', 'reduce'): ('functools', 'reduce'),
    ('__builtin__', 'intern'): ('sys', 'intern'), ('__builtin__', 'unichr'): ('builtins', 'chr'),
    ('__builtin__', 'unicode'): ('builtins', 'str'), ('__builtin__', 'long'): ('builtins', 'int'),
    ('itertools', 'izip'): ('builtins', 'zip'), ('itertools', 'imap'): ('builtins', 'map'),
    ('itertools', 'ifilter'): ('builtins', 'filter'), ('itertools', 'ifilterfalse'): ('itertools', 'filterfalse'),
    ('itertools', 'izip_longest'): ('itertools', 'zip_longest'),
    ('__builtin__', 'basestring'): ('builtins', 'str'), ('exceptions', 'StandardError'): ('builtins', 'Exception'),
}


def _build(u):
    state = u.pop()
    inst = u.top()
    setstate = getattr(inst, '__setstate__', None)
    if setstate is not None:
        setstate(state)
        return
    slotstate = None
    if isinstance(state, tuple) and len(state) == 2:
        state, slotstate = state
    if state:
        for k, v in state.items():
            inst.__dict__[k] = v
    if slotstate:
        for k, v in slotstate.items():
            setattr(inst, k, v)


def _set_memo(u, idx):
    u.memo[idx] = u.top()


def _get_memo(u, idx):
    if idx not in u.memo:
        raise UnpicklingError("Memo value not found at index %d" % idx)
    u.stack.append(u.memo[idx])


def _proto(u):
    u.proto = u.read(1)[0]
    if u.proto > HIGHEST_PROTOCOL:
        raise ValueError("unsupported pickle protocol: %d" % u.proto)


def _mark(u):
    u.metastack.append(u.stack)
    u.stack = []


def _appends(u):
    items = u.pop_mark()
    target = u.top()
    if type(target) is list or hasattr(target, 'extend'):
        target.extend(items)
    else:
        append = target.append
        for x in items:
            append(x)


def _setitems(u):
    items = u.pop_mark()
    d = u.top()
    if len(items) % 2:
        raise UnpicklingError("odd number of items for SETITEMS")
    for i in range(0, len(items), 2):
        d[items[i]] = items[i + 1]


def _setitem(u):
    v = u.pop()
    k = u.pop()
    u.top()[k] = v


def _additems(u):
    items = u.pop_mark()
    s = u.top()
    for x in items:
        s.add(x)


def _reduce(u):
    args = u.pop()
    func = u.pop()
    u.stack.append(func(*args))


def _newobj_op(u):
    args = u.pop()
    cls = u.pop()
    if not isinstance(cls, type):
        raise UnpicklingError("NEWOBJ class argument must be a type, not %s" % type(cls).__name__)
    u.stack.append(cls.__new__(cls, *args))


def _newobj_ex(u):
    kwargs = u.pop()
    args = u.pop()
    cls = u.pop()
    if not isinstance(cls, type):
        raise UnpicklingError("NEWOBJ_EX class argument must be a type, not %s" % type(cls).__name__)
    if type(args) is not tuple:
        raise UnpicklingError("NEWOBJ_EX args argument must be a tuple, not %s" % type(args).__name__)
    if type(kwargs) is not dict:
        raise UnpicklingError("NEWOBJ_EX kwargs argument must be a dict, not %s" % type(kwargs).__name__)
    u.stack.append(cls.__new__(cls, *args, **kwargs))


def _next_buffer(u):
    raise UnpicklingError("pickle stream refers to out-of-band data but no *buffers* argument was given")


def _stack_global(u):
    name = u.pop() if u.stack else None
    module = u.pop() if u.stack else None
    if type(name) is not str or type(module) is not str:
        raise UnpicklingError("STACK_GLOBAL requires str")
    u.stack.append(u.find_class(module, name))


def _global(u):
    module = u.readline()
    name = u.readline()
    if not module or not name:   # an empty line: _pickle's bad_readline
        raise UnpicklingError("pickle data was truncated")
    u.stack.append(u.find_class(module.decode('utf-8'), name.decode('utf-8')))


def _tuple_n(n):
    def load(u):
        if len(u.stack) < n:
            raise u.underflow()
        items = u.stack[len(u.stack) - n:]
        del u.stack[len(u.stack) - n:]
        u.stack.append(tuple(items))
    return load


def _int_line(u):
    line = u.readline()
    if not line:
        raise UnpicklingError("pickle data was truncated")
    if line == b'00':
        u.stack.append(False)
    elif line == b'01':
        u.stack.append(True)
    else:
        try:
            u.stack.append(int(line.decode('ascii'), 0))
        except (ValueError, UnicodeDecodeError):
            raise ValueError("could not convert string to int") from None


def _long_line(u):
    line = u.readline()
    if not line:
        raise UnpicklingError("pickle data was truncated")
    text = line[:-1] if line.endswith(b'L') else line
    try:
        u.stack.append(int(text.decode('ascii'), 0))
    except (ValueError, UnicodeDecodeError):
        raise ValueError("invalid literal for int() with base 10: %r" % (line.decode('latin-1') + '\n')) from None


def _unicode_line(u):
    line = u.readline()
    out = []
    k = 0
    while k < len(line):
        if line[k] == 0x5c and k + 1 < len(line) and line[k + 1] in (0x75, 0x55):
            width = 4 if line[k + 1] == 0x75 else 8
            out.append(chr(int(line[k + 2:k + 2 + width].decode('ascii'), 16)))
            k += 2 + width
        else:
            out.append(chr(line[k]))
            k += 1
    u.stack.append(''.join(out))


_ESCAPES = {0x5c: 0x5c, 0x27: 0x27, 0x22: 0x22, 0x62: 0x08, 0x66: 0x0c, 0x74: 0x09, 0x6e: 0x0a, 0x72: 0x0d, 0x76: 0x0b, 0x61: 0x07}


def _escape_decode(data):
    # codecs.escape_decode (PyBytes_DecodeEscape): a Python 2 str literal's escapes, as bytes
    out = bytearray()
    k = 0
    while k < len(data):
        c = data[k]
        k += 1
        if c != 0x5c:
            out.append(c)
            continue
        if k >= len(data):
            raise ValueError("Trailing \\ in string")
        c = data[k]
        k += 1
        if c in _ESCAPES:
            out.append(_ESCAPES[c])
        elif c == 0x0a:   # a backslash-newline continues the line
            pass
        elif 0x30 <= c <= 0x37:   # up to three octal digits
            v = c - 0x30
            for _ in range(2):
                if k < len(data) and 0x30 <= data[k] <= 0x37:
                    v = v * 8 + data[k] - 0x30
                    k += 1
            out.append(v & 0xff)
        elif c == 0x78:
            digits = data[k:k + 2]
            if len(digits) < 2 or any(d not in b'0123456789abcdefABCDEF' for d in digits):
                raise ValueError("invalid \\x escape at position %d" % (k - 2))
            out.append(int(digits.decode('ascii'), 16))
            k += 2
        else:   # an unknown escape stays as it is
            out += bytes([0x5c, c])
    return bytes(out)


def _string_line(u):
    # STRING: a quoted Python 2 str literal on a line, decoded as ASCII (the Unpickler's default encoding)
    line = u.readline()
    if len(line) < 2 or line[0] != line[-1] or line[0] not in (0x27, 0x22):
        raise UnpicklingError("the STRING opcode argument must be quoted")
    u.stack.append(_escape_decode(line[1:-1]).decode('ascii'))


def _instantiate(cls, args):
    # _pickle's instantiate: cls.__new__(cls) for no arguments and a class without __getinitargs__
    if not args and isinstance(cls, type) and not hasattr(cls, '__getinitargs__'):
        return cls.__new__(cls)
    return cls(*args)


def _inst(u):
    # INST: the class by GLOBAL's lines and find_class (its rules), called on the items since the MARK
    if not u.metastack:
        raise UnpicklingError("could not find MARK")
    module = u.readline()
    if not module:
        raise UnpicklingError("pickle data was truncated")
    name = u.readline()
    if not name:
        raise UnpicklingError("pickle data was truncated")
    cls = u.find_class(module.decode('ascii'), name.decode('ascii'))
    obj = _instantiate(cls, tuple(u.pop_mark()))
    u.stack.append(obj)


def _obj(u):
    # OBJ: the first item since the MARK (a class GLOBAL found) called on the others
    if not u.metastack:
        raise UnpicklingError("could not find MARK")
    if not u.stack:
        raise UnpicklingError("unpickling stack underflow")
    items = u.pop_mark()
    u.stack.append(_instantiate(items[0], tuple(items[1:])))


def _push_marked(u, make):
    # the items since the last MARK, made into one object on the stack below the mark
    items = u.pop_mark()
    u.stack.append(make(items))


def _frame(u):   # FRAME n: the next n bytes must be there, as _pickle checks before it reads them
    n = int.from_bytes(u.read(8), 'little')
    if u.pos + n > len(u.data):
        raise UnpicklingError("pickle data was truncated")


def _pop_mark(u):
    u.pop_mark()


def _pop(u):
    # POP: the top item, else the last MARK itself
    if u.stack:
        u.stack.pop()
    elif u.metastack:
        u.pop_mark()
    else:
        raise u.underflow()


def _dict(items):
    if len(items) % 2:
        raise UnpicklingError("odd number of items for DICT")
    return dict(zip(items[::2], items[1::2]))


def _float_prefix(t):
    # how much of t _Py_dg_strtod reads as a float: a sign, inf/infinity/nan, or digits, a point, an exponent
    k = 1 if t[:1] in ('+', '-') else 0
    low = t[k:].lower()
    for word in ('infinity', 'inf', 'nan'):
        if low.startswith(word):
            return k + len(word)
    j = k
    while j < len(t) and '0' <= t[j] <= '9':
        j += 1
    digits = j - k
    if j < len(t) and t[j] == '.':
        j += 1
        start = j
        while j < len(t) and '0' <= t[j] <= '9':
            j += 1
        digits += j - start
    if digits == 0:
        return 0
    if j < len(t) and t[j] in 'eE':
        e = j + 1
        if e < len(t) and t[e] in '+-':
            e += 1
        start = e
        while e < len(t) and '0' <= t[e] <= '9':
            e += 1
        if e > start:
            j = e
    return j


def _float_line(u):
    # _pickle's load_float (PyOS_string_to_double): nothing read is ValueError naming the line, text
    # left over a shorter one, an overflow OverflowError (not inf)
    line = u.readline()
    if not line:
        raise UnpicklingError("pickle data was truncated")
    text = line.decode('latin-1')
    shown = line.decode('utf-8', 'replace') + '\n'   # as PyErr_Format's %s
    n = _float_prefix(text)
    if n == 0:
        raise ValueError("could not convert string to float: '%s'" % shown)
    x = float(text[:n])
    if x in (float('inf'), float('-inf')) and text[:n].lstrip('+-').lower() not in ('inf', 'infinity'):
        raise OverflowError("value too large to convert to float: '%s'" % shown)
    if n != len(text):
        raise ValueError("could not convert string to float")
    u.stack.append(x)


def _ext(n):
    def load(u):
        code = u.u(n)
        if code <= 0:
            raise UnpicklingError("EXT specifies code <= 0")
        raise ValueError("unregistered extension code %d" % code)
    return load


def _persid(u):
    raise UnpicklingError("A load persistent id instruction was encountered,\n"
                          "but no persistent_load function was specified.")


_DISPATCH = {
    0x80: _proto, 0x95: _frame, 0x28: _mark, 0x4e: lambda u: u.stack.append(None),
    0x88: lambda u: u.stack.append(True), 0x89: lambda u: u.stack.append(False),
    0x4b: lambda u: u.stack.append(u.u(1)), 0x4d: lambda u: u.stack.append(u.u(2)),
    0x4a: lambda u: u.stack.append(int.from_bytes(u.read(4), 'little', signed=True)),
    0x8a: lambda u: u.stack.append(_decode_long(u.read(u.u(1)))),
    0x8b: lambda u: u.stack.append(_decode_long(u.read(int.from_bytes(u.read(4), 'little', signed=True)))),
    0x49: _int_line, 0x4c: _long_line,
    0x47: lambda u: u.stack.append(_float_unpack(u.read(8))), 0x46: _float_line,
    0x8c: lambda u: u.stack.append(u.read(u.u(1)).decode('utf-8')),
    0x58: lambda u: u.stack.append(u.read(u.u(4)).decode('utf-8')),
    0x8d: lambda u: u.stack.append(u.read(u.u(8)).decode('utf-8')),
    0x56: _unicode_line, 0x53: _string_line, 0x69: _inst, 0x6f: _obj,
    0x43: lambda u: u.stack.append(u.read(u.u(1))), 0x42: lambda u: u.stack.append(u.read(u.u(4))),
    0x8e: lambda u: u.stack.append(u.read(u.u(8))), 0x96: lambda u: u.stack.append(bytearray(u.read(u.u(8)))),
    0x29: lambda u: u.stack.append(()), 0x74: lambda u: _push_marked(u, tuple),
    0x85: _tuple_n(1), 0x86: _tuple_n(2), 0x87: _tuple_n(3),
    0x5d: lambda u: u.stack.append([]), 0x6c: lambda u: _push_marked(u, list),
    0x7d: lambda u: u.stack.append({}), 0x64: lambda u: _push_marked(u, _dict),
    0x8f: lambda u: u.stack.append(set()), 0x91: lambda u: _push_marked(u, frozenset),
    0x61: lambda u: _append(u, u.pop()), 0x65: _appends,
    0x73: _setitem, 0x75: _setitems, 0x90: _additems,
    0x30: _pop, 0x31: _pop_mark, 0x32: lambda u: u.stack.append(u.top()),
    0x94: lambda u: _set_memo(u, len(u.memo)),
    0x71: lambda u: _set_memo(u, u.u(1)), 0x72: lambda u: _set_memo(u, u.u(4)),
    0x70: lambda u: _set_memo(u, int(u.readline().decode('ascii'))),
    0x68: lambda u: _get_memo(u, u.u(1)), 0x6a: lambda u: _get_memo(u, u.u(4)),
    0x67: lambda u: _get_memo(u, int(u.readline().decode('ascii'))),
    0x93: _stack_global, 0x63: _global, 0x52: _reduce, 0x81: _newobj_op, 0x62: _build,
    0x82: _ext(1), 0x83: _ext(2), 0x84: _ext(4), 0x50: _persid, 0x51: _persid,
    0x92: _newobj_ex, 0x97: _next_buffer, 0x98: lambda u: u.top(),
}


def dumps(obj, protocol=None, *, fix_imports=True, buffer_callback=None):
    return _Pickler(protocol).dump(obj)


def dump(obj, file, protocol=None, *, fix_imports=True, buffer_callback=None):
    file.write(dumps(obj, protocol))


def loads(data, /, *, fix_imports=True, encoding="ASCII", errors="strict", buffers=()):
    if isinstance(data, str):
        raise TypeError("a bytes-like object is required, not 'str'")
    u = _Unpickler(bytes(data))
    return u.load()


def load(file, *, fix_imports=True, encoding="ASCII", errors="strict", buffers=()):
    start = file.tell()
    data = file.read()
    u = _Unpickler(data)
    out = u.load()
    file.seek(start + u.pos)
    return out
