# Advanced indexing over 3-D and 4-D tensors as torch 1.13 does it: every key of two or three
# items (and a sample of four) from bool scalars, 0-d bool tensors, bool masks, int index tensors,
# integers, slices, None and `...`: the result's shape, values, strides, grad_fn and gradient; the
# same keys written (x[key] = v, a number and a tensor of the result's shape, with gradients to
# both), and index_put_. Index tensors separated by a slice or an integer's select move their
# broadcast dims to the front; Tensor.index_put_ (accumulate or not). Not: keys of Python lists (list_index.py).
import itertools
import torch


def desc(k):
    if isinstance(k, torch.Tensor):
        return "T" + str(k.tolist()).replace(" ", "")
    if isinstance(k, slice):
        return ":" if k == slice(None) else "%s:%s" % (k.start, k.stop)
    if k is Ellipsis:
        return "..."
    return repr(k)


POOL = [0, -1, slice(None), slice(1, 3), None, Ellipsis, True, False, torch.tensor(True), torch.tensor(False),
        torch.tensor([0, 2]), torch.tensor([[1], [0]]), torch.tensor([True, False, True])]


def read(base, key, transposed):
    x = base.clone().requires_grad_()
    src = x.transpose(0, -1).contiguous().transpose(0, -1) if transposed else x   # the same values, another layout
    name = ",".join(desc(k) for k in key)
    try:
        y = src[key]
    except (IndexError, RuntimeError) as e:
        print(name, type(e).__name__, e)
        return
    w = torch.arange(float(y.numel())).reshape(y.shape) + 1
    (y * w).sum().backward()
    g = x.grad.flatten().tolist()
    print(name, tuple(y.shape), y.stride() if transposed else "", y.flatten().tolist()[:10], y.grad_fn.name(),
          [(i, v) for i, v in enumerate(g) if v][:6], sum(g))


def write(base, key):
    name = ",".join(desc(k) for k in key)
    x = base.clone().requires_grad_()
    try:
        shape = x[key].shape
        y = x * 1
        y[key] = -1.0
        z = x * 1
        v = (torch.arange(float(shape.numel())).reshape(shape) + 100).requires_grad_()
        z[key] = v
        (y * 2 + z).sum().backward()
        u = base.clone()
        u.index_put_((torch.tensor([0, 1]),), torch.tensor(7.0))
    except (IndexError, RuntimeError) as e:
        print("set", name, type(e).__name__, e)
        return
    print("set", name, y.grad_fn.name(), z.grad_fn.name(), y.flatten().tolist()[:10], z.flatten().tolist()[:10],
          sum(x.grad.flatten().tolist()), v.grad.flatten().tolist()[:8])


base3 = torch.arange(60.).reshape(3, 4, 5)
for r in (1, 2, 3):
    for key in itertools.product(POOL, repeat=r):
        if sum(1 for k in key if k is Ellipsis) > 1:
            continue
        read(base3, key, False)
n = 0
for key in itertools.product(POOL, repeat=3):
    n += 1
    if n % 7 == 0 and sum(1 for k in key if k is Ellipsis) <= 1:
        read(base3, key, True)
        write(base3, key)

base4 = torch.arange(120.).reshape(3, 2, 4, 5)
POOL4 = [1, slice(None), None, Ellipsis, True, torch.tensor([0, 2]), torch.tensor([[1], [0]]),
         torch.tensor([[True, False], [False, True], [True, True]])]
n = 0
for key in itertools.product(POOL4, repeat=4):
    n += 1
    if n % 5 == 0 and sum(1 for k in key if k is Ellipsis) <= 1:
        read(base4, key, n % 2 == 0)
        write(base4, key)

# Tensor.index_put_, accumulate or not, with gradients, and its errors
x = torch.arange(12.).reshape(3, 4)
print(x.index_put_((torch.tensor([0, 2]),), torch.tensor(7.0)))
print(x.index_put_((torch.tensor([0, 0]), torch.tensor([1, 1])), torch.tensor([1.0, 2.0]), accumulate=True))
print(x.index_put_((torch.tensor([[1], [2]]), torch.tensor([0, 3])), torch.tensor([5.0, 6.0])))
w = torch.ones(3, 4, requires_grad=True)
v = torch.tensor([2.0, 3.0], requires_grad=True)
y = w * 1
y.index_put_((torch.tensor([0, 0]), torch.tensor([1, 2])), v, accumulate=True)
print(y, y.grad_fn.name())
(y * torch.arange(12.).reshape(3, 4)).sum().backward()
print(w.grad, v.grad)
y = w * 1
y.index_put_((torch.tensor([1]), torch.tensor([2])), v[:1])
(y * torch.arange(12.).reshape(3, 4)).sum().backward()
print(w.grad, v.grad)
for bad in [lambda: x.index_put_((torch.tensor([0]),) * 3, torch.tensor(1.0)), lambda: x.index_put_((torch.tensor([5]),), torch.tensor(1.0)),
            lambda: x.index_put_((torch.tensor([0, 1]),), torch.ones(3)), lambda: x.index_put_((torch.tensor([0.5]),), torch.tensor(1.0))]:
    try:
        bad()
    except (IndexError, RuntimeError) as e:
        print(type(e).__name__, e)
