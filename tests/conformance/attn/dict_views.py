# dict views: keys(), values(), items() as CPython prints and combines them, and dict.fromkeys.
d = {'a': 1, 'b': 2, 'c': 3}
k, v, it = d.keys(), d.values(), d.items()
print(k, v, it, {}.keys(), {}.values(), {}.items())
print(len(k), len(v), len(it), 'a' in k, 'z' in k, 2 in v, 9 in v, ('a', 1) in it, ('a', 2) in it, 'a' in it, bool({}.keys()))
print(list(k), list(v), list(it), sorted(k), tuple(v), [x for x in it], list(reversed(k)), list(reversed(v)), list(reversed(it)))
d['d'] = 4
print(k, v, it, len(k))
print(k & {'a', 'x'}, sorted(k - {'a', 'b'}), sorted(k | {'z'}), sorted(k ^ {'a', 'z'}), {'b'} & k, ['c'] & k, type(k & k).__name__)
print(it & {('a', 1)}, it - {('a', 1), ('b', 2), ('c', 3)}, k == {'a', 'b', 'c', 'd'}, k == {'a'}, k != {'a'}, it == {('a', 1)})
print(k == d.keys(), d.keys() == {'a': 0, 'b': 0, 'c': 0, 'd': 0}.keys(), v == v, k.isdisjoint({'x'}), k.isdisjoint(['a']), it.isdisjoint([('a', 1)]))
print(type(k).__name__, type(v).__name__, type(it).__name__, type(reversed(k)).__name__, str(k), repr(it))
for bad in [lambda: k[0], lambda: v | {1}, lambda: hash(k), lambda: d.keys(1)]:
    try:
        bad()
    except TypeError as e:
        print('TypeError', e)
print(dict.fromkeys('abc'), dict.fromkeys([1, 2], 0), {}.fromkeys(range(3), 'x'), dict.fromkeys(k))
nested = {1: {'x': [1, 2]}, 2: {}}
print(nested.items(), nested.values(), max(d.values()), sum(d.values()), min(d.items()), dict(d.items()) == d)
for key, value in d.items():
    print(key, value, end='; ')
print()
