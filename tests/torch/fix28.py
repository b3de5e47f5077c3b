# The torch findings of review 28, as PyTorch 1.13 prints them: batch_first GRU/RNN output through
# _rnn_impl's in-place transpose_ (TransposeBackward1; LSTM's is out of place), Tensor.transpose_
# and t_ themselves (the layout, grad_fn, version, a view's base, refusals, gradients); `x in t` as
# Tensor.__contains__, (element == self).any() (broadcast, its errors).
# Errors are printed as "Type - message"; grad_fns by name (their addresses differ).
import torch


def show(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + " -", e)


def name(t):
    return type(t.grad_fn).__name__ if t.grad_fn is not None else None


# ---- review 28 #4: GRU and RNN with batch_first transpose their output in place ----
torch.manual_seed(0)
for cls in (torch.nn.GRU, torch.nn.LSTM, torch.nn.RNN):
    for bf in (True, False):
        m = cls(3, 2, batch_first=bf, num_layers=2)
        o, h = m(torch.randn(1, 4, 3) if bf else torch.randn(4, 1, 3))
        print(cls.__name__, bf, name(o), o.grad_fn.next_functions[0][0].name(), tuple(o.shape), o.stride(), o._version)
        o.sum().backward()
        print(m.weight_ih_l0.grad)
    o, h = cls(3, 2, batch_first=True)(torch.randn(4, 3))   # unbatched: squeezed after the transpose_
    print(cls.__name__, name(o), tuple(o.shape))
    with torch.no_grad():
        o, h = cls(3, 2, batch_first=True)(torch.randn(2, 4, 3))
    print(cls.__name__, name(o), tuple(o.shape), o.stride())

# ---- Tensor.transpose_ / t_ ----
a = torch.randn(2, 3, requires_grad=True)
b = a * 2
c = b.transpose_(0, 1)
print(c is b, name(b), b.grad_fn.next_functions[0][0].name(), b._version, b.shape, b.is_contiguous(), b.stride())
(b * torch.arange(6.).view(3, 2)).sum().backward()
print(a.grad)
x = torch.randn(2, 3, requires_grad=True)
show(lambda: x.transpose_(0, 1))
show(lambda: x[0:1].transpose_(0, 1))
show(lambda: torch.randn(2).transpose_(0, 5))
show(lambda: torch.randn(2, 3, 4).t_())
show(lambda: torch.randn(2, 3, 4).transpose_(-1, 0).shape)
y = torch.arange(6.).view(2, 3)
v = y.view(6)
y.transpose_(0, 1)
print(y, y._version, v._version, v, y.is_contiguous())
b = a * 2
b.t_()
print(name(b), b)
b = a * 3
b.retain_grad()
b.transpose_(0, 1)
(b * torch.arange(6.).view(3, 2)).sum().backward()
print(b.grad, name(b))
a.grad = None
b = a * 2
v = b[0:2]
v.transpose_(0, 1)
print(name(v), v.grad_fn.next_functions[0][0].name(), v._base is b, v.shape)
(v * torch.arange(6.).view(3, 2)).sum().backward()
print(a.grad)
b = a * 2
with torch.no_grad():
    b.transpose_(0, 1)
print(name(b), b.shape)
z = torch.randn(3)
print(z.transpose_(0, -1).shape, z._version, z.t_().shape, z._version)
w = (a * 1)[0]
w.transpose_(0, 0)
print(name(w))
b = a * 2
u = b[:, 1:]
b.add_(1)
u.t_()
print(name(u), u.grad_fn.next_functions[0][0].name())

# ---- review 28 #5: `element in tensor` is (element == self).any() ----
t = torch.tensor([[1, 2], [3, 4]])
for e in [torch.tensor([1, 2]), torch.tensor([9, 9]), torch.tensor([1, 9]), torch.tensor(3), t, 2, 2.0, True, 5,
          torch.tensor([[1], [7]]), torch.tensor([]), torch.tensor([1, 2, 3]), "a", [1, 2], None, (1,)]:
    show(lambda: (e in t, e not in t))
print(torch.tensor([1., float("nan")]) in torch.tensor([float("nan")]), 1 in torch.tensor([]), 0 in torch.zeros(2, 0))
print(t.__contains__(4), torch.tensor([True, False]).__contains__(False), 1.5 in torch.tensor([1.5]))
show(lambda: t.__contains__())
