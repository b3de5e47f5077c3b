#!/usr/bin/python3
"""tools/pyfuzz.py: a differential fuzzer of attn's Python against CPython 3.11.

What it is: random programs in attn's supported subset (int, big int, float and bool arithmetic
with every operator, comparisons, str methods and slicing, lists/dicts/sets/tuples and their
methods, comprehensions, functions with defaults/*args/**kwargs, closures with nonlocal, classes
with dunder methods, try/except/finally, f-strings, format() and % formatting). Each program is
a few snippets, each in its own try/except that prints the error's type and message, so one
error does not hide the rest. A batch of programs runs in one CPython process and, as the cells
of one lesson, in one `attn run --quiet`; the outputs are compared program by program. A program
whose output differs is cut down (snippets, then statements, dropped while it still differs) and
written to --out as NAME.py with both outputs in NAME.diff. Exit 1 when any program differed.
What it is not: a test of torch (programs never import it), of code-point strings (attn indexes
str by UTF-8 byte: only ASCII text is generated) or of what tests/conformance/ pins down.

Left out on purpose (attn differs, listed in tests/conformance/micropython/GAPS.md):
  sets of strings are printed only through sorted() (CPython's order follows per-process string
  hashes; attn keeps insertion order); in a set snippet the ops that remove items come after the
  ones that add (re-adding after removals can land in other slots than CPython's).

CI (CTest `pyfuzz`):    /usr/bin/python3 tools/pyfuzz.py --attn build/attn --seed 1 --seconds 20
A longer run:           /usr/bin/python3 tools/pyfuzz.py --attn build/attn --seed $RANDOM --seconds 1800
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time

PYTHON = "/usr/bin/python3"
MARK = "#### program %d"
LESSON_HEAD = "# F\nname: f\ngroup: concepts\norder: 1\nsource: x\n\n## c: c\n\n"

# Runs the cells of a batch file (cells split by MARK lines) in one namespace, as attn does.
RUNNER = r'''
import sys, traceback
cells = open(sys.argv[1], encoding="utf-8").read().split("\n#### cell\n")
ns = {"__name__": "__main__"}
for k, cell in enumerate(cells):
    print("#### program %d" % k)
    try:
        exec(compile(cell, "<cell>", "exec"), ns)
    except BaseException as e:
        print("error: " + traceback.format_exception_only(type(e), e)[-1].rstrip("\n"))
'''


class Gen:
    """Random snippets, each a list of lines printing what it computes."""

    def __init__(self, rng):
        self.r = rng
        self.n = 0

    def name(self, prefix="v"):
        self.n += 1
        return "%s%d" % (prefix, self.n)

    # ---- values ----
    def int_lit(self):
        r = self.r
        c = r.random()
        if c < 0.5:
            return str(r.randint(-12, 12))
        if c < 0.75:
            return str(r.randint(-10**6, 10**6))
        if c < 0.9:
            return str(r.choice([1, -1]) * r.randint(2**62, 2**70))
        return r.choice(["0x%x" % r.randint(0, 10**6), "0o%o" % r.randint(0, 4096), "0b%s" % bin(r.randint(0, 64))[2:], "1_000"])

    def float_lit(self):
        r = self.r
        return r.choice([repr(round(r.uniform(-100, 100), r.randint(0, 4))), repr(r.uniform(-1, 1)), "1e300", "-2.5e-7", "0.1", "3.0", "-0.0", "1.5"])

    def num(self, depth=0):
        r = self.r
        c = r.random()
        if depth > 2 or c < 0.3:
            return r.choice([self.int_lit, self.int_lit, self.float_lit, lambda: r.choice(["True", "False"])])()
        if c < 0.45:
            return "(%s %s %s)" % (self.num(depth + 1), r.choice(["**"]), r.randint(-3, 9)) if r.random() < 0.5 else \
                "(%s ** %s)" % (r.randint(-9, 9), r.randint(0, 40))
        if c < 0.55:
            return "(%s%s)" % (r.choice(["-", "+", "~", "not "]), self.num(depth + 1))
        if c < 0.65:
            return "(%s if %s else %s)" % (self.num(depth + 1), self.num(depth + 1), self.num(depth + 1))
        op = r.choice(["+", "-", "*", "/", "//", "%", "<<", ">>", "&", "|", "^", "and", "or", "==", "<", ">=", "!="])
        if op in ("<<", ">>"):
            return "(%s %s %d)" % (self.num(depth + 1), op, r.randint(0, 70))
        return "(%s %s %s)" % (self.num(depth + 1), op, self.num(depth + 1))

    def text(self):
        r = self.r
        alphabet = r.choice(["abcab", "ABCabc xyz", " \t-_.,:", "0123456789", "aAbB c-D_e"])
        return "".join(r.choice(alphabet) for _ in range(r.randint(0, 9)))

    def str_lit(self):
        return repr(self.text())

    def small(self):
        return str(self.r.randint(-6, 8))

    def opt_none(self):
        return self.small() if self.r.random() < 0.8 else "None"

    # ---- snippets ----
    def arith(self):
        return ["print(%s)" % self.num()]

    def builtins_num(self):
        r = self.r
        a, b = self.num(1), self.num(1)
        return [r.choice(["print(abs(%s))" % a, "print(divmod(%s, %s))" % (a, b), "print(round(%s, %d))" % (a, r.randint(-2, 4)),
                          "print(round(%s))" % a, "print(int(%s))" % a, "print(float(%s))" % a, "print(bool(%s))" % a,
                          "print(min(%s, %s), max(%s, %s))" % (a, b, b, a), "print(pow(%s, %s, %s))" % (self.int_lit(), r.randint(0, 50), self.int_lit()),
                          "print(hex(%s), oct(%s), bin(%s))" % (self.int_lit(), self.int_lit(), self.int_lit()),
                          "print(%s < %s <= %s)" % (a, b, self.num(1)), "print(hash(%s) == hash(%s))" % (a, a),
                          "print(str(%s), repr(%s))" % (a, b), "print(int(%s, %d))" % (repr(self.int_lit().lstrip("-")), r.choice([0, 10, 16]))])]

    def strings(self):
        r = self.r
        s = self.name("s")
        m = r.choice([
            "upper()", "lower()", "strip()", "lstrip(%s)" % self.str_lit(), "rstrip()", "split()", "split(%s)" % repr(r.choice(["a", ",", " ", "ab"])),
            "split(None, %d)" % r.randint(-1, 3), "replace(%s, %s)" % (self.str_lit(), self.str_lit()), "find(%s)" % self.str_lit(),
            "find(%s, %s, %s)" % (self.str_lit(), self.small(), self.opt_none()), "rfind(%s)" % self.str_lit(), "index(%s)" % self.str_lit(),
            "count(%s, %s)" % (self.str_lit(), self.small()), "startswith(%s, %s)" % (self.str_lit(), self.small()),
            "endswith((%s, %s))" % (self.str_lit(), self.str_lit()), "center(%d, %s)" % (r.randint(0, 14), repr(r.choice("*- "))),
            "ljust(%d)" % r.randint(0, 12), "rjust(%d, '.')" % r.randint(0, 12), "zfill(%d)" % r.randint(0, 12), "partition(%s)" % repr(r.choice("ab ,-")),
            "rpartition(%s)" % repr(r.choice("ab ,-")), "title()", "capitalize()", "swapcase()", "isdigit()", "isalpha()", "isspace()",
            "isupper()", "islower()", "isalnum()", "join([%s, %s])" % (self.str_lit(), self.str_lit()), "removeprefix(%s)" % self.str_lit(),
            "removesuffix(%s)" % self.str_lit()])
        sl = r.choice(["%s[%s]" % (s, self.small()), "%s[%s:%s]" % (s, self.opt_none(), self.opt_none()),
                       "%s[%s:%s:%s]" % (s, self.opt_none(), self.opt_none(), r.choice(["1", "2", "-1", "-2", "3", "0"])),
                       "%s * %d" % (s, r.randint(-1, 3)), "%s + %s" % (s, self.str_lit()), "%s in %s" % (self.str_lit(), s),
                       "len(%s)" % s, "%s < %s" % (s, self.str_lit()), "sorted(%s)" % s, "list(%s)" % s, "repr(%s)" % s])
        return ["%s = %s" % (s, self.str_lit()), "print(repr(%s.%s))" % (s, m), "print(%s)" % sl]

    def fmt_spec(self, kind):
        r = self.r
        spec = ""
        if r.random() < 0.3:
            spec += r.choice(["", "*", "0", "-"]) + r.choice("<>^=") if kind != "s" else r.choice(["", "*"]) + r.choice("<>^")
        if kind != "s" and r.random() < 0.3:
            spec += r.choice("+- ")
        if kind == "i" and r.random() < 0.2:
            spec += "#"
        if r.random() < 0.5:
            spec += str(r.randint(0, 12))
        if kind != "s" and r.random() < 0.2:
            spec += r.choice([",", "_"])
        if kind == "f" and r.random() < 0.6:
            spec += "." + str(r.randint(0, 8))
        if kind == "s" and r.random() < 0.2:
            spec += "." + str(r.randint(0, 5))
        types = {"i": ["", "d", "x", "X", "o", "b", "e", "f", "%", "g"], "f": ["", "f", "e", "E", "g", "G", "%", "F"], "s": ["", "s"]}
        return spec + r.choice(types[kind])

    def formatting(self):
        r = self.r
        kind = r.choice("ifs")
        val = {"i": self.int_lit, "f": self.float_lit, "s": self.str_lit}[kind]()
        x = self.name("x")
        spec = self.fmt_spec(kind)
        pct = r.choice(["%d", "%5d", "%-4d|", "%05d", "%x", "%#o", "%.3f", "%10.2e", "%g", "%s", "%r", "%+d", "%%"]) if kind != "s" else r.choice(["%s", "%10s|", "%-6s|", "%r", "%.2s"])
        return ["%s = %s" % (x, val),
                r.choice(["print(f'{%s:%s}|')" % (x, spec), "print(format(%s, %s))" % (x, repr(spec)), "print('<{:%s}>'.format(%s))" % (spec, x),
                          "print(%s %% %s)" % (repr(pct), x), "print(f'{%s!r:>12} {%s=}')" % (x, x), "print('{0} {1} {0}'.format(%s, %s))" % (x, self.str_lit()),
                          "print('{a}-{b!r}'.format(a=%s, b=%s))" % (x, self.str_lit())])]

    def lists(self):
        r = self.r
        xs = self.name("xs")
        items = ", ".join(r.choice([self.small, self.small, self.str_lit])() if r.random() < 0.2 else self.small() for _ in range(r.randint(0, 6)))
        ops = r.sample([
            "%s.append(%s)" % (xs, self.small()), "%s.extend([%s, %s])" % (xs, self.small(), self.small()), "%s.insert(%s, %s)" % (xs, self.small(), self.small()),
            "print(%s.pop())" % xs, "print(%s.pop(%s))" % (xs, self.small()), "%s.remove(%s)" % (xs, self.small()), "print(%s.index(%s))" % (xs, self.small()),
            "print(%s.count(%s))" % (xs, self.small()), "%s.sort()" % xs, "%s.sort(reverse=True)" % xs, "%s.reverse()" % xs,
            "print(%s[%s:%s:%s])" % (xs, self.opt_none(), self.opt_none(), r.choice(["None", "1", "-1", "2", "-3"])), "print(%s[%s])" % (xs, self.small()),
            "%s[%s] = %s" % (xs, self.small(), self.small()), "del %s[%s]" % (xs, self.small()), "print(sorted(%s, key=lambda t: -t))" % xs,
            "print(sum(%s), len(%s))" % (xs, xs), "print(min(%s), max(%s))" % (xs, xs), "print([t * 2 for t in %s if t %% 2])" % xs,
            "print(list(enumerate(%s)))" % xs, "print(list(zip(%s, %s[1:])))" % (xs, xs), "print(%s + [0] * 2, %s * 2)" % (xs, xs),
            "print(tuple(%s), %s in %s)" % (xs, self.small(), xs), "print(list(reversed(%s)))" % xs, "print(%s == sorted(%s))" % (xs, xs),
            "print(list(map(lambda t: t + 1, %s)), list(filter(None, %s)))" % (xs, xs), "print(any(%s), all(%s))" % (xs, xs)], r.randint(1, 4))
        return ["%s = [%s]" % (xs, items)] + ops + ["print(%s)" % xs]

    def dicts(self):
        r = self.r
        d = self.name("d")
        items = ", ".join("%s: %s" % (r.choice([self.str_lit(), self.small()]), self.small()) for _ in range(r.randint(0, 5)))
        key = r.choice([self.str_lit, self.small])()
        ops = r.sample([
            "print(%s.get(%s), %s.get(%s, 'no'))" % (d, key, d, key), "%s[%s] = %s" % (d, key, self.small()), "print(%s[%s])" % (d, key),
            "print(%s.pop(%s, None))" % (d, key), "print(%s.pop(%s))" % (d, key), "print(%s.setdefault(%s, []))" % (d, key),
            "%s.update({%s: 1}, )" % (d, key), "print(list(%s.keys()), list(%s.values()))" % (d, d), "print(list(%s.items()))" % d,
            "print(%s.popitem())" % d, "del %s[%s]" % (d, key), "print(%s in %s, len(%s))" % (key, d, d), "print({k: v for k, v in %s.items() if v})" % d,
            "print(sorted(%s.items(), key=lambda kv: str(kv)))" % d, "print(%s | {1: 2})" % d, "print(dict(%s, extra=3))" % d,
            "print(dict(zip('abc', [1, 2, 3])))", "print(%s == dict(%s))" % (d, d)], r.randint(1, 4))
        return ["%s = {%s}" % (d, items)] + ops + ["print(%s)" % d]

    def sets(self):
        r = self.r
        a, b = self.name("a"), self.name("b")
        mk = lambda: "{%s}" % ", ".join(str(r.randint(-20, 40)) for _ in range(r.randint(1, 9)))
        ops = r.sample([
            "print(%s | %s, %s & %s)" % (a, b, a, b), "print(%s - %s, %s ^ %s)" % (a, b, a, b), "%s.add(%d)" % (a, r.randint(-5, 50)),
            "%s.discard(%d)" % (a, r.randint(-5, 50)), "%s.remove(%d)" % (a, r.randint(-5, 5)), "print(%s <= %s, %s < %s, %s.isdisjoint(%s))" % (a, b, b, a, a, b),
            "%s |= %s" % (a, b), "%s &= %s" % (a, b), "%s -= %s" % (a, b), "%s ^= %s" % (a, b), "print(%s.pop())" % a, "print(sorted(%s), len(%s))" % (a, a),
            "print({t %% 5 for t in %s})" % a, "print(%s.union(%s), %s.intersection([1, 2, 3]))" % (a, b, a), "print(set([3, 1, 3]), set())",
            "print(%d in %s)" % (r.randint(-5, 5), a)], r.randint(1, 4))
        # Items added after items were removed can sit in other slots than CPython's (GAPS.md):
        # the ops that remove come after the ones that only add.
        removes = ("-=", "&=", "^=", "discard", "remove", "pop")
        ops.sort(key=lambda op: any(w in op for w in removes))
        if sum(any(w in op for w in removes) for op in ops) > 1:
            ops = [op for op in ops if "^=" not in op]
        return ["%s = %s" % (a, mk()), "%s = %s" % (b, mk())] + ops + ["print(%s, %s)" % (a, b)]

    def tuples(self):
        r = self.r
        t = self.name("t")
        items = ", ".join(self.small() for _ in range(r.randint(0, 5)))
        return ["%s = (%s%s)" % (t, items, "," if items.count(",") == 0 and items else ""),
                r.choice(["print(%s, len(%s), %s[%s:%s])" % (t, t, t, self.opt_none(), self.opt_none()), "print(%s.index(%s), %s.count(1))" % (t, self.small(), t),
                          "a, *b = %s\nprint(a, b)" % t, "print(%s + (1,), %s * 2, %s < (1, 2))" % (t, t, t), "print(sorted(%s), hash(%s) == hash(tuple(list(%s))))" % (t, t, t)])]

    def functions(self):
        r = self.r
        f = self.name("f")
        body = ["def %s(a, b=%s, *args, c=%s, **kw):" % (f, self.small(), self.small()),
                "    return (a, b, args, c, sorted(kw.items()))"]
        calls = ["%s(%s)" % (f, ", ".join([self.small() for _ in range(r.randint(0, 4))] + ["%s=%s" % (k, self.small()) for k in r.sample(["b", "c", "d", "a"], r.randint(0, 2))])),
                 "%s(*[1, 2, 3], **{'c': 5, 'z': 6})" % f, "%s(%s, c=1)" % (f, self.small())]
        return body + ["print(%s)" % r.choice(calls)]

    def closures(self):
        r = self.r
        mk = self.name("make")
        n = r.randint(1, 4)
        return ["def %s(start):" % mk, "    count = start", "    def step(by=1):", "        nonlocal count", "        count += by", "        return count",
                "    return step", "s = %s(%s)" % (mk, self.small())] + ["print(s(%s))" % self.small() for _ in range(n)] + \
               ["adders = [lambda x, k=k: x + k for k in range(3)]", "print([g(10) for g in adders])"]

    def classes(self):
        r = self.r
        c = self.name("C")
        lines = ["class %s:" % c, "    def __init__(self, v):", "        self.v = v", "    def __repr__(self):", "        return '%s(%%r)' %% (self.v,)" % c,
                 "    def __eq__(self, o):", "        return isinstance(o, %s) and self.v == o.v" % c, "    def __lt__(self, o):", "        return self.v < o.v",
                 "    def __add__(self, o):", "        return %s(self.v + (o.v if isinstance(o, %s) else o))" % (c, c), "    def __radd__(self, o):", "        return %s(o + self.v)" % c,
                 "    def __len__(self):", "        return abs(self.v) % 7", "    def __getitem__(self, k):", "        return self.v * k",
                 "    def __contains__(self, x):", "        return x == self.v", "    def __hash__(self):", "        return hash(self.v)",
                 "    def __bool__(self):", "        return self.v != 0", "    def __str__(self):", "        return 'str of ' + repr(self)",
                 "class %sSub(%s):" % (c, c), "    def __repr__(self):", "        return 'Sub' + super().__repr__()"]
        a, b = self.small(), self.small()
        uses = r.sample(["print(%s(%s) + %s(%s))" % (c, a, c, b), "print(%s + %s(%s))" % (a, c, b), "print(%s(%s) == %s(%s), %s(%s) != %s(%s))" % (c, a, c, b, c, a, c, b),
                         "print(sorted([%s(%s), %s(%s), %s(2)]))" % (c, a, c, b, c), "print(len(%s(%s)), %s(%s)[3], %s in %s(%s))" % (c, a, c, b, a, c, b),
                         "print(bool(%s(%s)), str(%s(%s)), [%sSub(%s)])" % (c, a, c, b, c, a), "print({%s(1): 'one'}[%s(1)])" % (c, c),
                         "print(%s(%s) > %s(%s), max(%s(%s), %s(%s)))" % (c, a, c, b, c, a, c, b), "print(isinstance(%sSub(1), %s), type(%sSub(1)).__name__)" % (c, c, c),
                         "print(f'{%s(%s)!s} {%s(%s)!r}')" % (c, a, c, b)], r.randint(1, 4))
        return lines + uses

    def exceptions(self):
        r = self.r
        e = self.name("E")
        raised = r.choice(["%s('boom', %s)" % (e, self.small()), "ValueError(%s)" % self.str_lit(), "KeyError(%s)" % self.str_lit(), "ZeroDivisionError()",
                           "TypeError('t')", "IndexError"])
        return ["class %s(ValueError):" % e, "    pass", "def g():", "    try:", "        raise %s" % raised,
                "    except (%s, KeyError) as ex:" % r.choice(["ValueError", "LookupError", e]), "        print('caught', type(ex).__name__, ex.args, str(ex))",
                "        raise RuntimeError('again') from ex", "    finally:", "        print('finally')",
                "try:", "    g()", "except RuntimeError as ex:", "    print(repr(ex), type(ex.__cause__).__name__)",
                "except Exception as ex:", "    print('other', type(ex).__name__, ex)", "else:", "    print('none')"]

    def comprehensions(self):
        r = self.r
        n = r.randint(0, 6)
        return [r.choice(["print([(i, j) for i in range(%d) for j in range(i) if (i + j) %% 2])" % n,
                          "print({i: i * i for i in range(%d)})" % n, "print(sorted({i %% 3 for i in range(%d)}))" % n,
                          "x = 'outer'\nprint([x for x in range(%d)], x)" % n, "print(sum(i * i for i in range(%d)))" % n,
                          "print([[j for j in range(i)] for i in range(%d)])" % n, "print(list(map(str, range(%d))))" % n,
                          "print(sorted(['b', 'a', 'C', 'aa'][:%d], key=str.lower))" % n])]

    def snippet(self):
        kinds = [self.arith, self.arith, self.builtins_num, self.strings, self.strings, self.formatting, self.formatting, self.lists,
                 self.dicts, self.sets, self.tuples, self.functions, self.closures, self.classes, self.exceptions, self.comprehensions]
        return self.r.choice(kinds)()

    def program(self):
        return [wrap(self.snippet()) for _ in range(self.r.randint(1, 5))]


def wrap(lines):
    """A snippet in a try/except that prints the error, so later snippets still run."""
    body = "\n".join("    " + l for line in lines for l in line.split("\n"))
    return "try:\n%s\nexcept Exception as e:\n    print('!', type(e).__name__, e)" % body


def run_cpython(cells):
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False, encoding="utf-8") as f:
        f.write("\n#### cell\n".join(cells))
        path = f.name
    try:
        r = subprocess.run([PYTHON, "-c", RUNNER, path], capture_output=True, timeout=120, env=dict(os.environ, PYTHONHASHSEED="0"))
        return split_outputs(r.stdout.decode("utf-8", "replace"), len(cells))
    finally:
        os.unlink(path)


def run_attn(binary, cells):
    """Outputs per cell; a cell attn stopped at ends in `error: Kind: message` (later cells: None)."""
    text = LESSON_HEAD
    for k, cell in enumerate(cells):
        text += "```python\nprint(%r)\n```\n\n```python\n%s\npass\n```\n\n" % (MARK % k, cell)
    with tempfile.NamedTemporaryFile("w", suffix=".lesson", delete=False, encoding="utf-8") as f:
        f.write(text)
        path = f.name
    try:
        r = subprocess.run([binary, "run", path, "--quiet", "--time-limit", "20"], capture_output=True, timeout=300)
    finally:
        os.unlink(path)
    outs = split_outputs(r.stdout.decode("utf-8", "replace"), len(cells))
    if r.returncode != 0:
        err = r.stderr.decode("utf-8", "replace").strip().split("\n")[0]
        err = re.sub(r"^attn: [^:]*\.lesson:\d+: ", "", err)
        last = max((k for k, o in enumerate(outs) if o is not None), default=None)
        if last is not None:
            outs[last] += "error: " + err + "\n"
    return outs


def split_outputs(text, n):
    outs = [None] * n
    parts = re.split(r"^#### program (\d+)\n", text, flags=re.M)
    for k in range(1, len(parts), 2):
        outs[int(parts[k])] = parts[k + 1]
    return outs


def differs(binary, cell):
    a, b = run_cpython([cell])[0], run_attn(binary, [cell])[0]
    return a != b, a, b


def minimize(binary, snippets):
    """Drop snippets, then lines of the remaining snippet, while CPython and attn still differ."""
    keep = list(snippets)
    for k in reversed(range(len(keep))):
        trial = keep[:k] + keep[k + 1:]
        if trial and differs(binary, "\n".join(trial))[0]:
            keep = trial
    if len(keep) == 1:
        lines = keep[0].split("\n")
        for k in reversed(range(1, len(lines) - 2)):   # not the try: line or the handler
            trial = lines[:k] + lines[k + 1:]
            try:
                compile("\n".join(trial), "<m>", "exec")
            except SyntaxError:
                continue
            if differs(binary, "\n".join(trial))[0]:
                lines = trial
        keep = ["\n".join(lines)]
    return "\n".join(keep)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--attn", required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--seconds", type=float, default=20)
    p.add_argument("--programs", type=int, default=0,
                   help="stop after this many programs (0: no count, only --seconds); CTest uses a count, "
                        "so its verdict does not depend on the machine's speed")
    p.add_argument("--batch", type=int, default=40)
    p.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "pyfuzz"))
    p.add_argument("--max-failures", type=int, default=5)
    args = p.parse_args()
    rng = random.Random(args.seed)
    gen = Gen(rng)
    end = time.time() + args.seconds
    total, failures = 0, 0
    while time.time() < end and failures < args.max_failures and not (args.programs and total >= args.programs):
        programs = [gen.program() for _ in range(args.batch)]
        cells = ["\n".join(p) for p in programs]
        expected, got = run_cpython(cells), run_attn(args.attn, cells)
        for k, cell in enumerate(cells):
            if got[k] is None:   # attn stopped the batch before it (the mismatch is reported above)
                break
            total += 1
            if expected[k] == got[k]:
                continue
            failures += 1
            repro = minimize(args.attn, programs[k])
            _, a, b = differs(args.attn, repro)
            os.makedirs(args.out, exist_ok=True)
            name = os.path.join(args.out, "seed%d_%d" % (args.seed, total))
            with open(name + ".py", "w", encoding="utf-8") as f:
                f.write(repro + "\n")
            with open(name + ".diff", "w", encoding="utf-8") as f:
                f.write("--- CPython 3.11\n%s--- attn\n%s" % (a, b))
            print("MISMATCH %s.py\n%s\n--- CPython 3.11\n%s--- attn\n%s" % (name, repro, a, b))
            if failures >= args.max_failures:
                break
    print("pyfuzz: seed %d, %d programs, %d differed" % (args.seed, total, failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
