# src/py/python/types.py: Python's types module for lesson code, in attn's Python: GenericAlias
# (what list[int] makes) and UnionType (what int | None makes, PEP 604), with CPython 3.11's
# reprs, equality, attributes (__origin__, __args__) and errors; NoneType, FunctionType and
# the like as type(...) of attn's own values.
# What it is not: CPython's whole module (no new_class, MappingProxyType, CodeType): the
# interpreter makes these objects itself (protocol.cpp: class[...] and class | class, through
# `_generic_alias` and `_union`); isinstance(x, int | str) reads a union's __args__.

NoneType = type(None)
EllipsisType = type(...)
NotImplementedType = type(NotImplemented)
FunctionType = LambdaType = type(lambda: None)
BuiltinFunctionType = BuiltinMethodType = type(len)


def _type_repr(obj):
    if obj is None or obj is NoneType:
        return 'None'
    if isinstance(obj, type) and not isinstance(obj, GenericAlias):
        if obj.__module__ == 'builtins':
            return obj.__qualname__
        return f'{obj.__module__}.{obj.__qualname__}'
    if obj is ...:
        return '...'
    return repr(obj)


def _unionable(x):
    return x is None or isinstance(x, (type, GenericAlias, UnionType))


class GenericAlias:
    def __init__(self, origin, args):
        if not isinstance(args, tuple):
            args = (args,)
        self.__origin__ = origin
        self.__args__ = args
        self.__parameters__ = ()

    def __repr__(self):
        if not self.__args__:
            return f'{_type_repr(self.__origin__)}[()]'
        return f"{_type_repr(self.__origin__)}[{', '.join([_type_repr(a) for a in self.__args__])}]"

    def __eq__(self, other):
        if not isinstance(other, GenericAlias):
            return NotImplemented
        return self.__origin__ == other.__origin__ and self.__args__ == other.__args__

    def __hash__(self):
        return hash(self.__origin__) ^ hash(self.__args__)

    def __call__(self, *args, **kwargs):
        return self.__origin__(*args, **kwargs)

    def __getattr__(self, name):
        if name.startswith('__') and name.endswith('__'):
            raise AttributeError(name)
        return getattr(self.__origin__, name)

    def __or__(self, other):
        return _union(self, other)

    def __ror__(self, other):
        return _union(other, self)


class UnionType:
    def __init__(self, args):
        self.__args__ = args
        self.__parameters__ = ()

    def __repr__(self):
        return ' | '.join([_type_repr(a) for a in self.__args__])

    def __eq__(self, other):
        if not isinstance(other, UnionType):
            return NotImplemented
        return set(self.__args__) == set(other.__args__)

    def __hash__(self):
        return hash(frozenset(self.__args__))

    def __or__(self, other):
        return _union(self, other)

    def __ror__(self, other):
        return _union(other, self)


def _union(a, b):
    """a | b of two types (or None, list[int], a union), as CPython's _Py_union_type_or: the
    members flattened, each once, in order; NotImplemented for anything else."""
    if not (_unionable(a) and _unionable(b)):
        return NotImplemented
    members = []
    for x in (a, b):
        for m in (x.__args__ if isinstance(x, UnionType) else (x,)):
            m = NoneType if m is None else m
            if m not in members:
                members.append(m)
    if len(members) == 1:
        return members[0]
    return UnionType(tuple(members))


def _generic_alias(origin, args):
    return GenericAlias(origin, args)


class SimpleNamespace:
    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)

    def __repr__(self):
        items = ', '.join([f'{k}={v!r}' for k, v in self.__dict__.items()])
        return f'namespace({items})'

    def __eq__(self, other):
        if not isinstance(other, SimpleNamespace):
            return NotImplemented
        return self.__dict__ == other.__dict__
