# The torch findings of review 29 (issue 20), as PyTorch 1.13 prints them. #3: an in-place write
# through a view taken before t_()/transpose_() of its base (CopySlices rebuilds the base in the
# layout it has now), the base's other views refreshed after such a write (AsStridedBackward0),
# `_base` after the base's layout moved. #1: tensor ** tensor over dense permuted layouts (Sleef
# over the coalesced run), pow_ on a permuted, narrowed or stepped self. #2: unary ops of expand()ed
# inputs (each row its own vectorised run), their gradients. #10: x[0:n] = v (CopyBackwards).
# #7: a[:, 1:] += a[:, :-1] and other in-place ops over a source overlapping self (TOO_HARD).
# Errors are printed as "Type - message"; grad_fns by name (their addresses differ).
import torch


def show(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + " -", e)


def name(t):
    return type(t.grad_fn).__name__ if t.grad_fn is not None else None


# ---- review 29 #3: a view taken before its base's t_() / transpose_(), then written ----
def relaid(shape, make_view, move, write):
    w = torch.arange(1., 1. + torch.Size(shape).numel()).view(shape).requires_grad_()
    b = w * 1
    c = make_view(b)
    move(b)
    write(c)
    print(name(b), tuple(b.shape), b.stride(), name(c), c._base is b, tuple(c._base.shape))
    weights = torch.arange(float(b.numel())).view(b.shape)
    (b * weights).sum().backward()
    print(b.detach())
    return w.grad


views = [("row", lambda b: b[0]), ("col", lambda b: b[:, 1]), ("slice", lambda b: b[1:, :2]),
         ("unsqueeze", lambda b: b.unsqueeze(0)), ("view-of-view", lambda b: b[1:][:, 1:]),
         ("transpose", lambda b: b.transpose(0, 1)[0]), ("permute", lambda b: b.permute(1, 0)[1:])]
moves = [("t_", lambda b: b.t_()), ("transpose_", lambda b: b.transpose_(1, 0)),
         ("t_ twice", lambda b: b.t_().t_())]
writes = [("mul_", lambda c: c.mul_(2)), ("add_", lambda c: c.add_(torch.ones(c.shape[-1]))),
          ("setitem", lambda c: c.__setitem__(0, 7.)), ("zero_", lambda c: c.zero_()),
          ("copy_", lambda c: c.copy_(torch.full(c.shape, 3.)))]
for shape in ((3, 3), (2, 3)):
    for vn, v in views:
        for mn, m in moves:
            print(shape, vn, mn)
            show(lambda: relaid(shape, v, m, writes[0][1]))
    for wn, wr in writes[1:]:
        print(shape, wn)
        show(lambda: relaid(shape, views[0][1], moves[1][1], wr))

# a 3-d base, transpose_ of two dims, a view of a middle slice
w = torch.randn(2, 3, 4, requires_grad=True)
b = w * 1
c = b[:, 1]
b.transpose_(0, 2)
c.mul_(torch.arange(4.).view(1, 4))
(b * torch.arange(24.).view(4, 3, 2)).sum().backward()
print(w.grad)

# the view written first, then the base moved, then another view written
w = torch.ones(3, 3, requires_grad=True)
b = w * 1
c, d = b[0], b[:, 2]
c.mul_(2)
b.t_()
d.mul_(3)
print(b, name(c), name(d))
(b * torch.arange(9.).view(3, 3)).sum().backward()
print(w.grad)

# a view refreshed after the moved base is written: AsStridedBackward0 in the base's new layout
w = torch.ones(2, 3, requires_grad=True)
b = w * 1
c = b[1]
b.t_()
b.mul_(torch.arange(6.).view(3, 2))
print(name(c), c)
(c * torch.tensor([1., 10., 100.])).sum().backward()
print(w.grad)

# _base after the base was moved and dropped
b = torch.arange(6.).view(2, 3) * 1
c = b[0]
b.t_()
del b
print(c._base, c._base.stride())

# ---- review 29 #1: tensor ** tensor on dense permuted layouts (one coalesced run of Sleef), an
# integer base cast in its layout, pow_ on a permuted/narrowed/stepped self ----
torch.manual_seed(0)


