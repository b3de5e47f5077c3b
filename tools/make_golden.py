#!/usr/bin/python3
"""tools/make_golden.py: run every lesson's cells through real PyTorch and record what they print.

What it is: the source of tests/golden/*.txt (what each cell printed) and tests/golden/prose/*.txt
(each step's prose and notes with their placeholders filled by Python from the same run). It reads lessons/*.lesson with the same rules as
src/lesson/lesson_file.cpp, rewrites the code for --seed / --sentence with the same regexes as
src/lesson/options.cpp, executes the cells in one Python namespace per lesson (so the articles'
classes run as real Python), and writes each cell's stdout. tests/lesson/test_golden.cpp then requires
attn to print exactly the same. What it is not: part of the build or of CI (CI has no PyTorch).

Each lesson declares the CPU kernels its article was printed with (`cpu: scalar` or `avx2`).
PyTorch chooses its kernels by CPU capability; ATEN_CPU_CAPABILITY=default forces the scalar
family, so this script runs itself once per family with that variable set or unset.

Run with Debian's PyTorch:   /usr/bin/python3 tools/make_golden.py [LESSON ...]
(the children load the reference BLAS through LD_LIBRARY_PATH, and refuse to run with another)
(with lesson names, only those lessons' files are rewritten)
"""
import ast
import contextlib
import io
import os
import re
import subprocess
import sys

import torch

import notebook_echo

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LESSONS = os.path.join(ROOT, "lessons")
GOLDEN = os.path.join(ROOT, "tests", "golden")

SEED_CALL = re.compile(r"torch\.manual_seed\(\s*-?[0-9_]+\s*\)")
SENTENCE = re.compile(r"^(\s*sentence\s*=\s*)(['\"]).*\2[ \t]*$")

# Variants every lesson with a seed / sentence is checked under, besides the article's own inputs.
# 42: an ordinary other seed. 'the cat ...': repeated words ('the', 'sat'), so the vocabulary keeps
# each repeated word's last index. 1: the first seed whose causal weights print in scientific
# notation (tools/make_golden.py --find-sci). 3: scores in scientific notation, wide enough that
# rows wrap at 80 columns. Seeds are fixed so the files are stable.
VARIANTS = [
    {},
    {"seed": "42"},
    {"sentence": "the cat sat on the mat, and the dog sat too"},
    {"seed": "1"},
    {"seed": "3"},
    {"seed": "7", "sentence": "Attention is all you need"},
    {"cpu": "avx2"},
    {"cpu": "avx2", "seed": "1"},
]
FAMILIES = {"scalar": "default", "avx2": "avx2"}   # attn's --cpu -> ATEN_CPU_CAPABILITY
# The book chapter's six token embeddings, replaced (tests --inputs).
OTHER_INPUTS = "0.1 0.2 0.3; -0.5 0.25 1.5; 2 0 -1; 0.33 0.66 0.99; 1e-3 -2.5 0.7; 0.9 0.8 -0.05"
# Other shapes (--inputs adapts the code's hard-coded 6 and 3): 4 and 9 tokens, 2 and 5 features.
FOUR_ROWS = "0.1 0.2 0.3; -0.5 0.25 1.5; 2 0 -1; 0.33 0.66 0.99"
NINE_ROWS = OTHER_INPUTS + "; 0.4 0.4 0.4; -1 1 0; 0.05 0.6 0.2"
TWO_COLUMNS = "0.4 0.1; 0.5 0.9; 0.6 0.8; 0.2 0.6; 0.8 0.3; 0.1 0.8"
FIVE_COLUMNS = ("0.43 0.15 0.89 0.1 0.2; 0.55 0.87 0.66 0.3 0.4; 0.57 0.85 0.64 0.5 0.6; "
                "0.22 0.58 0.33 0.7 0.8; 0.77 0.25 0.10 0.9 1.0; 0.05 0.80 0.55 1.1 1.2")
