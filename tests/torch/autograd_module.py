# torch.autograd: the legacy Variable, autograd.grad (first order; leaf and non-leaf inputs, shared
# inputs, broadcasting, several outputs with grad_outputs, a transformer layer's parameters, each
# compared with what backward() leaves in .grad), autograd.backward, the errors, custom Functions
# (PyTorch's "Defining new autograd functions" tutorials, float32) and anomaly mode.
import math
import torch
import torch.nn as nn
from torch.autograd import Variable


def show(name, grads):
    print(name, [None if g is None else g.tolist() for g in grads])


# ---- Variable ----
t = torch.tensor([1., 2.], requires_grad=True)
v = Variable(t)
print(type(v), v.requires_grad, v.is_leaf, v.grad_fn, v, isinstance(v, Variable), isinstance(t, Variable))
print(isinstance(3, Variable), Variable, torch.autograd.Variable is Variable)
v2 = Variable(t * 2)
print(v2, v2.requires_grad, v2.is_leaf)
v3 = Variable(torch.ones(2), requires_grad=True)
print(v3, v3.is_leaf, v3.grad_fn)
v3.data[0] = 5
print(v3)
w = Variable(torch.ones(3))
w[1] = 7.
print(w)
print(Variable(torch.tensor([1, 2])))
for bad in ([1., 2.], 'x'):
    try:
        Variable(bad)
    except TypeError as e:
        print('TypeError', e)
try:
    Variable(torch.tensor([1, 2]), requires_grad=True)
except RuntimeError as e:
    print('RuntimeError', e)
try:
    Variable(t, True, True)
except ValueError as e:
    print('ValueError', e)
(v3 * 3).sum().backward()
print(v3.grad)

# ---- autograd.grad: one output ----
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
w = torch.randn(4, 5, requires_grad=True)
b = torch.randn(5, requires_grad=True)
y = torch.tanh(x @ w + b)
loss = (y * y).sum()
g = torch.autograd.grad(loss, [x, w, b], retain_graph=True)
print(type(g), len(g), x.grad, w.grad, b.grad)
show('grad x w b', g)
print([gi.requires_grad for gi in g], [gi.grad_fn for gi in g], [gi.is_leaf for gi in g])
loss.backward()
print(torch.equal(g[0], x.grad), torch.equal(g[1], w.grad), torch.equal(g[2], b.grad))
show('single input', torch.autograd.grad((x.exp() * 2).mean(), x))

# shared inputs, used several times and broadcast
a = torch.randn(4, 1, requires_grad=True)
c = torch.randn(1, 3, requires_grad=True)
z = a * c + a.sigmoid() * (c - a) ** 2 + (a @ c).softmax(dim=1) * a
out = z.sum() + (a * a).sum()
ga, gc = torch.autograd.grad(out, (a, c), retain_graph=True)
show('shared', (ga, gc))
out.backward()
print(torch.equal(ga, a.grad), torch.equal(gc, c.grad))

# non-leaf inputs: the gradient in its grad_fn's slot
p = torch.randn(2, 3, requires_grad=True)
h = p * 3
h2 = h.relu() + h.sin()
parts = h2.unbind(0)
s = parts[0].sum() * 2 + (parts[1] ** 2).sum() + h.mean()
g_h, g_h2, g_p1, g_p = torch.autograd.grad(s, [h, h2, parts[1], p], retain_graph=True)
show('non-leaf', (g_h, g_h2, g_p1, g_p))
h.retain_grad()
h2.retain_grad()
s.backward()
print(torch.equal(g_h, h.grad), torch.equal(g_h2, h2.grad), torch.equal(g_p, p.grad))

