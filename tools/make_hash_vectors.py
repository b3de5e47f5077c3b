#!/usr/bin/python3
"""tools/make_hash_vectors.py: what CPython 3.11's hash() gives str, bytes and tuples of them
under PYTHONHASHSEED=0, for tests/vectors/hash_seed0.txt.

What it is: attn's hash() of a str or bytes (and of a tuple holding them) is CPython's SipHash-1-3
with the key PYTHONHASHSEED=0 gives (CPython's default key changes from run to run, so no printed
value can be relied on; code that dedupes by hash only needs one fixed key). This tool runs
CPython under that seed and writes `EXPRESSION<TAB>hash` lines; tests/py/test_python.cpp
evaluates each expression in attn and compares.
What it is not: part of the build or of CI.

Run:  /usr/bin/python3 tools/make_hash_vectors.py
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXPRESSIONS = [
    "''", "'a'", "'abc'", "'abcdefg'", "'abcdefgh'", "'abcdefghi'", "'a' * 100", "'é'", "'ÿ'", "'Ā'",
    "'日本語'", "'\\uffff'", "'😀'", "'x😀'", "'é' * 9", "'hello world'", "'\\x00'", "str(list(range(30)))",
    "b''", "b'a'", "b'abc'", "b'\\x00\\xff' * 9", "bytes(range(256))", "'é'.encode()",
    "('abc', 1, b'x')", "('a', ('b', 2))", "()", "('',)", "(1, 2.5, 'x', False, True)",
]

if __name__ == "__main__":
    if os.environ.get("PYTHONHASHSEED") != "0":
        env = dict(os.environ, PYTHONHASHSEED="0")
        sys.exit(subprocess.run([sys.executable, __file__], env=env).returncode)
    with open(os.path.join(ROOT, "tests", "vectors", "hash_seed0.txt"), "w", encoding="utf-8") as f:
        f.write("# hash() under PYTHONHASHSEED=0, written by tools/make_hash_vectors.py: EXPRESSION<TAB>hash\n")
        for e in EXPRESSIONS:
            f.write("%s\t%d\n" % (e, hash(eval(e))))
