# shape_ops3.py: creation, shape, indexing and dtype-info names transformer code calls: new_zeros &
# co., full_like, rand_like, eye, view_as, stride, narrow, movedim, swapaxes, broadcast_to, ravel,
# unflatten, tile, hstack/vstack, split with sizes, index_select, masked_select, tril_, is_tensor,
# finfo/iinfo, default dtype and threads, F.one_hot, and the activations silu, leaky_relu,
# hardtanh, relu6 with their modules, Flatten and Unflatten (grad_fn names and gradients too).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_printoptions(precision=8)


def err(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + ':', e)


x = torch.randn(2, 3, 4, requires_grad=True)
i = torch.tensor([[1, 2], [3, 4]])
# factories from a tensor
print(x.new_zeros(2, 3), x.new_ones((2,)), x.new_full((2, 2), 7), i.new_full((3,), 2.7), i.new_zeros(2).dtype)
print(x.new_tensor([1, 2]), i.new_tensor([1.5, 2.5]), x.new_zeros(2, dtype=torch.int64), x.new_ones(1, requires_grad=True))
print(x.new_empty(2, 3).shape, torch.empty_like(i).shape, torch.empty_like(x).dtype)
print(torch.full_like(x, 3.5).shape, torch.full_like(i, 2.7), torch.full_like(i, 4, dtype=torch.float32))
print(torch.rand_like(x), torch.randn_like(x, requires_grad=True))
err(lambda: torch.rand_like(i))
print(torch.eye(3), torch.eye(2, 4), torch.eye(3, dtype=torch.int64), torch.eye(0))
err(lambda: torch.eye(-1))
# layout
print(x.stride(), x.stride(1), x.stride(-1), x.transpose(0, 1).stride(), x.is_contiguous(), x.transpose(0, 1).is_contiguous())
print(x[1].storage_offset(), x[:, 1:].storage_offset(), x.element_size(), i.element_size(), (i > 1).element_size())
err(lambda: x.stride(3))
# views and their grad_fns
for name, y in [('view_as', x.view_as(torch.zeros(6, 4))), ('reshape_as', x.reshape_as(torch.zeros(4, 6))),
                ('narrow', x.narrow(1, 1, 2)), ('narrow_t', torch.narrow(x, -1, torch.tensor(2), 2)),
                ('movedim', x.movedim(0, 2)), ('movedim2', torch.movedim(x, (0, 1), (2, 0))), ('moveaxis', x.moveaxis(-1, 0)),
                ('swapaxes', x.swapaxes(0, 2)), ('swapdims', torch.swapdims(x, 1, 2)),
                ('broadcast_to', x[0, 0].broadcast_to((3, 4))), ('ravel', x.ravel()), ('ravel_t', x.transpose(1, 2).ravel()),
                ('unflatten', x.unflatten(2, (2, 2))), ('unflatten-1', torch.unflatten(x, 1, (-1, 1))),
                ('tile', x[0].tile((2,))), ('tile2', torch.tile(x[0, 0], (2, 2))),
                ('hstack', torch.hstack([x[0], x[1]])), ('vstack', torch.vstack([x[0, 0], x[1, 1]])),
                ('index_select', x.index_select(1, torch.tensor([2, 0, 2]))), ('masked_select', torch.masked_select(x, x > 0.5))]:
    print(name, y.shape, y.grad_fn.name())
    (y * torch.arange(y.numel()).reshape(y.shape)).sum().backward()
    print(x.grad)
    x.grad = None
