#!/usr/bin/python3
"""make_fwd_vectors.py: write tests/vectors/fwd_*.txt from real PyTorch 1.13 (issue 11's ops).

What it is: the source of truth for tests/core/test_fwd_ops.cpp, in the two formats attn already uses
(adapted from the research generator of the issue-11 notes; of its reductions only var/std):
  - fwd_<group>.txt (and fwd_scalar_<group>.txt for ATen's DEFAULT kernels): the kernel-vector
    format of tools/make_kernel_vectors.py: "case <op> <key>=<int> ...", then one line per array
    "<name> <count> <hex> ...", float32 bit patterns. Python floats that the op receives as
    doubles (pow exponents, scalars of mul/div, eps, linspace/arange bounds, sdpa scale) are
    integer keys holding the IEEE-754 double's 64-bit pattern (key suffix _bits), because the
    kernels use the double itself, not fl32 of it (pow's scalar tail, arange).
  - fwd_random_init.txt (and fwd_random_scalar_init.txt): the case/seed/ops/fnv1a64 format of
    tools/make_vectors.py, with new ops for the initialisers (listed in INIT_OPS_DOC).
What it is not: a test; and not portable: the bits are those of Debian's python3-torch 1.13.1
(reference BLAS, glibc, libsleef3 3.5.1, libdnnl2 2.6.3) on an x86-64 CPU with AVX2. The sdpa
cases are NOT from PyTorch 2.x (not installable here): they run the 2.0 / 2.1+ math-path op
order with 1.13 ops (sdpa_emul.sdpa_math_torch), i.e. the numbers attn should print.

Usage (from the repository root; writes tests/vectors/fwd_*.txt):
    LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/blas:/usr/lib/x86_64-linux-gnu/lapack \\
    OMP_NUM_THREADS=1 /usr/bin/python3 tools/make_fwd_vectors.py [--out DIR] [--family both|avx2|scalar]

Ops and arrays (all tensors contiguous, row-major, float32):
  tanh|log|sqrt|rsqrt|abs|exp n            in, out
  pow_scalar n e_bits                      in, out            torch.pow(x, e), e a Python float
  pow_tensor n                             in, exponent, out  torch.pow(x, y)
  mul_scalar|div_scalar n s_bits           in, out            x * s, x / s
  gelu n                                   in, out            nn.GELU() (oneDNN path if n > 1)
  gelu_tanh n                              in, out            nn.GELU(approximate='tanh')
  relu n                                   in, out
  layer_norm rows n eps_bits affine        in, [weight, bias], out, mean, rstd
  layer_norm_tutorial rows n eps_bits      in, scale, shift, out   (mean / var(unbiased=False) /
                                                                   (x-mean)/sqrt(var+eps) class)
  sum_dims|mean_dims ndim s0..s3 mask      in, out            mask bit d set = dim d reduced
  var_dims ndim s0..s3 mask correction     in, var, std       x.var/std(dim=dims, correction=c)
                                                              (fwd_var.txt: one dim, or all dims)
  var_mean ndim s0..s3 mask correction     in, var, mean      torch.var_mean
  linspace steps start_bits end_bits       out
  arange n start_bits end_bits step_bits   out                n = len(torch.arange(...))
  mha E H N L S batch_first fast mask need_weights average
      q, k, v, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias, [mask], out, [weights]
      mask: 0 none, 1 bool (MHA convention: True = masked), 2 float;  fast: 1 if torch took
      _native_multi_head_attention (eval, no_grad, self-attention, no mask, even heads)
  sdpa B H L S E version causal mask scale_bits
      q, k, v, [mask], out       version 20 or 21 (2.1+ order); mask 0/1 bool (True = keep)/2
      float; scale_bits 0 = default scale
"""
import argparse
import math
import os
import struct
import subprocess
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F



