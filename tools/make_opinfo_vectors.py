#!/usr/bin/python3
"""make_opinfo_vectors.py: tests/vectors/opinfo{,_scalar}.txt from PyTorch 1.13's own op database.

What it is: for every op attn's op table implements (the rows of src/torch/*.cpp, read by regex),
the float32 CPU sample inputs of its OpInfo entries (torch.testing._internal.
common_methods_invocations.op_db), each written as a small Python program attn replays
(tests/torch/test_opinfo.cpp): the inputs' exact bits, the call as Python text (torch.X(...) and,
where attn has the method too, t0.X(...)), the outputs' bits, and, where the op has a backward,
every input's .grad after `sum((out_k * g_k).sum()).backward()` for fixed upstream gradients g_k
(g[j] = ((3*j) % 11 - 5) / 8, exact in float32, so the upstream gradient reaching out_k is g_k
bit for bit). The call text is what CPython evals here, so the program attn runs is the one
torch ran. Samples attn cannot express (dtypes it lacks, non-tensor objects) are skipped and
counted per reason in the file's header; SKIP_OPS and SKIP_SAMPLES hold the explained skips.
extra_samples() adds cases op_db lacks for the new ops' edge cases (ties past std::sort's
insertion threshold, topk's partial_sort path, nll_loss's cascade, log_softmax on an inner dim),
named `<op>.extra`.
What it is not: a test, or portable: the bits are Debian python3-torch 1.13.1's (reference BLAS,
one thread) on x86-64 with AVX2; opinfo_scalar.txt is a child run with ATEN_CPU_CAPABILITY=default,
of which only the samples whose bits differ from opinfo.txt's are kept.
Non-contiguous sample inputs are written (and replayed) as contiguous tensors of the same values.

Usage (from the repository root):
    LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/blas:/usr/lib/x86_64-linux-gnu/lapack \\
    OMP_NUM_THREADS=1 PYTHONPATH=tools/stubs /usr/bin/python3 tools/make_opinfo_vectors.py
(tools/stubs/expecttest.py stands in for the unpackaged `expecttest` that op_db imports.)

Format (blocks separated by a blank line, '#' comments):
    case <opinfo name> <sample number>
    in <name> <dtype> <shape a,b,c or -> <grad 0|1> <count> <values>   float32 as hex bits,
                                                                        int64 decimal, bool 0/1
    call <python expression>          one or more spellings; each must give the outputs below
    out <k> <dtype> <shape> <count> <values>   the k-th tensor of the flattened result
    value <python repr>               a result that is not a tensor (bool, int)
    back <python statement>           the backward program, over __out and g0, g1, ...
    grad <name> <count> <hex>         <name>.grad after it; `grad <name> none` if it stayed None
"""
import argparse
import collections
import math
import os
import re
import struct
import subprocess
import sys
import warnings

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# Whole OpInfo entries not replayed, and why.
SKIP_OPS = {
    "normal": "random: torch.normal(mean, std, size) is randn's normal_ (tests/vectors/random_normal.txt; tests/torch/select_ops.py)",
    "normal.number_mean": "random, and a tensor std: attn draws torch.normal(mean, std, size) with numbers",
    "multinomial": "random: torch's draws are printed in tests/torch/select_ops.expected",
    "randn": "random: tests/vectors/random_normal.txt holds torch's draws",
    "nn.functional.dropout": "random mask: tests/vectors/random_dropout.txt holds torch's masks",
    "linspace": "factory without a tensor input: tests/vectors/fwd_range.txt",
    "arange": "factory without a tensor input: tests/vectors/fwd_range.txt",
    "empty": "uninitialised memory",
    "zeros_like": "no input values to test",
    "empty_like": "uninitialised memory",
    "new_empty": "uninitialised memory",
    "rand_like": "random: rand's draws (tests/torch/shape_ops3.py prints torch's)",
    "randn_like": "random: randn's draws (tests/torch/shape_ops3.py prints torch's)",
    "ones_like": "no input values to test",
    "norm.nuc": "the nuclear norm (an SVD): attn computes vector norms and the Frobenius norm",
    "nn.functional.pad.reflect": "attn pads with a constant (mode='constant'); the other modes are refused in one line",
    "nn.functional.pad.replicate": "attn pads with a constant (mode='constant'); the other modes are refused in one line",
    "nn.functional.pad.circular": "attn pads with a constant (mode='constant'); the other modes are refused in one line",
}
# Single samples not replayed: (opinfo name, predicate on the SampleInput, reason).
def _tensors(sample):
    return [x for x in [sample.input, *sample.args, *sample.kwargs.values()] if isinstance(x, torch.Tensor)]


