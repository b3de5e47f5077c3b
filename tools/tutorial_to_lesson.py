#!/usr/bin/env python3
"""tutorial_to_lesson.py: turn a published tutorial (a Jupyter notebook, or .py files) into an
attn lesson, cell for cell, WITHOUT changing its code, plus the list of cells it had to skip.

What it is: the converter behind tests/tutorials/NAME/ (issue 11's "published tutorials run in
attn unchanged"). Each folder holds the tutorial's files exactly as published (a notebook, and
the .py files it imports), a `tutorial.json` saying where they come from and which cells need a
package attn cannot have, and what this script writes from them:

  NAME.lesson   one ```python cell per code cell that runs, its code byte for byte the
                notebook's, and under it the ```output that Debian's PyTorch 1.13.1 printed for
                it (run with --torch; `attn verify` then compares attn's output with it);
  SKIPPED.md    every code cell that is not in the lesson, with the reason, and the cells whose
                output is not compared (tutorial.json's `unchecked`: the installed PyTorch's
                version string, which is a build's name and not arithmetic).

A cell is skipped when it needs what attn cannot have (a tokenizer, a plotting library, a GPU,
a file or download, an IPython magic, a PyTorch 2.x API attn does not provide), when
tutorial.json says so (with its reason), or when it uses a name that only a skipped cell
defines (found with the standard `ast` module). tutorial.json may give a `substitute` for a
skipped cell: code that stands in for what the cell computed with a package attn cannot have
(the token ids a tokenizer produced); the lesson shows it as a step of its own, titled as a
substitute, and SKIPPED.md lists it.

What it is not: a Python-to-attn translator. It never edits code; a cell attn cannot run stays
in the lesson and fails there, which is what the tutorial tests are for.

Usage (from the repository root):
    tools/tutorial_to_lesson.py tests/tutorials/NAME            # outputs from the cache, if any
    /usr/bin/python3 tools/tutorial_to_lesson.py tests/tutorials/NAME --torch
                                                               # outputs from Debian's PyTorch
Only the standard library; --torch runs the cells with /usr/bin/python3 (python3-torch 1.13)
under the reference BLAS and one thread, as tools/make_torch_expected.py does, and with its
PRELUDE (PyTorch 2.1's scaled_dot_product_attention math path, docs/pytorch-numerics.md §17).
"""
import ast
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# What attn cannot have, looked for in a cell's source: (regex, reason). The first match names
# the reason. A cell's own imports are what matter; a name used from a skipped cell is found
# by the dependency pass below.
NEEDS = [
    (r"^\s*[%!]", "an IPython magic or shell command (%timeit, !pip): not Python"),
    (r"\btiktoken\b", "needs tiktoken (a tokenizer attn cannot have)"),
    (r"\bmatplotlib\b|\bplt\.", "needs matplotlib (plotting)"),
    (r"\bnumpy\b|\bnp\.", "needs numpy"),
    (r"\bpackaging\b", "needs the packaging module (version parsing)"),
    (r"torch\.cuda\.(Event|synchronize)|torch\.compile\b|torch\._dynamo",
     "needs a GPU or the PyTorch 2.x compiler (torch.cuda.Event, torch.compile)"),
    (r"set_float32_matmul_precision|flex_attention|torch\.nn\.attention",
     "a PyTorch 2.x API attn does not provide (GPU matmul precision, FlexAttention)"),
    (r"\bopen\(|urllib|requests\.",
     "reads a file or downloads data"),
]


def code_cells(path):
    """The code cells of a notebook, or of a .py file cut at its `# %%` lines (Jupytext's percent
    format; the lines before the first one are the file's comment): [(index, source), ...]."""
    if path.endswith(".py"):
        cells, cur = [], None
        for line in open(path, encoding="utf-8").read().splitlines(keepends=True):
            if line.startswith("# %%"):
                cur = []
                cells.append(cur)
            elif cur is not None:
                cur.append(line)
        return [(i, "".join(c).strip("\n") + "\n") for i, c in enumerate(cells)]
    nb = json.load(open(path, encoding="utf-8"))
    cells = [c for c in nb["cells"] if c["cell_type"] == "code"]
    out = []
    for i, c in enumerate(cells):
        src = c["source"]
        out.append((i, "".join(src) if isinstance(src, list) else src))
    return out


