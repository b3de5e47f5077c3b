# src/py/python/typing.py: Python's typing for lesson code, in attn's Python: the special forms
# and generic aliases tutorials annotate with (Any, Optional, Union, List, Dict, Tuple, Callable,
# ...), subscriptable, with CPython 3.11's reprs (typing.Optional[int]) and equality; TypeVar,
# Generic, Protocol, cast, overload, get_origin, get_args, TYPE_CHECKING.
# Written after CPython 3.11's Lib/typing.py, much simplified.
# What it is not: a type checker: attn never checks a value against an annotation; no
# get_type_hints, ParamSpec, TypedDict, NewType runtime checks.

TYPE_CHECKING = False
_NoneType = type(None)


def _type_repr(obj):
    if isinstance(obj, type):
        if obj.__module__ == 'builtins':
            return obj.__qualname__
        return f'{obj.__module__}.{obj.__qualname__}'
    if obj is ...:
        return '...'
    if obj is None:
        return 'None'
    return repr(obj)


def _type_check(arg):
    if arg is None:
        return _NoneType
    return arg


class _Final:
    pass


class _GenericAlias(_Final):
    def __init__(self, origin, args, name):
        self.__origin__ = origin
        self.__args__ = args
        self._name = name

    def __repr__(self):
        if self._name == 'Optional':
            return f'typing.Optional[{_type_repr(self.__args__[0])}]'
        if self._name == 'Callable' and len(self.__args__) == 2 and self.__args__[0] is not ... and isinstance(self.__args__[0], tuple):
            params = ', '.join([_type_repr(a) for a in self.__args__[0]])
            return f'typing.Callable[[{params}], {_type_repr(self.__args__[1])}]'
        if self._name == 'Tuple' and self.__args__ == ():
            return 'typing.Tuple[()]'
        return f"typing.{self._name}[{', '.join([_type_repr(a) for a in self.__args__])}]"

    def __eq__(self, other):
        if not isinstance(other, _GenericAlias):
            return NotImplemented
        return self.__origin__ == other.__origin__ and self.__args__ == other.__args__

    def __hash__(self):
        try:
            return hash(self.__args__)
        except NotImplementedError:   # attn does not hash strings (Literal['a'])
            return len(self.__args__)

    def __getitem__(self, params):
        if not isinstance(params, tuple):
            params = (params,)
        return _GenericAlias(self.__origin__, params, self._name)

    def __call__(self, *args, **kwargs):
        raise TypeError(f"Type {self._name} cannot be instantiated; use {self.__origin__.__name__}() instead")


class _SpecialGenericAlias(_Final):
    def __init__(self, origin, name, nparams=-1):
        self.__origin__ = origin
        self._name = name
        self._nparams = nparams

    def __repr__(self):
        return f'typing.{self._name}'

    def __getitem__(self, params):
        if not isinstance(params, tuple):
            params = (params,)
        if self._name == 'Callable':
            if len(params) != 2:
                raise TypeError("Callable must be used as Callable[[arg, ...], result].")
            args, result = params
            if args is not ...:
                args = tuple(args)
            return _GenericAlias(self.__origin__, (args, result), 'Callable')
        if self._name == 'Tuple':
            if params == ((),):
                params = ()
            return _GenericAlias(self.__origin__, params, 'Tuple')
        if self._nparams >= 0 and len(params) != self._nparams:
            many = 'many' if len(params) > self._nparams else 'few'
            raise TypeError(f"Too {many} arguments for typing.{self._name}; actual {len(params)}, expected {self._nparams}")
        return _GenericAlias(self.__origin__, tuple([_type_check(p) for p in params]), self._name)

    def __call__(self, *args, **kwargs):
        raise TypeError(f"Type {self._name} cannot be instantiated; use {self.__origin__.__name__}() instead")


def _flatten_union(params):
    out = []
    for p in params:
        p = _type_check(p)
        if isinstance(p, _GenericAlias) and p._name in ('Union', 'Optional'):
            more = p.__args__
        else:
            more = (p,)
        for m in more:
            if m not in out:
                out.append(m)
    return tuple(out)