def _dims(s):
    d = s.kwargs.get("dim", s.args[0] if s.args else None)
    return d


SKIP_SAMPLES = [
    *[(op, lambda s: isinstance(_dims(s), (tuple, list)) and len(_dims(s)) != 1, "a tuple of dims: attn reduces over one dim at a time")
      for op in ("amax", "amin", "sum", "mean", "logsumexp")],
    *[(op, lambda s: any(t.numel() == 0 for t in _tensors(s)), "empty tensors: attn's tensor-bound clamp leaves the bound's .grad None")
      for op in ("clamp_min", "clamp_max")],
    ("cumprod", lambda s: s.input.requires_grad and bool((s.input == 0).any()),
     "a zero in an input that requires grad: attn raises (1.13's cumprod_backward zero branch is not implemented)"),
    ("einsum", lambda s: "..." in s.args[0], "'...' in the equation: not implemented by attn"),
    ("einsum", lambda s: any(t.requires_grad for t in s.input) and ("," not in s.args[0] or s.args[0] in ("i,j->ij", "ij,Ab->ijAb")),
     "the backward of a one-operand reduction or an outer product: attn raises (its einsum backward covers contractions and permutes)"),
    ("masked_fill", lambda s: isinstance(s.args[1], torch.Tensor) and s.args[1].requires_grad,
     "the gradient of a tensor value: attn refuses it in one line (MaskedFillBackward1 not implemented)"),
    ("repeat_interleave", lambda s: isinstance(s.kwargs.get("repeats"), torch.Tensor), "repeats as a tensor: attn repeats by an int"),
    ("nn.functional.cross_entropy", lambda s: s.args[0].is_floating_point(),
     "probability targets: attn's cross_entropy takes class indices"),
    ("nn.functional.cross_entropy", lambda s: s.kwargs.get("label_smoothing", 0.0) != 0.0,
     "label_smoothing: not implemented by attn"),
    ("nn.functional.cross_entropy", lambda s: s.input.dim() > 2, "K-dimensional input (N, C, d1, ...): attn takes (N, C) or (C,)"),
    ("nn.functional.nll_loss", lambda s: s.input.dim() > 2, "K-dimensional input (N, C, d1, ...): attn takes (N, C) or (C,)"),
    ("scatter", lambda s: "reduce" in s.kwargs, "reduce=: attn scatters by assignment"),
    ("unique", lambda s: not s.kwargs.get("sorted", True), "sorted=False: torch's order is its hash set's; attn returns unique values sorted"),
    ("unique", lambda s: s.kwargs.get("dim") is not None, "dim=: attn finds unique elements, not unique slices"),
    ("index_fill", lambda s: isinstance(s.args[2], torch.Tensor) and s.args[2].requires_grad,
     "the gradient of a tensor value: attn refuses it in one line"),
]

DTYPES = {torch.float32: "float32", torch.int64: "int64", torch.bool: "bool"}
PY_DTYPES = {torch.float32: "torch.float32", torch.int64: "torch.int64", torch.bool: "torch.bool"}


class Unsupported(Exception):
    """A sample attn cannot express; the message is the skip reason."""


