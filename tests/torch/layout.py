# Memory layout as PyTorch's TensorIterator keeps it, and reductions in its order (tools/torchfuzz.py
# findings 01, 02, 08, 11, 12): each case prints a result's strides and exact bits (the floats of
# .tolist(), whose repr is exact) as torch 1.13 prints them (layout.expected, from
# tools/make_torch_expected.py layout). Not a test of printing (tensor reprs read row-major, any layout).
import torch

torch.manual_seed(0)


def show(name, f):
    try:
        r = f()
        print(name, tuple(r.shape), r.stride(), r.is_contiguous())
    except Exception as e:
        print(name, "!", type(e).__name__, e)


# ---- elementwise results keep their inputs' memory order (TensorIterator's reorder_dimensions) ----
x = torch.randn(5, 4, 4).transpose(1, 0)
a = torch.randn(3, 4)
s = torch.randn(4, 6)[:, ::2]
show("x + 1.5", lambda: x + 1.5)
show("1.5 + x", lambda: 1.5 + x)
show("x * x", lambda: x * x)
show("-x", lambda: -x)
show("a.T.exp()", lambda: a.T.exp())
show("a.T.rsqrt()", lambda: a.T.rsqrt())
show("~(b > 0)", lambda: ~(torch.randn(2, 3, 4).permute(2, 0, 1) > 0))
show("b > 0", lambda: torch.randn(2, 3, 4).permute(2, 0, 1) > 0)
show("a.T + a.T", lambda: a.T + a.T)
show("a.T + row", lambda: a.T + torch.randn(3))
show("a.T + col", lambda: a.T + torch.randn(4, 1))
show("row + a.T", lambda: torch.randn(3) + a.T)
show("a.T + contiguous", lambda: a.T + a.T.contiguous())
show("contiguous + a.T", lambda: a.T.contiguous() + a.T)
show("broadcast 3-d", lambda: torch.randn(3, 1, 4) + torch.randn(4))
show("broadcast both", lambda: torch.randn(3, 1, 4) + torch.randn(1, 5, 1))
show("slice + 1", lambda: s + 1)
show("slice.T + 1", lambda: s.T + 1)
show("expand + 1", lambda: torch.randn(4, 1).expand(4, 3) + 1)
show("expand.T + 1", lambda: torch.randn(4, 1).expand(4, 3).T + 1)
show("where", lambda: torch.where(a.T > 0, a.T, torch.zeros(4, 3)))
show("where, contiguous condition", lambda: torch.where(torch.ones(4, 3, dtype=torch.bool), a.T, 0.0))
show("clamp", lambda: a.T.clamp(min=0))
show("masked_fill (contiguous)", lambda: a.T.masked_fill(a.T > 0, 0.0))
show("long().float()", lambda: torch.arange(12).reshape(3, 4).T.float())
show("slice float()", lambda: torch.arange(24).reshape(4, 6)[:, ::2].T.float())
show("long()", lambda: a.T.long())
show("add", lambda: a.T.add(1))
show("torch.add", lambda: torch.add(a.T, a.T))
show("mul", lambda: a.T.mul(2))
show("torch.relu", lambda: torch.relu(a.T))
show("F.relu", lambda: torch.nn.functional.relu(a.T))
show("F.gelu", lambda: torch.nn.functional.gelu(a.T))
show("sigmoid", lambda: a.T.sigmoid())
show("tanh", lambda: a.T.tanh())
show("** 2", lambda: a.T ** 2)
show("pow(3)", lambda: a.T.pow(3))
show("abs", lambda: a.T.abs())
show("eq", lambda: a.T.eq(0))
show("maximum", lambda: torch.maximum(a.T, torch.zeros(4, 3)))
show("max(other)", lambda: a.T.max(torch.zeros(4, 3)))
show("clone", lambda: a.T.clone())
show("clone of a slice", lambda: s.T.clone())
show("contiguous()", lambda: (a.T + 1).contiguous())
show("softmax (contiguous)", lambda: a.T.softmax(-1))
show("reshape", lambda: (a.T + 1).reshape(-1))
show("view (finding 11)", lambda: a.T.rsqrt().view(3, -1))
show("view(-1)", lambda: (a.T + 1).view(-1))
show("view of contiguous", lambda: (a + 1).view(-1))
# sort's values and indices: the input's strides when dense, else dense in its memory order
show("sort", lambda: torch.ones(1, 2, 5, 1).permute(2, 0, 1, 3).sort(2)[0])
show("sort indices", lambda: torch.ones(1, 2, 5, 1).permute(2, 0, 1, 3).sort(2)[1])
show("sort a.T", lambda: a.T.sort(0)[0])
show("sort slice", lambda: s.T.sort(1)[0])
# the values are the same whatever the layout
print((a.T * 2 + 1).tolist() == (a.T.contiguous() * 2 + 1).tolist(), (a.T.exp() > 1).tolist() == (a.T.contiguous().exp() > 1).tolist())
print(a.T.exp())

