#!/usr/bin/python3
"""tools/make_conformance.py: the Python conformance corpus, made by CPython 3.11, sorted by attn.

What it is: the source of tests/conformance/. For each tests/basics/*.py of a MicroPython checkout
(MIT, LICENSE kept in tests/conformance/micropython/) it
  1. skips what CPython 3.11 cannot be the reference for or attn will never run: a SyntaxError or
     an uncaught error in CPython (MicroPython-only behaviour; a file with a MicroPython .exp is
     kept when CPython runs it cleanly, as CPython's output is the reference here), "SKIP" printed, output that changes between runs (hash seeds, addresses),
     a timeout, an import of a module attn will not have (sys, io, os, struct, array, gc, ...) or
     of MicroPython's own test files, memoryview/array/struct-heavy files;
  2. keeps CPython's stdout as NAME.expected, an uncaught error as the last line
     `error: LINE: Kind: message` (tools/make_python_expected.py's format);
  3. runs the file with attn (the binary, the file as a one-cell lesson): a file attn prints
     exactly goes in tests/conformance/micropython/ (NAME.py unmodified, NAME.expected); a file it
     does not is listed in tests/conformance/micropython/GAPS.md under the first thing that stops
     it, grouped and counted, with the skipped files counted by reason.
It also rewrites tests/conformance/attn/*.expected (the project's own programs) with CPython.
tests/py/test_conformance.cpp runs both folders in a py::Interpreter and compares exactly.
What it is not: part of the build or of CI; the differential fuzzer (tools/pyfuzz.py).

Run:  /usr/bin/python3 tools/make_conformance.py --micropython MP_CHECKOUT --attn build/attn
      (MP_CHECKOUT: a work tree of github.com/micropython/micropython, or a bare git dir)
"""
import argparse
import collections
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "conformance")
MP_OUT = os.path.join(OUT, "micropython")
PYTHON = "/usr/bin/python3"
TIMEOUT = 10

# Modules attn will not have (or MicroPython's own): a file importing one is not adopted.
NEVER = {"sys", "io", "os", "struct", "array", "gc", "micropython", "uctypes", "machine", "weakref",
         "errno", "types", "unittest", "traceback", "builtins", "__main__", "select",
         "string.templatelib", "uasyncio", "asyncio", "cmath", "ffi", "framebuf", "btree", "sys.std"}
# Files of MicroPython's test folder that import tests imported (packages, helper modules).
LOCAL = {"mod", "a", "a.b", "pkg", "pkg2", "pkg3", "pkg6", "pkg7", "pkg8", "import1b", "import_override"}

# Runs one file as tools/make_python_expected.py runs a case: stdout, then the error line.
RUNNER = r'''
import sys, traceback
src = open(sys.argv[1], encoding="utf-8").read()
try:
    code = compile(src, "<case>", "exec")
except SyntaxError as e:
    sys.stdout.flush(); print("\x00SYNTAX", e); sys.exit(0)
try:
    exec(code, {"__name__": "__main__"})
except SystemExit:
    sys.stdout.flush(); print("\x00EXIT"); sys.exit(0)
except BaseException as e:
    message = traceback.format_exception_only(type(e), e)[-1].rstrip("\n")
    frame = traceback.extract_tb(e.__traceback__)[-1]
    where = str(frame.lineno) if frame.filename == "<case>" else "%s:%d" % (frame.filename, frame.lineno)
    print("error: %s: %s" % (where, message))
'''

LESSON_HEAD = "# T\nname: t\ngroup: concepts\norder: 1\nsource: x\n\n## c: c\n\n```python\n"
LESSON_FIRST_LINE = LESSON_HEAD.count("\n") + 1