class _SpecialForm(_Final):
    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return 'typing.' + self._name

    def __call__(self, *args, **kwargs):
        raise TypeError(f"Cannot instantiate {self!r}")

    def __getitem__(self, params):
        name = self._name
        if name == 'Optional':
            if isinstance(params, tuple):
                raise TypeError(f"typing.Optional requires a single type. Got {params!r}.")
            return Union[params, None]
        if name == 'Union':
            if not isinstance(params, tuple):
                params = (params,)
            if params == ():
                raise TypeError("Cannot take a Union of no types.")
            args = _flatten_union(params)
            if len(args) == 1:
                return args[0]
            if len(args) == 2 and args[1] is _NoneType:
                return _GenericAlias(Union, args, 'Optional')
            return _GenericAlias(Union, args, 'Union')
        if name == 'Literal':
            if not isinstance(params, tuple):
                params = (params,)
            return _GenericAlias(Literal, params, 'Literal')
        if name in ('ClassVar', 'Final'):
            return _GenericAlias(self, (params,), name)
        raise TypeError(f"{self} is not subscriptable")


Any = _SpecialForm('Any')
NoReturn = _SpecialForm('NoReturn')
Optional = _SpecialForm('Optional')
Union = _SpecialForm('Union')
Literal = _SpecialForm('Literal')
ClassVar = _SpecialForm('ClassVar')
Final = _SpecialForm('Final')


class _Abstract:
    pass


Iterable = _SpecialGenericAlias(_Abstract, 'Iterable', 1)
Iterator = _SpecialGenericAlias(_Abstract, 'Iterator', 1)
Sequence = _SpecialGenericAlias(_Abstract, 'Sequence', 1)
Mapping = _SpecialGenericAlias(_Abstract, 'Mapping', 2)
MutableMapping = _SpecialGenericAlias(_Abstract, 'MutableMapping', 2)
Generator = _SpecialGenericAlias(_Abstract, 'Generator', 3)
Hashable = _SpecialGenericAlias(_Abstract, 'Hashable', 0)
Callable = _SpecialGenericAlias(_Abstract, 'Callable')
List = _SpecialGenericAlias(list, 'List', 1)
Dict = _SpecialGenericAlias(dict, 'Dict', 2)
Set = _SpecialGenericAlias(set, 'Set', 1)
FrozenSet = _SpecialGenericAlias(_Abstract, 'FrozenSet', 1)
Tuple = _SpecialGenericAlias(tuple, 'Tuple')
Type = _SpecialGenericAlias(type, 'Type', 1)
DefaultDict = _SpecialGenericAlias(_Abstract, 'DefaultDict', 2)
OrderedDict = _SpecialGenericAlias(_Abstract, 'OrderedDict', 2)
Counter = _SpecialGenericAlias(_Abstract, 'Counter', 1)
Deque = _SpecialGenericAlias(_Abstract, 'Deque', 1)


class TypeVar(_Final):
    def __init__(self, name, *constraints, bound=None, covariant=False, contravariant=False):
        self.__name__ = name
        self.__constraints__ = constraints
        self.__bound__ = bound
        self.__covariant__ = covariant
        self.__contravariant__ = contravariant

    def __repr__(self):
        if self.__covariant__:
            prefix = '+'
        elif self.__contravariant__:
            prefix = '-'
        else:
            prefix = '~'
        return prefix + self.__name__


class Generic:
    def __class_getitem__(cls, params):
        return cls


class Protocol:
    def __class_getitem__(cls, params):
        return cls


def cast(typ, val):
    return val


def overload(func):
    return func


def final(f):
    return f


def no_type_check(arg):
    return arg


def runtime_checkable(cls):
    return cls


def get_origin(tp):
    if isinstance(tp, _GenericAlias):
        if tp._name in ('Optional', 'Union'):
            return Union
        return tp.__origin__
    if tp is Generic:
        return Generic
    return None


def get_args(tp):
    if isinstance(tp, _GenericAlias):
        if tp._name == 'Callable' and tp.__args__[0] is not ...:
            return (list(tp.__args__[0]), tp.__args__[1])
        return tp.__args__
    return ()


def NewType(name, tp):
    def new_type(x):
        return x
    new_type.__name__ = name
    new_type.__qualname__ = name
    new_type.__supertype__ = tp
    return new_type