# ---- the gradient of a dense non-contiguous leaf takes its strides (AccumulateGrad) ----
y = a.T.clone().requires_grad_()
z = (y * 2).exp()
show("grad_fn result", lambda: z)
z.sum().backward()
show("y.grad", lambda: y.grad)
w = torch.randn(3, 4).requires_grad_()
(w.T * 3).sum().backward()
show("contiguous leaf's grad", lambda: w.grad)
w3 = torch.randn(4, 3).T.clone().detach().requires_grad_()
(w3 * 3).sum().backward()
show("w3.grad", lambda: w3.grad)
(w3.exp() * w3).sum().backward()
show("w3.grad accumulated", lambda: w3.grad)
print(w3.grad)


# ---- reductions add in TensorIterator's order: memory order, coalesced, expanded dims iterated ----
def bits(t):
    return repr(t.flatten().tolist())


base = torch.randn(2, 3, 40) * 3
small = torch.randn(4, 6, 5) * 3
layouts = [("contiguous", base), ("transpose(0, 1)", base.transpose(0, 1)), ("transpose(0, 2)", base.transpose(0, 2)),
           ("permute(2, 0, 1)", base.permute(2, 0, 1)), ("sliced", base[:, 1:3, ::2]), ("narrowed", base[..., 3:37]),
           ("expanded", torch.randn(1, 3, 1).expand(2, 3, 40)), ("expanded middle", torch.randn(2, 1, 40).expand(2, 3, 40)),
           ("expanded, permuted", torch.randn(40, 1, 2).expand(40, 3, 2).permute(2, 1, 0)), ("split", base.split(3, -1)[0]),
           ("small transposed", small.transpose(1, 2)), ("small sliced", small[:, ::2])]
for name, t in layouts:
    print(name, t.stride())
    print("  sum", bits(t.sum()), "mean", bits(t.mean()), "var", bits(t.var()), "std", bits(t.std()))
    for d in (0, 1, 2):
        print("  dim", d, bits(t.sum(d)), "keepdim mean", bits(t.mean(d, keepdim=True)), "var", bits(t.var(d)))
# the findings themselves
torch.manual_seed(1)
f = torch.randn(2, 3)
print(f.t().sum().item(), f.sum().item())
print(torch.randn(2, 2, 3, 5).split(1, -1)[0].sum().item())
print((torch.linspace(-1, 7, 36).reshape(2, 3, 3, 2) / 2).transpose(3, 0).sum().item())
torch.manual_seed(919248)
print(torch.rand((1, 1, 3)).expand(3, 2, 3).sum().item())

# ---- cumsum of a 0-d tensor copies it: -0.0 stays -0.0 (impl_func_cum_ops) ----
print(torch.tensor(-0.0).cumsum(0), torch.tensor([-0.0]).cumsum(0), torch.tensor(-3).cumsum(0))
c = torch.tensor(-0.0, requires_grad=True)
cs = c.cumsum(0)
cs.backward()
print(cs, c.grad)

