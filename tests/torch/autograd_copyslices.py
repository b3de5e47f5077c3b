# Writing into part of a tensor with autograd on (PyTorch's CopySlices): `x[:, 0] = y` and
# `x[1] = 5.0` into a result that requires grad, a value that requires grad written into a plain
# tensor, a broadcast value, and the error for a leaf that requires grad.
import torch
torch.manual_seed(0)
w = torch.randn(3, 4, requires_grad=True)
y = torch.randn(3, requires_grad=True)
x = w * 2
x[:, 0] = y
x[1] = 5.0
print(x.grad_fn.name())
(x * torch.randn(3, 4)).sum().backward()
print(w.grad)
print(y.grad)
b = torch.zeros(2, 3)
v = torch.randn(3, requires_grad=True)
b[0] = v
b[1, 1:] = v[:2] * 3
(b * b).sum().backward()
print(v.grad, b.requires_grad, b.is_leaf)
s = torch.randn(3, requires_grad=True)
z = torch.zeros(4, 3)
z[1:3] = s
z.sum().backward()
print(s.grad)
try:
    w[0, 0] = 1.0
except RuntimeError as e:
    print(e)

# x[idx] += y and x[idx] *= s: the in-place op on the part, then written back through x.
torch.manual_seed(0)
w = torch.randn(3, 4, requires_grad=True)
y = torch.randn(3, requires_grad=True)
x = w * 2
x[:, 0] += y
x[1] *= 3
(x * torch.randn(3, 4)).sum().backward()
print(w.grad)
print(y.grad)

# The other augmented assignments write in place too (Tensor.__ipow__ is pow_; //=, %=, &=, |=,
# ^= write the result back): a view's base and every alias see it, autograd records it through
# the view, and an operand that partly overlaps what is written is PyTorch's error.
torch.manual_seed(0)
w = torch.randn(5, requires_grad=True)
x = w * 1
y = x[1:]
y **= 2
y **= torch.tensor([1.0, 2.0, 0.5, 3.0])
print(x.grad_fn.name(), y.grad_fn.name())
(x * torch.arange(5.0)).sum().backward()
print(w.grad)
a = torch.arange(8.0)
b = a[2:]
alias = b
b //= 3
b %= 1.5
print(a, alias is b)
i = torch.tensor([6, 5, 12, 7])
j = i[1:]
j &= 6
j |= torch.tensor([8, 0, 1])
j ^= 3
print(i)
def ipow(t):
    v = t[1:]
    v **= t[:-1]
for f in (ipow, lambda t: t[1:].clamp_(max=t[:-1]), lambda t: t[1:].pow_(t[:-1])):
    try:
        f(torch.arange(8.0))
    except RuntimeError as e:
        print(str(e)[:80])
k = torch.tensor([1, 2])
try:
    k //= 2.5
except RuntimeError as e:
    print(e)
