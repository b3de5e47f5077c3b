# The torch findings of review 26 (a frozen Parameter's repr, `.data =` assignment, masked_fill with
# an integer 0/1 mask, randperm's negative-size message, the grad_fn names of matmul over every
# combination of 1-D..4-D operands, a Python bool as an index) and of review 27 (torch.where with a
# non-bool condition), as PyTorch 1.13 prints them.
# Errors are printed as "Type - message".
import warnings

import torch

warnings.simplefilter("always")


def show(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + " -", e)


# ---- nn.Parameter(t, requires_grad=False): no requires_grad=True in its repr ----
p = torch.nn.Parameter(torch.ones(2), requires_grad=False)
print(p.requires_grad, p.is_leaf)
print(p)
print(repr(torch.nn.Parameter(torch.arange(3), requires_grad=False)))
lin = torch.nn.Linear(2, 2)
lin.bias.requires_grad_(False)
print(lin.bias.requires_grad, "requires_grad=True" in repr(lin.bias))

# ---- x.data = t: same object, new elements (shape and dtype may change) ----
lin = torch.nn.Linear(2, 2)
w = lin.weight
lin.weight.data = torch.ones(2, 2)
print(lin.weight, lin.weight is w, type(lin.weight).__name__, lin.weight.requires_grad, lin.weight.is_leaf)
lin.weight.data = torch.full((3, 2), 0.5)
print(lin.weight.shape)
lin.bias.data = torch.zeros(3)
print(lin(torch.ones(1, 2)))
show(lambda: setattr(lin.weight, "data", torch.tensor([[1, 2], [3, 4]])))
print(lin.weight.dtype, lin.weight.shape)
frozen = torch.nn.Parameter(torch.ones(2), requires_grad=False)
frozen.data = torch.tensor([[1, 2], [3, 4]])
print(frozen.dtype, frozen, type(frozen).__name__)
x = torch.arange(4.)
y = x
src = torch.tensor([5., 6.])
x.data = src
print(x, y is x, x.requires_grad)
src[0] = 9.
print(x)
x.data.fill_(1.)
print(src)
show(lambda: setattr(x, "data", 3))
show(lambda: setattr(x, "data", [1., 2.]))
q = torch.zeros(3, requires_grad=True)
q.data = torch.tensor([1., 2., 3.])
(q * 2).sum().backward()
print(q, q.grad)
view = torch.arange(6.).reshape(2, 3)
q2 = torch.zeros(1)
q2.data = view.t()
print(q2, q2.stride(), q2.is_contiguous())

# ---- masked_fill with an integer mask: 0 and 1 only ----
x = torch.arange(6.).reshape(2, 3)
for dt in [torch.int64, torch.int32, torch.int16, torch.int8]:
    show(lambda: x.masked_fill(torch.tensor([1, 0, 1], dtype=dt), 0))
show(lambda: x.masked_fill(torch.tensor([2, 0, 1]), 0))
show(lambda: x.masked_fill(torch.tensor([-1, 0, 1]), 0))
show(lambda: x.masked_fill(torch.tensor([1, 0, 1]).reshape(3, 1), 0))
show(lambda: x.masked_fill(torch.tensor([[1], [0]]), -1.5))
show(lambda: x.masked_fill(torch.tensor([1, 0, 1]), torch.tensor(7.)))
show(lambda: x.masked_fill(torch.tensor([1, 0, 1], dtype=torch.uint8), 0))
y = x.clone()
y.masked_fill_(torch.tensor([0, 1, 1]), 5.)
print(y)
show(lambda: y.masked_fill_(torch.tensor([0, 3, 1]), 5.))
a = torch.ones(2, 3, requires_grad=True)
b = a.masked_fill(torch.tensor([1, 0, 0]), 0.)
b.sum().backward()
print(b, a.grad)
print(torch.tensor([1, 2, 3]).masked_fill(torch.tensor([0, 1, 0]), -7))
show(lambda: torch.randperm(-1))
show(lambda: torch.randperm(-5))

# ---- a Python bool as an index: a new dim of size 1 (True) or 0 (False) ----
x = torch.arange(5)
print(x[True], x[False])
x[False] = 100
print(x)
x[True] = 7
print(x)
m = torch.arange(6).reshape(2, 3)
print(m[True, 0], m[False, 1], m[0, True], m[None, True].shape)
print(m[True, ...], m[True, :, 1:], m[True][0, 1], m[..., False])
print(torch.tensor(5)[True], torch.tensor(5)[False])
m[0, True] = -1
print(m)
m[True, 1] = torch.tensor([7, 8, 9])
print(m)
g = torch.ones(3, requires_grad=True)
r = g[True]
print(r, r.shape)
r.sum().backward()
print(g.grad)


# ---- matmul: the grad_fn name 1.13 records (the top node), 1-D..4-D on each side ----
left = {1: (4,), 2: (3, 4), 3: (2, 3, 4), 4: (5, 2, 3, 4)}
right = {1: (4,), 2: (4, 6), 3: (2, 4, 6), 4: (5, 2, 4, 6)}
for da in range(1, 5):
    for db in range(1, 5):
        for ra, rb in [(True, True), (True, False), (False, True)]:
            a = torch.randn(left[da], requires_grad=ra)
            b = torch.randn(right[db], requires_grad=rb)
            r = a @ b
            print(da, db, int(ra), int(rb), tuple(r.shape), r.stride(), r.grad_fn.name())
# the size-1 cases of 2-D @ N-D, where the transposed result is already contiguous
torch.manual_seed(0)
for sa, sb in [((2, 4), (2, 4, 1)), ((1, 4), (3, 4, 5)), ((1, 4), (2, 4, 1)), ((3, 4), (2, 2, 4, 1))]:
    a = torch.randn(sa, requires_grad=True)
    b = torch.randn(sb, requires_grad=True)
    r = a @ b
    print(sa, sb, r.grad_fn.name(), r.stride(), r.is_contiguous(), r._base is not None)
    r.backward(torch.randn(r.shape))
    print(r, a.grad, b.grad)
    with torch.no_grad():
        print(torch.equal(a @ b, r), (a @ b).stride())
# review 27: torch.where's condition must be bool (uint8: taken as bool with a warning, once)
for c in [torch.tensor([1, 0]), torch.tensor([1., 0.]), torch.tensor([1, 0], dtype=torch.int32), torch.tensor([True, False])]:
    for args in [(1, 0), (torch.tensor([5, 6]), torch.tensor([7, 8]))]:
        try:
            print(torch.where(c, *args))
        except RuntimeError as e:
            print("RuntimeError", e)
    try:
        print(torch.tensor([1., 2.]).where(c, torch.tensor(3.)))
    except RuntimeError as e:
        print("RuntimeError", e)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(torch.where(torch.tensor([1, 0], dtype=torch.uint8), 1, 0))
    print(torch.where(torch.tensor([0, 2], dtype=torch.uint8), torch.tensor([5., 6.]), torch.tensor([7., 8.])))
    print(torch.tensor([1, 2]).where(torch.tensor([0, 1], dtype=torch.uint8), torch.tensor(9)))
print([(w.category.__name__, str(w.message)) for w in caught])