def names_of(code):
    """(defined, used) top-level names of a cell; None if the cell is not Python that parses."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    defined, used = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (defined if isinstance(node.ctx, (ast.Store, ast.Del)) else used).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, ast.alias):
            defined.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.arg):
            defined.add(node.arg)
    return defined, used


def is_blank(code):
    """A cell of only comments and blank lines (nothing to run)."""
    return all(not line.strip() or line.strip().startswith("#") for line in code.splitlines())


def plan(spec, cells):
    """Decide, cell by cell: ("run", i, code) / ("substitute", i, code, reason) / ("skip", i, reason)."""
    manual = {int(k): v for k, v in spec.get("skip", {}).items()}
    subst = {int(k): v for k, v in spec.get("substitute", {}).items()}
    skipped_names = set()  # names that only a skipped cell defined
    available = set()      # names a cell in the lesson defined
    steps = []
    for i, code in cells:
        reason = manual.get(i)
        if reason is None and is_blank(code):
            reason = "only comments: nothing to run"
        if reason is None:
            reason = next((why for rx, why in NEEDS if re.search(rx, code, re.M)), None)
        names = names_of(code)
        if reason is None and names is not None:
            missing = sorted((names[1] - names[0]) & skipped_names)
            if missing:
                reason = "uses " + ", ".join(f"`{n}`" for n in missing) + " from a skipped cell"
        if reason is None:
            steps.append(("run", i, code))
            if names is not None:
                skipped_names -= names[0]
                available |= names[0]
            continue
        if names is not None:
            skipped_names |= names[0] - available
        if i in subst:
            steps.append(("substitute", i, subst[i]["code"], reason, subst[i]["why"]))
            sub_defined = names_of(subst[i]["code"])[0]
            skipped_names -= sub_defined
            available |= sub_defined
        else:
            steps.append(("skip", i, reason))
    return steps


# Runs cells one by one in one session, as Jupyter does (a cell ending in an expression shows
# its repr, unless it ends with `;`: notebook_echo.py), and prints [[output, error], ...] as JSON. The cwd is the tutorial's folder, so
# `from previous_chapters import ...` finds the file next to the lesson, as attn does.
CELL_RUNNER = r'''
import ast, contextlib, io, json, sys, traceback
sys.path.insert(0, ".")
sys.path.append(TOOLS)
import notebook_echo
cells, g, out = json.load(sys.stdin), {"__name__": "__main__"}, []
for code in cells:
    buf = io.StringIO()
    err = None
    with contextlib.redirect_stdout(buf):
        try:
            tree, last = notebook_echo.split_echo(code)
            exec(compile(tree, "cell", "exec"), g)
            if last is not None:
                value = eval(compile(ast.Expression(last.value), "cell", "eval"), g)
                if value is not None:
                    print(repr(value))
        except Exception as e:
            err = traceback.format_exception_only(type(e), e)[-1].strip()
    out.append([buf.getvalue(), err])
sys.__stdout__.write(json.dumps(out))
'''


def torch_outputs(folder, codes, run):
    """What Debian's PyTorch 1.13 prints for each cell, run in one session. Kept in a cache under
    /tmp keyed by the cells' code and the folder's .py files, so that changing only the skip
    reasons or the prose does not rerun the GPT-2-sized cells (minutes on the reference BLAS)."""
    import hashlib
    key = hashlib.sha256(json.dumps(codes).encode())
    for f in sorted(os.listdir(folder)):
        if f.endswith(".py"):
            key.update(f.encode() + open(os.path.join(folder, f), "rb").read())
    cache = os.path.join("/tmp", "attn-tutorial-cache", key.hexdigest() + ".json")
    if os.path.exists(cache):
        return json.load(open(cache))
    if not run:
        return None
    outputs = run_torch(folder, codes)
    os.makedirs(os.path.dirname(cache), exist_ok=True)
    json.dump(outputs, open(cache, "w"))
    return outputs


def run_torch(folder, codes):
    sys.path.insert(0, HERE)
    from make_torch_expected import PRELUDE
    env = dict(os.environ, LD_LIBRARY_PATH="/usr/lib/x86_64-linux-gnu/blas:/usr/lib/x86_64-linux-gnu/lapack",
               OMP_NUM_THREADS="1", PYTHONHASHSEED="0")
    env.pop("ATEN_CPU_CAPABILITY", None)
    r = subprocess.run(["/usr/bin/python3", "-c", PRELUDE + f"TOOLS = {os.path.dirname(os.path.abspath(__file__))!r}\n" + CELL_RUNNER], input=json.dumps(codes), env=env,
                       capture_output=True, text=True, cwd=folder)
    if r.returncode != 0:
        sys.exit(f"{folder}: the cells failed under torch:\n{r.stderr}")
    return json.loads(r.stdout)


def fence(kind, text):
    """A ``` block; the text ends without its final newline."""
    return [f"```{kind}", text.rstrip("\n"), "```"]


def write(folder, with_torch):
    spec = json.load(open(os.path.join(folder, "tutorial.json"), encoding="utf-8"))
    name = spec["name"]
    src = spec["notebook"]
    steps = [(src,) + st for st in plan(spec, code_cells(os.path.join(folder, src)))]
    runnable = [st for st in steps if st[1] in ("run", "substitute")]
    outputs = torch_outputs(folder, [st[3] for st in runnable], with_torch)
    out_of = {}
    if outputs is not None:
        for st, (text, err) in zip(runnable, outputs):
            if err is not None:
                sys.exit(f"{folder}: {st[0]} cell {st[2]} fails under PyTorch too: {err}")
            out_of[(st[0], st[2], st[1])] = text
    lines = [f"# {spec['title']}", f"name: {name}", "group: concepts", f"order: {spec['order']}",
             "cpu: avx2", "rng: portable", "echo: last-expression", f"source: {spec['source']}", "",
             f"{spec['attribution']}", "",
             "Made by tools/tutorial_to_lesson.py from the files in this folder, which are the tutorial's "
             "as published: each cell's code is the tutorial's, unchanged, and its output is what Debian's "
             "PyTorch 1.13.1 printed for it. The cells left out are listed in SKIPPED.md.", ""]
    unchecked = spec.get("unchecked", {})
    skipped = [f"# Cells of {spec['title']} that are not in {name}.lesson", "",
               f"Cells are numbered from 0 among the code cells of `{spec['notebook']}`.", ""]
    for st in steps:
        src, kind, i = st[0], st[1], st[2]
        label = f"cell {i}" if src.endswith(".ipynb") else f"cell {i} of {src}"
        if kind == "skip":
            skipped.append(f"- cell {i}: {st[3]}")
            continue
        if kind == "substitute":
            skipped.append(f"- cell {i}: {st[4]}; replaced by a substitute cell: {st[5]}")
            lines += [f"## substitute-{i}: Substitute for {label} ({st[4]})", "", st[5], ""]
        else:
            lines += [f"## cell-{i}: {label}", ""]
        lines += fence("python", st[3])
        text = out_of.get((src, i, kind))
        if str(i) in unchecked and kind == "run":
            skipped.append(f"- cell {i}: runs, but its output is not compared: {unchecked[str(i)]}")
            lines += ["", f"(Not compared: {unchecked[str(i)]}.)", ""]
        elif text:
            lines += fence("output", text)
        lines.append("")
    with open(os.path.join(folder, name + ".lesson"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    with open(os.path.join(folder, "SKIPPED.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(skipped) + "\n")
    ran = sum(1 for st in steps if st[1] == "run")
    print(f"{folder}: {ran} cells in {name}.lesson, {len(steps) - len(runnable)} skipped, "
          f"{len(runnable) - ran} substituted")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if not args or any(a.startswith("--") and a != "--torch" for a in sys.argv[1:]):
        sys.exit(__doc__.split("\n\n")[-2])
    for folder in args:
        write(folder.rstrip("/"), "--torch" in sys.argv)


if __name__ == "__main__":
    main()
