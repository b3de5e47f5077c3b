# Exceptions: the built-in types and their hierarchy, args, str and repr, `except ... as`,
# tuples of classes, else/finally order, re-raise, `raise ... from`, user exception classes.
for cls in [ValueError, TypeError, KeyError, IndexError, ZeroDivisionError, AttributeError, NameError, RuntimeError,
            NotImplementedError, StopIteration, AssertionError, ArithmeticError, LookupError, OverflowError]:
    e = cls('msg', 2)
    print(cls.__name__, e.args, str(e), repr(e), isinstance(e, Exception), [b.__name__ for b in cls.__mro__[1:-1]])
print(repr(ValueError()), str(ValueError()), repr(KeyError('k')), str(KeyError('k')), str(KeyError()), repr(Exception(1, 'a')))
def order(fail):
    log = []
    try:
        log.append('try')
        if fail:
            raise fail
    except ValueError as e:
        log.append('except ' + repr(e))
    except (KeyError, IndexError) as e:
        log.append('tuple ' + type(e).__name__)
    else:
        log.append('else')
    finally:
        log.append('finally')
    return log
print(order(None), order(ValueError('v')), order(KeyError), order(IndexError('i')))
try:
    order(TypeError('escapes'))
except TypeError as e:
    print('outer', e)
def returns_in_finally():
    try:
        return 'try'
    finally:
        print('finally runs before the return')
print(returns_in_finally())
class AppError(Exception):
    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code
    def __str__(self):
        return '[%d] %s' % (self.code, self.args[0])
class DbError(AppError):
    pass
try:
    raise DbError(7, 'db down')
except AppError as e:
    print(type(e).__name__, e.code, e.args, str(e), isinstance(e, Exception))
try:
    try:
        {}['k']
    except KeyError as e:
        raise ValueError('wrapped') from e
except ValueError as e:
    print(repr(e), repr(e.__cause__), type(e.__cause__).__name__, e.__suppress_context__)
try:
    raise ValueError('plain')
except ValueError as e:
    print(e.__cause__, e.__suppress_context__)
try:
    try:
        raise KeyError('inner')
    except KeyError:
        raise
except KeyError as e:
    print('re-raised', repr(e))
try:
    raise RuntimeError
except RuntimeError as e:
    print(repr(e), e.args)
try:
    assert 1 == 2, 'one is not two'
except AssertionError as e:
    print('AssertionError', e)
try:
    raise ValueError('x') from None
except ValueError as e:
    print(e.__cause__, e.__suppress_context__)
e = None
try:
    1 / 0
except ZeroDivisionError as err:
    e = err
print(type(e).__name__, e)
try:
    raise 5
except TypeError as err:
    print('TypeError', err)
try:
    raise ValueError from 3
except TypeError as err:
    print('TypeError', err)
