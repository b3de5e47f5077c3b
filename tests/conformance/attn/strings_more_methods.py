# The str methods beyond the everyday ones: splitlines, rsplit, expandtabs, casefold, the is*
# family, translate/maketrans, format_map, and their errors.
print('a\nb\r\nc\rd\x0be\x0cf\x1cg\x1dh\x1ei'.splitlines(), 'x\n\ny\n'.splitlines(), ''.splitlines(), '\n'.splitlines(True))
print('one\ntwo\r\n'.splitlines(keepends=True), 'a\r\n'.splitlines(1))
print('a b  c '.rsplit(), 'a b  c '.rsplit(None, 1), 'a,b,c'.rsplit(',', 1), 'a,b,c'.rsplit(','), ',a,'.rsplit(','), 'aaa'.rsplit('aa'))
print('  x  y  '.rsplit(maxsplit=1), 'a--b--c'.rsplit('--', maxsplit=0), ''.rsplit(), ''.rsplit('x'), 'a\x1cb'.split())
print(repr('a\tb\tc'.expandtabs()), repr('ab\tc'.expandtabs(4)), repr('\tx\n\ty'.expandtabs(2)), repr('a\tb'.expandtabs(0)), repr('a\tb'.expandtabs(tabsize=3)))
print('HeLLo'.casefold(), 'Hello World'.swapcase(), 'hello wORLD'.title(), "they're bill's".title(), 'a1b2c3'.title(), 'x'.capitalize())
print('Hello World'.istitle(), 'Hello world'.istitle(), 'HELLO'.istitle(), ''.istitle(), '1A'.istitle(), 'A1 B2'.istitle())
print('abc'.isidentifier(), '_x1'.isidentifier(), '1x'.isidentifier(), ''.isidentifier(), 'a-b'.isidentifier(), 'class'.isidentifier())
print('abc'.isprintable(), 'a\n'.isprintable(), ''.isprintable(), ' '.isprintable(), '\x7f'.isprintable())
print('123'.isdecimal(), '12.3'.isdecimal(), ''.isdecimal(), '123'.isnumeric(), '-1'.isnumeric(), 'abc'.isascii(), ''.isascii())
print('ABC'.isupper(), 'AbC'.isupper(), 'A1'.isupper(), '1'.isupper(), 'a1'.islower(), '1'.islower())
print('pre_x'.removeprefix('pre_'), 'x.py'.removesuffix('.py'), 'x'.removeprefix(''), 'x'.removesuffix('xx'))
table = str.maketrans('abc', 'xyz')
print(table, 'aabbcc'.translate(table), str.maketrans({'a': 'A', 98: None, 'c': 67}), str.maketrans('ab', 'cd', 'e'))
print('abcde'.translate(str.maketrans('ab', 'ba', 'e')), 'hello'.translate({ord('l'): 'LL', ord('o'): None}), 'x'.maketrans('a', 'b'))
print('{name} is {age}'.format_map({'name': 'Ann', 'age': 7}), '{0}'.format('z'), '{a[0]}-{b[k]}'.format_map({'a': [5], 'b': {'k': 2}}))
class Lookup:
    def __getitem__(self, key):
        return '<' + key + '>'
print('{x} and {y}'.format_map(Lookup()))
cases = [
    lambda: 'a'.center(5, 1), lambda: 'a'.center(5, 'ab'), lambda: 'a'.strip(1), lambda: 'a'.split(1), lambda: 'a'.rsplit(1),
    lambda: 'a'.split(''), lambda: 'a'.rsplit(''), lambda: 'a'.expandtabs('x'), lambda: 'a'.translate(1), lambda: str.maketrans(1),
    lambda: str.maketrans('ab', 'c'), lambda: str.maketrans({'ab': 1}), lambda: str.maketrans({1.5: 1}), lambda: str.maketrans('a', 1),
    lambda: str.maketrans(1, 'a'), lambda: str.maketrans('a', 'b', 1), lambda: 'abc'.translate({97: 1.5}), lambda: 'abc'.translate({97: -1}),
    lambda: '{x}'.format_map({}), lambda: 'a'.removeprefix(1), lambda: 'a'.join([1]), lambda: 'a'.join(['b', 2]), lambda: 'a'.casefold(1),
    lambda: 'a'.isidentifier(1), lambda: 'a'.replace('a'), lambda: 'a'.replace(1, 'b'), lambda: 'x'.ljust(3, fillchar='y'),
    lambda: table.get(0, 'x')[1.5], lambda: chr(-1), lambda: chr(0x110000), lambda: '%c' % 0x110000, lambda: '%c' % 'ab', lambda: '{:c}'.format(-1),
    lambda: '{:+c}'.format(65), lambda: 'a'.translate(), lambda: str.maketrans(),
]
for f in cases:
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__, e)
print('[{:c}] [{:5c}] [{:<5c}] [{:^5c}] [{:05c}]'.format(65, 66, 67, 68, 69), '%-3c|%3c' % (70, 'G'))
print('aXbXc'.split('X', 1), 'a  b'.split(' '), '\x1f x \x1c'.strip(), 'ab'.replace('', '-', 2), 'ab'.replace('', '-', 0))
