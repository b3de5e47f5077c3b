# lists, tuples, dicts, sets: methods, slicing, unpacking, comparisons, reprs.
xs = [3, 1, 4, 1, 5, 9, 2, 6]
print(xs[1:6:2], xs[::-1], xs[-2:], xs[5:1:-1], xs.index(1), xs.index(1, 2), xs.count(1), len(xs))
ys = xs[:]
ys.sort(); ys.reverse(); ys.append(0); ys.extend(range(2)); ys.insert(1, 7); ys.insert(-100, -1)
print(ys, ys.pop(), ys.pop(0), ys.pop(-2), ys)
ys.remove(1); del ys[0]; del ys[1:3]
print(ys, sorted(xs, reverse=True), sorted(['b', 'A', 'c'], key=str.lower), list(reversed(xs)))
zs = [0] * 5
zs[1:3] = ['a', 'b', 'c']
print(zs, [1, 2] + [3], [[0] * 2] * 2, [1, 2] == [1, 2], [1, 2] < [1, 3], [1] < [1, 0], 2 in xs)
try:
    xs.index(100)
except ValueError as e:
    print('ValueError', e)
try:
    [].pop()
except IndexError as e:
    print('IndexError', e)
t = (1, 'two', 3.0, None)
a, b, *rest = t
(p, q), r = (1, 2), 3
print(t, t[1:], a, b, rest, p, q, r, (1,), (), tuple('ab'), t.index(3.0), t.count(None), (1, 2) < (1, 2, 0))
d = {'b': 1, 'a': 2}
d['c'] = 3
d.update({'a': 20}, )
d.update([('e', 5)], f=6)
print(d, list(d), list(d.keys()), list(d.values()), list(d.items()), d.get('zz'), d.get('zz', 0), 'a' in d, len(d))
print(d.pop('b'), d.pop('zz', 'default'), d.setdefault('g', []), d.setdefault('a', 0), d.popitem(), d)
print({k: v for k, v in zip('xyz', range(3))}, dict(a=1, b=2), dict([(1, 2)]), dict(zip([1, 2], 'ab')), {**d, 'new': 1})
print({1: 'a'} | {2: 'b'}, {1: 'a'} == {1: 'a'}, sorted({3: 0, 1: 0}))
try:
    d['missing']
except KeyError as e:
    print('KeyError', e, repr(e))
e1 = {}
e1 |= {'k': 1}
print(e1)
s1, s2 = {5, 1, 3, 9}, {3, 4, 5}
print(s1 | s2, s1 & s2, s1 - s2, s1 ^ s2, s1 <= s2, {1} < s1, s1.isdisjoint({100}), len(s1), 3 in s1)
alias = s1
s1 |= {10}
s1 -= {1}
print(alias, alias is s1)
s1.add(2); s1.discard(100); s1.remove(5)
print(s1, s1.pop(), s1, set(), set([3, 3, 1]), {x % 3 for x in range(10)})
s3 = {1, 2, 3, 4}
s3.intersection_update({2, 3, 7}); print(s3)
s3.difference_update([3]); print(s3)
s3.symmetric_difference_update({2, 8}); print(s3, s3.symmetric_difference({8, 9}))
try:
    set().pop()
except KeyError as e:
    print('KeyError', e)
m = [[1, 2], [3, 4]]
print([row[::-1] for row in m], [x for row in m for x in row], list(zip(*m)), list(enumerate('ab', 1)), list(map(lambda x, y: x + y, [1, 2], [10, 20])))
print(any([]), all([]), any([0, 1]), all([1, 0]), sum([[1], [2]], []), min([], default=5), max('abc', key=ord))