def attn_ops():
    """{name: variants} from the op table rows: 'f' torch.X, 'm' Tensor.X. A row is
    `{"name", both|kFunction|kMethod|kFunction | kMethod, ...`, or a loop
    `for (const char* n : {"max", "min"})` whose row names the loop variable."""
    ops = {}
    kinds = {"both": "fm", "kFunction": "f", "kMethod": "m"}
    row = re.compile(r'\{"([A-Za-z0-9_.]+)",\s*(both|kFunction \| kMethod|kFunction|kMethod)\b')
    loop = re.compile(r'for \(const char\* \w+ : \{([^}]*)\}\) \{(.*?)rows\.push_back\(\{\w+(?: \+ "[^"]*")?,\s*'
                      r'(both|kFunction \| kMethod|kFunction|kMethod)\b', re.S)
    for file in sorted(os.listdir(os.path.join(ROOT, "src", "torch"))):
        if file.endswith(".cpp"):
            with open(os.path.join(ROOT, "src", "torch", file)) as f:
                text = f.read()
            for name, v in row.findall(text):
                ops.setdefault(name, set()).update(kinds.get(v, "fm"))
            for names, _, v in loop.findall(text):
                for name in re.findall(r'"([A-Za-z0-9_.]+)"', names):
                    ops.setdefault(name, set()).update(kinds.get(v, "fm"))
    # torch.nn.functional's functions written in Python (src/torch/python/nn/functional_extra.py, its __all__)
    with open(os.path.join(ROOT, "src", "torch", "python", "nn", "functional_extra.py")) as f:
        extra = re.search(r"__all__ = \[([^\]]*)\]", f.read())
    for name in re.findall(r"'(\w+)'", extra.group(1)):
        ops.setdefault("nn.functional." + name, set()).update("f")
    return ops


def upstream(n):
    return ((np.arange(n) * 3) % 11 - 5).astype(np.float32) / np.float32(8)


class Writer:
    def __init__(self):
        self.inputs = []   # (name, tensor)
        self.ids = {}

    def tensor(self, t):
        if id(t) in self.ids:
            return self.ids[id(t)]
        if t.dtype not in DTYPES:
            raise Unsupported(f"input dtype {t.dtype}")
        if t.layout != torch.strided or t.is_complex():
            raise Unsupported("input layout")
        name = f"t{len(self.inputs)}"
        self.ids[id(t)] = name
        self.inputs.append((name, t))
        return name

    def expr(self, v):
        if isinstance(v, torch.Tensor):
            return self.tensor(v)
        if isinstance(v, bool) or v is None:
            return repr(v)
        if isinstance(v, int):
            return repr(v)
        if isinstance(v, float):
            if math.isnan(v):
                return "float('nan')"
            if math.isinf(v):
                return "float('inf')" if v > 0 else "float('-inf')"
            return repr(v)
        if isinstance(v, str):
            return repr(v)
        if isinstance(v, torch.dtype):
            if v not in PY_DTYPES:
                raise Unsupported(f"argument dtype {v}")
            return PY_DTYPES[v]
        if isinstance(v, torch.Size):
            return repr(tuple(v))
        if isinstance(v, (tuple, list)):
            items = [self.expr(x) for x in v]
            if isinstance(v, tuple):
                return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
            return "[" + ", ".join(items) + "]"
        raise Unsupported(f"argument of type {type(v).__name__}")


def values_text(t):
    t = t.detach().contiguous()
    flat = t.reshape(-1)
    if t.dtype == torch.float32:
        return " ".join(f"{struct.unpack('<I', struct.pack('<f', x))[0]:08x}" for x in flat.tolist())
    if t.dtype == torch.bool:
        return " ".join("1" if x else "0" for x in flat.tolist())
    return " ".join(str(int(x)) for x in flat.tolist())


def shape_text(t):
    return ",".join(str(s) for s in t.shape) if t.dim() else "-"