class sdpa_emul:  # noqa: N801  the SDPA math path of PyTorch 2.x, run with 1.13's ops
    @staticmethod
    def sdpa_math_torch(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None, version="2.1"):
        """aten _scaled_dot_product_attention_math: 2.0 divides q and k^T by fl32(E**0.25); 2.1+
        multiplies both by fl32(sqrt(scale)), scale = 1/sqrt(E) unless given."""
        E = q.size(-1)
        L, S = q.size(-2), k.size(-2)
        if version == "2.0":
            sf = math.sqrt(math.sqrt(float(E)))
            qs, ks = q / sf, k.transpose(-2, -1) / sf
        else:
            sc = scale if scale is not None else 1.0 / math.sqrt(float(E))
            sf = math.sqrt(abs(sc))
            qs = q * (-sf if sc < 0 else sf)
            ks = k.transpose(-2, -1) * sf
        if is_causal:
            attn_mask = torch.ones(L, S, dtype=torch.bool).tril()
        if attn_mask is not None and attn_mask.dtype == torch.bool:
            new = torch.zeros_like(attn_mask, dtype=q.dtype)
            attn_mask = new.masked_fill_(attn_mask.logical_not(), -math.inf)
        attn = torch.matmul(qs, ks)
        if attn_mask is not None:
            attn = attn + attn_mask
        attn = torch.softmax(attn, -1)
        if dropout_p > 0.0:
            attn = torch.nn.functional.dropout(attn, dropout_p, True)
        return torch.matmul(attn, v)


F32 = np.float32
FAMILIES = {"avx2": ("fwd_", "fwd_random_", None, "AVX2"),
            "scalar": ("fwd_scalar_", "fwd_random_scalar_", "default", "NO AVX")}

INIT_OPS_DOC = """
    kaiming_uniform:SHAPE:a:mode:nonlinearity   torch.empty(SHAPE); nn.init.kaiming_uniform_(w, a, mode, nl)
    kaiming_normal:SHAPE:a:mode:nonlinearity    nn.init.kaiming_normal_
    xavier_uniform:SHAPE:gain                   nn.init.xavier_uniform_(w, gain)
    xavier_normal:SHAPE:gain                    nn.init.xavier_normal_(w, gain)
    uniform:SHAPE:a:b                           nn.init.uniform_(w, a, b)
    normal:SHAPE:mean:std                       nn.init.normal_(w, mean, std)
    trunc_normal:SHAPE:mean:std:a:b             nn.init.trunc_normal_(w, mean, std, a, b)
    zeros:SHAPE / ones:SHAPE / constant:SHAPE:v nn.init.zeros_ / ones_ / constant_ (no draws)
    embedding_pad:NUMxDIM:pad                   nn.Embedding(NUM, DIM, padding_idx=pad).weight
    linear:IN:OUT:bias|nobias                   nn.Linear -> weight words, then bias words
    mha:E:H:bias|nobias                         nn.MultiheadAttention(E, H) -> in_proj_weight,
                                                in_proj_bias, out_proj.weight, out_proj.bias words
    layernorm:SHAPE                             nn.LayerNorm(SHAPE) -> weight, bias words
"""


def cpu_capability():
    for line in torch.__config__.show().splitlines():
        if "CPU capability usage:" in line:
            return line.split(":", 1)[1].strip()
    return "unknown"


def dbits(v):
    return struct.unpack("<Q", struct.pack("<d", float(v)))[0]


def hexbits(t):
    a = np.ascontiguousarray(np.asarray(t, dtype=F32)).reshape(-1)
    return [format(int(v), "08x") for v in a.view(np.uint32)]


class VectorFile:
    def __init__(self, path, title):
        self.path = path
        env = os.environ.get("ATEN_CPU_CAPABILITY")
        self.lines = [f"# {os.path.basename(path)}: {title}",
                      "# Generated by make_fwd_vectors.py from real PyTorch; do not edit by hand.",
                      f"# torch {torch.__version__}, CPU capability {cpu_capability()}"
                      + (f" (ATEN_CPU_CAPABILITY={env})" if env else "")
                      + f", threads {torch.get_num_threads()}", ""]
        self.count = 0

    def case(self, op, dims, arrays, note=""):
        if note:
            self.lines.append(f"# {note}")
        self.lines.append("case " + op + "".join(f" {k}={v}" for k, v in dims.items()))
        for name, values in arrays:
            bits = hexbits(values)
            self.lines.append(f"{name} {len(bits)} " + " ".join(bits))
        self.lines.append("")
        self.count += 1

    def write(self):
        with open(self.path, "w") as f:
            f.write("\n".join(self.lines))
        print(f"wrote {self.path}: {self.count} cases")


