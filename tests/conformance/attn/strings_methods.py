# str methods with their optional arguments, on ASCII text.
s = 'Hello, World! hello'
print(s.upper(), s.lower(), s.swapcase(), s.title(), s.capitalize())
print(s.find('l'), s.find('l', 5), s.find('l', 5, 8), s.find('zz'), s.rfind('l'), s.rfind('l', 0, 5))
print(s.index('World'), s.rindex('o'), s.count('l'), s.count('l', 4), s.count('l', 4, -3), s.count(''))
for bad in ('index', 'rindex'):
    try:
        getattr(s, bad)('xyz')
    except ValueError as e:
        print(bad, 'ValueError', e)
print(s.startswith('Hell'), s.startswith('World', 7), s.startswith(('x', 'H')), s.endswith('llo'), s.endswith('!', 0, 13))
print(s.replace('l', 'L'), s.replace('l', 'L', 2), s.replace('', '-')[:12])
print(s.split(), s.split(', '), s.split('l', 2), s.split(None, 1))
print('  a  b  '.split(' '), ''.split(), ''.split(','), 'a,,b'.split(','))
print(repr('  pad  '.strip()), repr('  pad  '.lstrip()), repr('  pad  '.rstrip()), repr('xxpadxx'.strip('x')))
print('-'.join(['a', 'b', 'c']), ''.join('xyz'), ', '.join(str(i) for i in range(4)))
print(repr('ab'.center(7, '*')), repr('ab'.ljust(5)), repr('ab'.rjust(5, '.')), repr('42'.zfill(5)), repr('-42'.zfill(6)))
print('a=b=c'.partition('='), 'a=b=c'.rpartition('='), 'abc'.partition('x'), 'abc'.rpartition('x'))
print('abc'.isalpha(), 'ab1'.isalnum(), '123'.isdigit(), ' \t'.isspace(), 'ABC'.isupper(), 'abc'.islower(), 'aB'.islower(), ''.isupper())
print('prefix_name'.removeprefix('prefix_'), 'name.py'.removesuffix('.py'), 'keep'.removeprefix('x'))
print('abc' * 3, 3 * 'ab', 'a' + 'b', 'b' in 'abc', 'x' not in 'abc', 'abc' < 'abd', 'B' < 'a')
t = 'abcdefghij'
print(t[2], t[-1], t[2:5], t[:3], t[7:], t[::2], t[::-1], t[-3:-1], t[8:2:-2], t[100:], t[-100:2])
try:
    t[20]
except IndexError as e:
    print('IndexError', e)
print(len(t), sorted('banana'), list('abc'), min('hello'), max('hello'))
print(str(12), str(1.5), str(None), str(True), repr('x'), str([1, 'a']))