# ---- a result laid out anew is still the tensor its backward saved: writing it in place is caught ----
e = torch.randn(3, 4, requires_grad=True)
ex = e.T.exp()
ex.mul_(2)
try:
    ex.sum().backward()
except RuntimeError as err:
    print("!", str(err)[:120])

# ---- GeluBackward0 on views: TensorIterator(dy, x)'s layout and scalar tails (torchfuzz seed 2212:
# 16075, 2450, 3014, 4428; ops/loops.h binary_loop). A contiguous input's 'none' backward is oneDNN's.
torch.manual_seed(5)
gelu_views = [("T", lambda b: b.T), ("every other column", lambda b: b[:, ::2]), ("narrow 17", lambda b: b[:, 2:19]),
              ("expanded column", lambda b: b[:, :1].expand(3, 20)), ("expanded row", lambda b: b[:1].expand(3, 20)),
              ("view, permuted", lambda b: b.view(3, 4, 5).permute(2, 0, 1)), ("column", lambda b: b[:, 1]),
              ("T, unsqueezed", lambda b: b.T.unsqueeze(1)), ("T of expanded", lambda b: b[:1].expand(2, 20).T)]
for approximate, losses in (("none", ("sum", "weighted")), ("tanh", ("sum",))):
    for name, make in gelu_views:
        for loss in losses:
            leaf = (torch.randn(3, 20) * 3).requires_grad_()
            y = torch.nn.functional.gelu(make(leaf), approximate=approximate)
            (y.sum() if loss == "sum" else (y * torch.randn(y.shape)).sum()).backward()
            print("gelu", approximate, name, loss, bits(leaf.grad))

