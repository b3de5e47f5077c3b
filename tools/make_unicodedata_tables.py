#!/usr/bin/python3
"""tools/make_unicodedata_tables.py: the tables of attn's unicodedata module, and its test vectors, from CPython.

What it is: the sibling of make_unicode_tables.py for the unicodedata module. It asks Debian's
CPython 3.11 (Unicode 14.0.0) every code point's category, bidirectional class, east asian
width, mirrored flag and combining class (written as runs of one record), decomposition
(tag and code points), decimal/digit/numeric values, and the primary composites NFC builds
(canonical pairs that NFC recomposes: composition exclusions and non-starter decompositions
are left out because CPython's normalize() leaves them out). It writes
src/py/unicodedata_tables.inc (included by src/py/module_unicodedata.cpp) and
tests/vectors/unicodedata.txt: an FNV-1a digest per block of 4096 code points of every property
and the four normal forms of the character, sample lines in full, and normalize() of
pseudo-random strings drawn from a pool of starters, marks, jamo and compatibility characters
(tests/py/test_unicodedata.cpp replays them with the same generator).
What it is not: character names (name/lookup are not in attn: see module_unicodedata.cpp), or
part of the build (the outputs are committed).

Run with Debian's Python:   /usr/bin/python3 tools/make_unicodedata_tables.py
"""
import os
import struct
import sys
import unicodedata as u

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "src", "py", "unicodedata_tables.inc")
VECTORS = os.path.join(ROOT, "tests", "vectors", "unicodedata.txt")
N = 0x110000
FORMS = ("NFC", "NFD", "NFKC", "NFKD")


def record(ch):
    return (u.category(ch), u.bidirectional(ch), u.east_asian_width(ch), u.mirrored(ch), u.combining(ch))


def fnv(data, h=0xCBF29CE484222325):
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def hexs(s):
    return " ".join(f"{ord(c):X}" for c in s)


def line_of(c):
    """What the test digests for code point c: one line, as the C++ test writes it."""
    ch = chr(c)
    cat, bidi, eaw, mir, ccc = record(ch)
    num = u.numeric(ch, None)
    numbits = "-" if num is None else f"{struct.unpack('<Q', struct.pack('<d', num))[0]:x}"
    dec, dig = u.decimal(ch, None), u.digit(ch, None)
    fields = [cat, bidi, eaw, str(mir), str(ccc), u.decomposition(ch),
              "-" if dec is None else str(dec), "-" if dig is None else str(dig), numbits]
    if not 0xD800 <= c <= 0xDFFF:
        fields += [hexs(u.normalize(f, ch)) for f in FORMS]
    return ";".join(fields)


def tables(lines):
    recs, runs, prev = [], [], None
    index = {}
    for c in range(N):
        r = record(chr(c))
        if r not in index:
            index[r] = len(recs)
            recs.append(r)
        if r != prev:
            runs.append((c, index[r]))
            prev = r
    assert len(recs) < 256
    cats = sorted({r[0] for r in recs})
    bidis = sorted({r[1] for r in recs})
    eaws = sorted({r[2] for r in recs})
    lines.append("const char* const k_categories[] = {" + ", ".join(f'"{x}"' for x in cats) + "};")
    lines.append("const char* const k_bidis[] = {" + ", ".join(f'"{x}"' for x in bidis) + "};")
    lines.append("const char* const k_widths[] = {" + ", ".join(f'"{x}"' for x in eaws) + "};")
    lines.append("// {category, bidirectional, east_asian_width, mirrored, combining} as indices / values.")
    lines.append("const UcdRecord k_records[] = {")
    rs = [f"{{{cats.index(a)}, {bidis.index(b)}, {eaws.index(c)}, {m}, {k}}}" for a, b, c, m, k in recs]
    lines += ["  " + ", ".join(rs[k:k + 6]) + "," for k in range(0, len(rs), 6)]
    lines.append("};")
    lines.append("// (first code point << 8) | record, sorted: each record holds up to the next run.")
    lines.append("const uint32_t k_runs[] = {")
    ws = [f"0x{(c << 8) | r:X}" for c, r in runs]
    lines += ["  " + ", ".join(ws[k:k + 8]) + "," for k in range(0, len(ws), 8)]
    lines.append("};")


def decompositions(lines):
    tags, entries, pool = [""], [], []
    for c in range(N):
        d = u.decomposition(chr(c))
        if not d:
            continue
        parts = d.split()
        tag = parts[0] if parts[0].startswith("<") else ""
        cps = [int(x, 16) for x in (parts[1:] if tag else parts)]
        if tag not in tags:
            tags.append(tag)
        entries.append((c, tags.index(tag), len(pool), len(cps)))
        pool += cps
    assert len(pool) < 65536 and len(tags) < 256
    lines.append("const char* const k_decomposition_tags[] = {" + ", ".join(f'"{t}"' for t in tags) + "};")
    lines.append("const UcdDecomposition k_decompositions[] = {")
    es = [f"{{0x{c:X}, {o}, {n}, {t}}}" for c, t, o, n in entries]
    lines += ["  " + ", ".join(es[k:k + 6]) + "," for k in range(0, len(es), 6)]
    lines.append("};")
    lines.append("const char32_t k_decomposition_pool[] = {")
    lines += ["  " + ", ".join(f"0x{x:X}" for x in pool[k:k + 10]) + "," for k in range(0, len(pool), 10)]
    lines.append("};")


