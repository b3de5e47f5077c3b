#!/usr/bin/env python3
"""fuzz/make_corpus.py: writes the hand-made seeds of fuzz/corpus/ (committed; rerun after editing).

What it is: inputs the lessons and tests/answers/ do not cover, chosen from issue 9: deep nesting
(parentheses, lists, if blocks), long lines and long numbers, many terms, control characters,
CRLF, truncated and overflowing .npy headers. Each stays under 64 KB, since libFuzzer mutates
inputs up to the largest seed's size. Run with any Python 3: python3 fuzz/make_corpus.py
What it is not: a test with expected results (the harnesses only require a clean rejection).
"""
import os
import struct

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def write(kind, name, data):
    os.makedirs(os.path.join(HERE, kind), exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(HERE, kind, name), "wb") as f:
        f.write(data)


def lesson(code, extra_header=""):
    return ("# Fuzz seed\nname: seed\ngroup: concepts\norder: 1\nsource: fuzz\n" + extra_header +
            "\nIntro.\n\n## one: Step one\nProse.\n\n```python\n" + code + "\n```\n```output\n1\n```\n")


# ---- Python cells ----
write("python", "deep-parens.py", "x = " + "(" * 3000 + "1" + ")" * 3000 + "\n")
write("python", "deep-list.py", "x = " + "[" * 3000 + "]" * 3000 + "\nprint(x)\n")
write("python", "deep-dict.py", "x = " + "{1: " * 1000 + "1" + "}" * 1000 + "\n")
write("python", "deep-unary.py", "x = " + "-" * 5000 + "1\n")
write("python", "deep-power.py", "x = " + "2 ** " * 3000 + "2\n")
write("python", "deep-call.py", "x = " + "f(" * 2000 + ")" * 2000 + "\n")
write("python", "deep-attr-index.py", "x = a" + "[0]" * 5000 + "\n")
write("python", "many-terms.py", "x = " + "+".join(["1"] * 25000) + "\n")
write("python", "many-terms-error.py", "x = " + "1 + " * 15000 + "\n")
write("python", "nested-if.py", "".join(" " * k + "if True:\n" for k in range(250)) + " " * 250 + "pass\n")
write("python", "nested-def.py", "".join(" " * k + f"def f{k}():\n" for k in range(150)) + " " * 150 + "return 1\n")
write("python", "long-string.py", "sentence = '" + "word " * 12000 + "'\n")
write("python", "long-number.py", "x = " + "9" * 30000 + "\n")
write("python", "long-float.py", "x = 1." + "5" * 20000 + "e400\n")
write("python", "long-name.py", "a" * 40000 + " = 1\n")
write("python", "fstring-nested.py", "x = f'{" * 50 + "1" + "}'" * 50 + "\n")
write("python", "fstring-format.py", "x = f'{1.0:1000000000}' + f'{x!r:>{w}}' + f'{{}}'\n")
write("python", "control-chars.py", "x = 'a\x00b\x1b[31m'\nprint(x)\x00\n\x0c\x0b\n")
write("python", "crlf-tabs.py", "if True:\r\n\tx = 1\r\n        y = 2\r\n")
write("python", "unterminated.py", "x = '''never closed\nprint((1, [2, {3: \n")
write("python", "backslash.py", "x = 1 + \\\n    2 \\\n\\")
write("python", "comprehensions.py",
      "d = {k: [j for j in range(k) if j % 2 for i in range(j)] for k in range(10)}\n"
      "s = {x for x in 'abc'}\nl = lambda a, *b, c=1, **d: (a, b, c, d)\nprint(d[3], s, l(1))\n")
write("python", "operators.py",
      "x = (-2)**63 // -1 % -1\ny = 1 if x else 2\nz = not x is not None and x in [1] or x < 2 <= 3 != 4\n"
      "w @= v; u **= 2; t //= 3; s ^= 1; r |= 2; q &= 3; p <<= 1; o >>= 1\nprint(x[..., 0], y[1:2:3, ::-1])\n")
write("python", "unicode.py", "ω = 'Life is short, eat dessert first'\nprint(ω, '\u2028', '\\udcff' if 0 else '√')\n")
write("python", "invalid-utf8.py", b"x = '\xff\xfe\xc3'\nprint(x)\n")

# ---- lesson files ----
write("lesson", "long-sentence.lesson", lesson("sentence = '" + "a " * 25000 + "'\nprint(sentence)"))
write("lesson", "long-seed.lesson", lesson("import torch\ntorch.manual_seed(" + "1" * 30000 + ")"))
write("lesson", "long-prose-line.lesson", lesson("print(1)").replace("Prose.", "word " * 12000))
write("lesson", "many-steps.lesson",
      lesson("print(1)") + "".join(f"\n## s{k}: Step {k}\n```python\nprint({k})\n```\n" for k in range(1200)))
write("lesson", "crlf.lesson", lesson("print(1)").replace("\n", "\r\n"))
write("lesson", "control-chars.lesson", lesson("print('\x1b[31m')").replace("Prose.", "\x00\x1b[2J\x07"))
write("lesson", "unclosed-fence.lesson", lesson("print(1)").rsplit("```", 1)[0])
write("lesson", "header-values.lesson",
      lesson("print(1)", "cpu: avx2\nrng: portable\necho: last-expression\ntokens: a b c\nsection: x\n")
      .replace("order: 1", "order: 99999999999999999999999"))
write("lesson", "bad-group.lesson", lesson("print(1)").replace("group: concepts", "group: nonsense"))
write("lesson", "no-steps.lesson", "# Title only\nname: x\ngroup: book\norder: 1\nsource: s\n")
write("lesson", "empty-title.lesson", "#\n\n##\n```\n```python\n```\n```output\n```\n```note\n```\n")

# ---- answers ----
def npy(header, data=b"", version=1):
    header += " " * ((64 - (len(header) + 11) % 64) % 64) + "\n"
    size = struct.pack("<H", len(header)) if version == 1 else struct.pack("<I", len(header))
    return b"\x93NUMPY" + bytes([version, 0]) + size + header.encode("utf-8" if version == 3 else "latin1") + data


write("answer", "long-row.csv", ",".join(["0.5"] * 12000) + "\n")
write("answer", "many-rows.csv", "0.25\n" * 8000)
write("answer", "long-number.csv", "1" * 30000 + ", 2\n")
write("answer", "long-comment.txt", "#" + "x" * 30000 + "\n1 2\n3 4\n")
write("answer", "crlf-control.csv", "1,2\r\n3,\x004\r\n\x1b[31m5,6\r\n")
write("answer", "trailing-commas.csv", "1, 2, 3,\n4, 5, 6,\n")
write("answer", "overflow-shape.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4), }", b"\0" * 64))
write("answer", "product-overflow.npy",
      npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 16), }", b"\0" * 64))
write("answer", "negative-shape.npy", npy("{'descr': '<f8', 'fortran_order': True, 'shape': (-1, 3), }", b"\0" * 64))
write("answer", "deep-shape.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (" + "1, " * 3000 + "), }", b"\0" * 4))
write("answer", "nested-header.npy", npy("{'descr': " + "(" * 2000 + "'<f4'" + ")" * 2000 + ", 'shape': (), }", b"\0" * 4))
write("answer", "v2-huge-header-len.npy", b"\x93NUMPY\x02\x00\xff\xff\xff\x7f{'descr': '<f4'")
write("answer", "v3-utf8-header.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), } # \u00e9", b"\0" * 4, version=3))
write("answer", "empty-shape.npy", npy("{'descr': '|b1', 'fortran_order': False, 'shape': (0, 6), }"))