BOOK_VARIANTS = [{"inputs": OTHER_INPUTS}, {"seed": "7"}, {"inputs": OTHER_INPUTS, "seed": "2"},
                 {"inputs": FOUR_ROWS}, {"inputs": NINE_ROWS}, {"inputs": TWO_COLUMNS}, {"inputs": FIVE_COLUMNS},
                 {"inputs": FOUR_ROWS, "seed": "7"}]


def parse_lesson(path):
    """Return (name, cpu, [(step_id, [code, ...]), ...]) for a lesson file."""
    name, cpu, echo, steps, fence, buf = None, "avx2", False, [], None, []
    for line in open(path, encoding="utf-8").read().split("\n"):
        if fence is not None:
            if line == "```":
                if fence in ("python", "python setup"):
                    steps[-1][1].append("\n".join(buf) + "\n")
                fence, buf = None, []
            else:
                buf.append(line)
            continue
        if line.startswith("name:") and name is None:
            name = line.split(":", 1)[1].strip()
        elif line.startswith("cpu:") and not steps:
            cpu = line.split(":", 1)[1].strip()
        elif line.startswith("echo:") and not steps:
            echo = True
        elif line.startswith("## "):
            steps.append((line[3:].split(":", 1)[0], []))
        elif line.startswith("```"):
            fence = line[3:].strip()
    return name, cpu, echo, steps


def find_inputs_literal(code):
    """(begin, end) of `inputs = torch.tensor(...)`, skipping brackets in comments and strings."""
    m = re.search(r"(^|\n)(inputs\s*=\s*torch\.tensor\()", code)
    if not m:
        return None
    k, depth = m.end(2), 1
    while k < len(code) and depth > 0:
        c = code[k]
        if c == "#":
            while k < len(code) and code[k] != "\n":
                k += 1
        elif c in "'\"":
            k = code.index(c, k + 1)
        elif c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        k += 1
    return (m.start(2), k) if depth == 0 else None


def parse_inputs(text):
    return [[float(w) for w in r.replace(",", " ").split()] for r in text.split(";") if r.strip()]


def inputs_literal(text):
    body = ",\n   ".join("[" + ", ".join(repr(v) for v in row) + "]" for row in parse_inputs(text))
    return "inputs = torch.tensor(\n  [" + body + "]\n)"


def inputs_shape(code):
    """(rows, columns) of the lesson's own `inputs = torch.tensor([[...], ...])`, or None."""
    span = find_inputs_literal(code)
    if not span:
        return None
    rows = ast.literal_eval(ast.parse(code[span[0]:span[1]]).body[0].value.args[0])
    return len(rows), len(rows[0])


# What --inputs of another shape rewrites besides the matrix (src/lesson/code_scan.h, the same
# rules): torch.empty/zeros/ones/rand/randn(R0, R0) -> (R, R), and a literal C0 assigned to d_in.
SQUARE_CALL = re.compile(r"torch\.(empty|zeros|ones|rand|randn)\((\s*)(\d+)(\s*,\s*)(\d+)(\s*)\)")
ASSIGNMENT = re.compile(r"^(\s*)([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)(\s*=\s*)([^#]*?)(\s*(?:#.*)?)$")


def rewrite_shape(code, own, new):
    (r0, c0), (r, c) = own, new
    code = SQUARE_CALL.sub(lambda m: "torch.%s(%s%d%s%d%s)" % (m.group(1), m.group(2), r, m.group(4), r, m.group(6))
                           if int(m.group(3)) == r0 and int(m.group(5)) == r0 else m.group(0), code)
    out = []
    for line in code.split("\n"):
        m = ASSIGNMENT.match(line)
        if m:
            names = [n.strip() for n in m.group(2).split(",")]
            values = m.group(4).split(",")
            if len(names) == len(values) and "d_in" in names and values[names.index("d_in")].strip() == str(c0):
                k = names.index("d_in")
                v = values[k]
                values[k] = v[:len(v) - len(v.lstrip())] + str(c) + v[len(v.rstrip()):]
                line = m.group(1) + m.group(2) + m.group(3) + ",".join(values) + m.group(5)
        out.append(line)
    return "\n".join(out)


