#!/usr/bin/python3
"""tools/check_blas.py: does every lesson say the same thing on PyTorch with another BLAS?

What it is: runs every lesson's cells in Debian's PyTorch twice per variant (the article's inputs,
several seeds, a sentence, inputs of other shapes), once with the reference BLAS (the summation
order attn reproduces) and once with OpenBLAS, and fills each step's prose placeholders
(lessons/README.md, "Numbers in prose") the way attn does. It then requires, between the two
builds:
  - every True/False a cell prints to be the same (a verdict that flips with the BLAS is a claim
    the lesson may not make);
  - every step's filled prose to be the same (a number quoted in prose must not depend on the BLAS);
and reports the printed lines whose digits differ (those are allowed: the BLAS decides the last
bits of `@`). With --attn BINARY it also requires attn's JSON (`attn lesson NAME --format json`)
to print, cell by cell, what the reference build printed, and to fill the prose alike.

What it is not: part of the build or of CI (it needs PyTorch and both BLAS libraries). The system
alternatives are never changed: each run picks its library with LD_LIBRARY_PATH, and the child
reports which libblas it really loaded (from /proc/self/maps).

Run:   /usr/bin/python3 tools/check_blas.py [--attn build/attn] [LESSON ...]
Exit:  0 if verdicts, prose and (with --attn) attn's outputs all agree, 1 otherwise.
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_golden as mg   # noqa: E402  (the lesson parser and the option rewriting)

BLAS = {
    "reference": "/usr/lib/x86_64-linux-gnu/blas:/usr/lib/x86_64-linux-gnu/lapack",
    "openblas": "/usr/lib/x86_64-linux-gnu/openblas-pthread",
}
SEEDS = ["7", "42", "1", "3"]
SENTENCES = [{"sentence": "the cat sat on the mat, and the dog sat too"},
             {"seed": "7", "sentence": "Attention is all you need"}]
INPUTS = [
    {"inputs": "0.1 0.2 0.3; -0.5 0.25 1.5; 2 0 -1; 0.33 0.66 0.99"},                                      # 4 rows
    {"inputs": "0.1 0.2 0.3; -0.5 0.25 1.5; 2 0 -1; 0.33 0.66 0.99; 1e-3 -2.5 0.7; 0.9 0.8 -0.05; "
               "0.4 0.4 0.4; -1 1 0; 0.05 0.6 0.2"},                                                        # 9 rows
    {"inputs": "0.4 0.1; 0.5 0.9; 0.6 0.8; 0.2 0.6; 0.8 0.3; 0.1 0.8"},                                     # 2 columns
    {"inputs": "0.43 0.15 0.89 0.1 0.2; 0.55 0.87 0.66 0.3 0.4; 0.57 0.85 0.64 0.5 0.6; "
               "0.22 0.58 0.33 0.7 0.8; 0.77 0.25 0.10 0.9 1.0; 0.05 0.80 0.55 1.1 1.2"},                   # 5 columns
    {"inputs": "0.1 0.2 0.3; -0.5 0.25 1.5; 2 0 -1; 0.33 0.66 0.99", "seed": "7"},
]
PLACEHOLDER = re.compile(r"\{\{(.*?)\}\}", re.S)   # a marker's text may span lines
SPEC = re.compile(r"^[A-Za-z0-9<>=^+\- #,_.%]*$")
VERDICT = re.compile(r"\b(True|False)\b")


# ---- the lesson file, with its prose (tools/make_golden.py reads only the code) ----

def parse_with_prose(path):
    """[(step_id, [code...], prose, [note...])] with prose chunks joined as lesson_file.cpp does."""
    steps, fence, buf, chunk = [], None, [], []

    def end_chunk():
        text = "\n".join(chunk).strip("\n")
        chunk.clear()
        if steps and text:
            steps[-1]["prose"] = (steps[-1]["prose"] + "\n\n" if steps[-1]["prose"] else "") + text

    for line in open(path, encoding="utf-8").read().split("\n"):
        if fence is not None:
            if line == "```":
                body = "\n".join(buf) + "\n"
                if fence in ("python", "python setup"):
                    steps[-1]["cells"].append(body)
                    steps[-1]["notes"].append("")
                elif fence == "note":
                    steps[-1]["notes"][-1] = body
                fence, buf = None, []
            else:
                buf.append(line)
            continue
        if line.startswith("## "):
            end_chunk()
            steps.append({"id": line[3:].split(":", 1)[0], "cells": [], "notes": [], "prose": ""})
        elif line.startswith("```"):
            end_chunk()
            fence = line[3:].strip()
        elif steps:
            chunk.append(line)
    end_chunk()
    return steps


def split_spec(inner):
    depth, last, k = 0, None, 0
    while k < len(inner):
        c = inner[k]
        if c in "'\"":
            end = inner.find(c, k + 1)
            k = len(inner) if end < 0 else end
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == ":" and depth == 0:
            last = k
        k += 1
    if last is not None and SPEC.match(inner[last + 1:]):
        return inner[:last].strip(), inner[last + 1:].strip()
    return inner.strip(), ""


def fill(text, namespace, seed):
    def one(m):
        inner = m.group(1).strip()
        for marker in ("article", "const"):
            if re.match(marker + r"\s*:", inner):
                return inner.split(":", 1)[1].strip(" \t")
        if inner == "seed":
            return seed
        expr, spec = split_spec(inner)
        value = eval(expr, namespace)
        return format(value, spec) if spec else str(value)
    return PLACEHOLDER.sub(one, text)


# ---- child: one BLAS, one CPU kernel family ----

def child(family, lessons):
    import contextlib
    import io
    import torch
    loaded = sorted({l.split()[-1] for l in open("/proc/self/maps") if "libblas" in l or "openblas" in l})
    out = {"blas": loaded, "torch": torch.__version__, "lessons": {}}
    for f in sorted(x for x in os.listdir(mg.LESSONS) if x.endswith(".lesson")):
        path = os.path.join(mg.LESSONS, f)
        name, cpu, echo, code_steps = mg.parse_lesson(path)
        if (lessons and name not in lessons) or mg.FAMILIES[cpu] != family:
            continue
        steps = parse_with_prose(path)
        own = mg.lesson_inputs_shape(code_steps)
        runs = {}
        for variant in variants_of(code_steps):
            torch.manual_seed(67280421310721)
            ns = {"__name__": "__main__"}
            cells, prose = [], []
            for s in steps:
                ran = []
                for k, code in enumerate(s["cells"], 1):
                    code = mg.apply_options(code, variant, own)
                    ran.append(code)
                    buf = io.StringIO()
                    with contextlib.redirect_stdout(buf):
                        mg.run_cell(code, ns, echo)
                    cells.append([s["id"], k, buf.getvalue()])
                seed = next((m.group(0)[len("torch.manual_seed("):-1].strip() for c in ran for m in mg.SEED_CALL.finditer(c)), "")
                prose.append([s["id"], fill(s["prose"], ns, seed)] + [fill(n, ns, seed) for n in s["notes"]])
            runs[mg.variant_tag(variant)] = {"variant": variant, "cells": cells, "prose": prose}
        out["lessons"][name] = runs
    json.dump(out, sys.stdout)


def variants_of(steps):
    out = [{}]
    if mg.uses(steps, "seed"):
        out += [{"seed": s} for s in SEEDS]
    if mg.uses(steps, "sentence"):
        out += SENTENCES
    if mg.uses(steps, "inputs"):
        out += INPUTS
    return [v for v in out if all(mg.uses(steps, key) for key in v)]


def run_child(blas, family, lessons):
    env = dict(os.environ, LD_LIBRARY_PATH=BLAS[blas], OMP_NUM_THREADS="1", ATEN_CPU_CAPABILITY=family)
    r = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", family] + lessons, env=env,
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("check_blas: the %s/%s run failed:\n%s" % (blas, family, r.stderr))
    return json.loads(r.stdout)


# ---- parent: compare ----

def differing_lines(a, b):
    return [(x, y) for x, y in zip(a.split("\n"), b.split("\n")) if x != y]


def attn_document(binary, name, variant, family):
    args = [binary, "lesson", name, "--format", "json", "--rng", "portable", "--cpu", "scalar" if family == "default" else "avx2"]
    for key in ("seed", "sentence", "inputs"):
        if key in variant:
            args += ["--" + key, variant[key]]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip()
    return json.loads(r.stdout), None


def main():
    if "--child" in sys.argv:
        k = sys.argv.index("--child")
        child(sys.argv[k + 1], set(sys.argv[k + 2:]))
        return
    args = sys.argv[1:]
    binary = None
    if "--attn" in args:
        k = args.index("--attn")
        binary = os.path.abspath(args[k + 1])
        del args[k:k + 2]
    problems, digit_notes = [], []
    for family in ("default", "avx2"):
        ref, other = run_child("reference", family, args), run_child("openblas", family, args)
        print("%-7s reference BLAS: %s" % (family, ", ".join(ref["blas"])))
        print("%-7s OpenBLAS:       %s" % (family, ", ".join(other["blas"])))
        assert any("/blas/" in l for l in ref["blas"]) and any("openblas" in l for l in other["blas"]), "the wrong BLAS was loaded"
        for name, runs in ref["lessons"].items():
            for tag, a in runs.items():
                b = other["lessons"][name][tag]
                where = "%s@%s" % (name, tag)
                for (sid, k, x), (_, _, y) in zip(a["cells"], b["cells"]):
                    if VERDICT.findall(x) != VERDICT.findall(y):
                        problems.append("%s %s#%d: a verdict differs between BLAS builds:\n  reference: %s\n  OpenBLAS:  %s"
                                        % (where, sid, k, VERDICT.findall(x), VERDICT.findall(y)))
                    for lx, ly in differing_lines(x, y):
                        digit_notes.append("%s %s#%d:\n    reference: %s\n    OpenBLAS:  %s" % (where, sid, k, lx.strip(), ly.strip()))
                for pa, pb in zip(a["prose"], b["prose"]):
                    if pa != pb:
                        for lx, ly in differing_lines("\n".join(pa[1:]), "\n".join(pb[1:])):
                            problems.append("%s step %s: the prose differs between BLAS builds:\n  reference: %s\n  OpenBLAS:  %s"
                                            % (where, pa[0], lx, ly))
                if binary:
                    check_attn(binary, name, a, family, where, problems)
    print("\n%d printed lines differ between the BLAS builds (allowed: last digits of `@`):" % len(digit_notes))
    for n in digit_notes:
        print("  " + n)
    print("\n%d problems%s" % (len(problems), ":" if problems else ""))
    for p in problems:
        print("  " + p)
    sys.exit(1 if problems else 0)


def check_attn(binary, name, a, family, where, problems):
    doc, error = attn_document(binary, name, a["variant"], family)
    if doc is None:
        problems.append("%s: attn failed: %s" % (where, error))
        return
    cells = [(s["id"], k, c["output"]) for s in doc["steps"] for k, c in enumerate(s["cells"], 1)]
    for (sid, k, x), (_, _, y) in zip(a["cells"], cells):
        if x != y:
            problems.append("%s %s#%d: attn prints other text than PyTorch with the reference BLAS:\n%s"
                            % (where, sid, k, "\n".join("  torch: %s\n  attn:  %s" % d for d in differing_lines(x, y))))
    for pa, s in zip(a["prose"], doc["steps"]):
        ours = [s["prose"]] + [c["note"] or "" for c in s["cells"]]
        if pa[1:] != ours:
            for lx, ly in differing_lines("\n".join(pa[1:]), "\n".join(ours)):
                problems.append("%s step %s: attn fills the prose otherwise than PyTorch:\n  torch: %s\n  attn:  %s" % (where, pa[0], lx, ly))


if __name__ == "__main__":
    main()