def bits(t):
    return t.flatten().tolist()


base = torch.rand(16, 5, 2) * 3
ex = torch.rand(16, 5, 2) * 2
cases = {
    "permute": (base.permute(2, 1, 0), ex.permute(2, 1, 0)),
    "T-2d": (base.reshape(20, 8).T, ex.reshape(20, 8).T),
    "mixed": (base.permute(2, 1, 0), ex.permute(2, 1, 0).contiguous()),
    "transpose-01": (base.transpose(0, 1), ex.transpose(0, 1)),
    "0d-exp": (base.permute(2, 1, 0), torch.tensor(2.7)),
    "0d-base": (torch.tensor(1.7), ex.permute(2, 0, 1)),
    "bcast-row": (base.permute(2, 1, 0), ex[0, :, 0].view(1, 5, 1)),
    "bcast-col": (base.reshape(20, 8).T, ex.reshape(160)[:20]),
    "sliced": (base[::2].permute(2, 1, 0), ex[::2].permute(2, 1, 0)),
    "expanded": (base[:1].expand(16, 5, 2).permute(2, 1, 0), ex.permute(2, 1, 0)),
    "int-base": ((base * 3).long().permute(2, 1, 0), ex.permute(2, 1, 0)),
    "size17": (torch.rand(17, 3).T * 3, torch.rand(17, 3).T),
}
for k, (a, e) in cases.items():
    r = a ** e
    print(k, tuple(r.shape), r.stride(), bits(r))
print("rpow", bits(2.5 ** ex.permute(2, 1, 0)))
print("torch.pow", bits(torch.pow(base.permute(1, 0, 2), ex.permute(1, 0, 2))))
a = base.permute(2, 1, 0).clone().requires_grad_()
e = ex.permute(2, 1, 0).clone().requires_grad_()
(a ** e).sum().backward()
print("grad", bits(a.grad), bits(e.grad))
x = base.permute(2, 1, 0).clone()
x.pow_(ex.permute(2, 1, 0))
print("pow_", x.stride(), bits(x))
for name_, sl in (("step", lambda t: t[::4]), ("narrow", lambda t: t[:, :17]), ("T", lambda t: t.T)):
    x = torch.rand(40, 32) * 2
    v = sl(x)
    v.pow_(sl(torch.rand(40, 32)))
    print("pow_", name_, bits(v))
    w = sl(torch.rand(40, 32) + 0.5)
    w.pow_(1.3)
    print("pow_s", name_, bits(w))

# ---- review 29 #2: unary ops of expand()ed inputs: a stride-0 dim is not sorted innermost, so
# each row is its own vectorised run (and a stride-0 inner dim is vectorised too) ----
import torch.nn.functional as F
torch.manual_seed(3)
ops = {
    "gelu": F.gelu, "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"), "sigmoid": torch.sigmoid,
    "silu": F.silu, "tanh": torch.tanh, "erf": torch.erf, "exp": torch.exp, "pow2.5": lambda x: x.abs() ** 2.5,
    "sigmoid_": lambda x: x.clone().sigmoid_(), "tanh_": lambda x: x.clone().tanh_(),
}
layouts = {}
for n in (17, 21, 33):
    layouts["rows%d" % n] = (torch.randn(1, n) * 3).expand(4, n)
    layouts["cols%d" % n] = (torch.randn(n, 1) * 3).expand(n, 3)
b = torch.randn(13, 7, 3) * 2
layouts["3d"] = b[:1].expand(4, 7, 3)
layouts["3d-mid"] = b[:3, :1].expand(3, 5, 3)
layouts["perm"] = b[:3].permute(2, 0, 1)
layouts["T"] = torch.randn(9, 5).T * 2
for on, f in ops.items():
    for ln, x in layouts.items():
        print(on, ln, bits(f(x)))
