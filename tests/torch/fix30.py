# Issue 20's known open items, as PyTorch 1.13 prints them. #1: x.__class__ of tensors, Parameters,
# modules, dtypes, devices, torch.Size and optimizers is type(x), with its name, qualname, module
# and repr. #2: index_put_ (x[idx] = v, x[mask] = v, Tensor.index_put_) refuses a value or index
# sharing self's memory and a value of another dtype, except a one-element value under a lone mask
# (masked_fill_ of value.item()); scatter_ refuses a src or index sharing self's memory; copy_ (x[a:b]
# = v) only a partial overlap. Errors are printed as "Type - message".
import torch
import torch.nn as nn


def show(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + " -", e)


# ---- #1: __class__ of the torch-side objects ----
lin = nn.Linear(2, 2)
for x in [torch.zeros(2), nn.Parameter(torch.zeros(2)), lin.weight, torch.zeros(2).long(), lin, nn.Sequential(), nn.ReLU(),
          torch.float32, torch.device("cpu"), torch.zeros(2).shape, torch.optim.SGD(lin.parameters(), lr=0.1),
          torch.optim.Adam(lin.parameters()), torch.optim.AdamW(lin.parameters()), torch.nn.functional]:
    c = x.__class__
    print(c, c is type(x), c.__name__, c.__qualname__, c.__module__)
print(torch.zeros(1).__class__.__name__, lin.__class__(3, 1).weight.shape)


# ---- #2: advanced-index writes from a source sharing self's memory, or of another dtype ----
def put(make_x, key, value):
    def run():
        x = make_x()
        k = key(x) if callable(key) else key
        x[k] = value(x)
        return x
    show(run)


f6 = lambda: torch.arange(6.)
i6 = lambda: torch.arange(6)
m6 = lambda: torch.arange(6.).view(2, 3)
idx = torch.tensor([3, 4, 5])
put(f6, idx, lambda x: x[:3])                     # overlaps (partly): refused
put(f6, torch.tensor([0, 1, 2]), lambda x: x[:3])  # the same memory: refused too
put(f6, idx, lambda x: x[3:])
put(f6, lambda x: x > 2, lambda x: x[:3])
put(f6, lambda x: x > 2, lambda x: x[1:4])
put(f6, idx, lambda x: x[0])                      # a 0-d view of x under an index tensor: refused
put(f6, lambda x: x > 2, lambda x: x[0])          # under a mask: masked_fill_(mask, x[0].item())
put(f6, lambda x: x > 2, lambda x: torch.tensor(7))   # a long 0-d value under a mask: converted
put(f6, idx, lambda x: x[:3].clone())
put(f6, idx, lambda x: x[torch.tensor([0, 1, 2])])
put(f6, idx, lambda x: x[:3].expand(3))
put(f6, idx, lambda x: torch.tensor([7, 8, 9]))   # dtypes differ: refused, no conversion
put(i6, idx, lambda x: x[:3].float())
put(i6, idx, lambda x: x[:3].int())
put(f6, idx, lambda x: x[:3].long())
put(f6, idx, lambda x: torch.tensor(7))
put(f6, lambda x: x > 2, lambda x: torch.tensor([7, 8, 9]))
put(f6, idx, lambda x: 7)
put(i6, idx, lambda x: 7.5)
put(m6, [1], lambda x: x[:1])
put(m6, [0, 1], lambda x: x)
put(m6, (0, [0, 1]), lambda x: x[1, :2])          # self is x[0]: x[1] lies outside it
put(m6, (0, [0, 1]), lambda x: x[0, 1:])
put(m6, (1, [0, 1, 2]), lambda x: x[1])
put(f6, slice(3, None), lambda x: x[:3])          # copy_: no overlap
put(f6, slice(1, 4), lambda x: x[:3])             # copy_: partial overlap refused
put(f6, slice(1, 4), lambda x: x[:3].long())      # copy_ from a new tensor of another dtype
put(f6, slice(None), lambda x: x)                 # copy_ of itself
put(m6, (slice(None), 0), lambda x: x[:, 0])      # TOO_HARD: allowed


def index_put(accumulate):
    x = torch.arange(6.)
    x.index_put_((idx,), x[:3], accumulate=accumulate)
    return x


show(lambda: index_put(False))
show(lambda: index_put(True))
show(lambda: torch.arange(6.).index_put_((idx,), torch.tensor([1, 2, 3])))
show(lambda: torch.arange(6).index_put_((idx,), torch.arange(6)[:3] + 0))


def scatter(src):
    x = torch.arange(6.)
    return x.scatter_(0, idx, src(x))


show(lambda: scatter(lambda x: x[:3]))
show(lambda: scatter(lambda x: x[:3].clone()))
show(lambda: torch.arange(6).scatter_(0, torch.arange(6)[:3], torch.arange(6)[3:] + 0))


def with_grad():
    w = torch.arange(1., 7., requires_grad=True)
    y = w * 1
    y[idx] = y[:3]
    return y


show(with_grad)
w = torch.arange(1., 7., requires_grad=True)
y = w * 2
y[idx] = y[:3].clone()
y.sum().backward()
print(y, y.grad_fn.__class__.__name__, w.grad)


# ---- #6: integer einsum in the float path's steps (values wrap as int64) ----
torch.manual_seed(0)
a = torch.randint(-2**62, 2**62, (300,))
b = torch.randint(-2**62, 2**62, (300,))
print(torch.einsum("i,j->", a, b), torch.einsum("i,j->j", a[:5], b[:4]), torch.einsum("i,i,i->", a[:5], a[:5], a[:5]))
m = torch.randint(-100, 100, (30, 30))
print(torch.einsum("ij,jk,kl->il", m, m, m).sum(), torch.einsum("ij,jk->", m, m), torch.einsum("ii->", m), torch.einsum("ii->i", m)[:3])
print(torch.einsum("ij,kj->ik", m[:2], m[:3]), torch.einsum("ij,jk,kl->", m, m, m), torch.einsum("ij,jk,kl->lj", m[:2, :3], m[:3, :4], m[:4, :2]))
x = torch.randint(0, 5, (2, 3, 4), dtype=torch.int32)
print(torch.einsum("bij,bjk->bik", x, x.transpose(1, 2)), torch.einsum("bij->j", x), torch.einsum("bij->jb", x))
print(torch.einsum("ij,j->i", m[:2], torch.ones(30, dtype=torch.long)), torch.einsum("ij,ij->ij", m[:1, :3], m[:1, :3]))
print(torch.einsum("ab,b->a", torch.ones(3, 1, dtype=torch.long), torch.arange(4)), torch.einsum("iij,j->i", torch.arange(18).view(3, 3, 2), torch.arange(2)))