def compositions(lines):
    out = []
    for c in range(N):
        d = u.decomposition(chr(c))
        if not d or d.startswith("<"):
            continue
        cps = [int(x, 16) for x in d.split()]
        if len(cps) == 2 and u.normalize("NFC", chr(cps[0]) + chr(cps[1])) == chr(c):
            out.append((cps[0], cps[1], c))
    out.sort()
    lines.append("// {first, second, composite}, sorted: the primary composites NFC makes.")
    lines.append("const UcdComposition k_compositions[] = {")
    es = [f"{{0x{a:X}, 0x{b:X}, 0x{c:X}}}" for a, b, c in out]
    lines += ["  " + ", ".join(es[k:k + 5]) + "," for k in range(0, len(es), 5)]
    lines.append("};")


def numerics(lines):
    lines.append("// {code point, decimal (-1: none), digit (-1: none), numeric}, sorted.")
    lines.append("const UcdNumeric k_numerics[] = {")
    for c in range(N):
        ch = chr(c)
        v = u.numeric(ch, None)
        if v is None:
            continue
        dec, dig = u.decimal(ch, -1), u.digit(ch, -1)
        lines.append(f"  {{0x{c:X}, {dec}, {dig}, {v.hex()}}},")
    lines.append("};")


class Rng:
    """xorshift64*: the generator tests/py/test_unicodedata.cpp repeats."""
    def __init__(self, seed):
        self.s = seed

    def next(self, n):
        s = self.s
        s ^= (s >> 12)
        s ^= (s << 25) & 0xFFFFFFFFFFFFFFFF
        s ^= (s >> 27)
        self.s = s
        return (((s * 0x2545F4914F6CDD1D) & 0xFFFFFFFFFFFFFFFF) >> 33) % n


def pool():
    """Starters that compose, marks of many classes, jamo, syllables, compatibility characters."""
    picks = set(range(0x41, 0x5B)) | {0x20, 0x3B1, 0x3C9, 0x415, 0x627, 0x928, 0xB47, 0xB3E, 0xB57, 0xDD9, 0xDCF, 0xDDF}
    for c in range(N):
        ch = chr(c)
        if 0xD800 <= c <= 0xDFFF:
            continue
        d = u.decomposition(ch)
        if u.combining(ch) and (c < 0x370 or c % 7 == 0):
            picks.add(c)
        elif d and (c % 23 == 0 or c < 0x180):
            picks.add(c)
    picks |= {0x1100, 0x1112, 0x1161, 0x1175, 0x11A7, 0x11A8, 0x11C2, 0x11C3, 0xAC00, 0xAC01, 0xD7A3, 0xAE4C, 0x3131}
    picks |= {0x344, 0x340, 0x958, 0x2126, 0x212B, 0x1E9B, 0xFB1D, 0x0F73, 0x0F75, 0x0F81, 0x2ADC, 0x1D15E}
    return sorted(picks)


def vectors():
    out = ["# tests/vectors/unicodedata.txt: written by tools/make_unicodedata_tables.py from CPython "
           + sys.version.split()[0] + " (Unicode " + u.unidata_version + "). Do not edit.",
           "# block FIRST FNV: fnv1a64 over the bytes of line_of(c) + '\\n' for c in FIRST..FIRST+4095;",
           "# sample CP LINE: one line in full; pool N CPS...; strings COUNT LEN SEED; group K FNV FIRST-OF-GROUP-LINE."]
    for first in range(0, N, 4096):
        data = "".join(line_of(c) + "\n" for c in range(first, first + 4096)).encode()
        out.append(f"block {first:X} {fnv(data):x}")
    for c in list(range(0, N, 4099)) + [0xC0, 0x1E0A, 0x1E69, 0xAC00, 0xD7A3, 0x2153, 0xFB01, 0x1D15E, 0x0344, 0x2460]:
        out.append(f"sample {c:X} {line_of(c)}")
    cps = pool()
    out.append("pool " + str(len(cps)) + " " + " ".join(f"{c:X}" for c in cps))
    count, length, seed, group = 4000, 7, 0x5EED5EED1234, 100
    out.append(f"strings {count} {length} {seed:X} {group}")
    rng = Rng(seed)
    data, first = b"", ""
    for k in range(count):
        s = "".join(chr(cps[rng.next(len(cps))]) for _ in range(1 + rng.next(length)))
        line = hexs(s) + ";" + ";".join(hexs(u.normalize(f, s)) + ";" + str(u.is_normalized(f, s)) for f in FORMS)
        if k % group == 0:
            first = line
        data += (line + "\n").encode()
        if k % group == group - 1:
            out.append(f"group {k // group} {fnv(data):x} {first}")
            data = b""
    with open(VECTORS, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    lines = ["// src/py/unicodedata_tables.inc: written by tools/make_unicodedata_tables.py from CPython "
             + sys.version.split()[0] + " (Unicode " + u.unidata_version + ").",
             "// Do not edit: regenerate. Included by src/py/module_unicodedata.cpp only.", ""]
    tables(lines)
    decompositions(lines)
    compositions(lines)
    numerics(lines)
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")
    vectors()


if __name__ == "__main__":
    main()