# OpInfo entries whose op is a lambda reordering the sample (the sample is not torch.X's arguments).
ADAPT = {
    "einsum": lambda w, s: [f"torch.einsum({w.expr(s.args[0])}, {w.expr(list(s.input))})"],
    "where": lambda w, s: [f"torch.where({w.expr(s.args[0])}, {w.expr(s.input)}, {w.expr(s.args[1])})"],
    "nn.functional.embedding": lambda w, s: [
        f"torch.nn.functional.embedding(" + ", ".join([w.expr(s.args[0]), w.expr(s.input)]
                                                      + [f"{k}={w.expr(v)}" for k, v in s.kwargs.items()]) + ")"],
    "zero_": lambda w, s: [f"{w.expr(s.input)}.clone().zero_()"],
}


def calls_for(name, variants, sample, w):
    """The Python spellings of the sample's call: torch.X / F.X, then t0.X where attn has it."""
    if name in ADAPT:
        return ADAPT[name](w, sample)
    base = name.split(".")[-1] if not name.startswith("nn.functional.") else name
    inp = sample.input
    first = w.expr(inp)
    args = [w.expr(a) for a in sample.args]
    kwargs = [f"{k}={w.expr(v)}" for k, v in sample.kwargs.items()]
    calls = []
    if "f" in variants:
        calls.append(f"torch.{base}(" + ", ".join([first] + args + kwargs) + ")")
    if "m" in variants and isinstance(inp, torch.Tensor) and not base.startswith("nn."):
        calls.append(f"{first}.{base}(" + ", ".join(args + kwargs) + ")")
    return calls


def flatten(out):
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, (tuple, list)) and all(isinstance(x, torch.Tensor) for x in out):
        return list(out)
    raise Unsupported(f"result of type {type(out).__name__}")


def run_sample(opname, variants, op, sample, supports_grad):
    w = Writer()
    calls = calls_for(opname, variants, sample, w)
    for skip_op, pred, reason in SKIP_SAMPLES:
        if skip_op == op.full_name and pred(sample):
            raise Unsupported(reason)
    scope = {"torch": torch}
    # Fresh leaves with the sample's values (contiguous): what attn's test will inject.
    leaves = {}
    for name, t in w.inputs:
        leaf = t.detach().clone().contiguous()
        if t.requires_grad and supports_grad and t.dtype == torch.float32:
            leaf.requires_grad_(True)
        leaves[name] = leaf
    scope.update(leaves)
    out = eval(calls[0], scope)
    lines = []
    for name, t in w.inputs:
        leaf = leaves[name]
        lines.append(f"in {name} {DTYPES[t.dtype]} {shape_text(t)} {int(leaf.requires_grad)} {t.numel()} {values_text(t)}".rstrip())
    lines += [f"call {c}" for c in calls]
    if isinstance(out, (bool, int)) and not isinstance(out, torch.Tensor):
        lines.append(f"value {out!r}")
        return lines
    outs = flatten(out)
    for k, o in enumerate(outs):
        if o.dtype not in DTYPES:
            raise Unsupported(f"result dtype {o.dtype}")
        lines.append(f"out {k} {DTYPES[o.dtype]} {shape_text(o)} {o.numel()} {values_text(o)}".rstrip())
    for c in calls[1:]:   # every spelling gives the same bits in torch too
        other = flatten(eval(c, scope))
        assert all(torch.equal(a, b) or (a.isnan() == b.isnan()).all() for a, b in zip(outs, other)), c
    diff = [k for k, o in enumerate(outs) if o.requires_grad]
    if not diff:
        return lines
    single = isinstance(out, torch.Tensor)
    terms = []
    for k in diff:
        g = torch.from_numpy(upstream(outs[k].numel())).reshape(outs[k].shape)
        scope[f"g{k}"] = g
        terms.append(f"(__out{'' if single else f'[{k}]'} * g{k}).sum()")
    back = "(" + " + ".join(terms) + ").backward()" if len(terms) > 1 else terms[0] + ".backward()"
    scope["__out"] = out
    exec(back, scope)
    lines.append(f"back {back}")
    for name, _ in w.inputs:
        leaf = leaves[name]
        if not leaf.requires_grad:
            continue
        if leaf.grad is None:
            lines.append(f"grad {name} none")
        else:
            lines.append(f"grad {name} {leaf.grad.numel()} {values_text(leaf.grad)}".rstrip())
    return lines


