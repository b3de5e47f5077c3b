# named_ops.py: the named forms of the arithmetic and comparison operators as tutorials write
# them (torch.add(x, y, alpha=2), x.mul(2), x.eq(0), x.div(y, rounding_mode='floor')), the
# in-place unary forms (exp_, sqrt_, ...), rounding and sign, clamp_min/clamp_max, cumsum,
# logsumexp, mm / mv / outer: values, dtypes, grad_fn and gradients as Debian's torch 1.13 prints them.
import torch

torch.manual_seed(0)
torch.set_printoptions(precision=8)

x = torch.randn(3, 4)
y = torch.randn(3, 4)
i = torch.tensor([[7, -3, 0, 5], [-8, 2, 9, -1]])
j = torch.tensor([[2, 2, -4, 3], [3, -5, 1, 2]])

# add / sub / mul / div: function, method, keywords, numbers, ints, alpha
print(torch.add(x, y))
print(x.add(y, alpha=2))
print(torch.add(x, 1.5, alpha=2))
print(torch.sub(x, y, alpha=0.5))
print(x.sub(1))
print(torch.subtract(x, y))
print(i.add(j, alpha=3), i.sub(j, alpha=-2))
print(torch.add(x[0], y, alpha=-1.25))
print(x.mul(2), torch.mul(x, y), torch.multiply(i, j))
print(x.div(3), torch.div(x, y), torch.divide(i, j), i.true_divide(j))
print(torch.div(x * 10, y, rounding_mode='floor'), torch.div(x * 10, y, rounding_mode='trunc'))
print(torch.div(i, j, rounding_mode='floor'), i.div(j, rounding_mode='trunc'), i.div(4, rounding_mode='floor'))
print(torch.floor_divide(i, j), i.floor_divide(3), torch.remainder(i, j), i.remainder(-3), torch.remainder(10, j))
print(torch.remainder(x * 10, 3.0))
print(torch.neg(x), x.neg(), i.negative(), torch.negative(i))

# comparisons and their aliases
print(x.eq(0), torch.eq(i, j), i.ne(0), torch.ne(i, 2))
print(x.gt(y), torch.lt(x, 0.5), i.ge(j), i.le(2))
print(torch.greater(x, y), x.less(y), torch.greater_equal(i, 0), i.less_equal(j), x.not_equal(y))

# logical and bitwise
b = x > 0
c = y > 0
print(torch.logical_and(b, c), b.logical_or(c), torch.logical_xor(b, c), i.logical_xor(x[:2]))
print(torch.logical_and(i, x[:2]), i.logical_or(0 * j))
print(torch.bitwise_and(i, j), i.bitwise_or(j), torch.bitwise_xor(b, c), i.bitwise_and(6), torch.bitwise_not(i), b.bitwise_not())

# gradients through the named forms
w = torch.randn(3, 4, requires_grad=True)
v = torch.randn(4, requires_grad=True)
out = torch.add(w, v, alpha=3)
print(out.grad_fn.name())
out2 = w.sub(v, alpha=0.5)
print(out2.grad_fn.name())
(out * torch.randn(3, 4)).sum().backward()
print(w.grad, v.grad)
w.grad = None
v.grad = None
(out2 * torch.randn(3, 4)).sum().backward()
print(w.grad, v.grad)
w.grad = None
d = torch.div(w, 2.5, rounding_mode='floor')
print(d.grad_fn.name(), torch.div(w, v, rounding_mode='trunc').grad_fn.name())
d.sum().backward()
print(w.grad)
print(w.mul(v).grad_fn.name(), w.div(v).grad_fn.name(), w.neg().grad_fn.name(), torch.true_divide(w, 2).grad_fn.name())

# in-place unary forms
for name in ("exp_", "sqrt_", "abs_", "neg_", "log_", "rsqrt_", "tanh_", "sin_", "cos_", "reciprocal_", "erf_",
             "floor_", "ceil_", "trunc_", "round_"):
    z = torch.rand(5) + 0.5
    r = getattr(z, name)()
    print(name, r is z, z)
z = torch.rand(4)
z.pow_(2)
print(z)
z.pow_(torch.tensor([1.0, 2.0, 0.5, 3.0]))
print(z)
leaf = torch.rand(4, requires_grad=True)
h = leaf * 2
h.exp_()
print(h.grad_fn.name())
h.sum().backward()
print(leaf.grad)
try:
    leaf.exp_()
except RuntimeError as e:
    print("RuntimeError:", e)

# rounding, sign, frac, square, clamp_min/clamp_max
r = torch.tensor([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 1.2345, -7.89, float('nan'), float('inf'), -0.0])
print(torch.floor(r), r.ceil(), torch.trunc(r), r.round(), torch.round(r * 100, decimals=-2), r.round(decimals=2))
print(torch.sign(r), r.frac(), torch.square(r), i.square(), i.sign(), torch.fix(r))
print(torch.clamp_min(x, 0), x.clamp_max(0.25), torch.clamp_min(i, 1), x.clamp_min(y))
g = torch.randn(5, requires_grad=True)
for f in (torch.floor, torch.ceil, torch.round, torch.trunc, torch.sign, torch.frac, torch.square):
    o = f(g)
    print(o.grad_fn.name())
