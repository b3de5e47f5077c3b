#!/usr/bin/python3
"""tools/torchfuzz.py: a differential fuzzer of attn's lesson programs over tensors against Debian's torch 1.13.

What it is: random programs that build tensors (torch.tensor with inf/nan/-0.0, randn/rand/randint
after a manual_seed, arange, zeros/ones/full, linspace), apply chains of ops to them
(elementwise with broadcasting, reductions with dim/keepdim, matmul/@, softmax/log_softmax, views:
view/reshape/t/transpose/permute/unsqueeze/squeeze/expand/flatten/indexing/slicing, masked_fill,
tril/triu, cat/stack, in-place ops, nn.Linear/nn.Dropout/nn.LayerNorm after a seed, autograd:
requires_grad, backward, .grad, no_grad, detach) and print what they get (tensors as torch prints
them, shapes, dtypes, grad_fn class names). The generator tracks shapes, so most ops are valid; a
few are not on purpose (an error's type and message are compared too). Each program is a seed and
a few snippets, each in its own try/except that prints the error, so one error does not hide the
rest. A batch of programs runs in one torch process (the reference BLAS, one thread) and, as the
cells of one lesson (`cpu: avx2`, `rng: portable`: Debian's kernels and dropout draws), in one
`attn run --quiet`; outputs are compared program by program. A program that differs, or that
makes attn crash or print a sanitizer report (run an ASan/UBSan build with --attn), is cut down
(snippets, then lines, dropped while it still differs) and written to --out as NAME.py with both
outputs in NAME.diff. Exit 1 when any program differed.
--corpus DIR writes tests/torchfuzz/: programs of a seed that agree today, as lessons whose
```output blocks are what torch printed, for `attn verify` in CI (where there is no torch).
What it is not: a test of plain Python (tools/pyfuzz.py) or of bytes (fuzz/).

In-place writes where autograd is involved (inplace_grad: through a view of a non-leaf, on a tensor
an op saved for backward, on a view of a leaf), every op's derivative, integer maximum/minimum,
alpha=, pow and @, and the strides of every result are generated too (issue 20's views, saved
tensors, dtypes and layouts work).
Left out on purpose:
  nn modules on integer tensors; reference cycles (the cycle
  collector); very long kernels (the time limit); float64 and other dtypes attn has not
  (docs/coverage.md); torch.set_printoptions and set_grad_enabled (process-wide state that would
  leak from one program into the next); printing a grad_fn object itself (its repr has an
  address); str(t.storage()) and data_ptr (addresses).

A run:          /usr/bin/python3 tools/torchfuzz.py --attn build/attn --seed $RANDOM --seconds 1800
The corpus:     /usr/bin/python3 tools/torchfuzz.py --attn build/attn --corpus tests/torchfuzz
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time

PYTHON = "/usr/bin/python3"
TORCH_ENV = dict(os.environ, LD_LIBRARY_PATH="/usr/lib/x86_64-linux-gnu/blas:/usr/lib/x86_64-linux-gnu/lapack",
                 OMP_NUM_THREADS="1", PYTHONHASHSEED="0")
TORCH_ENV.pop("ATEN_CPU_CAPABILITY", None)
MARK = "#### program %d"
LESSON_HEAD = "# F\nname: f\ngroup: concepts\norder: 1\ncpu: avx2\nrng: portable\nsource: x\n\n## c: c\n\n"
PRELUDE = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\ntorch.manual_seed(%d)"
SANITIZER = re.compile(r"^(==\d+==ERROR: |SUMMARY: (Address|Undefined|Leak)Sanitizer|.*runtime error: ).*$", re.M)

SPECIAL = ["float('inf')", "float('-inf')", "float('nan')", "-0.0", "1e-08", "123456.75", "1e10", "0.5", "-2.25", "3.0"]


def dims_str(shape):
    """A shape as a Python tuple literal: (), (3,), (2, 3)."""
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


class T:
    """A tensor the generator knows: its variable, shape, kind ('f' float32, 'i' int64, 'b' bool),
    whether it requires grad (it or what it came from), and whether it is a view of another tensor."""

    def __init__(self, name, shape, kind="f", grad=False, view=False):
        self.name, self.shape, self.kind, self.grad, self.view = name, tuple(shape), kind, grad, view

    @property
    def nd(self):
        return len(self.shape)


class Gen:
    """Random snippets over tensors, each a list of lines printing what it computes."""

    def __init__(self, rng):
        self.r = rng
        self.n = 0

    def name(self, prefix="t"):
        self.n += 1
        return "%s%d" % (prefix, self.n)

    # ---- shapes and sources ----
    def shape(self, lo=0, hi=4):
        r = self.r
        nd = r.randint(lo, hi)
        return tuple(r.choice([1, 2, 2, 3, 3, 4, 5] + ([0] if r.random() < 0.05 else [])) for _ in range(nd))

    def dim(self, t, extra=0):
        """A dim of t (negative half the time); for a 0-d tensor, 0 or -1 (what torch accepts)."""
        nd = max(t.nd + extra, 1)
        return self.r.randint(-nd, nd - 1)

    def literal(self, shape, kind):
        r = self.r
        if not shape:
            return self.scalar(kind)
        return "[" + ", ".join(self.literal(shape[1:], kind) for _ in range(shape[0])) + "]"

    def scalar(self, kind):
        r = self.r
        if kind == "i":
            return str(r.randint(-6, 9))
        if kind == "b":
            return r.choice(["True", "False"])
        if r.random() < 0.12:
            return r.choice(SPECIAL)
        return r.choice([str(r.randint(-5, 5)) + ".0", repr(round(r.uniform(-4, 4), r.randint(0, 4))), repr(r.uniform(-1, 1))])

    def source(self, shape, kind="f", grad=False):
        """An expression that builds a tensor of this shape and kind."""
        r, s, n = self.r, dims_str(shape), numel(shape)
        rg = ", requires_grad=True" if grad else ""
        if kind == "i":
            return r.choice(["torch.randint(-5, 6, %s)" % s, "torch.arange(%d).reshape(%s)" % (n, s),
                             "torch.tensor(%s)" % self.literal(shape, "i"), "torch.full(%s, %d)" % (s, r.randint(-3, 7))])
        if kind == "b":
            return r.choice(["torch.randn(%s) > 0" % s, "torch.tensor(%s)" % self.literal(shape, "b"),
                             "torch.arange(%d).reshape(%s) %% 3 == 0" % (n, s)])
        return r.choice([
            "torch.randn(%s%s)" % (s, rg), "torch.randn(%s%s)" % (s, rg), "torch.rand(%s%s)" % (s, rg),
            "torch.tensor(%s%s)" % (self.literal(shape, "f"), rg),
            "torch.arange(%d.0).reshape(%s).requires_grad_(%s)" % (n, s, grad),
            "((torch.arange(%d) - %d) * %s).reshape(%s).requires_grad_(%s)" % (n, r.randint(0, 6), r.choice(["0.5", "1.25", "0.1", "3.0"]), s, grad),
            "torch.linspace(%s, %s, %d).reshape(%s).requires_grad_(%s)" % (r.randint(-5, 0), r.randint(1, 9), n, s, grad),
            "torch.full(%s, %s%s)" % (s, self.scalar("f"), rg), "torch.ones(%s%s)" % (s, rg), "torch.zeros(%s%s)" % (s, rg)])

    def new(self, lines, shape=None, kind="f", grad=False):
        shape = self.shape() if shape is None else shape
        t = T(self.name(), shape, kind, grad)
        lines.append("%s = %s" % (t.name, self.source(shape, kind, grad)))
        return t

    def broadcast_shape(self, shape):
        """A shape that broadcasts against this one (dims dropped from the left, some set to 1)."""
        r = self.r
        out = list(shape[r.randint(0, len(shape)):]) if shape else []
        out = [1 if r.random() < 0.3 else d for d in out]
        if r.random() < 0.1:
            out = [r.randint(1, 2)] + out   # sometimes a new leading dim
        if r.random() < 0.05 and out:
            out[r.randrange(len(out))] = 7  # sometimes one that does not broadcast
        return tuple(out)

    # ---- ops: each takes a T and returns (expression, shape, kind, is_view) or None ----
    def unary(self, x):
        r, v = self.r, x.name
        if x.kind == "b":
            return r.choice([("%s.logical_not()" % v, x.shape, "b", False), ("~%s" % v, x.shape, "b", False),
                             ("%s.float()" % v, x.shape, "f", False), ("%s.long() * 2" % v, x.shape, "i", False)])
        if x.kind == "i":
            return r.choice([("%s.abs()" % v, x.shape, "i", False), ("-%s" % v, x.shape, "i", False), ("%s * %d" % (v, r.randint(-3, 3)), x.shape, "i", False),
                             ("%s // %d" % (v, r.choice([2, 3, -2, 0])), x.shape, "i", False), ("%s %% %d" % (v, r.choice([2, 3, -3])), x.shape, "i", False),
                             ("%s.float()" % v, x.shape, "f", False), ("%s / 2" % v, x.shape, "f", False), ("%s ** 2" % v, x.shape, "i", False),
                             ("%s.clamp(%d, %d)" % (v, r.randint(-3, 0), r.randint(0, 4)), x.shape, "i", False), ("%s.sign()" % v, x.shape, "i", False)])
        k = self.scalar("f") if r.random() < 0.3 else str(r.choice([2, 0.5, -1.5, 3, 0.1]))
        # GELU 'none' of a tensor that needs grad: torch 1.13's backward (oneDNN's kernel) reads a
        # gradient that reaches it through a view (y.t(), y.T @ w) as if it were contiguous, so its
        # result is garbage and no oracle; 'tanh' takes ATen's kernel, which reads it by strides.
        gelu = "F.gelu(%s, approximate='tanh')" if x.grad else "F.gelu(%s)"
        e = r.choice(["%s.abs()", "torch.exp(%s)", "%s.log()", "%s.sqrt()", "%s.sin()", "%s.cos()", "torch.tanh(%s)", "%s.sigmoid()",
                      "F.relu(%s)", "%s.floor()", "%s.ceil()", "%s.round()", "%s.trunc()", "%s.frac()", "%s.sign()", "%s.square()",
                      "%s.reciprocal()", "%s.rsqrt()", "%s.erf()", "-%s", gelu, "F.silu(%s)", "F.leaky_relu(%%s, %s)" % r.choice(["0.1", "0.01", "2.0"]),
                      "torch.nan_to_num(%s)", "%%s.clamp(min=%s)" % k, "%%s.clamp(%s, %s)" % (r.choice(["-1", "-0.5", "0"]), r.choice(["0.5", "1", "2"])),
                      "%%s.pow(%s)" % r.choice(["2", "3", "0.5", "-1", "0"]), "%%s ** %s" % r.choice(["2", "1.5", "-2"]), "%%s * %s" % k, "%%s + %s" % k,
                      "%s - %%s" % k, "%%s / %s" % k, "%%s // %s" % r.choice(["2", "0.5", "-3"]), "%%s %% %s" % r.choice(["2", "1.5", "-3"]),
                      "torch.where(%%s > 0, %%s, %s)" % k, "F.softsign(%s)", "F.hardtanh(%s)", "torch.relu(%s)", "%s.exp() - 1", "torch.xlogy(%%s, %s)" % k])
        return e.replace("%s", v) if "%%" not in e else e % v, x.shape, "f", False

    def binary(self, x, lines):
        r = self.r
        other = self.new(lines, self.broadcast_shape(x.shape), x.kind if x.kind != "b" else "b")
        a, b = (x.name, other.name) if r.random() < 0.8 else (other.name, x.name)
        try:
            out = broadcast(x.shape, other.shape)
        except ValueError:
            out = x.shape
        if x.kind == "b":
            op = r.choice(["%s & %s", "%s | %s", "%s ^ %s", "torch.logical_and(%s, %s)", "%s == %s"])
            return op % (a, b), out, "b", False
        ops = ["%s + %s", "%s - %s", "%s * %s", "%s / %s", "torch.where(%s > %s, %s, %s)", "%s < %s", "%s >= %s", "%s == %s", "%s != %s", "%s // %s", "%s %% %s"]
        ops += ["torch.maximum(%s, %s)", "torch.minimum(%s, %s)", "torch.add(%s, %s, alpha=2)", "torch.sub(%s, %s, alpha=3)"]
        if x.kind == "f" or r.random() < 0.3:
            ops += ["torch.pow(%s, %s)"]
        op = r.choice(ops)
        kind = "b" if op[3:5].strip() in ("<", ">=", "==", "!=") else ("f" if "/ " in op and "//" not in op else x.kind)
        if op.startswith("torch.where"):
            return op % (a, b, a, b), out, x.kind, False
        return op % (a, b), out, kind, False

    def reduce(self, x):
        r, v = self.r, x.name
        d, kd = self.dim(x), r.choice([True, False])
        kept = tuple((1 if i == d % max(x.nd, 1) else s) for i, s in enumerate(x.shape)) if kd else \
            tuple(s for i, s in enumerate(x.shape) if i != d % max(x.nd, 1))
        if x.kind != "f":
            return r.choice([("%s.sum()" % v, (), "i", False), ("%s.sum(%d, keepdim=%s)" % (v, d, kd), kept, "i", False),
                             ("%s.float().mean(%d)" % (v, d), kept if not kd else kept, "f", False), ("%s.any()" % v, (), "b", False),
                             ("%s.all(%d)" % (v, d), tuple(s for i, s in enumerate(x.shape) if i != d % max(x.nd, 1)), "b", False),
                             ("%s.max()" % v, (), x.kind, False), ("%s.count_nonzero()" % v, (), "i", False),
                             ("%s.prod()" % v, (), "i", False), ("%s.prod(%d, keepdim=%s)" % (v, d, kd), kept, "i", False)])
        same = x.shape
        choices = [("%s.sum()" % v, (), "f"), ("%s.mean()" % v, (), "f"), ("%s.sum(dim=%d, keepdim=%s)" % (v, d, kd), kept, "f"),
                   ("%s.mean(%d, %s)" % (v, d, kd), kept, "f"), ("%s.amax(%d, keepdim=%s)" % (v, d, kd), kept, "f"),
                   ("%s.amin(%d)" % (v, d), tuple(s for i, s in enumerate(x.shape) if i != d % max(x.nd, 1)), "f"),
                   ("%s.argmax(%d, keepdim=%s)" % (v, d, kd), kept, "i"), ("%s.argmin()" % v, (), "i"), ("%s.std(%d, keepdim=%s)" % (v, d, kd), kept, "f"),
                   ("%s.var(%d, unbiased=%s)" % (v, d, r.choice([True, False])), tuple(s for i, s in enumerate(x.shape) if i != d % max(x.nd, 1)), "f"),
                   ("torch.logsumexp(%s, %d, keepdim=%s)" % (v, d, kd), kept, "f"), ("%s.cumsum(%d)" % (v, d), same, "f"),
                   ("%s.cumprod(dim=%d)" % (v, d), same, "f"), ("%s.softmax(%d)" % (v, d), same, "f"), ("F.softmax(%s, dim=%d)" % (v, d), same, "f"),
                   ("F.log_softmax(%s, dim=%d)" % (v, d), same, "f"), ("torch.log_softmax(%s, %d)" % (v, d), same, "f"),
                   ("%s.max(%d, keepdim=%s).values" % (v, d, kd), kept, "f"), ("%s.min(%d)[1]" % (v, d), tuple(s for i, s in enumerate(x.shape) if i != d % max(x.nd, 1)), "i"),
                   ("%s.norm()" % v, (), "f"), ("%s.max()" % v, (), "f"), ("%s.std()" % v, (), "f"), ("%s.sort(%d, descending=%s)[0]" % (v, d, kd), same, "f"),
                   ("%s.argsort(%d)" % (v, d), same, "i"), ("%s.topk(%d, %d).values" % (v, r.randint(1, 2), d), None, "f"),
                   ("F.layer_norm(%s, %s)" % (v, dims_str(x.shape[-1:])), same, "f"),
                   ("%s.prod()" % v, (), "f"), ("%s.prod(%d, keepdim=%s)" % (v, d, kd), kept, "f"), ("%s.min()" % v, (), "f")]
        if x.nd >= 2:   # several dims at once
            ends = (0, x.nd - 1)
            choices += [("%s.sum((0, -1))" % v, tuple(s for i, s in enumerate(x.shape) if i not in ends), "f"),
                        ("%s.mean(dim=[-1, 0], keepdim=True)" % v, tuple(1 if i in ends else s for i, s in enumerate(x.shape)), "f")]
        e, s, k = r.choice(choices)
        if s is None:
            s = x.shape
        return e, s, k, False

    def view(self, x):
        r, v, s, nd = self.r, x.name, x.shape, x.nd
        c = []
        c.append(("%s.view(-1)" % v, (numel(s),)))
        c.append(("%s.reshape(%s)" % (v, dims_str(factor(r, numel(s)))), None))
        c.append(("%s.flatten()" % v, (numel(s),)))
        c.append(("%s.unsqueeze(%d)" % (v, self.dim(x, 1)), None))
        c.append(("%s.squeeze()" % v, tuple(d for d in s if d != 1)))
        c.append(("%s.contiguous()" % v, s))
        if nd <= 2:
            c.append(("%s.t()" % v, s[::-1]))
        if nd == 2:
            c += [("%s.T" % v, s[::-1]), ("%s.diag()" % v, None), ("%s.view(%d, -1)" % (v, s[1] if s[1] else 1), None)]
        if nd >= 1:
            d = self.dim(x)
            i = d % nd
            c += [("%s[%d]" % (v, r.randint(-s[0], max(s[0] - 1, 0))), s[1:]), ("%s[%s:%s]" % (v, r.choice(["", "1", "-2"]), r.choice(["", "2", "-1"])), None),
                  ("%s[..., ::2]" % v, None), ("%s.narrow(%d, 0, %d)" % (v, d, min(s[i], r.randint(0, 2))), None),
                  ("%s.flip(%d)" % (v, d), s), ("%s.roll(%d, %d)" % (v, r.randint(-3, 3), d), s), ("%s.unbind(%d)[0]" % (v, d), None),
                  ("%s.chunk(2, %d)[-1]" % (v, d), None), ("%s.split(1, %d)[0]" % (v, d), None), ("%s.squeeze(%d)" % (v, d), None),
                  ("%s[%s]" % (v, ", ".join(r.choice([":", "0", "-1", "1:", "::2", "None", "..."]) for _ in range(r.randint(1, nd)))), None),
                  ("%s.movedim(%d, %d)" % (v, d, self.dim(x)), None), ("%s[[0, -1]]" % v, None), ("%s[%s > 0]" % (v, v), None)]
        if nd >= 2:
            perm = list(range(nd))
            r.shuffle(perm)
            a, b = r.sample(range(nd), 2)
            sw = list(s)
            sw[a], sw[b] = sw[b], sw[a]
            c += [("%s.transpose(%d, %d)" % (v, a, b - nd if r.random() < 0.3 else b), tuple(sw)),
                  ("%s.permute(%s)" % (v, ", ".join(map(str, perm))), tuple(s[p] for p in perm)),
                  ("%s.tril(%d)" % (v, r.randint(-1, 1)), s), ("torch.triu(%s, %d)" % (v, r.randint(-1, 1)), s), ("%s[:, 1]" % v, None)]
        if 1 in s or nd < 3:
            ex = [r.choice([2, 3]) if d == 1 else d for d in s]
            lead = [2] if r.random() < 0.4 else []
            c.append(("%s.expand(%s)" % (v, ", ".join(map(str, lead + ex))), tuple(lead + ex)))
        e, shape = r.choice(c)
        copies = (".contiguous()", "> 0]", "[[0, -1]]", ".roll(", ".flip(", ".diag()")   # new tensors, not views (or not always)
        return e, shape if shape is not None else x.shape, x.kind, not any(p in e for p in copies)

    def matmul(self, x, lines):
        r, v, s = self.r, x.name, x.shape
        if x.kind == "b" or not s:
            return None
        k = r.randint(1, 4)
        if x.kind == "i":
            y = T(self.name(), (s[-1], k), "i")
            lines.append("%s = %s" % (y.name, self.source(y.shape, "i")))
            return "%s @ %s" % (v, y.name), s[:-1] + (k,), "i", False
        if len(s) == 3 and r.random() < 0.5:
            y = self.new(lines, (s[0], s[2], k))
            return "%s %s %s" % (v, r.choice(["@", "@"]), y.name) if r.random() < 0.5 else "torch.bmm(%s, %s)" % (v, y.name), (s[0], s[1], k), "f", False
        if r.random() < 0.2:
            y = self.new(lines, (s[-1],))
            return "torch.matmul(%s, %s)" % (v, y.name), s[:-1], "f", False
        y = self.new(lines, (s[-1] if r.random() < 0.95 else s[-1] + 1, k))
        return r.choice(["%s @ %s", "torch.matmul(%s, %s)", "%s.matmul(%s)"]) % (v, y.name), s[:-1] + (k,), "f", False

    def join(self, x):
        r, v = self.r, x.name
        if r.random() < 0.5:
            d = self.dim(x)
            s = list(x.shape)
            if s:
                s[d % len(s)] *= 2
            return "torch.cat([%s, %s * 2], dim=%d)" % (v, v, d) if x.kind != "b" else "torch.cat((%s, %s), %d)" % (v, v, d), tuple(s), x.kind, False
        d = self.dim(x, 1)
        s = list(x.shape)
        s.insert(d % (len(s) + 1), 3)
        return "torch.stack([%s, %s, %s], %d)" % (v, v, v, d), tuple(s), x.kind, False

    def step(self, x, lines, grad=False):
        """One op on x: a line that assigns its result, and the result's T."""
        r = self.r
        ops = [self.unary, self.unary, self.reduce, self.view, self.view, self.join, lambda t: self.binary(t, lines), lambda t: self.matmul(t, lines)]
        res = None
        while res is None or (x.grad and not differentiable(res[0], x)):
            res = r.choice(ops)(x)
        e, shape, kind, view = res
        y = T(self.name(), shape, kind, x.grad and kind == "f", view)
        lines.append("%s = %s" % (y.name, e))
        return y

    def show(self, t):
        """Lines that print t and something about it."""
        r, v = self.r, t.name
        extra = r.choice(["print(%s.shape, %s.dtype)" % (v, v), "print(%s.size(), %s.dim(), %s.numel())" % (v, v, v),
                          "print(%s.stride(), %s.is_contiguous())" % (v, v), "print(%s.tolist())" % v, "print(%s.requires_grad, %s.is_leaf)" % (v, v),
                          "print(type(%s.grad_fn).__name__)" % v, "print(%s.sum().item())" % v, "print(repr(%s))" % v,
                          "print(f'{%s.float().mean().item():.4f}')" % v, "print(%s.dtype == torch.float32, %s.shape[-1:])" % (v, v)])
        return ["print(%s)" % v, extra] if r.random() < 0.8 else [extra]

    def chain(self):
        r, lines = self.r, []
        x = self.new(lines, kind=r.choice("fffffib"))
        for _ in range(r.randint(1, 4)):
            x = self.step(x, lines)
            if r.random() < 0.3:
                lines += self.show(x)
        return lines + self.show(x)

    def autograd(self):
        r, lines = self.r, []
        x = self.new(lines, self.shape(1, 3), "f", grad=True)
        y = x
        for _ in range(r.randint(1, 4)):
            z = self.step(y, lines)
            if z.kind != "f":
                lines.pop()
                break
            y = z
            if r.random() < 0.2:
                lines.append("print(type(%s.grad_fn).__name__, %s.requires_grad)" % (y.name, y.name))
        loss = r.choice(["%s.sum()", "(%s * %s).mean()", "%s.mean()", "%s.norm()", "%s.abs().max()", "%s"])
        loss = loss.replace("%s", y.name)
        lines.append("loss = %s" % loss)
        lines.append("print(loss, type(loss.grad_fn).__name__)" if r.random() < 0.5 else "print(loss.shape)")
        keep = r.random() < 0.3
        lines.append("loss.backward(%s)" % ("retain_graph=True" if keep else ""))
        lines.append("print(%s.grad)" % x.name)
        if keep and r.random() < 0.5:
            lines += ["loss.backward()", "print(%s.grad)" % x.name]
        if y is not x and r.random() < 0.4:
            lines.append(r.choice(["print(%s.grad, %s.is_leaf)" % (y.name, y.name), "%s.retain_grad()" % y.name]))
        lines += self.detach_or_no_grad(x) if r.random() < 0.4 else []
        return lines

    def detach_or_no_grad(self, x):
        v, r = x.name, self.r
        return r.choice([["with torch.no_grad():", "    u = %s * 2" % v, "print(u.requires_grad, u.grad_fn)"],
                         ["d = %s.detach()" % v, "print(d.requires_grad, d.is_leaf, d.grad)"],
                         ["with torch.no_grad():", "    %s -= 0.1 * %s.grad" % (v, v), "print(%s)" % v],
                         ["%s.grad = None" % v, "print(%s.grad)" % v], ["%s.grad.zero_()" % v, "print(%s.grad)" % v]])

    def inplace(self):
        r, lines = self.r, []
        base = self.new(lines, self.shape(1, 3), r.choice("ffi"))
        t = base
        if r.random() < 0.6:
            t = self.step(base, lines)
            if not t.view or t.kind != base.kind:
                t = base
        v, k = t.name, self.scalar(t.kind if t.kind != "b" else "i")
        op = r.choice(["%s.add_(%s)" % (v, k), "%s.mul_(%s)" % (v, k), "%s.clamp_(min=0)" % v, "%s.zero_()" % v, "%s.fill_(%s)" % (v, k),
                       "%s.masked_fill_(%s > 0, %s)" % (v, v, k), "%s += %s" % (v, k), "%s *= 2" % v, "%s[0] = %s" % (v, k),
                       "%s[%s < 1] = 0" % (v, v), "%s[..., -1:] = %s" % (v, k), "%s.copy_(%s * 3)" % (v, v), "%s.sub_(%s, alpha=%s)" % (v, v, "2" if t.kind == "f" else "1"),
                       "%s.relu_()" % v, "%s.div_(%s)" % (v, r.choice(["2", "0", "-4"])), "%s.neg_()" % v, "%s.tril_()" % v, "%s.index_fill_(0, torch.tensor([0]), %s)" % (v, k)])
        lines.append(op)
        lines.append("print(%s)" % base.name)
        if t is not base:
            lines.append("print(%s)" % v)
        return lines

    def inplace_grad(self):
        """In-place writes where autograd is involved: through a view of a non-leaf (CopySlices),
        on a tensor an op saved for backward (the version check), on a leaf's view (refused)."""
        r, lines = self.r, []
        x = self.new(lines, self.shape(1, 3), "f", grad=True)
        y = T(self.name(), x.shape, "f", True)
        lines.append("%s = %s * %s" % (y.name, x.name, r.choice(["1.5", "-2.0", "1.0"])))
        t = y
        if r.random() < 0.5:
            t = self.step(y, lines)
            if t.kind != "f":
                lines.pop()
                t = y
        v, k = t.name, self.scalar("f")
        target = r.choice([v, v, x.name + r.choice([".t()", "[0]", ".view(-1)"]) if x.nd >= 1 else v])
        saved = r.random() < 0.4
        if saved:
            z = T(self.name(), t.shape, "f", True)
            lines.append("%s = %s" % (z.name, r.choice(["%s.exp()", "%s.sigmoid()", "torch.tanh(%s)", "%s * %s", "%s.sqrt()", "%s.pow(2)",
                                                        "%s.softmax(-1)", "%s.amax(-1)", "%s.amin(-1)", "%s.cumsum(-1)", "%s.norm()"]).replace("%s", v)))
            target = r.choice([v, z.name])
        op = r.choice(["%s.mul_(2)", "%s.add_(%s)" % ("%s", k), "%s[0] = 0" if t.nd >= 1 else "%s.zero_()", "%s.clamp_(min=0)", "%s.exp_()",
                       "%s.t().add_(1)" if t.nd == 2 else "%s.sub_(1)", "%s.unsqueeze(0).mul_(3)", "%s.relu_()", "%s *= 0.5"])
        if "(" in target and op.startswith("%s *="):   # x.t() *= 2 is a SyntaxError in Python
            op = "%s.mul_(0.5)"
        lines.append(op.replace("%s", target))
        loss = z.name if saved else v
        lines += ["loss = %s.sum()" % loss, "loss.backward()", "print(%s.grad)" % x.name]
        if r.random() < 0.3:
            lines.append("print(type(%s.grad_fn).__name__)" % loss)
        return lines

    def modules(self):
        r = self.r
        lines = ["torch.manual_seed(%d)" % r.randint(0, 1000)]
        s = self.shape(1, 3)
        if not s or s[-1] == 0:
            s = s[:-1] + (3,)
        x = self.new(lines, s, "f", grad=r.random() < 0.3)
        n_out = r.randint(1, 4)
        m = r.choice(["nn.Linear(%d, %d)" % (s[-1], n_out), "nn.Linear(%d, %d, bias=False)" % (s[-1], n_out), "nn.LayerNorm(%d)" % s[-1],
                      "nn.LayerNorm(%s, elementwise_affine=False)" % dims_str(s[-1:]), "nn.Dropout(%s)" % r.choice(["0.5", "0.1", "0.0", "1.0"]),
                      "nn.Sequential(nn.Linear(%d, %d), nn.ReLU(), nn.Linear(%d, 2))" % (s[-1], n_out, n_out), "nn.Softmax(dim=%d)" % self.dim(T("", s)),
                      "nn.GELU()" if not x.grad else "nn.SiLU()", "nn.Tanh()"])
        lines += ["m = %s" % m]
        if r.random() < 0.3:
            lines.append("m.eval()")
        lines += ["out = m(%s)" % x.name, "print(out)", r.choice(["print(out.shape, type(out.grad_fn).__name__)", "print([p.shape for p in m.parameters()])",
                                                                  "print(m)", "print(sorted(m.state_dict().keys()))"])]
        if r.random() < 0.6:
            lines += ["out.sum().backward()", "print([p.grad for p in m.parameters()])"]
        if r.random() < 0.3:
            lines += ["print(F.dropout(%s, p=%s, training=%s))" % (x.name, r.choice(["0.5", "0.25"]), r.choice(["True", "False"]))]
        return lines

    def snippet(self):
        return self.r.choice([self.chain, self.chain, self.chain, self.autograd, self.autograd, self.inplace, self.inplace_grad, self.modules])()

    def program(self):
        return [PRELUDE % self.r.randint(0, 10**6)] + [wrap(self.snippet()) for _ in range(self.r.randint(1, 4))]


