# What published attention tutorials call that the lessons did not: clamp / clip, norm,
# scatter, index_fill, nonzero, unique, repeat, F.pad, and the device and conversion calls
# (cpu, cuda, numpy, int(), '%d' % t, torch.cuda.*, torch.backends.cudnn).
import torch
import torch.nn.functional as F
from torch.nn.functional import log_softmax, pad


def show(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + ":", e)


torch.manual_seed(0)
x = torch.randn(3, 5)
print(torch.clamp(x, min=-0.5, max=0.5))
print(x.clamp(0), x.clip(max=0.1), torch.clip(x, -1, 1).sum())
print(torch.clamp(torch.tensor([1, 5, 9]), 2, 7), torch.clamp(torch.tensor([1, 5, 9]), 2, 7.5))
print(torch.clamp(torch.tensor([-0.0, 0.0, float('nan'), 2.0]), 0.0, 1.0), torch.clamp(torch.tensor([1.0, 2.0]), 3, 0.5))
print(torch.clamp(x, torch.zeros(5), torch.ones(5) * 0.3))
y = x.clone()
print(y.clamp_(-0.2, 0.2) is y, y)
show(lambda: torch.clamp(x))

w = torch.randn(4, 6, requires_grad=True)
c = torch.clamp(w, -0.5, 0.5)
print(c.grad_fn.name())
(c * torch.arange(24.).view(4, 6)).sum().backward()
print(w.grad)
lo = torch.full((6,), -0.3, requires_grad=True)
hi = torch.full((6,), 0.4, requires_grad=True)
w.grad = None
torch.clamp(w, lo, hi).sum().backward()
print(w.grad, lo.grad, hi.grad)

v = torch.randn(37)
m = torch.randn(5, 19)
print(torch.norm(v), v.norm(), torch.norm(v, 1), torch.norm(v, float('inf')), torch.norm(v, 3), torch.norm(v, 0))
print(torch.norm(m), torch.norm(m, dim=1), torch.norm(m, dim=0), m.norm(p=2, dim=-1, keepdim=True))
print(torch.norm(m, 'fro'), torch.norm(m, p='fro', dim=(0, 1)), torch.norm(m, 1, dim=1), torch.norm(m, float('inf'), dim=0))
print(torch.norm(torch.arange(100.) / 7), torch.norm(torch.zeros(3)))
show(lambda: torch.norm(m, 'abc'))
mg = torch.randn(3, 10, requires_grad=True)
for p in [2, 1, float('inf'), 3, 0.5, 1.5]:
    mg.grad = None
    n = torch.norm(mg, p, dim=1)
    (n * torch.tensor([1.0, -2.0, 0.5])).sum().backward()
    print(p, n.grad_fn.name(), mg.grad)
mg.grad = None
torch.norm(mg).backward()
print(mg.grad)

src = torch.arange(1, 11).reshape(2, 5).float()
index = torch.tensor([[0, 1, 2, 0]])
print(torch.zeros(3, 5).scatter_(0, index, src))
print(torch.zeros(3, 5).scatter(1, torch.tensor([[0, 1, 2, 0, 4], [4, 3, 3, 2, 1]]), src))
print(torch.full((2, 4), 2.).scatter_(1, torch.tensor([[2], [3]]), 1.23))
labels = torch.tensor([2, 0, 1])
print(torch.zeros(3, 4).scatter_(1, labels.unsqueeze(1), 1.0))
show(lambda: torch.zeros(3, 4).scatter_(1, labels.unsqueeze(1).float(), 1.0))
show(lambda: torch.zeros(3, 4).scatter_(1, torch.tensor([[5]]), 1.0))
s = torch.randn(1, 4, requires_grad=True)
base = torch.randn(3, 5, requires_grad=True)
out = base.scatter(0, index, s)
(out * torch.arange(15.).view(3, 5)).sum().backward()
print(out.grad_fn.name(), base.grad, s.grad)

t = torch.arange(12.).view(3, 4)
print(t.index_fill(1, torch.tensor([0, 2]), -1), t.index_fill(0, torch.tensor([-1]), torch.tensor(5.)))
u = t.clone()
u.index_fill_(1, torch.tensor([3]), 0.5)
print(u)
ig = torch.randn(3, 4, requires_grad=True)
ig.index_fill(0, torch.tensor([1]), 2.0).sum().backward()
print(ig.grad)

b = torch.tensor([[0.6, 0.0, 0.0, 0.0], [0.0, 0.4, 0.0, 0.0], [0.0, 0.0, 1.2, 0.0], [0.0, 0.0, 0.0, -0.4]])
print(torch.nonzero(b), b.nonzero(as_tuple=True), torch.nonzero(torch.tensor([1, 0, 2]), as_tuple=True))
print(torch.nonzero(torch.tensor(5.)), torch.nonzero(torch.zeros(2, 3)))

a = torch.tensor([2, 3, 1, 3, 2, 2, 7])
print(torch.unique(a), a.unique(return_counts=True), torch.unique(a, return_inverse=True, return_counts=True))
print(torch.unique(torch.tensor([[1.5, -1.0], [1.5, 0.25]]), return_inverse=True))
tokens = "the cat sat on the mat".split()
vocab = {w: i for i, w in enumerate(sorted(set(tokens)))}
ids = torch.tensor([vocab[w] for w in tokens])
print(ids.unique(), len(ids.unique()))

r = torch.tensor([1., 2., 3.])
print(r.repeat(2), r.repeat(4, 2), r.repeat(2, 1, 2).shape)
show(lambda: r.repeat(2, 0).shape)
show(lambda: torch.ones(2, 3).repeat(2))
rg = torch.randn(2, 3, requires_grad=True)
(rg.repeat(3, 2) * torch.arange(36.).view(6, 6)).sum().backward()
print(rg.grad)
print(r.repeat_interleave(2), torch.repeat_interleave(torch.tensor([[1, 2], [3, 4]]), 2, dim=0))

q = torch.arange(6.).view(2, 3)
print(F.pad(q, (1, 2)), pad(q, (0, 0, 1, 0), value=-1.0), F.pad(q, [1, -1, -1, 1], "constant", 9))
seqs = [torch.tensor([1, 2, 3]), torch.tensor([4, 5])]
print(torch.stack([F.pad(s, (0, 3 - len(s)), value=0) for s in seqs]))
show(lambda: F.pad(q, (1,)))
show(lambda: F.pad(q, (1, 1), mode="reflect", value=1.0))
pg = torch.randn(2, 3, requires_grad=True)
(F.pad(pg, (2, 1, 1, -1)) * torch.arange(12.).view(2, 6)).sum().backward()
print(pg.grad)
print(log_softmax(q, dim=1))

z = torch.tensor([1.5, 2.5])
print(z.cpu() is z, z.is_cuda, z.device, torch.cuda.is_available(), torch.cuda.device_count())
show(lambda: z.cuda())
torch.cuda.manual_seed(42)
torch.cuda.manual_seed_all(42)
import torch.backends.cudnn
print(torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark, torch.backends.cudnn.enabled, torch.backends.cudnn.is_available())
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
print(torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark)
print(int(torch.tensor(2.)), int(torch.tensor(-2.7)), int(torch.tensor([7])), int(torch.tensor(True)), float(torch.tensor(3)))
print("%d" % torch.tensor(2.7), "%.2f" % torch.tensor(3), "%5.1f|%d" % (torch.tensor([0.25]), torch.tensor(4)))
print("loss %.4f, acc %d%%" % (torch.tensor(0.123456), torch.tensor(97)))
show(lambda: int(torch.tensor([1, 2])))
show(lambda: int(torch.tensor(float('nan'))))