print(torch.clamp_min(g, 0).grad_fn.name(), g.clamp_max(0).grad_fn.name())

# cumsum and logsumexp
print(torch.cumsum(x, dim=1), x.cumsum(0), i.cumsum(-1), b.cumsum(0), x.cumsum(1, dtype=torch.float32))
print(torch.logsumexp(x, dim=1), x.logsumexp(0, keepdim=True), torch.logsumexp(i, 1))
print(torch.logsumexp(torch.tensor([[float('inf'), 1.0], [float('-inf'), float('-inf')]]), 1))
q = torch.randn(4, 6, requires_grad=True)
cs = q.cumsum(1)
lse = torch.logsumexp(q, dim=-1)
print(cs.grad_fn.name(), lse.grad_fn.name())
(cs * torch.randn(4, 6)).sum().backward()
print(q.grad)
q.grad = None
(lse * torch.randn(4)).sum().backward()
print(q.grad)

# mm, mv, outer
m1 = torch.randn(3, 5, requires_grad=True)
m2 = torch.randn(5, 2, requires_grad=True)
vec = torch.randn(5, requires_grad=True)
p = torch.mm(m1, m2)
print(p, p.grad_fn.name())
print(m1.mv(vec), torch.mv(m1, vec).grad_fn.name())
print(torch.outer(vec, torch.arange(3.0)), vec.outer(vec).grad_fn.name())
p.sum().backward()
print(m1.grad, m2.grad)
bad = {"torch.mm(m1, vec)": lambda: torch.mm(m1, vec), "torch.mm(m1, m1)": lambda: torch.mm(m1, m1),
       "torch.outer(m1, vec)": lambda: torch.outer(m1, vec),
       "torch.div(x, y, rounding_mode='round')": lambda: torch.div(x, y, rounding_mode='round'),
       "i.add(j, alpha=0.5)": lambda: i.add(j, alpha=0.5), "torch.neg(b)": lambda: torch.neg(b)}
for text, f in bad.items():
    try:
        f()
    except RuntimeError as e:
        print(text, "->", e)

# cumprod, argsort, count_nonzero, isfinite, isclose, nan_to_num, trace
cp = (torch.rand(3, 4) + 0.5).requires_grad_()
o = torch.cumprod(cp, dim=1)
print(o, o.grad_fn.name(), i.cumprod(0), b.cumprod(1))
(o * torch.randn(3, 4)).sum().backward()
print(cp.grad)
print(torch.argsort(x, dim=1), x.argsort(dim=0, descending=True), torch.argsort(i, stable=True, dim=-1))
print(torch.count_nonzero(i), i.count_nonzero(dim=1), torch.count_nonzero(b, dim=(0, 1)))
e = torch.tensor([1.0, float('nan'), float('inf'), -float('inf'), 0.0, 1e-9])
print(torch.isfinite(e), i.isfinite())
print(torch.isclose(e, e), torch.isclose(e, e, equal_nan=True), e.isclose(e + 1e-6, atol=1e-5), torch.isclose(i, j))
print(torch.nan_to_num(e), e.nan_to_num(nan=2.0, posinf=9.0), torch.nan_to_num(e, neginf=-1.0))
en = e.clone().requires_grad_()
nn_out = torch.nan_to_num(en)
nn_out.sum().backward()
print(nn_out.grad_fn.name(), en.grad)
tm = torch.randn(4, 3, requires_grad=True)
tr = torch.trace(tm)
print(tr, tr.grad_fn.name(), torch.trace(i[:, :2]))
tr.backward()
print(tm.grad)

# amin, diag
am = torch.tensor([[1.0, -2.0, -2.0], [0.5, 3.0, 0.5]], requires_grad=True)
ao = torch.amin(am, dim=1)
print(ao, ao.grad_fn.name(), am.amin(), am.amin(0, keepdim=True), i.amin(dim=1), torch.amin(i))
(ao * torch.tensor([2.0, -1.0])).sum().backward()
print(am.grad)
dv = torch.randn(3, requires_grad=True)
print(torch.diag(dv), torch.diag(dv, 1), dv.diag(-2), torch.diag(x), x.diag(1), torch.diag(i, -1))
do = torch.diag(dv, 1)
print(do.grad_fn.name())
(do * torch.randn(4, 4)).sum().backward()
print(dv.grad)
dm = torch.randn(3, 4, requires_grad=True)
torch.diag(dm, -1).sum().backward()
print(dm.grad)

# Tensor.where
wx = torch.randn(3, requires_grad=True)
wo = wx.where(wx > 0, torch.zeros(3))
print(wo, wo.grad_fn.name(), x.where(x > 0, torch.tensor(0.5)), i.where(i > 0, j))
try:
    x.where(x > 0, 0.5)
except TypeError as e:
    print("TypeError:", e)
wo.sum().backward()
print(wx.grad)
