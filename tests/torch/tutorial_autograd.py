# What published attention tutorials differentiate that the lessons did not: in-place ReLU,
# masked and index-tensor assignment into a tensor of the graph (d2l's masked_softmax),
# nn.LazyLinear's first forward, and gradient clipping (torch.nn.utils.clip_grad_norm_ /
# clip_grad_value_).
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils
from torch.nn.utils import clip_grad_norm_


def show(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + ":", e)


torch.manual_seed(0)
w = torch.randn(3, 4, requires_grad=True)
h = w * 2
r = torch.relu_(h)
print(r is h, h.grad_fn.name(), h)
(h * torch.arange(12.).view(3, 4)).sum().backward()
print(w.grad)
w.grad = None
h2 = w - 0.1
F.relu(h2, inplace=True)
h2.sum().backward()
print(h2.grad_fn.name(), w.grad)
h3 = w - 0.1
h3.relu_()
h3.relu_()
show(lambda: h3.sum().backward())
show(lambda: torch.randn(2, requires_grad=True).relu_())
net = nn.Sequential(nn.Linear(4, 5), nn.ReLU(inplace=True), nn.Linear(5, 2))
print(net)
out = net(torch.randn(3, 4))
out.sum().backward()
print(out, net[0].weight.grad)
with torch.no_grad():
    p = torch.ones(2, requires_grad=True)
    print(p.relu_(), p.requires_grad, p.grad_fn)


def masked_softmax(X, valid_lens):
    """d2l.ai's masked_softmax: X[~mask] = -1e6 into a tensor of the graph."""
    def _sequence_mask(X, valid_len, value=0):
        maxlen = X.size(1)
        mask = torch.arange((maxlen), dtype=torch.float32, device=X.device)[None, :] < valid_len[:, None]
        X[~mask] = value
        return X

    if valid_lens is None:
        return nn.functional.softmax(X, dim=-1)
    shape = X.shape
    if valid_lens.dim() == 1:
        valid_lens = torch.repeat_interleave(valid_lens, shape[1])
    else:
        valid_lens = valid_lens.reshape(-1)
    X = _sequence_mask(X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
    return nn.functional.softmax(X.reshape(shape), dim=-1)


scores = torch.rand(2, 2, 4, requires_grad=True)
x = scores * 2
att = masked_softmax(x, torch.tensor([2, 3]))
print(att)
(att * torch.arange(16.).view(2, 2, 4)).sum().backward()
print(scores.grad)

v = torch.randn(5, requires_grad=True)
y = v * 1.5
y[torch.tensor([0, 3])] = torch.tensor([10., 20.], requires_grad=True) * 2
y[y < 0] = 0.0
print(y, y.grad_fn.name())
(y * torch.arange(5.)).sum().backward()
print(v.grad)
vals = torch.tensor([1.0, 2.0], requires_grad=True)
z = torch.zeros(2, 3)
z[:, torch.tensor([0, 2])] = vals.view(2, 1) * torch.ones(2, 2)
z.sum().backward()
print(z, vals.grad)
g = torch.randn(4, 3, requires_grad=True)
picked = g[torch.tensor([0, 2, 0])]
(picked * torch.arange(9.).view(3, 3)).sum().backward()
print(picked.grad_fn.name(), g.grad)
mk = g[g > 0]
print(mk.shape == (int((g > 0).sum()),), mk.grad_fn.name())
def assign(t, key, value):
    t[key] = value
    return t.grad_fn.name()


show(lambda: assign(w, torch.tensor([0]), 1.0))
show(lambda: assign(w * 1, torch.tensor([[True, False]]), 1.0))
show(lambda: assign(w * 1, (slice(None), torch.tensor([1])), 1.0))
show(lambda: assign(w * 1, (Ellipsis, torch.tensor([1])), 1.0))

torch.manual_seed(1)
lazy = nn.LazyLinear(3)
print(lazy, lazy.weight, lazy.bias)
print(torch.rand(1))
torch.manual_seed(1)
lazy = nn.LazyLinear(3)
yl = lazy(torch.ones(2, 4))
print(lazy, lazy.weight, lazy.bias, yl)
print([n for n, _ in lazy.named_parameters()])
torch.manual_seed(1)
ref = nn.Linear(4, 3)
print(torch.equal(ref.weight, lazy.weight), torch.equal(ref.bias, lazy.bias))
print(nn.LazyLinear(2, bias=False), nn.Sequential(nn.LazyLinear(5), nn.ReLU()))
lz = nn.LazyLinear(2, bias=False)
lz(torch.randn(1, 6))
print(lz, lz.bias)

torch.manual_seed(2)
model = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 3))
loss = (model(torch.randn(5, 6)) ** 2).sum() * 10
loss.backward()
total = clip_grad_norm_(model.parameters(), max_norm=1.0)
print(total, model[0].weight.grad[0], model[2].bias.grad)
print(torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5, norm_type=1))
print(torch.nn.utils.clip_grad_norm_(model.parameters(), 100.0, norm_type=float('inf')), model[2].bias.grad)
print(nn.utils.clip_grad_norm_(model[2].weight, 0.1), model[2].weight.grad)
torch.nn.utils.clip_grad_value_(model.parameters(), clip_value=0.01)
print(model[0].bias.grad, model[2].weight.grad)
print(clip_grad_norm_([torch.zeros(2, requires_grad=True)], 1.0))
bad = torch.zeros(2, requires_grad=True)
bad.grad = torch.tensor([float('inf'), 1.0])
show(lambda: clip_grad_norm_([bad], 1.0, error_if_nonfinite=True))
