#!/usr/bin/python3
"""make_rempitab.py: print the Payne-Hanek table of Sleef 3.5.1's single-precision trig
(Sleef_rempitabsp) as C++ hex-float rows, for src/core/kernels/sleef_rempitab.h.

What it is: the construction of Sleef's src/gencoef/mkrempitab.c (its float part) redone with
Python integers: for i = 25..127, ex = i - 23, the value frac(2^ex / (2 pi)) / 2^ex (times 2^64
for i > 90), split into four floats: three rounded to double then to float with the two low bits
cleared, the last rounded to double then to float. 1/pi is computed here (Machin's formula)
to 2,200 bits; mkrempitab.c uses 2,048-bit MPFR, far more than the 120 bits the rows keep.
What it is not: needed to build or test attn (the output is committed); nor the double table.

Usage: /usr/bin/python3 tools/make_rempitab.py > src/core/kernels/sleef_rempitab.h
"""
import struct
from fractions import Fraction

PREC = 2200


def arctan_inv(x, one):
    """arctan(1/x) * one, by its Taylor series in integers."""
    total, term, k, sign = 0, one // x, 1, 1
    while term:
        total += sign * (term // k)
        term //= x * x
        k += 2
        sign = -sign
    return total


def pi_fixed():
    one = 1 << (PREC + 32)
    pi = 4 * (4 * arctan_inv(5, one) - arctan_inv(239, one))
    return Fraction(pi, one)


def f32(d):
    """A double rounded to the nearest float32 (as C's double -> float)."""
    return struct.unpack('<f', struct.pack('<f', d))[0]


def removelsbf(f):
    bits = struct.unpack('<I', struct.pack('<f', f))[0] & 0xfffffffc
    return struct.unpack('<f', struct.pack('<I', bits))[0]


def row(i, rpi):
    m = -64 if i > 90 else 0
    ex = i - 23
    y = rpi * (1 << ex)
    x = (y - (y.numerator // y.denominator)) / (1 << ex)   # mpfr_frac, then / 2^ex
    x = x * Fraction(2) ** (-m)                             # mpfr_set_exp(exp - M)
    out = []
    for k in range(3):
        r = removelsbf(f32(float(x)))                       # float(Fraction) rounds correctly
        out.append(r)
        x -= Fraction(r)
    out.append(f32(float(x)))
    return out


def main():
    rpi = Fraction(1, 2) / pi_fixed()
    print("// core/kernels/sleef_rempitab.h: Sleef 3.5.1's Sleef_rempitabsp, the table of rempif")
    print("// (Payne-Hanek reduction of sinf/cosf arguments >= 125), written by tools/make_rempitab.py.")
    print("//")
    print("// What it is: 103 rows of four floats, row i - 25 for an argument of exponent i (i = 25..127):")
    print("// frac(2^(i-23) / (2 pi)) / 2^(i-23) (times 2^64 from i = 91) as an unevaluated sum.")
    print("// What it is not: edited by hand, or included anywhere but kernels/sleef.cpp.")
    print("#pragma once")
    print()
    print("namespace attn::core::sleef {")
    print()
    print("inline constexpr float kRempitab[] = {")
    for i in range(25, 128):
        print("    " + ", ".join(float.hex(v).replace('0x', '0x') + "f" for v in row(i, rpi)) + ",")
    print("};")
    print()
    print("}  // namespace attn::core::sleef")


if __name__ == "__main__":
    main()
