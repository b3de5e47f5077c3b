#!/usr/bin/python3
"""tools/make_python_expected.py: what Python 3 prints for attn's Python test material.

What it is: the source of the expected text in tests/python/. For each FAMILY.cases file (cases
separated by `#### name` lines) it runs every case in a fresh namespace and writes
FAMILY.expected: what the case printed, and, if it raised, a last line
`error: [FILE:]LINE: Kind: message` (the innermost frame's line, the file only when that frame is
not the case itself: a helper module it imported; the message as Python's traceback ends).
For each FAMILY.lesson it runs the python cells in order in one namespace and rewrites each
cell's ```output block with what it printed (each cell compiled as the lesson file's lines, so
warnings name them), and FAMILY.stderr with what it wrote on stderr (its warnings), when it
wrote anything: tests/cli/test_warnings_cli.cpp compares attn's stderr with it. tests/py/test_python.cpp and `attn verify` (through
tests/py/test_python.cpp too) require attn to print exactly the same. The cases run with
tests/python/ as the current directory and first on sys.path, so `import helper_module` finds
tests/python/helper_module.py (and `import mypkg.model` the package tests/python/mypkg/), as attn
finds a .py file or a package next to the lesson.
What it is not: part of the build or of CI (CI has no PyTorch).

Run with Debian's Python and PyTorch:   /usr/bin/python3 tools/make_python_expected.py
"""
import ast
import contextlib
import glob
import io
import linecache
import os
import re
import sys
import traceback
import types
import warnings

import torch

import notebook_echo

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = os.path.join(ROOT, "tests", "python")
CASE_FILE = "<case>"


def forget_helpers():
    """A fresh attn Interpreter has imported no helper file or package: neither may Python have."""
    tops = {os.path.splitext(os.path.basename(p))[0] for p in glob.glob(os.path.join(FOLDER, "*.py"))}
    tops |= {os.path.basename(p) for p in glob.glob(os.path.join(FOLDER, "*")) if os.path.isdir(p)}
    for name in list(sys.modules):
        if name.split(".")[0] in tops:
            del sys.modules[name]


def error_line(e, filename=CASE_FILE):
    """`[FILE:]LINE: Kind: message` for an exception raised by a case."""
    message = traceback.format_exception_only(type(e), e)[-1].rstrip("\n")
    if isinstance(e, SyntaxError) and e.filename == filename:
        where = str(e.lineno)
    else:
        frame = traceback.extract_tb(e.__traceback__)[-1]
        if isinstance(e, SyntaxError):   # in an imported file
            frame = traceback.FrameSummary(e.filename, e.lineno, None)
        where = str(frame.lineno) if frame.filename == filename else "%s:%d" % (os.path.basename(frame.filename), frame.lineno)
    return "error: %s: %s" % (where, message)


def run(code, namespace, echo=False, filename=CASE_FILE, first_line=1):
    """Output of running `code` in `namespace`, with the error line if it raised. With `echo` (a
    lesson's `echo: last-expression`), the last expression's repr as a notebook shows it. The code
    runs as file `filename` from line `first_line`, whose lines linecache knows (a warning shows
    its source line, as attn's does)."""
    out = io.StringIO()
    code = "\n" * (first_line - 1) + code
    lines = linecache.cache[filename][2][:] if filename in linecache.cache else []
    lines += [""] * (first_line - 1 - len(lines))
    lines[first_line - 1:] = code.splitlines(True)[first_line - 1:]
    linecache.cache[filename] = (len(code), None, lines, filename)
    with contextlib.redirect_stdout(out):
        try:
            tree, last = notebook_echo.split_echo(code, echo, filename)
            exec(compile(tree, filename, "exec"), namespace)
            if last is not None:
                value = eval(compile(ast.Expression(last.value), filename, "eval"), namespace)
                if value is not None:
                    print(repr(value))
        except Exception as e:   # noqa: BLE001 - every error is part of the expected text
            print(error_line(e, filename))
    return out.getvalue()


def split_cases(text):
    """[(name, code)] of a .cases file."""
    cases = []
    for block in re.split(r"^#### ", text, flags=re.M)[1:]:
        name, _, code = block.partition("\n")
        cases.append((name.strip(), code))
    return cases


@contextlib.contextmanager
def as_main():
    """A fresh module's namespace, installed as sys.modules['__main__'] while the case runs, as a
    script's is: pickle finds a case's classes and functions there, as attn finds a lesson's."""
    main = types.ModuleType("__main__")
    saved = sys.modules["__main__"]
    sys.modules["__main__"] = main
    try:
        yield main.__dict__
    finally:
        sys.modules["__main__"] = saved


def make_cases(path):
    chunks = []
    for name, code in split_cases(open(path, encoding="utf-8").read()):
        forget_helpers()
        torch.manual_seed(67280421310721)   # a fresh process's default seed, as attn starts with
        linecache.cache.pop(CASE_FILE, None)
        with warnings.catch_warnings(), as_main() as namespace:   # default filters, no registry; a fresh __main__
            chunks.append("#### %s\n%s" % (name, run(code, namespace)))
    with open(path[:-len(".cases")] + ".expected", "w", encoding="utf-8") as f:
        f.write("".join(chunks))


def make_lesson(path):
    """Rewrite the ```output block after each ```python cell with what it prints."""
    lines = open(path, encoding="utf-8").read().split("\n")
    echo = "echo: last-expression" in lines[:lines.index("")]   # a header line
    forget_helpers()
    torch.manual_seed(67280421310721)
    namespace = {"__name__": "__main__"}
    out, k = [], 0
    name = os.path.basename(path)
    err = io.StringIO()
    with warnings.catch_warnings(), contextlib.redirect_stderr(err):
        run_lesson_cells(lines, namespace, echo, name, out)
    stderr_path = path[:-len(".lesson")] + ".stderr"   # what attn writes on stderr running the lesson from its folder
    if err.getvalue():
        with open(stderr_path, "w", encoding="utf-8") as f:
            f.write(err.getvalue())
    elif os.path.exists(stderr_path):
        os.remove(stderr_path)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out))


def run_lesson_cells(lines, namespace, echo, name, out):
    """Each python cell of a lesson's lines run as the lesson file's lines, its output block after it."""
    linecache.cache.pop(name, None)
    k = 0
    while k < len(lines):
        out.append(lines[k])
        if lines[k] != "```python":
            k += 1
            continue
        end = lines.index("```", k + 1)
        out.extend(lines[k + 1:end + 1])
        printed = run("\n".join(lines[k + 1:end]) + "\n", namespace, echo, name, k + 2)
        k = end + 1
        if k < len(lines) and lines[k] == "```output":   # replace the old block
            k = lines.index("```", k + 1) + 1
        out.extend(["```output"] + (printed.rstrip("\n").split("\n") if printed else []) + ["```"])   # empty: prints nothing


def main():
    sys.dont_write_bytecode = True   # no __pycache__ folders in tests/python/ (attn would see folders)
    os.chdir(FOLDER)
    sys.path.insert(0, FOLDER)
    for path in sorted(glob.glob(os.path.join(FOLDER, "*.cases"))):
        make_cases(path)
    for path in sorted(glob.glob(os.path.join(FOLDER, "*.lesson"))):
        make_lesson(path)


if __name__ == "__main__":
    main()