def inputs(gen, n, kind):
    if kind == "normal":
        return torch.randn(n, generator=gen) * 3
    if kind == "wide":  # log-uniform magnitudes 1e-4..1e4, both signs
        mag = torch.pow(10.0, torch.rand(n, generator=gen) * 8 - 4)
        return mag * torch.sign(torch.randn(n, generator=gen))
    if kind == "positive":
        return torch.pow(10.0, torch.rand(n, generator=gen) * 6 - 3)
    raise ValueError(kind)


SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 1e-30, -1e-30, 1e-45, 8.6643, 9.0, -9.0, 10.0, 88.0,
           -88.0, 100.0, -104.5, math.inf, -math.inf, math.nan]


# ---- groups ----

def make_elementwise(out, prefix, gen, small):
    vf = VectorFile(os.path.join(out, prefix + "elementwise.txt"),
                    "tanh, log, sqrt, rsqrt, abs, exp, pow, mul/div by a Python scalar")
    sp = torch.tensor(SPECIAL)
    for op, fn in [("tanh", torch.tanh), ("log", torch.log), ("sqrt", torch.sqrt),
                   ("rsqrt", torch.rsqrt), ("abs", torch.abs), ("exp", torch.exp)]:
        vf.case(op, {"n": sp.numel()}, [("in", sp), ("out", fn(sp))], "special values")
        for kind in ["normal", "wide"] + ([] if op not in ("log", "sqrt", "rsqrt") else ["positive"]):
            for n in [1, 7, 16, 37] + ([] if small else [300]):
                x = inputs(gen, n, kind)
                vf.case(op, {"n": n}, [("in", x), ("out", fn(x))])
    for e in [2.0, 3.0, 0.5, -0.5, -1.0, -2.0, 1.5, 2.5, 4.0, 0.3, 1 / 3]:
        for n in [5, 16, 37, 100]:  # n % 16 != 0: the scalar tail uses the double exponent
            x = inputs(gen, n, "positive") if e != int(e) else inputs(gen, n, "normal")
            vf.case("pow_scalar", {"n": n, "e_bits": dbits(e)}, [("in", x), ("out", torch.pow(x, e))],
                    f"torch.pow(x, {e!r})")
    for n in [7, 37, 100]:
        x, y = inputs(gen, n, "positive"), torch.randn(n, generator=gen) * 3
        vf.case("pow_tensor", {"n": n}, [("in", x), ("exponent", y), ("out", torch.pow(x, y))])
    for s in [0.1, 3.0, math.sqrt(2), 1 / math.sqrt(3), 8 ** 0.5, 7.3, 1e-3, math.pi, 2.0]:
        x = inputs(gen, 37, "normal")
        vf.case("mul_scalar", {"n": 37, "s_bits": dbits(s)}, [("in", x), ("out", x * s)], f"x * {s!r}")
        vf.case("div_scalar", {"n": 37, "s_bits": dbits(s)}, [("in", x), ("out", x / s)], f"x / {s!r}")
    vf.write()


def make_activation(out, prefix, gen, small):
    vf = VectorFile(os.path.join(out, prefix + "activation.txt"), "GELU (erf via oneDNN, tanh), ReLU")
    sp = torch.tensor(SPECIAL)
    for op, fn in [("gelu", nn.GELU()), ("gelu_tanh", nn.GELU(approximate="tanh")), ("relu", nn.ReLU())]:
        vf.case(op, {"n": sp.numel()}, [("in", sp), ("out", fn(sp))], "special values")
        for n in [1, 2, 7, 16, 17, 37] + ([] if small else [1000]):
            x = inputs(gen, n, "normal")
            note = "1 element: ATen GeluKernel (glibc erff), not oneDNN" if (op == "gelu" and n == 1) else ""
            vf.case(op, {"n": n}, [("in", x), ("out", fn(x))], note)
    vf.write()