def shown(text):
    """A line of output for GAPS.md: control characters escaped as repr() writes them."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def imports_of(src):
    names = set()
    for m in re.finditer(r"^\s*(?:import|from)\s+([\w.]+)", src, re.M):
        names.add(m.group(1))
    for m in re.finditer(r"^\s*import\s+([\w., ]+)", src, re.M):
        names.update(n.strip().split(" ")[0] for n in m.group(1).split(","))
    return names


def static_skip(name, src, has_exp):
    """The reason a file is not adopted before running it, or None."""
    stem = name[:-3]
    if re.match(r"(memoryview|array|struct)", stem):
        return "memoryview/array/struct tests"
    if len(re.findall(r"memoryview|\barray\.|\bstruct\.", src)) >= 3:
        return "memoryview/array/struct-heavy"
    for mod in sorted(imports_of(src)):
        if mod.startswith("."):
            return "imports MicroPython's test files (relative import)"
        if mod in LOCAL or mod.split(".")[0] in LOCAL:
            return "imports MicroPython's test files"
        if mod in NEVER or mod.split(".")[0] in NEVER:
            return "imports a module attn will not have (%s)" % (mod if mod in NEVER else mod.split(".")[0])
    return None


def run_cpython(path, seed):
    env = dict(os.environ, PYTHONHASHSEED=str(seed), PYTHONIOENCODING="utf-8")
    try:
        r = subprocess.run([PYTHON, "-c", RUNNER, path], capture_output=True, timeout=TIMEOUT,
                           env=env, cwd=os.path.dirname(path))
    except subprocess.TimeoutExpired:
        return None, "CPython takes longer than %d s" % TIMEOUT
    out = r.stdout.decode("utf-8", "replace")
    if r.returncode != 0:
        return None, "CPython cannot run it (exit %d)" % r.returncode
    return out, None


def cpython_expected(path):
    """(expected, None) or (None, reason to skip)."""
    out, why = run_cpython(path, 1)
    if why:
        return None, why
    if "\x00SYNTAX" in out:
        return None, "not CPython 3.11 syntax (SyntaxError in CPython)"
    if "\x00EXIT" in out or re.search(r"^SKIP$", out, re.M):
        return None, "skips itself in CPython (SKIP / SystemExit)"
    if re.search(r"^error: ", out, re.M):
        return None, "an uncaught error in CPython (MicroPython-specific behaviour)"
    again, _ = run_cpython(path, 2)
    if again != out or re.search(r" at 0x[0-9a-f]+", out):
        return None, "nondeterministic in CPython (hash seed, addresses)"
    return out, None


def run_attn(binary, path):
    """What attn prints for the file as one cell, with its error as `error: LINE: ...`."""
    src = open(path, encoding="utf-8").read()
    if not src.endswith("\n"):
        src += "\n"
    with tempfile.NamedTemporaryFile("w", suffix=".lesson", delete=False, encoding="utf-8") as f:
        f.write(LESSON_HEAD + src + "pass\n```\n")   # `pass`: no notebook echo of a last expression
        lesson = f.name
    try:
        r = subprocess.run([binary, "run", lesson, "--quiet"], capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return "", "attn takes longer than 60 s"
    finally:
        os.unlink(lesson)
    out = r.stdout.decode("utf-8", "replace")
    err = r.stderr.decode("utf-8", "replace").strip()
    if r.returncode == 0:
        return out, None
    m = re.match(r"attn: [^:]*\.lesson:(\d+): (.*)", err.splitlines()[0] if err else "")
    if m:
        return out + "error: %d: %s\n" % (int(m.group(1)) - LESSON_FIRST_LINE + 1, m.group(2)), m.group(2)
    return out, (err.splitlines() or ["exit %d" % r.returncode])[0]


def gap_key(expected, got, attn_error):
    """The first thing that stops a file: attn's error, or the first line that differs."""
    exp_lines, got_lines = expected.split("\n"), got.split("\n")
    k = next((i for i, (a, b) in enumerate(zip(exp_lines, got_lines)) if a != b), min(len(exp_lines), len(got_lines)))
    if attn_error and got_lines[k:k + 1] and got_lines[k].startswith("error: "):
        return group_of(attn_error), attn_error
    exp = exp_lines[k] if k < len(exp_lines) else "<end>"
    have = got_lines[k] if k < len(got_lines) else "<end>"
    return "prints something else", "line %d: CPython `%s`, attn `%s`" % (k + 1, shown(exp[:80]), shown(have[:80]))


