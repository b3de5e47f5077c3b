# tutorial_ops2.py: ops that stopped published tutorials: sigmoid (torch., Tensor., in place,
# F.sigmoid, nn.Sigmoid) and its gradient, F.tanh, flatten, expand_as, gather, roll, uniform_ /
# normal_, inference_mode, and a Python number divided by a tensor (reciprocal * number).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_printoptions(precision=8)

# sigmoid: 16-element bodies and scalar tails, a non-contiguous input, extremes
for n in (5, 16, 19, 37):
    x = (torch.randn(n) * 6).requires_grad_()
    y = torch.sigmoid(x)
    print(y)
    print(y.grad_fn.name())
    y.backward(torch.randn(n))
    print(x.grad)
m = torch.randn(6, 7) * 5
print(m.t().sigmoid())
print(torch.sigmoid(torch.tensor([0.0, -0.0, 20.0, -20.0, 88.5, -88.5, 104.0, -104.0, float('inf'), float('-inf'), float('nan')])))
print(torch.sigmoid(torch.tensor([[1, 2], [3, -4]])))
s = nn.Sigmoid()
print(s)
print(s(torch.linspace(-3, 3, 7)))
print(nn.Sequential(nn.Linear(3, 2), nn.Sigmoid()))
print(F.sigmoid(torch.tensor([0.5, -1.5])))
print(F.tanh(torch.tensor([0.5, -1.5])))
z = torch.randn(20)
z2 = z.clone()
print(z.sigmoid_() is z, torch.equal(z, torch.sigmoid(z2)))
torch.sigmoid_(z2)
print(torch.equal(z, z2))
a = torch.randn(20, requires_grad=True)
b = a * 2
b.sigmoid_()
print(b.grad_fn.name())
b.sum().backward()
print(a.grad)

# flatten
t = torch.arange(24.0).reshape(2, 3, 4)
print(t.flatten())
print(t.flatten(1))
print(torch.flatten(t, 0, 1).shape, t.flatten(start_dim=-2, end_dim=-1).shape, t.flatten(1, 1) is t)
print(torch.tensor(3.0).flatten())
w = torch.randn(2, 3, 4, requires_grad=True)
f = w.flatten(1)
print(f.grad_fn.name())
(f * torch.arange(12.0)).sum().backward()
print(w.grad)
try:
    t.flatten(2, 1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    t.flatten(3)
except IndexError as e:
    print("IndexError:", e)

# expand_as
v = torch.tensor([[1.0], [2.0]], requires_grad=True)
e = v.expand_as(torch.zeros(2, 3))
print(e, e.grad_fn.name())
(e * torch.arange(6.0).reshape(2, 3)).sum().backward()
print(v.grad)

# gather
src = torch.randn(3, 4, requires_grad=True)
idx = torch.tensor([[0, 1, 1, 3], [2, 2, 0, 0], [3, 3, 3, 1]])
g = src.gather(1, idx)
print(g, g.grad_fn.name())
g.sum().backward()
print(src.grad)
print(torch.gather(torch.arange(6.0).reshape(2, 3), 0, torch.tensor([[1, 0, 1]])))

# roll
r = torch.arange(10.0).reshape(2, 5)
print(torch.roll(r, 1), torch.roll(r, -2, 1), r.roll((1, 2), (0, 1)), r.roll(7, dims=1))
q = torch.randn(2, 5, requires_grad=True)
rq = q.roll(2, 1)
print(rq.grad_fn.name())
(rq * torch.arange(10.0).reshape(2, 5)).sum().backward()
print(q.grad)
try:
    torch.roll(r, (1, 2), 0)
except RuntimeError as e:
    print("RuntimeError:", e)

# uniform_ / normal_: the draws of nn.init
torch.manual_seed(1)
u = torch.empty(3, 5).uniform_(-2, 3)
n1 = torch.empty(17).normal_(1.5, 0.25)
torch.manual_seed(1)
u2 = nn.init.uniform_(torch.empty(3, 5), -2, 3)
n2 = nn.init.normal_(torch.empty(17), 1.5, 0.25)
print(u)
print(n1)
print(torch.equal(u, u2), torch.equal(n1, n2))
print(torch.empty(4).uniform_(), torch.empty(20).normal_())
try:
    torch.empty(2).uniform_(1, 0)
except RuntimeError as e:
    print("RuntimeError:", e)

# inference_mode
p = torch.ones(3, requires_grad=True)
print(torch.is_inference_mode_enabled())
with torch.inference_mode():
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    k = p * 2
print(k.requires_grad, k.grad_fn, torch.is_inference_mode_enabled(), torch.is_grad_enabled())
with torch.inference_mode(False):
    print(torch.is_inference_mode_enabled(), (p * 2).grad_fn.name())


@torch.inference_mode()
def predict(x):
    return x * 3, torch.is_inference_mode_enabled()


print(predict(p))

# a number divided by a tensor: reciprocal(x) * number
x = torch.randn(19, requires_grad=True)
y = 1 / (1 + x)
def names(fn):
    return [(f.name() if f is not None else None, i) for f, i in fn.next_functions]


print(y.grad_fn.name(), names(y.grad_fn), names(y.grad_fn.next_functions[0][0]))
y.sum().backward()
print(x.grad)
x.grad = None
y = 3 / torch.exp(x)
print(y)
y.backward(torch.randn(19))
print(x.grad)
print(7 / torch.tensor([2, 3, 4]), 2.5 / torch.tensor([1.5, 3.0]), torch.reciprocal(torch.tensor([3.0, 0.0, -7.0])))