for on in ("gelu", "gelu_tanh", "sigmoid", "silu", "tanh"):
    for ln in ("rows17", "rows33", "cols21", "3d"):
        leaf = layouts[ln].clone().requires_grad_()
        x = leaf[:1].expand(layouts[ln].shape) if ln.startswith("rows") or ln == "3d" else leaf[:, :1].expand(layouts[ln].shape)
        (ops[on](x) * torch.arange(float(x.numel())).view(x.shape)).sum().backward()
        print("grad", on, ln, bits(leaf.grad))

# ---- review 29 #10: x[0:n] = v writes x itself (setitem's applySlice shortcut on the key as written):
# CopyBackwards / FillBackward3, where x[:], x[-n:], x[0:n+7] are slices (CopySlices) ----
keys = [slice(0, 3), slice(None, 3), slice(None), slice(0, 10), slice(-3, None), slice(None, None, 1), slice(0, 3, 1),
        (slice(0, 3), slice(0, 2)), (Ellipsis, slice(0, 2)), (slice(0, 3), Ellipsis), (slice(0, 3), slice(None)),
        (slice(0, 3), 1), (slice(0, 3), None), Ellipsis, (slice(0, 3), slice(0, 2), Ellipsis), (slice(None, 3), slice(None, 2))]
for k in keys:
    for v in ("t", 2.0, "0d"):
        w = torch.ones(3, 2, requires_grad=True)
        b = w * 2
        val = b[k] * 3 if v == "t" else (torch.tensor(4.) if v == "0d" else v)
        b[k] = val
        b.sum().backward()
        print(k, v, type(b.grad_fn).__name__, b.grad_fn.next_functions[0][0].__class__.__name__ if b.grad_fn.next_functions else None, w.grad.tolist())
w = torch.ones(3, 2, requires_grad=True)
b = w * 2
b[()] = b * 2
print(type(b.grad_fn).__name__)
x = torch.zeros(2, 3)
x[0:2] = torch.ones(3)
x[0:2, 0:3] = 5
print(x)
try:
    x[0:2, 0:3, 0:1] = 1
except Exception as e:
    print(type(e).__name__, e)
try:
    x[0:2] = torch.ones(4)
except Exception as e:
    print(type(e).__name__, e)
v = x[0]
x[0:2] = 7
print(v, x._version)

# ---- review 29 #7: an in-place op whose source shares self's storage in a way get_overlap_status calls
# TOO_HARD: no copy, TensorIterator's loop reads what it wrote (16 at a time in a vector body) ----
for n in (6, 19, 40):
    for op in ("add_", "sub_", "mul_", "div_", "copy_"):
        a = torch.arange(2. * n).reshape(2, n) / 7 + 1
        getattr(a[:, 1:], op)(a[:, :-1])
        print(n, op, a.flatten().tolist())
a = torch.arange(36.).reshape(6, 6)
a[0] += a[:, 0]
print("row+=col", a[0].tolist())
a = torch.arange(36.).reshape(6, 6)
a[:, 0] += a[0]
print("col+=row", a[:, 0].tolist())
a = torch.arange(60.).reshape(3, 20)
a.T[1:] += a.T[:-1]
print("T", a.flatten().tolist())
a = torch.arange(120.).reshape(2, 3, 20)
a[:, :, 2:] -= a[:, :, :-2]
print("3d", a.flatten().tolist())
a = torch.arange(12.).reshape(2, 6)
a[:, :-1] = a[:, 1:]
print("shift-left", a.flatten().tolist())
a = torch.arange(12.).reshape(2, 6)
a[:, 1:] = a[:, :-1]
print("shift-right", a.flatten().tolist())
for dt in (torch.int64, torch.int32, torch.uint8):
    a = torch.arange(12, dtype=dt).reshape(2, 6) * 30
    a[:, 1:] += a[:, :-1]
    a[:, 2:] *= a[:, :-2]
    print("int", dt, a.flatten().tolist())
w = torch.ones(2, 6, requires_grad=True)
a = w * torch.arange(12.).reshape(2, 6)
a[:, 1:] *= a[:, :-1]
print("grad", a.flatten().tolist(), type(a.grad_fn).__name__)
a = torch.arange(12.).reshape(2, 6)
try:
    a[1:] += a[:-1]
    print(a)
except Exception as e:
    print(type(e).__name__, e)
