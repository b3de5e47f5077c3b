# ints (small, big, every base of literal), floats, bools: operators, builtins, reprs, errors.
print(0x1F, 0o17, 0b101, 0X_ff, 1_000_000, 0xdead_beef, 0b1111_0000)
big = 2 ** 100
print(big, -big, big + 1, big * big, big // 7, big % 7, -big // 7, -big % 7, big >> 90, 1 << 70, big & 0xffff, big | 1, big ^ big)
print(7 // 2, -7 // 2, 7 % -2, -7 % 2, 7 / 2, -7 / 2, 2 ** -1, (-2) ** 3, 2 ** 0.5, (-8) ** 2)
print(divmod(7, 2), divmod(-7, 2), divmod(7.5, 2), divmod(big, 3), divmod(-7, -2))
print(pow(2, 10), pow(2, 10, 1000), pow(3, -1, 7), pow(-2, 3, 5), pow(2, 100, -7), pow(2.0, 3))
print(hex(255), hex(-255), oct(8), bin(5), bin(-5), hex(big), bin(0), hex(True))
print(int('42'), int(' -7 '), int('1_000'), int(3.9), int(-3.9), int(True), int('ff', 16), int('0x1f', 16), int('0b11', 0), int('z', 36))
print(float('1.5'), float('-inf'), float(' 2 '), float(10), float('1e3'), float(big))
print(abs(-3), abs(-2.5), abs(big), round(2.5), round(3.5), round(-2.5), round(2.675, 2), round(1234, -2), round(1.5e300))
print(0.1 + 0.2, 1 / 3, 1e16, 1e-5, 123456789.0 * 10, 1.0, -0.0, 2.5e-320, float('nan'), 1e308 * 10)
print(True + True, True * 3, False - 1, True / 2, True & False, True | False, True ^ True, ~True, -True)
print(1 == 1.0, 2 ** 53 + 1 == float(2 ** 53), 1 < 2 < 3, 3 > 2 > 2, 0.1 + 0.2 == 0.3, big > 1e30, -big < -1e30)
print(hash(1) == hash(1.0) == hash(True), hash(big) == hash(big + 0), hash(2 ** 61 - 1), hash(-1), hash(1.5))
print(max(1, 2.5, big), min([3, -1, 2]), sum([1, 2, 3], 10), sum([0.1] * 10), sorted([3, 1.5, -2, big]))
for expr in ['1 / 0', '1 // 0', '1 % 0', '1.0 / 0', 'divmod(1, 0)', "int('x')", "int('9', 8)", 'float("abc")', '2 ** 10000.0', "pow(2, 3, 0)", "pow(2.0, 3, 5)", "hex(1.5)", "1 + 'a'", "'a' * 1.5", "-'a'"]:
    try:
        print(expr, '->', end=' ')
        print({'1 / 0': lambda: 1 / 0, '1 // 0': lambda: 1 // 0, '1 % 0': lambda: 1 % 0, '1.0 / 0': lambda: 1.0 / 0,
               'divmod(1, 0)': lambda: divmod(1, 0), "int('x')": lambda: int('x'), "int('9', 8)": lambda: int('9', 8),
               'float("abc")': lambda: float("abc"), '2 ** 10000.0': lambda: 2 ** 10000.0, "pow(2, 3, 0)": lambda: pow(2, 3, 0),
               "pow(2.0, 3, 5)": lambda: pow(2.0, 3, 5), "hex(1.5)": lambda: hex(1.5), "1 + 'a'": lambda: 1 + 'a',
               "'a' * 1.5": lambda: 'a' * 1.5, "-'a'": lambda: -'a'}[expr]())
    except Exception as e:
        print(type(e).__name__ + ':', e)
x = 5
x += 2; x -= 1; x *= 3; x //= 4; x **= 2; x %= 7; x <<= 3; x >>= 1; x |= 1; x &= 0xff; x ^= 0b101
print(x)
