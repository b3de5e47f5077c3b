#!/usr/bin/python3
"""make_torch_expected.py: write tests/torch/NAME.expected, what Debian's PyTorch prints for
tests/torch/NAME.py, for tests/torch/test_torch_scripts.cpp (which runs the same file in attn and
compares the text exactly); and, for a file cut into cells by `# %% id: Title` lines, the lesson
tests/lessons/NAME.lesson whose cells are those cells and whose ```output blocks are what torch
printed for each, for the CTest test `tutorial_lessons` (`attn verify` on that folder).

What it is: runs each script with Debian's python3-torch 1.13.1 under the reference BLAS and one
thread, the machine attn's goldens follow, and stores its stdout. PyTorch 1.13 has no
F.scaled_dot_product_attention (2.0+); when a script calls it, this installs PyTorch 2.1's math
path written with 1.13's ops (docs/pytorch-numerics.md §17), so the expected text is that
recipe's, computed by torch itself.
What it is not: a test, or portable (the bits are this machine's AVX2 kernels; the scripts run in
attn with --cpu avx2 and the portable dropout generator, as Debian's build draws).

Usage (from the repository root):
    /usr/bin/python3 tools/make_torch_expected.py            # every tests/torch/*.py
    /usr/bin/python3 tools/make_torch_expected.py nn ops     # some
"""
import glob
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DIR = os.path.join(HERE, "..", "tests", "torch")

# The lesson header of each tutorial file (tests/lessons/NAME.lesson).
LESSONS = {
    "gpt_block": ("A GPT-style transformer block", "concepts", 90,
                  'Build a Large Language Model (From Scratch), chapter 4 "Implementing a GPT model from scratch"'),
    "mha_variants": ("Multi-head attention written five ways", "concepts", 91,
                     "the bonus notebook on efficient multi-head attention implementations that follows chapter 3"),
}

# Scripts whose numbers differ between ATen's AVX2 and DEFAULT kernels in ways attn reproduces
# (the optimizers' fused multiply-adds, sigmoid's exp): also NAME.scalar.expected, under ATEN_CPU_CAPABILITY=default.
SCALAR_TOO = {"optim_sgd", "optim_adamw", "optim_adam", "optim_custom", "tutorial_ops2", "shape_ops3"}

# Runs the cells of a file one by one in one session and prints them as JSON: [[id, title, code, output], ...].
CELL_RUNNER = r'''
import contextlib, io, json, sys
cells, g = json.load(sys.stdin), {"__name__": "__main__"}
out = []
for cid, title, code in cells:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(code, cid, "exec"), g)
    out.append([cid, title, code, buf.getvalue()])
sys.__stdout__.write(json.dumps(out))
'''

PRELUDE = r'''
import math as _math
import torch as _torch
import torch.nn.functional as _F
if not hasattr(_F, "scaled_dot_product_attention"):
    def _sdpa(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, *, scale=None):
        E, L, S = query.size(-1), query.size(-2), key.size(-2)
        sc = scale if scale is not None else 1.0 / _math.sqrt(float(E))
        sf = _math.sqrt(abs(sc))
        q = query * (-sf if sc < 0 else sf)
        k = key.transpose(-2, -1) * sf
        if is_causal:
            if attn_mask is not None:
                raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
            attn_mask = _torch.ones(L, S, dtype=_torch.bool).tril()
        if attn_mask is not None and attn_mask.dtype == _torch.bool:
            attn_mask = _torch.zeros_like(attn_mask, dtype=q.dtype).masked_fill_(attn_mask.logical_not(), -_math.inf)
        attn = q @ k
        if attn_mask is not None:
            attn = attn + attn_mask
        attn = _torch.softmax(attn, dim=-1)
        if dropout_p > 0.0:
            attn = _torch.dropout(attn, dropout_p, True)
        return attn @ value
    _F.scaled_dot_product_attention = _sdpa
'''


def main():
    names = sys.argv[1:] or sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(DIR, "*.py")))
    env = dict(os.environ, LD_LIBRARY_PATH="/usr/lib/x86_64-linux-gnu/blas:/usr/lib/x86_64-linux-gnu/lapack",
               OMP_NUM_THREADS="1", PYTHONHASHSEED="0")
    env.pop("ATEN_CPU_CAPABILITY", None)
    for name in names:
        src = os.path.join(DIR, name + ".py")
        code = PRELUDE + "\n" + open(src).read()
        r = subprocess.run(["/usr/bin/python3", "-c", code], env=env, capture_output=True, text=True, cwd=DIR)
        if r.returncode != 0:
            sys.exit(f"{src} failed under torch:\n{r.stderr}")
        with open(os.path.join(DIR, name + ".expected"), "w") as f:
            f.write(r.stdout)
        print(f"wrote tests/torch/{name}.expected ({len(r.stdout.splitlines())} lines)")
        if name in SCALAR_TOO:   # the DEFAULT kernels, for attn's --cpu scalar
            r = subprocess.run(["/usr/bin/python3", "-c", code], env=dict(env, ATEN_CPU_CAPABILITY="default"),
                               capture_output=True, text=True, cwd=DIR)
            if r.returncode != 0:
                sys.exit(f"{src} failed under torch (ATEN_CPU_CAPABILITY=default):\n{r.stderr}")
            with open(os.path.join(DIR, name + ".scalar.expected"), "w") as f:
                f.write(r.stdout)
            print(f"wrote tests/torch/{name}.scalar.expected ({len(r.stdout.splitlines())} lines)")
        if name in LESSONS:
            write_lesson(name, open(src).read(), env)


def split_cells(text):
    """The `# %% id: Title` cells of a file (lines before the first marker are its comment)."""
    cells, cur = [], None
    for line in text.splitlines():
        if line.startswith("# %% "):
            cid, title = line[5:].split(": ", 1)
            cur = [cid, title, []]
            cells.append(cur)
        elif cur is not None:
            cur[2].append(line)
    return [[c, t, "\n".join(lines).strip("\n") + "\n"] for c, t, lines in cells]


def write_lesson(name, text, env):
    import json
    title, group, order, source = LESSONS[name]
    cells = split_cells(text)
    r = subprocess.run(["/usr/bin/python3", "-c", PRELUDE + CELL_RUNNER], input=json.dumps(cells), env=env,
                       capture_output=True, text=True, cwd=DIR)
    if r.returncode != 0:
        sys.exit(f"{name} cells failed under torch:\n{r.stderr}")
    lesson_name = name.replace("_", "-")
    lines = [f"# {title}", f"name: {lesson_name}", f"group: {group}", f"order: {order}", "cpu: avx2", "rng: portable",
             f"source: {source}", "",
             f"Generated from tests/torch/{name}.py by tools/make_torch_expected.py: each cell below printed "
             "what Debian's PyTorch 1.13.1 printed for it.", ""]
    for cid, ctitle, code, output in json.loads(r.stdout):
        lines += [f"## {cid}: {ctitle}", "", "```python", code.rstrip("\n"), "```"]
        if output:
            lines += ["```output", output.rstrip("\n"), "```"]
        lines.append("")
    os.makedirs(os.path.join(DIR, "..", "lessons"), exist_ok=True)
    with open(os.path.join(DIR, "..", "lessons", lesson_name + ".lesson"), "w") as f:
        f.write("\n".join(lines))
    print(f"wrote tests/lessons/{lesson_name}.lesson")


if __name__ == "__main__":
    main()