def extra_samples():
    """Samples op_db lacks that the new ops' edge cases need: ties past std::sort's insertion
    threshold, topk's partial_sort path (k * 64 <= n), nll_loss past one cascade level,
    log_softmax along an inner dim. (name, variants-of-name, SampleInput); seeded."""
    from torch.testing._internal.opinfo.core import SampleInput
    g = torch.Generator().manual_seed(18)
    def ties(*shape):
        return torch.randint(0, 4, shape, generator=g).float().requires_grad_()
    def randn(*shape):
        return torch.randn(*shape, generator=g).requires_grad_()
    out = [("sort", SampleInput(ties(40)), ), ("sort", SampleInput(ties(3, 50), args=(1, True))),
           ("sort", SampleInput(ties(70, 2), args=(0,))), ("topk", SampleInput(ties(200), args=(3,))),
           ("topk", SampleInput(ties(4, 130), args=(2, 1, False))), ("topk", SampleInput(ties(30), args=(7,))),
           ("max", SampleInput(ties(6, 20), args=(1,))), ("min", SampleInput(ties(20, 6), args=(0, True))),
           ("argmin", SampleInput(ties(6, 20), args=(1,))), ("argmax", SampleInput(ties(6, 20), args=(1,))),
           ("log_softmax", SampleInput(randn(7, 13), args=(0,))), ("log_softmax", SampleInput(randn(3, 33, 9), args=(1,))),
           ("log_softmax", SampleInput(randn(4, 37), args=(1,))), ("log_softmax", SampleInput(randn(6, 40, 19), args=(1,))), ("log_softmax", SampleInput(randn(2, 3, 100), args=(-1,))),
           ("nn.functional.cross_entropy", SampleInput(randn(100, 11), args=(torch.randint(0, 11, (100,), generator=g),))),
           ("nn.functional.cross_entropy", SampleInput(randn(37, 5), args=(torch.randint(0, 5, (37,), generator=g),),
                                                       kwargs={"weight": torch.rand(5, generator=g), "ignore_index": 2})),
           ("nn.functional.nll_loss", SampleInput(randn(300, 4), args=(torch.randint(0, 4, (300,), generator=g),),
                                                  kwargs={"reduction": "sum"})),
           ("flip", SampleInput(randn(3, 4, 5), args=((0, 2),)))]
    return out


def generate(family):
    from torch.testing._internal.common_methods_invocations import op_db
    torch.manual_seed(0)
    implemented = attn_ops()
    blocks, counts, skipped = [], collections.Counter(), collections.Counter()
    for op in op_db:
        full = op.name + ("." + op.variant_test_name if op.variant_test_name else "")
        op.full_name = full
        if op.name not in implemented:
            continue
        if full in SKIP_OPS:
            skipped[f"{full}: {SKIP_OPS[full]}"] += 1
            continue
        if torch.float32 not in op.supported_dtypes("cpu"):
            continue
        grad = bool(op.supports_autograd) and torch.float32 in op.supported_backward_dtypes("cpu")
        torch.manual_seed(0)
        for n, sample in enumerate(op.sample_inputs("cpu", torch.float32, requires_grad=grad)):
            try:
                lines = run_sample(op.name, implemented[op.name], op, sample, grad)
            except Unsupported as e:
                skipped[f"{full}: {e}"] += 1
                continue
            except Exception as e:   # torch itself refuses the sample (an error test)
                skipped[f"{full}: torch raised {type(e).__name__}"] += 1
                continue
            blocks.append(f"case {full} {n}\n" + "\n".join(lines))
            counts[full] += 1
    implemented_ops = {name: v for name, v in implemented.items()}
    for n, (name, sample) in enumerate(extra_samples()):
        class Extra:   # what run_sample reads of an OpInfo
            full_name = name + ".extra"
        try:
            lines = run_sample(name, implemented_ops[name], Extra, sample, True)
        except Unsupported as e:
            skipped[f"{name}.extra: {e}"] += 1
            continue
        blocks.append(f"case {name}.extra {n}\n" + "\n".join(lines))
        counts[name + ".extra"] += 1
    return blocks, counts, skipped