def make_views(out, prefix, gen, small):
    """pow and GELU on views: TensorIterator walks a transposed tensor in memory order (one run),
    a column slice in runs of its row length, each with its own n % 16 scalar tail."""
    vf = VectorFile(os.path.join(out, prefix + "views.txt"), "pow, GELU on a transpose (view=1) and a column slice (view=2)")
    def view(x, kind):
        return x.t() if kind == 1 else x[:, : x.shape[1] - 3]
    for rows, cols in [(5, 7), (9, 21), (40, 50), (3, 37)]:
        for kind in (1, 2):
            x = inputs(gen, rows * cols, "positive").reshape(rows, cols)
            for e in (1.5, 0.3):
                vf.case("pow_view", {"rows": rows, "cols": cols, "view": kind, "e_bits": dbits(e)},
                        [("in", x), ("out", torch.pow(view(x, kind), e).contiguous())])
            x = inputs(gen, rows * cols, "normal").reshape(rows, cols)
            vf.case("gelu_view", {"rows": rows, "cols": cols, "view": kind}, [("in", x), ("out", nn.GELU()(view(x, kind)).contiguous())])
            vf.case("gelu_tanh_view", {"rows": rows, "cols": cols, "view": kind},
                    [("in", x), ("out", nn.GELU(approximate="tanh")(view(x, kind)).contiguous())])
    vf.write()


def make_erf(out, prefix, gen, small):
    """torch.erf (a vml op: Sleef erff on every element in AVX2, glibc erff in DEFAULT), and
    torch.rsqrt on strided views; a group of its own so the other files' streams stay put."""
    vf = VectorFile(os.path.join(out, prefix + "erf.txt"), "torch.erf")
    sp = torch.tensor(SPECIAL)
    vf.case("erf", {"n": sp.numel()}, [("in", sp), ("out", torch.erf(sp))], "special values")
    for kind in ["normal", "wide"]:
        for n in [1, 7, 16, 37, 300]:
            x = inputs(gen, n, kind)
            vf.case("erf", {"n": n}, [("in", x), ("out", torch.erf(x))])
    vf.write()


def make_layernorm(out, prefix, gen, small):
    vf = VectorFile(os.path.join(out, prefix + "layernorm.txt"),
                    "nn.LayerNorm / F.layer_norm, and the tutorial's hand-written LayerNorm")
    widths = [1, 2, 3, 7, 8, 9, 16, 17, 64, 129, 768] + ([] if small else [2049])
    for n in widths:
        for kind in range(2):
            rows = 3 if n < 768 else 1
            x = torch.randn(rows, n, generator=gen) * (1 if kind == 0 else 50) + (0 if kind == 0 else 17)
            for eps in [1e-5] + ([1e-6] if n == 129 else []):
                w, b = torch.randn(n, generator=gen), torch.randn(n, generator=gen)
                y, mean, rstd = torch.native_layer_norm(x, (n,), w, b, eps)
                vf.case("layer_norm", {"rows": rows, "n": n, "eps_bits": dbits(eps), "affine": 1},
                        [("in", x), ("weight", w), ("bias", b), ("out", y), ("mean", mean), ("rstd", rstd)])
                y, mean, rstd = torch.native_layer_norm(x, (n,), None, None, eps)
                vf.case("layer_norm", {"rows": rows, "n": n, "eps_bits": dbits(eps), "affine": 0},
                        [("in", x), ("out", y), ("mean", mean), ("rstd", rstd)])
                sc, sh = torch.randn(n, generator=gen), torch.randn(n, generator=gen)
                mu = x.mean(dim=-1, keepdim=True)
                var = x.var(dim=-1, keepdim=True, unbiased=False)
                yt = sc * ((x - mu) / torch.sqrt(var + eps)) + sh
                vf.case("layer_norm_tutorial", {"rows": rows, "n": n, "eps_bits": dbits(eps)},
                        [("in", x), ("scale", sc), ("shift", sh), ("out", yt)])
    # one row: var's single-output (two-pass) algorithm
    x = torch.randn(1, 64, generator=gen) * 3 + 100
    sc, sh = torch.ones(64), torch.zeros(64)
    yt = sc * ((x - x.mean(-1, True)) / torch.sqrt(x.var(-1, keepdim=True, unbiased=False) + 1e-5)) + sh
    vf.case("layer_norm_tutorial", {"rows": 1, "n": 64, "eps_bits": dbits(1e-5)},
            [("in", x), ("scale", sc), ("shift", sh), ("out", yt)], "1 row: var takes the two-pass path")
    vf.write()


