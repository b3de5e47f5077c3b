#!/usr/bin/python3
"""make_saved_test.py: write tests/torch/saved.py, every differentiable op of attn's op table with
its result and then each of its tensor inputs modified in place before backward(), for
tools/make_torch_expected.py (which runs it in Debian's torch 1.13 to write
tests/torch/saved.expected) and tests/torch/test_torch_scripts.cpp (which runs it in attn and
compares the text exactly).

What it is: the check that no op computes a silently wrong gradient from a tensor it saved for
backward (PyTorch's SavedVariable version check). Each op y = op(x, z...) runs on non-leaf inputs
(x = w * 1) in five settings: untouched (the grad_fn name, its inputs' nodes, the leaves' .grad);
y written in place (y.mul_(2)), or one element of it (y[0, 0] = 0.5, through a view: CopySlices);
x written in place (x.add_(1)); z written (z.add_(1)), when there is a z. Where PyTorch refuses the backward, attn must refuse it with the same message (up to
"Hint:"); where PyTorch computes gradients, attn must compute the same bits (tolist()).
Then (TAIL) the integer and bool operands and outputs a node saves (gather's index, masked_fill's
mask, where's condition, nll_loss's target, max/sort/topk's indices) written before backward().
What it is not: a test by itself; the view ops x in-place ops (tools/make_views_test.py); ops
attn has not got (they are left out, not refused).

Usage (from the repository root):
    /usr/bin/python3 tools/make_saved_test.py && /usr/bin/python3 tools/make_torch_expected.py saved
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "torch", "saved.py")

# (label, domain, expression of y from x (and z, of the same shape [2, 3])[, "graph"]). Domain "pos":
# the leaves hold positive values (log, sqrt, ...). Integer-valued ops (argmax, comparisons) are not
# differentiable. "graph": attn records another graph of nodes than ATen's composite op (einsum,
# F.linear's AddmmBackward0 over a matmul chain, F.scaled_dot_product_attention): their
# next_functions, and the saved tensor a refusal names, are not compared (the refusal itself is).
UNARY = [
    "abs", "neg", "exp", "tanh", "sigmoid", "sin", "cos", "erf", "relu", "square", "sign", "round", "floor",
    "ceil", "trunc", "frac", "clone", "reciprocal", "nan_to_num",
]
OPS = [(f"{u}", "any", f"x.{u}()") for u in UNARY] + [
    ("log", "pos", "x.log()"), ("sqrt", "pos", "x.sqrt()"), ("rsqrt", "pos", "x.rsqrt()"),
    ("pow_half", "pos", "x.pow(0.5)"), ("pow_2", "any", "x.pow(2)"), ("pow_3", "any", "x ** 3"),
    ("rpow", "any", "2 ** x"), ("pow_tensor", "pos", "x.pow(z)"), ("pow_tensor_base", "pos", "torch.pow(2.5, z) * x"),
    ("softmax1", "any", "x.softmax(-1)"), ("softmax0", "any", "torch.softmax(x, 0)"),
    ("log_softmax", "any", "x.log_softmax(1)"), ("cumsum", "any", "x.cumsum(1)"), ("cumprod", "any", "x.cumprod(1)"),
    ("cumprod0", "any", "x.cumprod(0)"), ("flip", "any", "x.flip(1)"), ("roll", "any", "x.roll(1, 1)"),
    ("tril", "any", "x.tril()"), ("triu", "any", "x.triu(1)"), ("repeat", "any", "x.repeat(2, 1)"),
    ("tile", "any", "x.tile((1, 2))"), ("repeat_interleave", "any", "x.repeat_interleave(2, dim=1)"),
    ("diag", "any", "torch.diag(x)"), ("trace", "any", "x.trace()"),
    ("sum", "any", "x.sum()"), ("sum1", "any", "x.sum(1)"), ("mean", "any", "x.mean()"), ("mean0", "any", "x.mean(0, keepdim=True)"),
    ("amax", "any", "x.amax(1)"), ("amin", "any", "x.amin(1)"), ("amax_all", "any", "x.amax()"), ("amin0", "any", "torch.amin(x, 0)"),
    ("max_all", "any", "x.max()"), ("min_all", "any", "x.min()"), ("max_dim", "any", "x.max(1)[0]"),
    ("min_dim", "any", "x.min(0).values"), ("maximum", "any", "torch.maximum(x, z)"), ("minimum", "any", "x.minimum(z)"),
    ("norm", "any", "x.norm()"), ("norm_dim", "any", "x.norm(dim=1)"), ("norm_p1", "any", "x.norm(p=1)"),
    ("norm_p3", "any", "torch.norm(x, p=3, dim=0)"), ("std", "any", "x.std()"), ("std1", "any", "x.std(1)"),
    ("var", "any", "x.var()"), ("var0", "any", "torch.var(x, 0, unbiased=False)"), ("logsumexp", "any", "x.logsumexp(1)"),
    ("topk", "any", "x.topk(2)[0]"), ("sort", "any", "x.sort(1)[0]"), ("sort_desc", "any", "torch.sort(x, 0, descending=True).values"),
    ("add", "any", "x + z"), ("add_alpha", "any", "torch.add(x, z, alpha=2)"), ("sub", "any", "x - z"), ("rsub", "any", "1 - x"),
    ("mul", "any", "x * z"), ("mul_scalar", "any", "x * 3"), ("div", "any", "x / z"), ("div_scalar", "any", "x / 4"),
    ("rdiv", "any", "2 / x"), ("true_divide", "any", "torch.true_divide(x, z)"), ("remainder", "pos", "x % 0.75"),
    ("remainder_t", "pos", "torch.remainder(x, z)"), ("xlogy", "pos", "torch.xlogy(x, z)"), ("xlogy_s", "pos", "x.xlogy(2.0)"),
    ("xlogy_rs", "pos", "torch.xlogy(3, x)"), ("where", "any", "torch.where(x > 0, x, z)"), ("where_m", "any", "x.where(z > 0, z)"),
    ("masked_fill", "any", "x.masked_fill(z > 0, 0.5)"), ("clamp", "any", "x.clamp(-1, 1)"), ("clamp_min", "any", "x.clamp_min(0.6)"),
    ("clamp_max", "any", "torch.clamp_max(x, 0.6)"), ("clamp_t", "any", "x.clamp(min=z)"), ("clip", "any", "x.clip(max=0.7)"),
    ("mm", "any", "x.mm(z.t())"), ("matmul", "any", "x @ z.t()"), ("matmul_1d", "any", "x @ z[0]"), ("mv", "any", "torch.mv(x, z[1])"),
    ("dot", "any", "x[0].dot(z[1])"), ("outer", "any", "torch.outer(x[0], z[1])"), ("ger", "any", "x[1].ger(z[0])"),
    ("bmm", "any", "x.unsqueeze(0).bmm(z.t().unsqueeze(0))"), ("matmul_3d", "any", "x.t() @ z.reshape(1, 2, 3)"),
    ("einsum", "any", "torch.einsum('ij,kj->ik', x, z)", "graph"),
    ("gather", "any", "x.gather(1, torch.tensor([[2, 0], [1, 1]]))"), ("scatter", "any", "x.scatter(1, torch.tensor([[2], [0]]), z[:, :1])"),
    ("scatter_src_shape", "any", "x.scatter(1, torch.tensor([[2], [0]]), z)"),
    ("index_select", "any", "x.index_select(1, torch.tensor([2, 0, 2]))"), ("masked_select", "any", "x.masked_select(z > 0)"),
    ("adv_index", "any", "x[torch.tensor([1, 0, 1])]"), ("index_fill", "any", "x.index_fill(1, torch.tensor([1]), -2.0)"),
    ("cat", "any", "torch.cat([x, z], 1)"), ("stack", "any", "torch.stack([x, z])"), ("hstack", "any", "torch.hstack([x, z])"),
    ("vstack", "any", "torch.vstack((z, x))"),
    ("gelu", "any", "F.gelu(x)"), ("gelu_tanh", "any", "F.gelu(x, approximate='tanh')"), ("silu", "any", "F.silu(x)"),
    ("leaky_relu", "any", "F.leaky_relu(x, 0.1)"), ("hardtanh", "any", "F.hardtanh(x, -1.0, 1.0)"), ("relu6", "any", "F.relu6(x * 4)"),
    ("softsign", "any", "F.softsign(x)"), ("softmin", "any", "F.softmin(x, 1)"),
    ("layer_norm", "any", "F.layer_norm(x, (3,))"),
    ("layer_norm_affine", "any", "F.layer_norm(x, (3,), z[0], z[1])"), ("linear", "any", "F.linear(x, z, z[0, :2])", "graph"),
    ("linear_nobias", "any", "F.linear(x, z)"), ("mse", "any", "F.mse_loss(x, z)"), ("l1", "any", "F.l1_loss(x, z)"),
    ("cross_entropy", "any", "F.cross_entropy(x, torch.tensor([2, 0]))"), ("nll", "any", "F.nll_loss(x, torch.tensor([1, 2]))"),
    ("kl_div", "any", "F.kl_div(x, z.softmax(1), reduction='batchmean')"), ("log_softmax_f", "any", "F.log_softmax(x, dim=0)"),
    ("sdpa", "any", "F.scaled_dot_product_attention(x.unsqueeze(0), z.unsqueeze(0), x.unsqueeze(0))", "graph"),
    ("embedding", "any", "F.embedding(torch.tensor([1, 0, 1]), x)"), ("pad", "any", "F.pad(x, (1, 2))"),
    ("exp_", "any", "(x * 1).exp_()"), ("sigmoid_", "any", "(x * 1).sigmoid_()"), ("tanh_", "any", "(x * 1).tanh_()"),
    ("relu_", "any", "(x * 1).relu_()"), ("pow_", "any", "(x * 1).pow_(3)"), ("pow_t_", "pos", "(x * 1).pow_(z)"),
    ("sqrt_", "pos", "(x * 1).sqrt_()"), ("rsqrt_", "pos", "(x * 1).rsqrt_()"), ("log_", "pos", "(x * 1).log_()"),
    ("reciprocal_", "any", "(x * 1).reciprocal_()"), ("clamp_", "any", "(x * 1).clamp_(-1, 1)"), ("mul_t_", "any", "(x * 1).mul_(z)"),
    ("div_t_", "any", "(x * 1).div_(z)"), ("masked_fill_", "any", "(x * 1).masked_fill_(z > 0, 2.0)"),
    ("index_fill_", "any", "(x * 1).index_fill_(1, torch.tensor([0, 2]), 0.5)"),
    ("scatter_", "any", "(x * 1).scatter_(1, torch.tensor([[2], [0]]), z[:, :1])"),
    ("sin_", "any", "(x * 1).sin_()"), ("erf_", "any", "(x * 1).erf_()"), ("abs_", "any", "(x * 1).abs_()"),
]

HEAD = '''# Generated by tools/make_saved_test.py: every differentiable op with its result, then each input,
# modified in place before backward(), as Debian's torch 1.13 refuses it (a tensor saved for
# backward was modified) or computes the gradient. Do not edit; edit the generator.
import torch
import torch.nn.functional as F

VALUES = {"any": ([[0.5, -1.25, 2.0], [0.75, 1.5, -0.375]], [[-0.25, 1.75, 0.625], [1.125, -0.5, 2.5]]),
          "pos": ([[0.5, 1.25, 2.0], [0.75, 1.5, 0.375]], [[0.25, 1.75, 0.625], [1.125, 0.5, 2.5]])}


def node(t):
    return type(t.grad_fn).__name__ if t.grad_fn is not None else None


def nexts(t):
    return [None if f is None else type(f).__name__ for f, _ in t.grad_fn.next_functions]


def run(label, domain, op, uses_z, graph=False):
    for write in ("none", "y", "y0", "x", "z") if uses_z else ("none", "y", "y0", "x"):
        w = torch.tensor(VALUES[domain][0], requires_grad=True)
        v = torch.tensor(VALUES[domain][1], requires_grad=True)
        x, z = w * 1, v * 1
        try:
            y = op(x, z)
            if write == "none":
                print(label, node(y), "(graph not compared)" if graph else nexts(y))
            elif write == "y":
                y.mul_(2)
            elif write == "y0":
                y[(0,) * y.dim()] = 0.5   # through a view of y: CopySlices
            elif write == "x":
                x.add_(1)
            else:
                z.add_(1)
            y.backward(torch.arange(y.numel()).reshape(y.shape) * 0.25 + 0.5)
            print(" ", write, None if w.grad is None else w.grad.tolist(), None if v.grad is None else v.grad.tolist())
        except Exception as e:
            print(" ", write, "!", type(e).__name__, str(e).split(": [" if graph else " Hint:")[0])

'''


TAIL = '''
# ---- the integer and bool tensors a node saves (index, mask, target, indices output) ----
INDEXED = [
    ("gather", lambda x, i, m: x.gather(1, i), "i"), ("scatter", lambda x, i, m: x.scatter(1, i, x[:, :2] * 2), "i"),
    ("index_select", lambda x, i, m: x.index_select(1, i[0]), "i0"), ("masked_fill", lambda x, i, m: x.masked_fill(m, 0.5), "m"),
    ("masked_select", lambda x, i, m: x.masked_select(m), "m"), ("index_fill", lambda x, i, m: x.index_fill(1, i[0], 0.5), "i0"),
    ("embedding", lambda x, i, m: F.embedding(i % 2, x), "i%"), ("nll", lambda x, i, m: F.nll_loss(x, i[:, 0]), "i"),
    ("cross_entropy", lambda x, i, m: F.cross_entropy(x, i[:, 0]), "i"), ("where", lambda x, i, m: torch.where(m, x, x * 2), "m"),
    ("max_dim", lambda x, i, m: x.max(1), "out1"), ("min_dim", lambda x, i, m: torch.min(x, 0), "out1"),
    ("sort", lambda x, i, m: x.sort(1), "out1"), ("topk", lambda x, i, m: x.topk(2), "out1"),
    ("index", lambda x, i, m: x[i[:, 1]], "i"), ("index_mask", lambda x, i, m: x[m], "m"),
]
for label, f, write in INDEXED:
    w = torch.tensor(VALUES["any"][0], requires_grad=True)
    x = w * 1
    i = torch.tensor([[2, 0], [1, 1]])
    m = torch.tensor([[True, False, True], [False, False, True]])
    try:
        y = f(x, i, m)
        if write == "out1":
            y, ind = y
            ind.add_(0)
        elif write == "i":
            i.add_(0)
        elif write == "i0":
            i[0].add_(0)
        elif write == "i%":
            i.add_(0)
        else:
            m.copy_(m.clone())
        y.backward(torch.ones(y.shape))
        print(label, w.grad.tolist())
    except Exception as e:
        print(label, "!", type(e).__name__, str(e).split(" Hint:")[0])
'''


def main():
    parts = [HEAD]
    for label, domain, expr, *graph in OPS:
        uses_z = "z" in expr
        parts.append(f"run({label!r}, {domain!r}, lambda x, z: {expr}, {uses_z}{', True' if graph else ''})\n")
    parts.append(TAIL)
    with open(OUT, "w") as f:
        f.write("".join(parts))


if __name__ == "__main__":
    main()
