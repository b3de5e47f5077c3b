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