# ---- size-1 dims: TensorIterator keeps their strides off its fast set-up (a wrapped number, a broadcast),
# casts and clone keep a dense input's (torchfuzz seed 2212: 7293, 14936, 4022) ----
torch.manual_seed(6)
p = torch.randn(3, 1, 4).permute(1, 0, 2)
q = torch.randn(3, 4).T.unsqueeze(1)
show("p + 1", lambda: p + 1)
show("1 + p", lambda: 1 + p)
show("1 - p", lambda: 1 - p)
show("p * 2", lambda: p * 2)
show("p.add(1)", lambda: p.add(1))
show("torch.mul(p, 2)", lambda: torch.mul(p, 2))
show("p == 0", lambda: p == 0)
show("p.eq(0)", lambda: p.eq(0))
show("p > 0", lambda: p > 0)
show("p % 2", lambda: p % 2)
show("p // 2", lambda: p // 2)
show("p / 2", lambda: p / 2)
show("p ** 2", lambda: p ** 2)
show("p.pow(2)", lambda: p.pow(2))
show("p + p", lambda: p + p)
show("p.exp()", lambda: p.exp())
show("-p", lambda: -p)
show("p.clamp(min=0)", lambda: p.clamp(min=0))
show("p + row", lambda: p + torch.randn(4))
show("p + 0-d", lambda: p + torch.tensor(2.0))
show("where(p > 0, p, 0.0)", lambda: torch.where(p > 0, p, 0.0))
show("p.float()", lambda: p.float())
show("p.long()", lambda: p.long())
show("p.clone()", lambda: p.clone())
show("q + 1", lambda: q + 1)
show("q * q", lambda: q * q)
show("q.exp()", lambda: q.exp())
show("q.long()", lambda: q.long())
show("q.clone()", lambda: q.clone())
show("q + col", lambda: q + torch.randn(4, 1, 1))
b = torch.arange(2).reshape((1, 2)).T
show("b == full", lambda: b == torch.full((1,), -3))
show("(b == full) | tensor", lambda: ((b == torch.full((1,), -3)) | torch.tensor([False])).chunk(2, 1)[-1])
show("b + 1", lambda: b + 1)
show("b.float()", lambda: b.float())
show("(1,) of stride 2 .float()", lambda: ((torch.arange(2) % 3 == 0) | (torch.randn(2) > 0))[..., ::2].float())
show("(1,) of stride 3 .float()", lambda: (torch.randn(4, 3) > 0)[:, 1][-2:2].float())
show("(1,) of stride 3 .clone()", lambda: torch.randn(4, 3)[:, 1][-2:2].clone())
show("(1,) of stride 3 + 1", lambda: torch.randn(4, 3)[:, 1][-2:2] + 1)
show("(2, 1) of stride (3, 1) .clone()", lambda: torch.randn(4, 3)[:2, :1].clone())
show("(2, 1) of stride (3, 1) .long()", lambda: torch.randn(4, 3)[:2, 1:2].long())
show("(1, 1) + 1", lambda: torch.randn(3, 3)[:1, 1:2] + 1)
show("expand of size-1 + 1", lambda: torch.randn(1, 1, 3).expand(1, 2, 3) + 1)
show("slice keeps size-1 stride, * 2", lambda: torch.randn(2, 1, 6)[:, :, ::2].transpose(0, 1) * 2)
show("slice keeps size-1 stride, .long()", lambda: torch.randn(2, 1, 6)[:, :, ::3].transpose(0, 1).long())

# ---- advanced indexing keeps self's memory order (ATen's index kernel is a TensorIterator over self
# restrided), so a later sum adds in torch's order (torchfuzz seed 2212: 1700) ----
x = torch.randn(4, 5, 6)
for name, f in [("T", lambda: x.transpose(0,2)[[0,1]]), ("T mid", lambda: x.transpose(0,2)[:, [0,1]]), ("perm last", lambda: x.permute(1,2,0)[..., [0,1,3]]),
                ("2idx", lambda: x.transpose(0,1)[[0,1],[1,2]]), ("2d idx", lambda: x.transpose(0,2)[torch.tensor([[0,1],[2,3]])]),
                ("slice", lambda: x[:, ::2][[1,0]]), ("contig", lambda: x[[1,0]]), ("contig mid", lambda: x[:, [1,0]]),
                ("exp", lambda: torch.randn(4,1,6).expand(4,5,6)[:, [1,0]]), ("bool", lambda: x.transpose(0,2)[torch.tensor([True,False,True,True,False,True])]),
                ("2d idx T", lambda: x.transpose(0,2)[torch.tensor([[0,1],[2,3]]).T]), ("unsq", lambda: x.transpose(0,2).unsqueeze(0)[:, [1]])]:
    r = f(); print(name, tuple(r.shape), r.stride())
torch.manual_seed(852829)
t13785 = torch.tensor([[0.86, -1.05, -2.0], [-0.12236850033958668, 0.0, -3.0], [-0.26906557250086527, -3.652, 0.5]])
print(torch.stack([t13785, t13785, t13785], 2).permute(0, 2, 1).unsqueeze(1)[[0, -1]].sum().item())
y = torch.randn(3, 20, 7) * 3
for name, v in [("T", y.transpose(0, 2)[[0, 2, 5]]), ("mid", y.permute(2, 1, 0)[:, [1, 3]]), ("last", y.transpose(1, 2)[..., [0, 4, 9, 19]])]:
    print(name, v.stride(), v.sum().item(), repr(v.sum(0).flatten().tolist()[:6]))
# ---- sum / mean over several dims at once, and prod: one TensorIterator reduction over each layout ----
# (prod: binary_kernel_reduce_vec, a contiguous reduced dim in blocks of 4 x 8 lanes, an outer one by columns)
torch.manual_seed(2)
pbase = torch.rand(2, 3, 40) + 0.55
players = [("contiguous", pbase), ("transpose(0, 2)", pbase.transpose(0, 2)), ("permute(2, 0, 1)", pbase.permute(2, 0, 1)),
           ("sliced", pbase[:, 1:3, ::2]), ("expanded", (torch.rand(1, 3, 1) + 0.5).expand(2, 3, 40)),
           ("long rows", torch.rand(3, 70) + 0.5), ("long columns", torch.rand(70, 40) + 0.5)]
for name, t in layouts[:6] + layouts[-2:]:
    print(name, "sum (0, 2)", bits(t.sum((0, 2))), "mean [0, -1] keepdim", bits(t.mean(dim=[0, -1], keepdim=True)),
          "sum (2, 1)", bits(t.sum((2, 1))), "mean (1, 0)", bits(t.mean((1, 0))))
for name, t in players:
    print(name, "prod", bits(t.prod()), [bits(t.prod(d)) for d in range(t.dim())], tuple(t.prod(0, keepdim=True).shape))
for f in (lambda: pbase.sum((0, 0)), lambda: pbase.mean((1, -2)), lambda: pbase.sum((0, 5)), lambda: torch.tensor(1.0).sum((0, -1)),
          lambda: pbase.prod((0, 1)), lambda: pbase.prod(3), lambda: torch.arange(6).mean((0,))):
    try:
        print(f())
    except Exception as e:
        print("!", type(e).__name__, e)
ints = torch.arange(-5, 19).reshape(2, 3, 4)
print(ints.sum((0, 2)), (ints > 3).sum((-1, 0), keepdim=True), ints.prod(), ints.prod(1), (ints > -9).prod(), (ints > 0).prod(0),
      ints.prod(1, dtype=torch.float32), (ints - 3).prod(1, dtype=torch.bool), torch.tensor([[9e18, 3]]).long().prod(1))
print(torch.zeros(0, 3).sum((0, 1)), torch.zeros(0, 3).mean((0, 1)), torch.zeros(0, 3).prod(), torch.zeros(0, 3).prod(0),
      torch.tensor(2.5).prod(0), torch.tensor(True).prod(0, keepdim=True))
# gradients: SumBackward1 / MeanBackward1 put the dims back; ProdBackward0/1 as prod_backward, zeros included
g3 = torch.randn(2, 3, 4, requires_grad=True)
(g3.sum((0, 2)) * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
m3 = g3.mean([2, 0], keepdim=True)
m3.backward(torch.randn(1, 3, 1))
print(m3.grad_fn.name(), g3.grad.flatten().tolist())
for shape, dim, keep in [((3, 5), None, False), ((3, 5), 1, False), ((4, 3), 0, True), ((2, 3, 4), 1, False), ((), None, False),
                         ((), 0, False), ((6,), 0, False), ((40,), None, False)]:
    for zeros in (0, 1, 2):
        torch.manual_seed(len(shape) * 10 + zeros)
        a = torch.randn(shape)
        if zeros and a.dim() > 0:
            a.view(-1)[1] = 0.0
            if zeros > 1:
                a.view(-1)[-1] = -0.0
        a.requires_grad_()
        y = a.prod() if dim is None else a.prod(dim, keepdim=keep)
        y.backward(torch.randn(y.shape))
        print(shape, dim, keep, zeros, y.grad_fn.name(), bits(y.detach()), bits(a.grad))

# ---- norm of views: each output's elements in TensorIterator's order, the p = 2 fast path only where the
# reduction coalesces to one contiguous dim (else the serial NormTwoOps; torchfuzz seed 31337) ----
nb = torch.randn(3, 3, 3, 4)
for name, t in layouts[:6] + [("narrowed 4-d", nb[1:].narrow(-3, 0, 1)), ("permuted 4-d", nb.permute(2, 0, 3, 1)), ("column", torch.randn(3, 1))]:
    print(name, bits(t.norm()), [bits(t.norm(p, d)) for p in (2, 1, 3) for d in range(t.dim())], bits(t.norm(1)), bits(t.norm(float("inf"))))

# ---- sums of views with several outer blocks (DimCounter: the fastest outer dim first) and over size-1 dims
# only (cascade_sum's "not a true reduction": out + in element by element) ----
torch.manual_seed(3)
e1 = torch.rand(3, 5, 1, 3, 3).expand(2, 3, 5, 2, 3, 3)
e2 = torch.rand(3, 1, 9).expand(2, 3, 4, 9)
e3 = torch.stack([torch.rand(5, 1, 3, 3)] * 3, 0).expand(2, 3, 5, 2, 3, 3)
print(bits(e1.sum()), bits(e1.sum((0, 3))), bits(e2.sum()), bits(e2.mean()), bits(e3.sum()), bits(e2.sum((0, 2))))
p1 = torch.randn(3, 4, 1, 1).permute(0, 2, 3, 1)
p2 = torch.randn(3, 1, 3, 4, 1).permute(0, 1, 3, 2, 4)
p3 = torch.randn(3, 1, 4).expand(3, 1, 4)[:, :, ::2]
print(bits(p1.sum(2)), bits(p1.sum((2, 1))), bits(p2.sum(4)), bits(p2.mean((1, 4), keepdim=True)), bits(p3.sum(1)), bits(p1.prod(1)))

# torchfuzz seed 4242: flip's result keeps its input's memory order (ATen's empty_like), so a sum of it adds in torch's order
torch.manual_seed(4242)
for t in (torch.randn(3, 8).t(), torch.randn(8, 3)[:, ::2], torch.randn(8, 3).t().unsqueeze(0).expand(2, 3, 8), torch.randn(2, 3, 4).permute(2, 0, 1),
          torch.randn(3, 1, 4, 2).squeeze(-2).reshape((-1, 3)).movedim(1, 0)):
    f = t.flip(-2)
    print(f.stride(), f.is_contiguous(), f.flip(0).stride(), f.sum().item(), f.sum(0).tolist()[:2])

# torchfuzz seed 4242: argsort's indices are laid out as sort's
for t in (torch.zeros((2, 2)).transpose(1, -2).view(2, -1).movedim(0, -2), torch.arange(12.0).reshape(3, 4).t(), torch.randn(2, 3, 4).permute(1, 2, 0)):
    for d in (-1, 0):
        i = t.argsort(d)
        print(i.stride(), i.is_contiguous(), i.tolist() == t.sort(d)[1].tolist())

# ---- gradients through broadcasting with non-contiguous intermediates: each backward formula's result
# (g * other, -g, g * y, ...) in the layout TensorIterator gives it, so the engine's sum_to adds in torch's
# order. A fixed generator over shapes, permutations, operators and unary ops (before: ~20% differed) ----
torch.manual_seed(20)
state = [12345]


def pick(seq):
    state[0] = (state[0] * 1103515245 + 12345) % 2147483648
    return seq[(state[0] >> 8) % len(seq)]


unaries = [lambda z: z.exp(), torch.sigmoid, torch.tanh, torch.sin, torch.cos, torch.abs, torch.reciprocal, torch.neg,
           lambda z: z * 2.5, lambda z: z / 3.0, lambda z: 1.5 - z, torch.sqrt, torch.rsqrt, torch.erf, torch.log]
binaries = [torch.add, torch.sub, torch.mul, torch.div]
for case in range(120):
    nd = pick([2, 3, 3, 4])
    full = [pick([1, 2, 3, 5, 8, 9, 17]) for _ in range(nd)]
    lead = pick(range(nd))
    xs = [s if pick([0, 1]) else 1 for s in full[lead:]]
    ys = [s if pick([0, 1, 1]) else 1 for s in full]
    perm = sorted(range(nd), key=lambda d: pick(range(100)))
    yperm = sorted(range(nd), key=lambda d: pick(range(100)))
    x = torch.rand(xs, requires_grad=True)
    y0 = torch.rand([ys[yperm.index(d)] for d in range(nd)], requires_grad=True)
    y = y0.permute(yperm)
    z = pick(unaries)(pick(binaries)(x, y).permute(perm) + 0.5)
    end = pick([0, 1, 2])
    if end == 0:
        loss = (z * torch.randn(z.shape)).sum()
    elif end == 1:
        loss = z.mean()
    else:
        loss = (z.sum(-1) * 1.5).sum()
    loss.backward()
    print(case, x.grad.flatten().tolist(), y0.grad.sum().item())

# ---- empty results keep compatible_stride's layout (zeros after a size-0 dim; torchfuzz seed 4242) ----
for name, f in [("floordiv", lambda: torch.randint(-5, 6, (2, 0, 1)) // -2),
                ("add alpha", lambda: torch.add(torch.full((4, 1), 0), torch.arange(0).reshape((3, 0, 4)).transpose(1, 2)[2], alpha=2)),
                ("add", lambda: torch.zeros(2, 0, 3) + 1), ("t mul", lambda: torch.zeros(0, 3).t() * 2), ("bcast", lambda: torch.zeros(3, 0) + torch.zeros(1, 0)),
                ("exp", lambda: torch.zeros(2, 0, 3).exp()), ("transposed", lambda: torch.zeros(2, 0, 3).transpose(0, 2) + 1),
                ("permuted mul", lambda: torch.zeros(0, 2, 3).permute(2, 0, 1) * torch.zeros(3, 1, 2)), ("eq", lambda: torch.zeros(2, 0, 3) == 0),
                ("sum", lambda: torch.zeros(5, 0).sum(0)), ("clone", lambda: torch.zeros(2, 0, 3).transpose(0, 1).clone()),
                ("cast", lambda: torch.zeros(2, 0, 3, dtype=torch.long).transpose(0, 2).float()), ("mm", lambda: torch.zeros(3, 0) @ torch.zeros(0, 4)),
                ("where", lambda: torch.where(torch.zeros(2, 0, 1, dtype=torch.bool), torch.zeros(1, 0, 3), 1.0)), ("neg t", lambda: -torch.zeros(0, 2).t()),
                ("maximum", lambda: torch.maximum(torch.zeros(2, 0), torch.zeros(1, 0)))]:
    show(name, f)

# ---- cat of inputs all laid out channels-last (4-d, 5-d) is channels-last, and stack (cat, then a view) with it ----
cl = torch.randn(5, 3, 3, 5).permute(0, 3, 1, 2)
c5 = torch.randn(2, 3, 4, 5, 6).permute(0, 4, 1, 2, 3)
for name, f in [("cat cl -1", lambda: torch.cat((cl, cl), -1)), ("cat cl 0", lambda: torch.cat((cl, cl), 0)), ("cat cl 1", lambda: torch.cat((cl, cl), 1)),
                ("cat cl + contig", lambda: torch.cat((cl, cl.contiguous()), 1)), ("cat contig + cl", lambda: torch.cat((cl.contiguous(), cl), 1)),
                ("cat cl3d", lambda: torch.cat((c5, c5), 2)), ("cat cl bool |", lambda: torch.cat((cl > 0, cl > 0), -1) | torch.tensor(True)),
                ("stack cl 0", lambda: torch.stack((cl, cl), 0)), ("stack cl 2", lambda: torch.stack((cl, cl), 2)), ("stack cl 4", lambda: torch.stack((cl, cl), 4)),
                ("cat 1x", lambda: torch.cat((torch.randn(1, 3, 1, 1).permute(0, 2, 3, 1),) * 2, 0)),
                ("cat n1", lambda: torch.cat((torch.randn(2, 1, 3, 4).permute(0, 2, 3, 1),) * 2, 1)), ("cat one", lambda: torch.cat((cl,), 3)),
                ("cat empty", lambda: torch.cat((torch.randn(5, 3, 0, 5).permute(0, 3, 1, 2), cl[:, :, :0]), 2))]:
    show(name, f)
r = torch.cat((cl, cl * 2), 1)
print(r.sum(1).tolist()[0][0], bits(r.sum()), torch.stack((cl, cl), 1).sum((0, 2)).tolist()[0])

# torchfuzz seed 4242: stack below the last dim of inputs whose unsqueezed parts look channels-last keeps its values
# (the view of a contiguous cat); in place on an empty result whose strides hold zeros is allowed
t = torch.randint(-5, 6, (4, 5, 2)).transpose(2, 1)
s = torch.stack([t, t * 2, t * 3], 2)
print(s.stride(), s[:, 1].tolist(), (torch.randint(-5, 6, (2, 3, 1)) != s)[:, 1].sum().item())
e = torch.linspace(-5, 1, 0).reshape((3, 0, 1)).requires_grad_(True) * 1.0
print(e.stride(), e.exp_().shape, torch.zeros(2, 0, 3).transpose(0, 2).add(1).mul_(2).stride())

# torchfuzz seed 91726: 2-D @ 3-D is 1.13's transposed fold, (b^T @ a^T).mT().contiguous(); where a
# size is 1 the transposed view is already contiguous and is returned, strides and grad_fn included
a = torch.tensor([[[1e-08, 0.64, 0.85], [-3.957, -2.0, -0.37]]])[:, 1].sin()   # (1, 3), strides (6, 1)
b = torch.arange(9.).reshape(1, 3, 3) / 7                                       # (1, 3, 3)
print((a @ b).stride(), (a @ b).is_contiguous(), (a.t() @ b[:, :1]).stride(), (torch.ones(2, 3) @ b).stride())
w = torch.zeros((1, 5, 5), requires_grad=True)
r = w[:, 1] @ torch.arange(15.0).reshape((1, 5, 3))   # (1, 1, 3)
print(type(r.grad_fn).__name__, r.stride(), (torch.ones(2, 5) @ w).grad_fn.name(), (torch.ones(2, 5) @ w).stride())
r.sum().backward()
print(w.grad[0, 1])


# ---- mm's gradient for a column-major mat2 (a Linear's weight.t()) is (grad.t() @ mat1).t(), as
# mm_mat2_backward computes it: the weight's gradient then arrives contiguous (no transposing copy) ----
w = torch.randn(3, 4, requires_grad=True)
x = torch.randn(6, 4)
wt = w.t()
g = torch.autograd.grad((x @ wt).sum(), wt)[0]
print("grad of w.t() in x @ w.t()", g.stride(), g.is_contiguous(), g.tolist()[0])
x3 = torch.randn(2, 6, 4)
g = torch.autograd.grad((x3 @ wt).sum(), wt)[0]
print("grad of w.t() in x3 @ w.t()", g.stride(), g.is_contiguous(), g.tolist()[0])
b = torch.randn(4, 3, requires_grad=True)
g = torch.autograd.grad((x @ b).sum(), b)[0]
print("grad of a row-major mat2", g.stride(), g.is_contiguous())
lin = torch.nn.Linear(4, 3)
lin(x3).sum().backward()
print("Linear weight grad", lin.weight.grad.stride(), lin.weight.grad.tolist()[1])
# issue 20: F.hardtanh and F.relu6 write into empty_like(input) (1.13's at::hardtanh): an empty view keeps
# its own strides, a dense one too, a sliced one its memory order; clamp is TensorIterator's (contiguous)
import torch.nn.functional as F
for v in [torch.zeros(3, 0, 4).transpose(0, 2), torch.zeros(4, 0).t(), torch.zeros(2, 3, 0)[:, ::2],
          torch.zeros(0, 3).expand(2, 0, 3), torch.arange(12.).reshape(3, 4).t(), torch.arange(24.).reshape(4, 6)[:, ::2].t()]:
    print(v.stride(), F.hardtanh(v).stride(), F.relu6(v).stride(), torch.nn.ReLU6()(v).stride(), v.clamp(0, 1).stride(),
          F.hardtanh(v, -2., 3.).tolist() == v.clamp(-2., 3.).tolist())
g = torch.zeros(3, 0, 4).transpose(0, 2).requires_grad_()
print(F.hardtanh(g).stride(), F.hardtanh(g).grad_fn.name())