def group_of(error):
    """Errors of one cause in one group: refusals by construct, others by kind and message."""
    m = re.search(r"attn does not support (.*?)(?: \((?:README|docs/lesson-authors\.md)|: |$)", error)
    if m:
        return "refused: " + m.group(1)
    m = re.match(r"(\w+): (.*)", error)
    if not m:
        return error
    kind, msg = m.groups()
    if kind != "SyntaxError":
        msg = re.sub(r"'[^'\s]*'", "'...'", msg)
    return "%s: %s" % (kind, msg[:70])


def micropython_sources(checkout, work):
    """{name: path} of tests/basics/*.py and the set of names with a .exp, copied into `work`."""
    if os.path.isdir(os.path.join(checkout, "tests", "basics")):
        basics = os.path.join(checkout, "tests", "basics")
    else:   # a bare git dir
        subprocess.run("git -C '%s' archive HEAD tests/basics | tar -x -C '%s'" % (checkout, work), shell=True, check=True)
        basics = os.path.join(work, "tests", "basics")
    names = sorted(n for n in os.listdir(basics) if n.endswith(".py"))
    exps = {n[:-len(".py.exp")] for n in os.listdir(basics) if n.endswith(".py.exp")}
    return basics, names, exps


def commit_of(checkout):
    r = subprocess.run(["git", "-C", checkout, "rev-parse", "HEAD"], capture_output=True, text=True)
    return r.stdout.strip() or "unknown"


def classify(name, basics, exps, binary):
    """(name, 'skip'|'pass'|'gap', reason, detail, expected)."""
    path = os.path.join(basics, name)
    src = open(path, encoding="utf-8", errors="replace").read()
    why = static_skip(name, src, name[:-3] in exps)
    if why:
        return name, "skip", why, "", None
    expected, why = cpython_expected(path)
    if why:
        return name, "skip", why, "", None
    got, attn_error = run_attn(binary, path)
    if got == expected:
        return name, "pass", "", "", expected
    key, detail = gap_key(expected, got, attn_error)
    if got.startswith("SKIP\n") and not expected.startswith("SKIP"):
        key = "attn lacks what the file's own feature check tries (it prints SKIP)"
        code = [l.strip() for l in src.split("\n") if l.strip() and not l.lstrip().startswith("#")]
        detail = " / ".join(code[:3])[:120]
    for mod in sorted(imports_of(src)):
        if mod not in ("math", "typing", "re", "random"):
            key = "stdlib module %s (another helper writes the standard library)" % mod
    if re.search(r"^\s*(?:\w+\s*=\s*)?\(?yield\b|\byield\b", src, re.M) and "yield" in (attn_error or "") + key:
        key = "generators / yield (another helper implements them)"
    return name, "gap", key, detail, expected


# Divergences known beyond the files above (kept out of tools/pyfuzz.py's generator too).
KNOWN = [
    "## Known divergences the corpus does not show", "",
    "- Sets holding strings iterate in insertion order (CPython's order follows per-process string",
    "  hashes); sets of numbers follow CPython's table, but items added after others were removed",
    "  can take other slots than CPython's (`a = {2, 34}; b = {-7, -3, 33}; a ^= b; a -= b; a |= b`",
    "  prints `{33, 2, 34, -7, -3}`, CPython `{33, 2, 34, -3, -7}`; found by tools/pyfuzz.py).",
    "- No implicit `__context__` on an exception raised while handling another; `raise ... from`",
    "  sets `__cause__`.",
    "",
]


