#!/usr/bin/python3
"""tools/make_unicode_tables.py: the Unicode character tables of attn's str, from CPython itself.

What it is: the source of src/print/unicode_tables.inc. It asks Debian's CPython 3.11 (Unicode 14)
every code point's answer to str.isalpha, isdecimal, isdigit, isnumeric, isspace, isprintable,
islower, isupper, isidentifier, its cased / case-ignorable properties (read off title() and
lower()'s final-sigma rule, as str uses them) and its lower/upper/title/casefold mappings, and
writes them as sorted code-point ranges (mappings: runs of one delta, or the full mapping when it
is several characters). src/print/unicode.cpp searches them, so attn's str answers as CPython's.
What it is not: part of the build (the .inc is committed), or a Unicode database beyond what str
methods ask.

Run with Debian's Python:   /usr/bin/python3 tools/make_unicode_tables.py
"""
import os
import sys

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "print", "unicode_tables.inc")
ALL = range(0x110000)


def chars():
    for c in ALL:
        if 0xD800 <= c <= 0xDFFF:
            continue
        yield c, chr(c)


def ranges(test):
    out, lo, prev = [], None, None
    for c, ch in chars():
        if test(ch):
            if lo is not None and c == prev + 1:
                prev = c
                continue
            if lo is not None:
                out.append((lo, prev))
            lo = prev = c
    if lo is not None:
        out.append((lo, prev))
    return out


def is_cased(ch):   # title(): a character after a cased one is lowered
    return (ch + "a").title()[-1] == "a"


def is_ignorable(ch):   # lower()'s final sigma skips case-ignorable characters either side
    if not is_cased(ch):
        return ("A" + ch + "\u03a3").lower()[-1] == "\u03c2"
    return ("A\u03a3" + ch).lower()[1] == "\u03c2"


PROPS = [
    ("alpha", str.isalpha), ("decimal", str.isdecimal), ("digit", str.isdigit),
    ("numeric", str.isnumeric), ("space", str.isspace), ("printable", str.isprintable),
    ("lower", str.islower), ("upper", str.isupper),
    ("title", lambda ch: ch.istitle() and not ch.isupper()),
    ("cased", is_cased), ("ignorable", is_ignorable),
    ("id_start", lambda ch: ch.isidentifier()), ("id_continue", lambda ch: ("a" + ch).isidentifier()),
]


def mapping(fn):
    """(lo, hi, stride, delta) runs of one-character mappings, and (c, mapped) of longer ones."""
    runs, longs = [], []
    for c, ch in chars():
        m = fn(ch)
        if m == ch:
            continue
        if len(m) != 1:
            longs.append((c, [ord(x) for x in m]))
            continue
        d = ord(m) - c
        if runs:
            lo, hi, stride, delta = runs[-1]
            if delta == d and (c - hi == stride or (lo == hi and c - hi in (1, 2))):
                runs[-1] = (lo, c, c - hi, d)
                continue
        runs.append((c, c, 1, d))
    return runs, longs


def main():
    lines = ["// src/print/unicode_tables.inc: written by tools/make_unicode_tables.py from CPython "
             + sys.version.split()[0] + " (Unicode " + __import__("unicodedata").unidata_version + ").",
             "// Do not edit: regenerate. Included by src/print/unicode.cpp only.", ""]
    for name, test in PROPS:
        rs = ranges(test)
        lines.append(f"const CpRange k_{name}[] = {{")
        lines += ["  " + ", ".join(f"{{0x{a:X}, 0x{b:X}}}" for a, b in rs[k:k + 6]) + "," for k in range(0, len(rs), 6)]
        lines.append("};")
    for name, fn in [("lower", str.lower), ("upper", str.upper), ("title", str.title), ("fold", str.casefold)]:
        runs, longs = mapping(fn)
        lines.append(f"const CaseRun k_{name}_runs[] = {{")
        lines += ["  " + ", ".join(f"{{0x{a:X}, 0x{b:X}, {s}, {d}}}" for a, b, s, d in runs[k:k + 4]) + "," for k in range(0, len(runs), 4)]
        lines.append("};")
        lines.append(f"const CaseLong k_{name}_longs[] = {{")
        lines += [f"  {{0x{c:X}, {{{', '.join(f'0x{x:X}' for x in m)}}}}}," for c, m in longs]
        if not longs:
            lines.append("  {0, {0}},")
        lines.append("};")
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
