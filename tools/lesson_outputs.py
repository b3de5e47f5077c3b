#!/usr/bin/python3
"""tools/lesson_outputs.py: write a concept lesson's ```output blocks from what PyTorch prints.

What it is: for a lesson whose outputs are PyTorch's own (group `concepts`: there is no article
printout to copy), it runs every cell in real PyTorch with tools/make_golden.py's runner (same
parser, one namespace, the lesson's CPU kernel family) and puts each cell's stdout in the
```output block under it, adding the block where a printing cell has none. Then `attn verify
NAME` holds attn to it. What it is not: for article or book lessons, whose outputs are the
source's printouts (errata included), and not part of the build or of CI.

Run it with Debian's PyTorch on the reference BLAS, whose summation order attn reproduces:
  LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/blas:/usr/lib/x86_64-linux-gnu/lapack OMP_NUM_THREADS=1 \
    /usr/bin/python3 tools/lesson_outputs.py lessons/NAME.lesson
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def outputs(path):
    import make_golden
    name, cpu, echo, steps = make_golden.parse_lesson(path)
    return [out for _, _, out in make_golden.run_cells(steps, {}, echo)]


def rewrite(text, outs):
    """The lesson text with the k-th python cell's output block holding outs[k]."""
    lines, result, k, i = text.split("\n"), [], 0, 0
    while i < len(lines):
        line = lines[i]
        result.append(line)
        i += 1
        if line not in ("```python", "```python setup"):
            continue
        while lines[i] != "```":          # the cell's code, as it is
            result.append(lines[i])
            i += 1
        result.append(lines[i])
        i += 1
        if i < len(lines) and lines[i].startswith("```output"):
            i += 1
            while lines[i] != "```":      # the old output: replaced
                i += 1
            i += 1
        if outs[k]:
            result += ["```output"] + outs[k].rstrip("\n").split("\n") + ["```"]
        k += 1
    assert k == len(outs), f"{k} cells in the file, {len(outs)} run"
    return "\n".join(result)


def main():
    if len(sys.argv) != 2 or not sys.argv[1].endswith(".lesson"):
        sys.exit("usage: tools/lesson_outputs.py lessons/NAME.lesson (see the header)")
    path = sys.argv[1]
    text = open(path, encoding="utf-8").read()
    if "\ngroup: concepts\n" not in text:
        sys.exit(f"{path}: not a concept lesson; its outputs are the source's printout, not PyTorch's")
    if "ATEN_CPU_CAPABILITY" not in os.environ:   # the lesson's kernel family, as make_golden.py runs it
        cpu = "scalar" if "\ncpu: scalar\n" in text else "avx2"
        env = dict(os.environ, ATEN_CPU_CAPABILITY={"scalar": "default", "avx2": "avx2"}[cpu])
        sys.exit(subprocess.run([sys.executable] + sys.argv, env=env).returncode)
    new_text = rewrite(text, outputs(path))   # every cell run before the file is opened for writing
    with open(path, "w", encoding="utf-8") as f:
        f.write(new_text)
    print(f"wrote the output blocks of {path}")


if __name__ == "__main__":
    main()