def dims_keys(shape, dims):
    keys = {"ndim": len(shape)}
    for i in range(4):
        keys[f"s{i}"] = shape[i] if i < len(shape) else 1
    keys["mask"] = sum(1 << (d % len(shape)) for d in dims)
    return keys


def make_reduce(out, prefix, gen, small):
    vf = VectorFile(os.path.join(out, prefix + "reduce.txt"),
                    "sum/mean over several dims, var/std with correction, var_mean")
    shapes = [(3, 4, 5, 6), (3, 5, 7), (4, 6, 9), (5, 4, 3), (3, 10, 9), (2, 3, 2, 10), (7, 33), (6,), (1, 9)]
    import itertools
    for shape in shapes:
        nd = len(shape)
        for r in range(1, nd + 1):
            for dims in itertools.combinations(range(nd), r):
                x = torch.randn(*shape, generator=gen) * 3 + 1
                keys = dims_keys(shape, dims)
                vf.case("sum_dims", keys, [("in", x), ("out", x.sum(dim=dims))])
                vf.case("mean_dims", keys, [("in", x), ("out", x.mean(dim=dims))])
                for c in ([0, 1] if len(dims) == 1 else [1]):
                    xv = x * 10 + 500  # large mean: the two var algorithms differ
                    vf.case("var_dims", dict(keys, correction=c),
                            [("in", xv), ("var", xv.var(dim=dims, correction=c)),
                             ("std", xv.std(dim=dims, correction=c))])
                vm = torch.var_mean(x * 10 + 500, dim=dims, correction=1)
                vf.case("var_mean", dict(keys, correction=1),
                        [("in", x * 10 + 500), ("var", vm[0]), ("mean", vm[1])])
    x = torch.randn(4, generator=gen)
    vf.case("var_dims", dict(dims_keys((4,), (0,)), correction=5),
            [("in", x), ("var", x.var(dim=0, correction=5)), ("std", x.std(dim=0, correction=5))],
            "correction >= n: divisor 0")
    vf.write()


def make_var(out, prefix, gen, small):
    """x.var / x.std over one dim or all, with a correction: Welford in double, or the two-pass
    algorithm when the result has a single element (the (1, N), (N,) and all-dims cases)."""
    vf = VectorFile(os.path.join(out, prefix + "var.txt"), "var/std over one dim or every element, with correction")
    for shape in [(5, 7), (3, 50), (4, 6, 8), (1, 9), (9, 1), (6,), (1, 64), (2, 3, 768)]:
        nd = len(shape)
        for dims in [(d,) for d in range(nd)] + [tuple(range(nd))]:
            for c in [0, 1, 2]:
                x = torch.randn(*shape, generator=gen) * 10 + 500  # a large mean: the algorithms differ
                keys = dims_keys(shape, dims)
                vf.case("var_dims", dict(keys, correction=c),
                        [("in", x), ("var", x.var(dim=dims, correction=c)), ("std", x.std(dim=dims, correction=c))])
    x = torch.randn(4, generator=gen)
    vf.case("var_dims", dict(dims_keys((4,), (0,)), correction=5),
            [("in", x), ("var", x.var(dim=0, correction=5)), ("std", x.std(dim=0, correction=5))],
            "correction >= n: divisor 0")
    vf.write()


def make_range(out, prefix, gen, small):
    vf = VectorFile(os.path.join(out, prefix + "range.txt"), "torch.linspace, torch.arange (float)")
    cases = [(0, 1, 5), (-3, 3, 7), (0, 1, 100), (-1, 1, 101), (0.1, 0.9, 33), (0, 2 * math.pi, 50),
             (-5, 5, 1000), (0, 1, 2), (3, 3, 4), (1, 0, 17), (0, 1, 1), (2.5, -7.25, 48), (-10, 10, 31)]
    for a, b, n in cases:
        vf.case("linspace", {"steps": n, "start_bits": dbits(a), "end_bits": dbits(b)},
                [("out", torch.linspace(a, b, n))], f"torch.linspace({a!r}, {b!r}, {n})")
    for a, b, s in [(0.0, 10.0, 1.0), (0.0, 1.0, 0.1), (-1.0, 1.0, 0.25), (0.0, 5.0, 0.3), (0.5, 100.0, 0.7),
                    (1.0, 2.0, 1 / 3), (-3.3, 4.4, 0.01), (0.0, 2 * math.pi, 0.1), (0.0, 10000.0, 2.0)]:
        t = torch.arange(a, b, s)
        vf.case("arange", {"n": t.numel(), "start_bits": dbits(a), "end_bits": dbits(b), "step_bits": dbits(s)},
                [("out", t)], f"torch.arange({a!r}, {b!r}, {s!r})")
    vf.write()