def differentiable(expr, x):
    """Whether attn has the derivative of expr's op for a grad x (a missing one is a clean RuntimeError:
    //, %, gelu, cumprod of a zero, x[...]'s AliasBackward0), and it is not std/var (over one element
    torch 1.13's StdBackward0 raises its own error, which drowned the other findings)."""
    return True


def broadcast(a, b):
    """The broadcast shape of a and b (ValueError when they do not broadcast)."""
    out = []
    for k in range(1, max(len(a), len(b)) + 1):
        x = a[-k] if k <= len(a) else 1
        y = b[-k] if k <= len(b) else 1
        if x != y and 1 not in (x, y):
            raise ValueError
        out.append(y if x == 1 else x)
    return tuple(reversed(out))


def factor(r, n):
    """A random shape with n elements."""
    out = []
    while n > 1 and len(out) < 3:
        ds = [d for d in range(2, n + 1) if n % d == 0]
        d = r.choice(ds)
        out.append(d)
        n //= d
    if n != 1:
        out.append(n)
    if r.random() < 0.3 and out:
        out[r.randrange(len(out))] = -1
    return tuple(out) if out or n != 1 else (1,)


def wrap(lines):
    """A snippet in a try/except that prints the error, so later snippets still run."""
    body = "\n".join("    " + l for line in lines for l in line.split("\n"))
    return "try:\n%s\nexcept Exception as e:\n    print('!', type(e).__name__, e)" % body