def apply_options(code, opts, own_shape=None):
    if "inputs" in opts:
        span = find_inputs_literal(code)
        if span:
            code = code[:span[0]] + inputs_literal(opts["inputs"]) + code[span[1]:]
        rows = parse_inputs(opts["inputs"])
        if own_shape:
            code = rewrite_shape(code, own_shape, (len(rows), len(rows[0])))
    if "seed" in opts:
        code = SEED_CALL.sub("torch.manual_seed(%s)" % opts["seed"], code)
    if "sentence" in opts:
        out = []
        for line in code.split("\n"):
            m = SENTENCE.match(line)
            out.append(m.group(1) + repr(opts["sentence"]) if m else line)
        code = "\n".join(out)
    return code


def run_cell(code, namespace, echo):
    """exec a cell; with echo, display its last expression's value as Jupyter does (notebook_echo.py)."""
    tree, last = notebook_echo.split_echo(code, echo)
    exec(compile(tree, "<cell>", "exec"), namespace)
    if last is not None:
        value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)
        if value is not None:
            print(repr(value))


def run_cells(steps, opts, echo=False, after_step=None):
    """Execute every cell in one namespace; return [(step_id, index, stdout)]. after_step(step_id,
    namespace, codes as run) is called after each step's last cell (to fill its prose)."""
    torch.manual_seed(67280421310721)   # a fresh process's default seed, as attn starts with
    namespace = {"__name__": "__main__"}
    results = []
    own = lesson_inputs_shape(steps)
    for step_id, cells in steps:
        ran = []
        for k, code in enumerate(cells, 1):
            ran.append(apply_options(code, opts, own))
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                run_cell(ran[-1], namespace, echo)
            results.append((step_id, k, buf.getvalue()))
        if after_step:
            after_step(step_id, namespace, ran)
    return results


def run_with_prose(path, steps, opts, echo):
    """run_cells, and each step's prose and notes filled as attn fills them (lessons/README.md,
    "Numbers in prose"), by Python evaluating each placeholder after the step's last cell:
    returns (results, [(step_id, prose, [note per cell])])."""
    import check_blas   # the prose parser and filler (it imports this module: import it late)
    texts = {s["id"]: s for s in check_blas.parse_with_prose(path)}
    filled = []

    def after_step(step_id, namespace, ran):
        seed = next((m.group(0)[len("torch.manual_seed("):-1].strip() for c in ran for m in SEED_CALL.finditer(c)), "")
        s = texts[step_id]
        filled.append((step_id, check_blas.fill(s["prose"], namespace, seed), [check_blas.fill(n, namespace, seed) for n in s["notes"]]))
    return run_cells(steps, opts, echo, after_step), filled


def lesson_inputs_shape(steps):
    for _, cells in steps:
        for c in cells:
            if find_inputs_literal(c):
                return inputs_shape(c)
    return None


def uses(steps, what):
    if what in ("cpu", "rng"):
        return True
    if what == "inputs":
        return any(find_inputs_literal(c) for _, cells in steps for c in cells)
    text = "".join(c for _, cells in steps for c in cells)
    return bool(SEED_CALL.search(text)) if what == "seed" else any(
        SENTENCE.match(line) for line in text.split("\n"))


def variant_tag(opts):
    if not opts:
        return "article"
    return "+".join("%s=%s" % (k, v) for k, v in sorted(opts.items()))


def write_golden(name, opts, results, variant):
    fname = "%s@%s.txt" % (name, re.sub(r"[^A-Za-z0-9=+.-]", "_", variant_tag(variant)))
    with open(os.path.join(GOLDEN, fname), "w", encoding="utf-8") as f:
        f.write("# golden output of lesson %s, made by tools/make_golden.py with torch %s\n" % (name, torch.__version__))
        f.write("lesson: %s\n" % name)
        for k, v in sorted(opts.items()):
            f.write("%s: %s\n" % (k, v))
        for step_id, k, out in results:
            f.write("=== cell %s#%d\n" % (step_id, k))
            f.write(out)
    return fname