def cpu_capability():
    for line in torch.__config__.show().splitlines():
        if "CPU capability usage:" in line:
            return line.split(":", 1)[1].strip()
    return "unknown"


def write(path, family, blocks, counts, skipped):
    with open(path, "w") as f:
        f.write(f"# {os.path.basename(path)}: PyTorch 1.13's OpInfo float32 samples for the ops attn implements\n")
        f.write("# Generated by tools/make_opinfo_vectors.py from real PyTorch; do not edit by hand.\n")
        f.write(f"# torch {torch.__version__}, CPU capability {cpu_capability()}, threads {torch.get_num_threads()}\n")
        f.write(f"# samples per op: {', '.join(f'{k} {v}' for k, v in sorted(counts.items()))}\n")
        for reason, n in sorted(skipped.items()):
            f.write(f"# skipped {n}: {reason}\n")
        f.write("\n" + "\n\n".join(blocks) + "\n")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", default=os.path.join(ROOT, "tests", "vectors"))
    p.add_argument("--family", choices=["both", "avx2", "scalar"], default="both")
    args = p.parse_args()
    torch.set_num_threads(1)
    warnings.filterwarnings("ignore")   # kl_div's reduction='mean' note, deprecations: not ours to print
    if args.family in ("both", "avx2"):
        blocks, counts, skipped = generate("avx2")
        write(os.path.join(args.out, "opinfo.txt"), "avx2", blocks, counts, skipped)
        print(f"opinfo.txt: {len(blocks)} samples of {len(counts)} ops; {sum(skipped.values())} skipped")
    if args.family == "both":
        env = dict(os.environ, ATEN_CPU_CAPABILITY="default")
        subprocess.run([sys.executable, os.path.abspath(__file__), "--family", "scalar", "--out", args.out], env=env, check=True)
        keep_differences(os.path.join(args.out, "opinfo.txt"), os.path.join(args.out, "opinfo_scalar.txt"))
    if args.family == "scalar":
        blocks, counts, skipped = generate("scalar")
        write(os.path.join(args.out, "opinfo_scalar.txt"), "scalar", blocks, counts, skipped)


def keep_differences(avx2_path, scalar_path):
    """opinfo_scalar.txt keeps its header and only the cases whose lines differ from opinfo.txt's
    (the test replays opinfo.txt with these cases replaced)."""
    def blocks(path):
        with open(path) as f:
            text = f.read()
        head = [line for line in text.splitlines() if line.startswith("#")]
        body = [b.strip() for b in text.split("\n\n") if b.strip().startswith("case")]
        return head, {b.splitlines()[0]: b for b in body}
    _, avx2 = blocks(avx2_path)
    head, scalar = blocks(scalar_path)
    assert avx2.keys() == scalar.keys(), "the two families made different samples"
    differ = [b for k, b in scalar.items() if avx2[k] != b]
    head.append(f"# only the {len(differ)} of {len(scalar)} cases whose bits differ from opinfo.txt; the others are as there")
    with open(scalar_path, "w") as f:
        f.write("\n".join(head) + "\n\n" + "\n\n".join(differ) + "\n")
    print(f"opinfo_scalar.txt: {len(differ)} of {len(scalar)} samples differ from the AVX2 family's")

if __name__ == "__main__":
    main()