print(x.movedim(1, 1).shape, torch.hstack([torch.tensor(1), torch.tensor([2, 3])]), torch.vstack([torch.tensor(1.5)]))
err(lambda: x.narrow(1, 2, 2))
err(lambda: x.movedim((0, 0), (1, 2)))
err(lambda: x.movedim((0, 1), (1,)))
err(lambda: x.unflatten(1, (2, 2)))
err(lambda: x.view_as(torch.zeros(5)))
err(lambda: torch.hstack([]))
# split with sizes
parts = torch.split(x, [1, 2], dim=1)
print([p.shape for p in parts], [p.grad_fn.name() for p in parts], [p.grad_fn.name() for p in torch.split(x, 2, 1)])
parts = x.split([3, 1], -1)
(parts[0].sum() * 2 + parts[1].sum()).backward()
print(x.grad)
x.grad = None
print([p.shape for p in x.split_with_sizes([2, 2], 2)], [p.shape for p in torch.split_with_sizes(x, [1, 1], 0)])
err(lambda: x.split([1, 1], 1))
err(lambda: x.split_with_sizes([-1, 4], 1))
# index_select / masked_select
a = torch.arange(12.).reshape(3, 4)
print(a.index_select(0, torch.tensor([2, 0])), torch.index_select(a, 1, torch.tensor([3, 3, 0])), a.index_select(1, torch.tensor(1)))
print(a.masked_select(a > 5), torch.masked_select(a, torch.tensor([True, False, True, False])), i.masked_select(i > 1))
err(lambda: a.index_select(1, torch.tensor([5])))
err(lambda: a.index_select(0, torch.tensor([[0]])))
err(lambda: a.masked_select(torch.tensor([1, 0, 1, 0])))
w = torch.randn(4, requires_grad=True)
torch.masked_select(w, torch.tensor([[True, False, True, True], [True, True, False, False]])).sum().backward()
print(w.grad)
# in-place triangles
m = torch.ones(3, 4)
print(m.tril_(), m.grad_fn, torch.ones(3, 3).triu_(1))
q = torch.randn(3, 3, requires_grad=True) * 1
q.triu_()
print(q.grad_fn.name())
print(torch.is_tensor(x), torch.is_tensor([1]), torch.is_tensor(nn.Parameter(torch.ones(1))))
# dtype information, as HF-style masks write it
print(torch.finfo(torch.float32), torch.finfo(x.dtype).min, torch.finfo().eps, torch.finfo(torch.float).tiny, torch.finfo(torch.float32).max)
print(torch.finfo(torch.float32).bits, torch.finfo(torch.float32).resolution, torch.finfo(torch.float32).dtype)
print(torch.iinfo(torch.int64), torch.iinfo(torch.int64).max, torch.iinfo(torch.int32).min, torch.iinfo(torch.uint8), torch.iinfo(torch.int8).bits)
scores = torch.randn(2, 3)
print(scores.masked_fill(torch.tensor([[True, False, False], [False, False, True]]), torch.finfo(scores.dtype).min))
err(lambda: torch.iinfo(torch.float32))
err(lambda: torch.finfo(torch.int64))
err(lambda: torch.finfo(3))
print(torch.get_default_dtype(), torch.set_default_dtype(torch.float32), torch.get_default_dtype())
err(lambda: torch.set_default_dtype(torch.int64))
print(torch.set_num_threads(1), torch.get_num_threads(), torch.use_deterministic_algorithms(True), torch.are_deterministic_algorithms_enabled())
torch.use_deterministic_algorithms(False)
# F.one_hot
print(F.one_hot(torch.tensor([0, 2, 1])), F.one_hot(torch.tensor([[0], [1]]), 4), F.one_hot(torch.tensor([3]), num_classes=5).dtype)
err(lambda: F.one_hot(torch.tensor([0., 1.])))
err(lambda: F.one_hot(torch.tensor([-1, 1])))
err(lambda: F.one_hot(torch.tensor([3]), 2))
err(lambda: F.one_hot(torch.tensor([], dtype=torch.long)))
# activations: bodies of 16 and scalar tails, gradients
for n in (5, 16, 21):
    v = (torch.randn(n) * 4).requires_grad_()
    for f in (F.silu, F.leaky_relu, lambda t: F.leaky_relu(t, 0.2), F.hardtanh, lambda t: F.hardtanh(t, -2., 3.), F.relu6):
        y = f(v * 2)
        print(y, y.grad_fn.name())
        y.backward(torch.randn(n))
        print(v.grad)
        v.grad = None
print(F.silu(torch.tensor([0.0, -0.0, 20.0, -20.0, 88.5, -88.5, 104.0, -104.0, float('inf'), float('-inf'), float('nan')])))
print(F.hardtanh(torch.tensor([-1.0, 1.0, float('nan'), 0.5])), F.leaky_relu(torch.tensor([-0.0, float('-inf'), float('nan')])))
t = torch.randn(4)
u = t.clone()
F.silu(u, inplace=True)
print(torch.equal(u, F.silu(t)), F.leaky_relu(t.clone(), 0.1, True), F.relu6(t.clone() * 4, inplace=True))
err(lambda: F.silu(torch.tensor([1, 2])))
err(lambda: F.hardtanh(t, 2., 1.))
# modules
for mod in (nn.SiLU(), nn.SiLU(inplace=True), nn.LeakyReLU(), nn.LeakyReLU(0.2, inplace=True), nn.Hardtanh(), nn.Hardtanh(-2, 2),
            nn.ReLU6(), nn.ReLU6(True), nn.Flatten(), nn.Flatten(0, 1), nn.Unflatten(1, (2, 2)), nn.Unflatten(-1, [2, 1, 2])):
    print(mod, mod(torch.randn(3, 4)).shape)
print(nn.Sequential(nn.Linear(4, 8), nn.SiLU(), nn.Linear(8, 2), nn.LeakyReLU(0.1)))
print(nn.Sequential(nn.Flatten(), nn.Linear(6, 2))(torch.randn(2, 2, 3)))
err(lambda: nn.Unflatten(1, (2, 2.0)))
# written in Python in 1.13: l1_loss, softsign, softmin and their modules
p = torch.randn(3, 4, requires_grad=True)
y = torch.randn(3, 4)
for red in ('mean', 'sum', 'none'):
    loss = F.l1_loss(p, y, reduction=red)
    print(loss, loss.grad_fn.name())
    loss.sum().backward()
    print(p.grad)
    p.grad = None
print(nn.L1Loss(), nn.L1Loss(reduction='sum')(p, y), F.l1_loss(p, y, size_average=False))
err(lambda: F.l1_loss(p, y, reduction='avg'))
s = F.softsign(p)
print(s, s.grad_fn.name(), nn.Softsign(), nn.Softsign()(y))
s.sum().backward()
print(p.grad)
p.grad = None
s = F.softmin(p, dim=1)
print(s, s.grad_fn.name(), nn.Softmin(dim=0), nn.Softmin(1)(y))
(s * y).sum().backward()
print(p.grad)
# broadcast_tensors / broadcast_shapes
b1, b2 = torch.broadcast_tensors(torch.randn(3, 1, requires_grad=True), torch.randn(4))
print(b1.shape, b2.shape, b1.grad_fn.name(), b2.grad_fn)
print(torch.broadcast_shapes((2, 1), (3,), 1), torch.broadcast_shapes((5, 1, 4), (1, 3, 1)))
err(lambda: torch.broadcast_tensors(torch.ones(2, 3), torch.ones(4)))
err(lambda: torch.broadcast_shapes((2, 3), (2, 4)))

# contiguous(): a contiguous tensor is returned itself (ATen), a transposed one is copied.
c = torch.arange(6.).reshape(2, 3)
print(c.contiguous() is c, c.t().contiguous() is c.t(), c.t().contiguous().is_contiguous())