# several outputs with grad_outputs (the engine's root sums them, in order)
q = torch.randn(3, requires_grad=True)
r = torch.randn(3, requires_grad=True)
o1 = q * r
o2 = (q + r).exp()
o3 = q.sum() * 2
go = torch.autograd.grad([o1, o2, o3], [q, r], grad_outputs=[torch.ones(3), torch.tensor([0.5, -1., 2.]), None], retain_graph=True)
show('multi', go)
go2 = torch.autograd.grad([o1, o1], [q], grad_outputs=[torch.tensor([1., 2., 3.]), torch.tensor([0.1, 0.2, 0.3])], retain_graph=True)
show('same output twice', go2)
show('vector output', torch.autograd.grad(o2, r, torch.tensor([1., -2., 0.25])))
show('output is input', torch.autograd.grad(q, q, torch.tensor([1., 2., 3.])))
u = torch.randn(2, requires_grad=True)
unused = torch.randn(2, requires_grad=True)
show('allow_unused', torch.autograd.grad((u * 2).sum(), [u, unused], allow_unused=True))
show('no path through detach', torch.autograd.grad((u.detach() * unused).sum(), [unused, u], allow_unused=True))

# grad does not touch .grad, and runs only what its inputs need
m = torch.randn(2, 2, requires_grad=True)
n = torch.randn(2, 2, requires_grad=True)
prod = (m @ n).sum()
gm = torch.autograd.grad(prod, m, retain_graph=True)
print(m.grad, n.grad)
show('m only', gm)
prod.backward()
print(torch.equal(gm[0], m.grad), n.grad.tolist())

# a transformer layer's parameters
torch.manual_seed(1)
layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True)
src = torch.randn(2, 5, 8)
lo = layer(src).pow(2).mean()
params = list(layer.parameters())
gp = torch.autograd.grad(lo, params, retain_graph=True)
print([p.grad for p in params].count(None), len(gp))
lo.backward()
print([torch.equal(g1, p1.grad) for g1, p1 in zip(gp, params)])
for (name, p1), g1 in zip(layer.named_parameters(), gp):
    print(name, g1.flatten()[:4].tolist())

# ---- autograd.backward ----
k1 = torch.randn(3, requires_grad=True)
e1 = k1 * 2
e2 = k1.exp()
torch.autograd.backward([e1, e2], [torch.tensor([1., 2., 3.]), torch.ones(3)])
print(k1.grad.tolist())
torch.autograd.backward((k1 ** 2).sum())
print(k1.grad.tolist())
torch.autograd.backward([k1.sum(), (k1 * 3).sum()])
print(k1.grad.tolist())
f1 = k1 * k1
torch.autograd.backward(f1, torch.ones(3), retain_graph=True)
torch.autograd.backward(f1, grad_tensors=torch.ones(3))
print(k1.grad.tolist())

# ---- errors ----
def error(fn):
    try:
        fn()
        print('no error')
    except Exception as e:
        print(type(e).__name__ + ':', e)


k2 = torch.randn(3, requires_grad=True)
error(lambda: torch.autograd.grad((k2 * 2).sum(), [k2, torch.randn(2, requires_grad=True)]))
error(lambda: torch.autograd.grad(torch.ones(2).sum(), [k2]))
error(lambda: torch.autograd.grad((k2 * 2).sum(), [torch.ones(2)]))
error(lambda: torch.autograd.grad(k2 * 2, [k2]))
error(lambda: torch.autograd.grad(k2 * 2, [k2], torch.ones(2)))
error(lambda: torch.autograd.grad([k2 * 2, k2.sum()], [k2], [torch.ones(3)]))
error(lambda: torch.autograd.grad(k2 * 2, [k2], [3.0]))
error(lambda: torch.autograd.backward(torch.ones(3)))
error(lambda: torch.autograd.backward([k2.sum(), torch.ones(1)]))
twice = (k2.exp()).sum()
torch.autograd.grad(twice, k2)
error(lambda: torch.autograd.grad(twice, k2))
error(lambda: twice.backward())

# ---- custom Functions ----
class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        print('needs_input_grad', ctx.needs_input_grad)
        return input.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[input < 0] = 0
        return grad_input


xr = torch.tensor([-1., 0.5, 2., -3.], requires_grad=True)
yr = MyReLU.apply(xr * 2)
print(yr, yr.requires_grad, yr.is_leaf)
print(type(yr.grad_fn), type(yr.grad_fn).__name__, yr.grad_fn.name(), yr.grad_fn.next_functions[0][0].name())
print(repr(yr.grad_fn).split(' object')[0])
(yr * torch.tensor([1., 2., 3., 4.])).sum().backward(retain_graph=True)
print(xr.grad)
show('grad through MyReLU', torch.autograd.grad(yr.sum(), xr))
error(lambda: yr.sum().backward())
with torch.no_grad():
    print(MyReLU.apply(xr).grad_fn)