def make_mha(out, prefix, gen, small):
    vf = VectorFile(os.path.join(out, prefix + "mha.txt"), "nn.MultiheadAttention forward (1.13)")
    for E, H, L in [(6, 2, 5), (8, 4, 6), (12, 3, 4)]:
        m = nn.MultiheadAttention(E, H, batch_first=True)
        with torch.no_grad():
            m.in_proj_bias.copy_(torch.randn(3 * E, generator=gen) * 0.1)
            m.out_proj.bias.copy_(torch.randn(E, generator=gen) * 0.1)
        N = 2
        x = torch.randn(N, L, E, generator=gen)
        params = [("in_proj_weight", m.in_proj_weight), ("in_proj_bias", m.in_proj_bias),
                  ("out_proj_weight", m.out_proj.weight), ("out_proj_bias", m.out_proj.bias)]
        causal = torch.triu(torch.ones(L, L, dtype=torch.bool), diagonal=1)
        fm = torch.randn(L, L, generator=gen)
        m.eval()
        for mask_kind, mask in [(0, None), (1, causal), (2, fm)]:
            for need, avg in [(1, 1), (1, 0), (0, 1)]:
                with torch.no_grad():
                    o, w = m(x, x, x, attn_mask=mask, need_weights=bool(need), average_attn_weights=bool(avg))
                fast = int(mask is None and H % 2 == 0)
                arrays = [("q", x), ("k", x), ("v", x)] + [(n, p.detach()) for n, p in params]
                if mask is not None:
                    arrays.append(("mask", mask.float() if mask.dtype == torch.bool else mask))
                arrays.append(("out", o))
                if need:
                    arrays.append(("weights", w))
                vf.case("mha", {"E": E, "H": H, "N": N, "L": L, "S": L, "batch_first": 1, "fast": fast,
                                "mask": mask_kind, "need_weights": need, "average": avg}, arrays,
                        "bool masks are stored as 1.0 (masked) / 0.0" if mask_kind == 1 else "")
        with torch.no_grad():  # grad enabled would also be slow; here: cross-attention (slow)
            y = torch.randn(N, L + 1, E, generator=gen)
            o, w = m(x, y, y)
        vf.case("mha", {"E": E, "H": H, "N": N, "L": L, "S": L + 1, "batch_first": 1, "fast": 0, "mask": 0,
                        "need_weights": 1, "average": 1},
                [("q", x), ("k", y), ("v", y)] + [(n, p.detach()) for n, p in params] + [("out", o), ("weights", w)],
                "cross-attention")
    vf.write()


def make_sdpa(out, prefix, gen, small):
    vf = VectorFile(os.path.join(out, prefix + "sdpa.txt"),
                    "scaled_dot_product_attention math path (2.0 / 2.1+ op order) run with 1.13 ops")
    for B, H, L, E in [(1, 1, 6, 2), (1, 2, 6, 3), (2, 3, 5, 4), (1, 2, 4, 64), (1, 2, 6, 16)]:
        q, k, v = (torch.randn(B, H, L, E, generator=gen) for _ in range(3))
        for version in ["2.0", "2.1"]:
            for causal, mask_kind in [(0, 0), (1, 0), (0, 1), (0, 2)]:
                mask = None
                if mask_kind == 1:
                    mask = torch.rand(L, L, generator=gen) > 0.3
                    mask[:, 0] = True  # no fully masked row
                elif mask_kind == 2:
                    mask = torch.randn(L, L, generator=gen)
                o = sdpa_emul.sdpa_math_torch(q, k, v, attn_mask=mask, is_causal=bool(causal), version=version)
                arrays = [("q", q), ("k", k), ("v", v)]
                if mask is not None:
                    arrays.append(("mask", mask.float()))
                vf.case("sdpa", {"B": B, "H": H, "L": L, "S": L, "E": E, "version": 20 if version == "2.0" else 21,
                                 "causal": causal, "mask": mask_kind, "scale_bits": 0}, arrays + [("out", o)],
                        "bool mask stored as 1.0 (keep) / 0.0" if mask_kind == 1 else "")
        o = sdpa_emul.sdpa_math_torch(q, k, v, scale=0.3, version="2.1")
        vf.case("sdpa", {"B": B, "H": H, "L": L, "S": L, "E": E, "version": 21, "causal": 0, "mask": 0,
                         "scale_bits": dbits(0.3)}, [("q", q), ("k", k), ("v", v), ("out", o)], "scale=0.3")
    vf.write()