def write_gaps(results, commit):
    gaps = [r for r in results if r[1] == "gap"]
    skips = [r for r in results if r[1] == "skip"]
    passed = [r for r in results if r[1] == "pass"]
    lines = ["# MicroPython basics that attn does not yet run as CPython does", "",
             "Written by tools/make_conformance.py from micropython/micropython tests/basics at commit",
             "`%s`. Of %d files: **%d adopted and passing** (in this folder), **%d gaps** (below, by the"
             % (commit, len(results), len(passed), len(gaps)),
             "first thing that stops each), **%d not adopted** (CPython is not their reference or attn" % len(skips),
             "will never have what they need; counted at the end). A gap file that attn starts to pass moves",
             "into the folder when the tool is run again.", "", "## Gaps, by first blocking construct", ""]
    by = collections.defaultdict(list)
    for r in gaps:
        by[r[2]].append(r)
    for key, rs in sorted(by.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        lines.append("### %s (%d)" % (key, len(rs)))
        lines.append("")
        for r in rs:
            lines.append("- `%s`: %s" % (r[0], r[3].replace("`", "'") if r[3] else ""))
        lines.append("")
    lines += KNOWN
    lines += ["## Not adopted, by reason", ""]
    sby = collections.Counter(r[2] for r in skips)
    for key, n in sorted(sby.items(), key=lambda kv: (-kv[1], kv[0])):
        files = sorted(r[0] for r in skips if r[2] == key)
        lines.append("- %s: %d (%s)" % (key, n, ", ".join(f[:-3] for f in files)))
    lines.append("")
    with open(os.path.join(MP_OUT, "GAPS.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


def make_micropython(args):
    work = tempfile.mkdtemp(prefix="attn-conformance-")
    try:
        basics, names, exps = micropython_sources(args.micropython, work)
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(lambda n: classify(n, basics, exps, args.attn), names))
        for old in os.listdir(MP_OUT):
            if old.endswith((".py", ".expected")):
                os.unlink(os.path.join(MP_OUT, old))
        for name, kind, _, _, expected in results:
            if kind == "pass":
                shutil.copyfile(os.path.join(basics, name), os.path.join(MP_OUT, name))
                with open(os.path.join(MP_OUT, name[:-3] + ".expected"), "w", encoding="utf-8") as f:
                    f.write(expected)
        write_gaps(results, commit_of(args.micropython))
        counts = collections.Counter(r[1] for r in results)
        print("micropython basics: %d files, %d pass, %d gaps, %d not adopted" % (len(results), counts["pass"], counts["gap"], counts["skip"]))
    finally:
        shutil.rmtree(work)


def make_attn_programs(binary):
    """CPython's output for the project's own programs; those attn fails are reported, not hidden."""
    folder = os.path.join(OUT, "attn")
    for name in sorted(n for n in os.listdir(folder) if n.endswith(".py")):
        path = os.path.join(folder, name)
        out, why = run_cpython(path, 1)
        if why or "\x00" in out:
            sys.exit("%s: CPython cannot be its reference (%s)" % (name, why or out.strip()))
        with open(path[:-3] + ".expected", "w", encoding="utf-8") as f:
            f.write(out)
        if binary:
            got, err = run_attn(binary, path)
            print("%s: %s" % (name, "pass" if got == out else "FAILS: " + gap_key(out, got, err)[1]))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--micropython", help="a MicroPython checkout or bare git dir (omit: only tests/conformance/attn)")
    p.add_argument("--attn", default=os.path.join(ROOT, "build", "attn"), help="the attn binary that sorts passes from gaps")
    p.add_argument("-j", "--jobs", type=int, default=2)
    args = p.parse_args()
    os.makedirs(MP_OUT, exist_ok=True)
    if args.micropython:
        make_micropython(args)
    make_attn_programs(args.attn if os.path.exists(args.attn) else None)


if __name__ == "__main__":
    main()