print(MyReLU.apply(torch.tensor([1., -1.])).requires_grad)


class MulAdd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, scale):
        ctx.scale = scale
        ctx.save_for_backward(a, b)
        print('needs_input_grad', ctx.needs_input_grad)
        return a * b * scale, (a + b).argmax()

    @staticmethod
    def backward(ctx, grad_prod, grad_idx):
        a, b = ctx.saved_tensors
        print('grad_idx', grad_idx)
        return grad_prod * b * ctx.scale, grad_prod * a * ctx.scale, None


ma = torch.tensor([1., 2., 3.], requires_grad=True)
mb = torch.tensor([0.5, -1., 4.])
prod, idx = MulAdd.apply(ma, mb, 3.0)
print(prod, idx, idx.requires_grad)
(prod * prod).sum().backward()
print(ma.grad, mb.grad)


class Split(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, g1, g2):
        return g1 * 2 + g2 * 3


sx = torch.tensor([1., 2.], requires_grad=True)
s1, s2 = Split.apply(sx)
print(s1.grad_fn.name(), s1.grad_fn is not None, s2.grad_fn.name())
s1.sum().backward()
print(sx.grad)
show('two outputs', torch.autograd.grad((s1 * s2).sum(), sx))


class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x + y

    @staticmethod
    def backward(ctx, g):
        return g


error(lambda: Bad.apply(torch.ones(2, requires_grad=True), torch.ones(2)).sum().backward())


class BadShape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 1

    @staticmethod
    def backward(ctx, g):
        return torch.ones(5)


error(lambda: BadShape.apply(torch.ones(3, requires_grad=True)).sum().backward())

# PyTorch's tutorial: a two-layer net with MyReLU, trained by hand (float32)
class MyReLU2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return input.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[input < 0] = 0
        return grad_input


torch.manual_seed(0)
N, D_in, H, D_out = 64, 100, 50, 10
xt = torch.randn(N, D_in)
yt = torch.randn(N, D_out)
w1 = torch.randn(D_in, H, requires_grad=True)
w2 = torch.randn(H, D_out, requires_grad=True)
learning_rate = 1e-6
for t in range(200):
    relu = MyReLU2.apply
    y_pred = relu(xt @ w1) @ w2
    loss = (y_pred - yt).pow(2).sum()
    if t % 50 == 49:
        print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        w1 -= learning_rate * w1.grad
        w2 -= learning_rate * w2.grad
        w1.grad.zero_()
        w2.grad.zero_()
print(w1.sum().item(), w2.sum().item())

# PyTorch's tutorial: LegendrePolynomial3 (float32)
class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)


dtype = torch.float
device = torch.device("cpu")
x = torch.linspace(-math.pi, math.pi, 2000, device=device, dtype=dtype)
y = torch.sin(x)
a = torch.full((), 0.0, device=device, dtype=dtype, requires_grad=True)
b = torch.full((), -1.0, device=device, dtype=dtype, requires_grad=True)
c = torch.full((), 0.0, device=device, dtype=dtype, requires_grad=True)
d = torch.full((), 0.3, device=device, dtype=dtype, requires_grad=True)
learning_rate = 5e-6
for t in range(2000):
    P3 = LegendrePolynomial3.apply
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None
print(f'Result: y = {a.item()} + {b.item()} * P3({c.item()} + {d.item()} x)')

# ---- anomaly mode and grad mode's names ----
print(torch.is_anomaly_enabled())
with torch.autograd.set_detect_anomaly(True):
    print(torch.is_anomaly_enabled())
print(torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(True)
print(torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(False)
with torch.autograd.detect_anomaly():
    print(torch.is_anomaly_enabled(), (torch.ones(2, requires_grad=True) * 2).sum().item())
print(torch.is_anomaly_enabled())
print(torch.autograd.no_grad is torch.no_grad, torch.autograd.enable_grad is torch.enable_grad,
      torch.autograd.set_grad_enabled is torch.set_grad_enabled, torch.autograd.inference_mode is torch.inference_mode)
with torch.autograd.no_grad():
    print((k2 * 2).requires_grad)
