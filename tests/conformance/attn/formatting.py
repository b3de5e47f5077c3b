# format(), str.format, f-strings and % formatting of ints, floats and strings.
for spec in ['', 'd', '5d', '<5d', '^7d', '+d', ' d', '05d', ',d', '_d', 'x', '#x', 'X', '#o', 'b', '#b', '08b', '_b', 'e', '.2f', '%', 'c']:
    print(repr(spec), repr(format(42, spec)), repr(format(-1234567, spec)) if spec != 'c' else '')
for spec in ['', '6', '.3', '.0', 'f', '.2f', '10.4f', '<10.2f', '^10.1f', '+.3e', 'E', 'g', '.3g', 'G', '%', '.1%', ',.2f', '012.3f', '=+10.2f', '*>9.2f']:
    print(repr(spec), repr(format(3.14159, spec)), repr(format(-1234.5, spec)), repr(format(1e20, spec)))
for spec in ['', '10', '<10', '>10', '^10', '*^9', '.2', '5.1']:
    print(repr(spec), repr(format('hello', spec)))
print(format(float('inf'), '8.2f'), format(float('-inf'), ''), format(float('nan'), 'e'), format(-0.0, ''), format(0.0, '.2e'))
print('{} {} {}'.format(1, 'a', 2.5), '{2}{1}{0}'.format('a', 'b', 'c'), '{x}-{y}'.format(x=1, y=2))
print('{0!r} {0!s} {0!a}'.format('q'), '{:>{w}}|'.format('r', w=5), '{:{f}{a}{w}}'.format(7, f='*', a='^', w=5))
print('{0[1]} {0[0]}'.format(['x', 'y']), '{d[k]}'.format(d={'k': 'v'}), '{{literal}} {}'.format(1))
class P:
    x = 3
print('{0.x} {p.x}'.format(P(), p=P()))
for bad in ['{', '}', '{0!x}', '{0', '{:d}']:
    try:
        print(bad.format('s'))
    except (ValueError, IndexError) as e:
        print(repr(bad), type(e).__name__, e)
try:
    '{} {1}'.format(1, 2)
except ValueError as e:
    print(e)
try:
    '{1}'.format(1)
except IndexError as e:
    print(e)
x, name, items = 3.14159, 'pi', [1, 2]
print(f'{x}', f'{x:.2f}', f'{x:>10.3f}|', f'{name!r}', f'{name:^8}|', f'{items}', f'{x=}', f'{x = :.1f}', f'{1 + 2}', f'{"nested"}')
print(f'{255:#x} {255:08b} {1234567:,} {0.5:%} {-3:+d} {7:3}|{7:<3}|')
print('%d %i %5d %-5d| %05d %+d % d' % (42, 42, 42, 42, 42, 42, 42))
print('%x %X %#x %o %#o' % (255, 255, 255, 8, 8))
print('%f %.2f %10.3f %-10.1f| %e %.2E %g %G' % (3.14159, 3.14159, 3.14159, 3.14159, 31415.9, 31415.9, 0.00001, 1e20))
print('%s %r %s %5s| %-5s| %.2s' % ('a', 'a', [1], 'ab', 'ab', 'abc'), '100%%' % ())
print('%s' % (1,), '%s and %s' % (1, 2), '%d%%' % 50)
for bad in [('%d', 'x'), ('%s %s', (1,)), ('%s', (1, 2))]:
    try:
        print(bad[0] % bad[1])
    except TypeError as e:
        print(type(e).__name__, e)