def write_prose_golden(name, opts, filled, variant):
    """tests/golden/prose/NAME@VARIANT.txt: each step's prose and each note as PyTorch's run fills
    them; tests/lesson/test_prose.cpp requires attn to fill them the same. Each text ends with one added
    newline."""
    fname = "%s@%s.txt" % (name, re.sub(r"[^A-Za-z0-9=+.-]", "_", variant_tag(variant)))
    with open(os.path.join(GOLDEN, "prose", fname), "w", encoding="utf-8") as f:
        f.write("# filled prose of lesson %s, made by tools/make_golden.py with torch %s\n" % (name, torch.__version__))
        f.write("lesson: %s\n" % name)
        for k, v in sorted(opts.items()):
            f.write("%s: %s\n" % (k, v))
        for step_id, prose, notes in filled:
            f.write("=== prose %s\n%s\n" % (step_id, prose))
            for k, note in enumerate(notes, 1):
                if note:
                    f.write("=== note %s#%d\n%s\n" % (step_id, k, note))
    return "prose/" + fname


# The BLAS decides the last bits of `@`; attn adds in the reference BLAS's order. The children run
# with it whatever the system's libblas.so.3 alternative is (OpenBLAS prints other last digits).
REFERENCE_BLAS = "/usr/lib/x86_64-linux-gnu/blas:/usr/lib/x86_64-linux-gnu/lapack"


def loaded_blas():
    return sorted({l.split()[-1] for l in open("/proc/self/maps") if "libblas" in l or "openblas" in l})


def run_family(family, only):
    """Child process: ATEN_CPU_CAPABILITY is set for `family`; write that family's files."""
    assert torch.__version__.startswith("1.13"), "make golden files with Debian's python3-torch 1.13"
    torch.ones(2, 2) @ torch.ones(2, 2)   # loads the BLAS
    blas = loaded_blas()
    assert blas and all("/blas/" in l for l in blas), "golden files need the reference BLAS, loaded: %s" % blas
    for f in sorted(x for x in os.listdir(LESSONS) if x.endswith(".lesson")):
        name, cpu, echo, steps = parse_lesson(os.path.join(LESSONS, f))
        if only and name not in only:
            continue
        for variant in VARIANTS + BOOK_VARIANTS:
            opts = dict(variant)
            opts.setdefault("cpu", cpu)
            opts.setdefault("rng", "portable")   # the only dropout PyTorch computes on this machine
            if opts["cpu"] != family or any(not uses(steps, key) for key in variant):
                continue
            if "cpu" in variant and variant["cpu"] == cpu:
                continue   # the lesson's own family is already covered without the option
            results, filled = run_with_prose(os.path.join(LESSONS, f), steps, opts, echo)
            print("wrote", write_golden(name, opts, results, variant), write_prose_golden(name, opts, filled, variant))


def find_sci_seed(steps):
    for seed in range(1, 1000):
        out = "".join(o for _, _, o in run_cells(steps, {"seed": str(seed)}))
        if re.search(r"\de-0\d", out):
            return seed
    return None


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if "--family" in sys.argv:
        run_family(sys.argv[sys.argv.index("--family") + 1], set(args[1:]))
        return
    os.makedirs(GOLDEN, exist_ok=True)
    if "--find-sci" in sys.argv:
        name, cpu, echo, steps = parse_lesson(os.path.join(LESSONS, "causal.lesson"))
        print("first seed whose causal lesson prints scientific notation:", find_sci_seed(steps))
        return
    os.makedirs(os.path.join(GOLDEN, "prose"), exist_ok=True)
    for folder in (GOLDEN, os.path.join(GOLDEN, "prose")):
        for old in os.listdir(folder):
            if os.path.isfile(os.path.join(folder, old)) and (not args or old.split("@")[0] in args):
                os.remove(os.path.join(folder, old))
    for family, capability in FAMILIES.items():
        env = dict(os.environ, ATEN_CPU_CAPABILITY=capability, LD_LIBRARY_PATH=REFERENCE_BLAS, OMP_NUM_THREADS="1")
        subprocess.run([sys.executable, os.path.abspath(__file__), "--family", family] + args, env=env, check=True)


if __name__ == "__main__":
    main()