# One torch process for the whole run (importing torch takes seconds): each request is a JSON
# line of cells, run in a fresh namespace; the answer is a JSON line of their outputs.
SERVER = r'''
import contextlib, io, json, sys, traceback
for line in sys.stdin:
    ns, outs = {"__name__": "__main__"}, []
    for cell in json.loads(line):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            try:
                exec(compile(cell, "<cell>", "exec"), ns)
            except BaseException as e:
                print("error: " + traceback.format_exception_only(type(e), e)[-1].rstrip("\n"))
        outs.append(buf.getvalue())
    sys.stdout.write(json.dumps(outs) + "\n")
    sys.stdout.flush()
'''
_server = None


def run_torch(cells):
    """torch's output for each cell (cells of one call share a namespace, as a lesson's do)."""
    global _server
    if _server is None or _server.poll() is not None:
        _server = subprocess.Popen([PYTHON, "-c", SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, env=TORCH_ENV, text=True, encoding="utf-8", errors="replace")
    _server.stdin.write(json.dumps(cells) + "\n")
    _server.stdin.flush()
    line = _server.stdout.readline()
    if not line:   # torch itself died: nothing to compare
        _server = None
        return ["torch died\n"] * len(cells)
    return json.loads(line)


def lesson_text(cells, head=LESSON_HEAD):
    text = head
    for k, cell in enumerate(cells):
        text += "```python\nprint(%r)\n```\n\n```python\n%s\npass\n```\n\n" % (MARK % k, cell)
    return text


def run_attn(binary, cells):
    """Outputs per cell, and whether attn crashed or a sanitizer reported. A cell attn stopped at
    ends in `error: Kind: message` (later cells: None); a crash or a report ends the last cell that
    printed in `crash: ...` (so it differs from torch's)."""
    with tempfile.NamedTemporaryFile("w", suffix=".lesson", delete=False, encoding="utf-8") as f:
        f.write(lesson_text(cells))
        path = f.name
    try:
        r = subprocess.run([binary, "run", path, "--quiet", "--time-limit", "20"], capture_output=True, timeout=600)
    finally:
        os.unlink(path)
    outs = split_outputs(r.stdout.decode("utf-8", "replace"), len(cells))
    err = r.stderr.decode("utf-8", "replace")
    report = SANITIZER.search(err)
    last = max((k for k, o in enumerate(outs) if o is not None), default=None)
    if last is None:   # nothing came through (a crash loses buffered stdout)
        return outs, bool(report) or r.returncode < 0 or r.returncode > 2
    if r.returncode < 0 or r.returncode > 2 or report:
        outs[last] += "crash: exit %d %s\n" % (r.returncode, report.group(0) if report else "")
    elif r.returncode != 0:
        line = re.sub(r"^attn: [^:]*\.lesson:\d+: ", "", err.strip().split("\n")[0])
        outs[last] += "error: " + line + "\n"
    return outs, bool(report) or r.returncode < 0 or r.returncode > 2


def split_outputs(text, n):
    outs = [None] * n
    parts = re.split(r"^#### program (\d+)\n", text, flags=re.M)
    for k in range(1, len(parts), 2):
        outs[int(parts[k])] = parts[k + 1]
    return outs


def differs(binary, cell):
    a = run_torch([cell])[0]
    outs, bad = run_attn(binary, [cell])
    return a != outs[0] or bad, a, outs[0]


def minimize(binary, snippets):
    """Drop snippets (never the seed prelude), then lines of the remaining snippet, while torch and attn still differ."""
    keep = list(snippets)
    for k in reversed(range(1, len(keep))):
        trial = keep[:k] + keep[k + 1:]
        if len(trial) > 1 and differs(binary, "\n".join(trial))[0]:
            keep = trial
    if len(keep) == 2:
        lines = keep[1].split("\n")
        for k in reversed(range(1, len(lines) - 2)):   # not the try: line or the handler
            trial = lines[:k] + lines[k + 1:]
            try:
                compile("\n".join(trial), "<m>", "exec")
            except SyntaxError:
                continue
            if differs(binary, keep[0] + "\n" + "\n".join(trial))[0]:
                lines = trial
        keep = [keep[0], "\n".join(lines)]
    return "\n".join(keep)


def report(args, programs, k, total):
    repro = minimize(args.attn, programs[k])
    _, a, b = differs(args.attn, repro)
    b = b if b is not None else "(attn printed nothing: it crashed, or a sanitizer stopped it)\n"
    os.makedirs(args.out, exist_ok=True)
    name = os.path.join(args.out, "seed%d_%d" % (args.seed, total))
    with open(name + ".py", "w", encoding="utf-8") as f:
        f.write(repro + "\n")
    with open(name + ".diff", "w", encoding="utf-8") as f:
        f.write("--- torch 1.13\n%s--- attn\n%s" % (a, b))
    print("MISMATCH %s.py\n%s\n--- torch 1.13\n%s--- attn\n%s" % (name, repro, a, b), flush=True)


def compare_batch(args, programs):
    """Indices of the programs of a batch that differ (or that make attn crash or report), and how many ran."""
    cells = ["\n".join(p) for p in programs]
    expected, (got, bad) = run_torch(cells), run_attn(args.attn, cells)
    if bad:   # a crash or a sanitizer report (its stdout may be lost): the first program that makes it alone
        culprit = next((k for k in range(len(cells)) if run_attn(args.attn, [cells[k]])[1]), None)
        if culprit is not None:
            return [k for k in range(culprit) if got[k] is not None and expected[k] != got[k]] + [culprit], culprit + 1, expected, got
    ran = sum(1 for g in got if g is not None)
    return [k for k in range(ran) if expected[k] != got[k]], ran, expected, got


def corpus_ok(code, out):
    """An output a lesson's ```output block can hold as printed (attn verify compares it exactly), of a
    program small enough to keep the corpus small."""
    return out is not None and out.strip() and len(code) + len(out) < 2500 and "```" not in out and out == out.rstrip("\n") + "\n" and \
        not any(c < " " and c != "\n" for c in out) and all(l == l.rstrip() for l in out.split("\n"))


def write_corpus(args, gen):
    """--corpus DIR: programs of --seed that torch and attn agree on, as lessons whose ```output
    blocks are what torch printed (the program that differ are printed, not kept)."""
    kept, total, per = [], 0, args.per_lesson
    while len(kept) < args.programs:
        programs = [gen.program() for _ in range(args.batch)]
        bad, ran, expected, _ = compare_batch(args, programs)
        for k in range(ran):
            total += 1
            if k in bad:
                print("left out (differs today): program %d of seed %d" % (total, args.seed))
            elif corpus_ok("\n".join(programs[k]), expected[k]) and len(kept) < args.programs:
                kept.append(("\n".join(programs[k]), expected[k]))
    os.makedirs(args.corpus, exist_ok=True)
    for old in os.listdir(args.corpus):
        if old.endswith(".lesson"):
            os.unlink(os.path.join(args.corpus, old))
    for f in range(0, len(kept), per):
        write_lesson(args, f // per + 1, kept[f:f + per], f)
    print("torchfuzz: wrote %d programs of seed %d (of %d generated) in %d lessons to %s" %
          (len(kept), args.seed, total, (len(kept) + per - 1) // per, args.corpus))


def write_lesson(args, num, programs, first):
    lines = ["# Lesson programs over tensors, fuzzed (%d)" % num, "name: torchfuzz-%d" % num, "group: concepts", "order: %d" % num,
             "cpu: avx2", "rng: portable", "source: tools/torchfuzz.py, seed %d" % args.seed, "",
             "Generated by `tools/torchfuzz.py --corpus` (do not edit): each cell is a random program and its ```output is what "
             "Debian's PyTorch 1.13.1 printed for it; CTest `torchfuzz_corpus` runs `attn verify` on this folder.", ""]
    for k, (code, out) in enumerate(programs):
        lines += ["## p%d: program %d" % (first + k + 1, first + k + 1), "", "```python", code, "```", "```output", out.rstrip("\n"), "```", ""]
    with open(os.path.join(args.corpus, "torchfuzz-%d.lesson" % num), "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


def fuzz(args, gen):
    end = time.time() + args.seconds
    total, failures = 0, 0
    while time.time() < end and failures < args.max_failures and not (args.programs and total >= args.programs):
        programs = [gen.program() for _ in range(args.batch)]
        bad, ran, _, _ = compare_batch(args, programs)
        for k in range(ran):
            total += 1
            if k not in bad:
                continue
            failures += 1
            report(args, programs, k, total)
            if failures >= args.max_failures:
                break
    print("torchfuzz: seed %d, %d programs, %d differed" % (args.seed, total, failures))
    return 1 if failures else 0


def self_test():
    """The generator's rules for torch 1.13's own wrong results (no torch needed): GELU 'none' never
    applied to a tensor that needs grad (its oneDNN backward misreads a gradient that reaches it
    through a view), nn.GELU never in a module over one. Exit status 1 and the offending line if not."""
    gen = Gen(random.Random(1))
    for k in range(20000):
        x = T("x%d" % k, gen.shape(1, 3), "f", grad=True, view=k % 2 == 1)
        e = gen.unary(x)[0]
        if "gelu" in e and "approximate='tanh'" not in e:
            print("torchfuzz --self-test: GELU 'none' of a tensor that needs grad:", e)
            return 1
    for _ in range(3000):
        lines = gen.modules()
        if any("requires_grad=True" in line or "requires_grad_(True)" in line for line in lines) and any("nn.GELU()" in line for line in lines):
            print("torchfuzz --self-test: nn.GELU over a tensor that needs grad:", lines)
            return 1
    print("torchfuzz --self-test: passed")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--attn", required=True, help="the attn binary (an ASan/UBSan build works: a report is a finding)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--seconds", type=float, default=60)
    p.add_argument("--programs", type=int, default=0, help="stop after this many programs (with --corpus: keep this many; default 300)")
    p.add_argument("--batch", type=int, default=40)
    p.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "torchfuzz"))
    p.add_argument("--max-failures", type=int, default=5)
    p.add_argument("--corpus", help="write the CI corpus (lessons with torch's outputs) to this folder instead of fuzzing")
    p.add_argument("--per-lesson", type=int, default=50)
    args = p.parse_args()
    gen = Gen(random.Random(args.seed))
    if args.corpus:
        args.programs = args.programs or 300
        write_corpus(args, gen)
        return 0
    return fuzz(args, gen)


if __name__ == "__main__":
    sys.exit(main())
