# str by code point: lengths, items, slices, positions, widths and character classes of
# non-ASCII text, and their reprs.
s = 'héllo wörld ✓ 𝔘'
print(len(s), len('é'), len(''), len('✓'), len('𝔘'), len('a\u0301'))
print(s[0], s[1], s[-1], s[-3], s[12], repr(s[1:4]), repr(s[::-1]), repr(s[::2]), repr(s[1::3]), repr(s[-5:-1]))
print(list('naïve'), [c for c in 'ñü'], list(reversed('αβγ')), ''.join(reversed('δεζ')), sorted('ébà'))
print('ö' in s, 'wö' in s, 'x' in s, '𝔘' in s, '' in s)
print(s.find('ö'), s.find('l', 4), s.rfind('l'), s.index('✓'), s.rindex('𝔘'), s.count('l'), s.count(''), s.find('', 14), s.find('', 99))
print(s.find('o', 0, 8), s.startswith('é', 1), s.endswith('✓', 0, 13), s.startswith(('x', 'hé')), s.count('l', 3, -3))
for i in [-17, 16, 99]:
    try:
        s[i]
    except IndexError as e:
        print('IndexError', e)
print(ord('é'), ord('✓'), ord('𝔘'), ord('\x00'), chr(233), chr(0x2713), chr(0x1D518), repr(chr(0x85)), repr(chr(0x10FFFF)))
for bad in ['ab', '']:
    try:
        ord(bad)
    except TypeError as e:
        print('TypeError', e)
print(f'[{"é":>4}] [{"ñ":^5}] [{"ü":*<3}] [{"✓":.>6}] [{"αβγ":.2}] [{"x":é^5}]')
print('[{:6}] [{:>6}] [{:^7.3}]'.format('naïve', 'café', 'übermensch'))
print('[%5s] [%-5s] [%.2s] [%c] [%c] [%3c]' % ('é', 'ñ', 'αβγ', 233, 'ü', 0x2713))
print(repr('é'.ljust(3)), repr('é'.rjust(3, 'ö')), repr('é'.center(4, '·')), repr('-é'.zfill(4)), repr('✓'.center(6)))
print('αβ,γ,δ'.split(','), 'a\u3000b\u2003c d'.split(), 'x\u00a0y'.split(), 'αβγ'.partition('β'), 'αβγβ'.rpartition('β'))
print(repr('\u2003 pad\u3000'.strip()), repr('··é··'.strip('·')), repr('éxé'.strip('é')))
print(repr('ascii'), repr('café'), repr('naïve ✓'), repr('\x85'), repr('\u200b'), repr('\U000e0001'), repr('\xa0'), repr('\xad'))
print(repr('\u2028\u2029'), repr('\ufeff'), repr('\x7f\x80\x9f'), repr('\ud7ff'), repr('\U0001F600'), repr('\u0378'), repr('\U0010ffff'))
print('ÉCOLE'.lower(), 'straße'.upper(), 'ﬁn'.upper(), 'ǅ'.lower(), 'ǆ'.title(), 'İ'.lower(), len('İ'.lower()), 'ΣΑΣ'.lower(), 'Σ'.lower())
print('hÉllo wÖrld'.swapcase(), 'élan vital'.title(), 'élan'.capitalize(), 'ŉ'.capitalize(), 'Straße'.casefold(), 'ΌΣΟΣ ΣΑΣ'.lower())
print('é'.isalpha(), 'ñ1'.isalnum(), '٣'.isdigit(), '٣'.isdecimal(), '½'.isnumeric(), '½'.isdigit(), '²'.isdigit(), '²'.isdecimal())
print('\u3000\xa0\u2028'.isspace(), 'ÉCOLE'.isupper(), 'école'.islower(), 'Élan Vital'.istitle(), 'ǅungla'.istitle(), 'é'.isprintable(), '\u200b'.isprintable())
print('ñame'.isidentifier(), '٣x'.isidentifier(), 'x٣'.isidentifier(), 'é'.isascii(), 'e'.isascii(), ''.isascii())
print('é\té\tx'.expandtabs(4), 'a\u2028b\x85c\r\nd'.splitlines(), 'a\u2028b'.splitlines(True))
print('ééé'.replace('é', 'e', 2), 'αβ'.replace('', '-'), 'αβγ'.replace('', '.', 2), '-'.join('αβγ'))
print(max('aéz'), min('✓é'), 'é' < 'z', 'é' > 'z', 'α' < 'ω', {'é': 1}['é'], 'é' * 3)
it = iter('aé')
print(type(iter('ab')).__name__, type(it).__name__, next(it), next(it))
print(str(1) + 'é', '%s and %r' % ('é', 'é'), f'{"é"!r}', str(['é', 'ü']), {'ñ': 'ü'})
