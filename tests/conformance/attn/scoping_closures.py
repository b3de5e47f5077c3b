# Comprehension scopes, closures (late binding, nonlocal, global), decorators with and without
# arguments, default arguments evaluated once, *args/**kwargs, keyword-only and positional-only.
x = 'module'
squares = [x * x for x in range(4)]
print(squares, x)
print({x: x for x in 'ab'}, x, {x for x in [1]}, x)
y = 10
print([y + i for i in range(3)], [[i * j for j in range(3)] for i in range(3)])
funcs = [lambda: i for i in range(3)]
print([f() for f in funcs], [(lambda k=i: k)() for i in range(3)])
def counter():
    n = 0
    def inc(step=1):
        nonlocal n
        n += step
        return n
    def get():
        return n
    return inc, get
inc, get = counter()
inc(); inc(5)
print(get(), inc(), counter()[1]())
total = 0
def add(v):
    global total
    total += v
add(3); add(4)
print(total)
def outer():
    v = 'enclosing'
    def inner():
        return v
    v = 'changed'
    return inner()
print(outer())
def bad():
    print(z)
    z = 1
try:
    bad()
except UnboundLocalError as e:
    print('UnboundLocalError', e)
def logged(fn):
    def wrapper(*args, **kwargs):
        print('call', fn.__name__, args, kwargs)
        return fn(*args, **kwargs)
    return wrapper
def repeat(n):
    def deco(fn):
        def wrapper(*a):
            return [fn(*a) for _ in range(n)]
        return wrapper
    return deco
@logged
def mul(a, b=2):
    return a * b
@repeat(3)
def hello(name):
    return 'hi ' + name
@logged
@repeat(2)
def both():
    return 1
print(mul(4), mul(2, b=5), hello('x'), both())
def append_to(v, acc=[]):
    acc.append(v)
    return acc
print(append_to(1), append_to(2))
def kinds(a, b, /, c, *, d, e=5, **rest):
    return a, b, c, d, e, rest
print(kinds(1, 2, 3, d=4), kinds(1, 2, c=3, d=4, e=6, f=7))
for call in [lambda: kinds(1, 2, 3), lambda: kinds(1, b=2, c=3, d=4), lambda: kinds(1, 2, 3, 4, d=5), lambda: mul(), lambda: mul(1, 2, 3), lambda: mul(1, c=2), lambda: mul(1, a=2)]:
    try:
        call()
    except TypeError as e:
        print('TypeError', e)
def star(*args, **kwargs):
    return args, kwargs
print(star(), star(1, *[2, 3], x=1, **{'y': 2}), (lambda *a, **k: (a, k))(1, z=2))
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)
print(fact(20), fact(30))