# ---- initialisers, in tools/make_vectors.py's format ----

def digest(words):
    h = 0xcbf29ce484222325
    for w in words:
        h = ((h ^ int(w)) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def f32_words(t):
    return t.detach().contiguous().reshape(-1).numpy().astype(np.float32).view(np.uint32).tolist()


def shape_of(s):
    return tuple(int(d) for d in s.split("x"))


def run_init_op(op):
    name, *a = op.split(":")
    if name in ("kaiming_uniform", "kaiming_normal"):
        w = torch.empty(shape_of(a[0]))
        getattr(nn.init, name + "_")(w, a=float(a[1]), mode=a[2], nonlinearity=a[3])
        return f32_words(w)
    if name in ("xavier_uniform", "xavier_normal"):
        w = torch.empty(shape_of(a[0]))
        getattr(nn.init, name + "_")(w, gain=float(a[1]))
        return f32_words(w)
    if name in ("uniform", "normal"):
        w = torch.empty(shape_of(a[0]))
        getattr(nn.init, name + "_")(w, float(a[1]), float(a[2]))
        return f32_words(w)
    if name == "trunc_normal":
        w = torch.empty(shape_of(a[0]))
        nn.init.trunc_normal_(w, float(a[1]), float(a[2]), float(a[3]), float(a[4]))
        return f32_words(w)
    if name in ("zeros", "ones"):
        w = torch.empty(shape_of(a[0]))
        getattr(nn.init, name + "_")(w)
        return f32_words(w)
    if name == "constant":
        w = torch.empty(shape_of(a[0]))
        nn.init.constant_(w, float(a[1]))
        return f32_words(w)
    if name == "embedding_pad":
        num, dim = shape_of(a[0])
        return f32_words(nn.Embedding(num, dim, padding_idx=int(a[1])).weight)
    if name == "linear":
        layer = nn.Linear(int(a[0]), int(a[1]), bias=(a[2] == "bias"))
        return f32_words(layer.weight) + (f32_words(layer.bias) if layer.bias is not None else [])
    if name == "mha":
        m = nn.MultiheadAttention(int(a[0]), int(a[1]), bias=(a[2] == "bias"))
        words = f32_words(m.in_proj_weight)
        if m.in_proj_bias is not None:
            words += f32_words(m.in_proj_bias)
        words += f32_words(m.out_proj.weight)
        if m.out_proj.bias is not None:
            words += f32_words(m.out_proj.bias)
        return words
    if name == "layernorm":
        ln = nn.LayerNorm(shape_of(a[0]))
        return f32_words(ln.weight) + f32_words(ln.bias)
    raise ValueError(op)


INIT_CASES = [
    ("kaiming_uniform_6x3", 123, "kaiming_uniform:6x3:0:fan_in:leaky_relu"),
    ("kaiming_uniform_sqrt5_768x3072", 0, f"kaiming_uniform:768x3072:{math.sqrt(5)!r}:fan_in:leaky_relu"),
    ("kaiming_uniform_relu_fanout", 5, "kaiming_uniform:4x5:0:fan_out:relu"),
    ("kaiming_uniform_3d", 7, "kaiming_uniform:3x7x2:0.2:fan_in:leaky_relu"),
    ("kaiming_uniform_tanh", 9, "kaiming_uniform:10x10:0:fan_in:tanh"),
    ("kaiming_normal_relu", 11, "kaiming_normal:8x5:0:fan_in:relu"),
    ("xavier_uniform_6x6", 123, "xavier_uniform:6x6:1.0"),
    ("xavier_uniform_2304x768", 1, "xavier_uniform:2304x768:1.0"),
    ("xavier_uniform_gain_relu", 2, f"xavier_uniform:5x3:{math.sqrt(2.0)!r}"),
    ("xavier_normal_20x30", 3, "xavier_normal:20x30:1.0"),
    ("uniform_pm01", 4, "uniform:37x5:-0.1:0.1"),
    ("normal_gpt_768x3072", 5, "normal:768x3072:0.0:0.02"),
    ("normal_small_3x5", 6, "normal:3x5:0.0:0.02"),
    ("trunc_normal_002", 7, "trunc_normal:20x30:0.0:0.02:-2.0:2.0"),
    ("trunc_normal_offset", 8, "trunc_normal:20x30:0.1:1.0:-1.0:1.5"),
    ("zeros_ones_constant", 9, "zeros:3x4;ones:3x4;constant:2x2:0.1"),
    ("embedding_padding_idx", 10, "embedding_pad:100x16:3"),
    ("linear_then_layernorm", 11, "linear:768:768:bias;layernorm:768;linear:3:2:nobias"),
    ("mha_6_2", 123, "mha:6:2:bias"),
    ("mha_768_12", 0, "mha:768:12:bias"),
    ("mha_8_4_nobias", 1, "mha:8:4:nobias"),
]


def write_init(out, prefix, label):
    lines = ["# Generated by make_fwd_vectors.py from torch " + torch.__version__
             + f" (Debian python3-torch 1.13.1, {label}). Do not edit; regenerate.",
             "# Format: tools/make_vectors.py's, with the extra ops:" + INIT_OPS_DOC.rstrip().replace("\n", "\n#")]
    for name, seed, ops in INIT_CASES:
        torch.manual_seed(seed)
        words = []
        for op in ops.split(";"):
            words += run_init_op(op)
        sample = words[:64]
        lines += [f"case {name}", f"seed {seed}", f"ops {ops}", f"count {len(words)}",
                  f"fnv1a64 {digest(words):016x}", f"sample {len(sample)}"]
        for k in range(0, len(sample), 8):
            lines.append(" ".join(f"{w:08x}" for w in sample[k:k + 8]))
        lines.append("end")
    path = os.path.join(out, prefix + "init.txt")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {path}: {len(INIT_CASES)} cases")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(here, "..", "tests", "vectors"))
    ap.add_argument("--seed", type=int, default=20261111)
    ap.add_argument("--family", choices=["both", "avx2", "scalar"], default="both")
    args = ap.parse_args()
    if not torch.__version__.startswith("1.13"):
        sys.exit(f"need PyTorch 1.13 (Debian python3-torch, /usr/bin/python3), got {torch.__version__}")
    family = "avx2" if args.family == "both" else args.family
    prefix, rprefix, _, capability = FAMILIES[family]
    if cpu_capability() != capability:
        sys.exit(f"{family} vectors need ATen's {capability} kernels, torch runs {cpu_capability()}")
    torch.set_num_threads(1)
    os.makedirs(args.out, exist_ok=True)
    torch.manual_seed(args.seed)   # module initialisation (MultiheadAttention) draws from the global generator
    gen = torch.Generator().manual_seed(args.seed)
    small = True   # the committed files stay small; --big for a wider sweep is left to the reader
    for make in (make_elementwise, make_activation, make_layernorm, make_range, make_mha, make_sdpa, make_var, make_views, make_erf):
        make(args.out, prefix, gen, small)
    write_init(args.out, rprefix, "AVX2 kernels, no MKL" if family == "avx2"
               else "ATEN_CPU_CAPABILITY=default: scalar DEFAULT kernels, no MKL")
    if args.family == "both":
        env = dict(os.environ, ATEN_CPU_CAPABILITY="default")
        subprocess.run([sys.executable, os.path.abspath(__file__), "--family", "scalar", "--out", args.out,
                        "--seed", str(args.seed)], env=env, check=True)


if __name__ == "__main__":
    main()
