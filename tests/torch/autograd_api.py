# Autograd as training loops written without an optimizer use it: loss.backward(), in-place
# updates of parameters under torch.no_grad() (`w -= lr * w.grad` changes w itself),
# .grad.zero_(), retain_grad(), .grad_fn (its name and next_functions), .is_leaf, .detach(),
# in-place arithmetic on tensors that require grad, and PyTorch's errors for what it refuses.
import torch

torch.manual_seed(0)
w = torch.randn(4, 3, requires_grad=True)
b = torch.zeros(3, requires_grad=True)
x = torch.randn(5, 4)
t = torch.randn(5, 3)
lr = 0.1
same = w
for step in range(3):
    y = x @ w + b
    loss = ((y - t) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
    w.grad.zero_()
    b.grad.zero_()
    print(step, loss.item())
print(w)
print(same is w, w.is_leaf, w.requires_grad, w.grad)

# The same steps with the methods: sub_, mul_, add_, div_.
torch.manual_seed(0)
w2 = torch.randn(4, 3, requires_grad=True)
for step in range(2):
    loss = ((x @ w2 - t) ** 2).sum()
    loss.backward()
    with torch.no_grad():
        w2.sub_(w2.grad * lr)
        w2.mul_(0.99)
        w2.add_(0.001)
        w2.div_(1.01)
    w2.grad = None
    print(step, loss.item())
print(w2)

# grad_fn, is_leaf, detach, retain_grad.
a = torch.randn(3, requires_grad=True)
c = torch.randn(3)
h = (a * c).tanh()
print(type(h.grad_fn).__name__, h.grad_fn.name(), a.grad_fn, c.grad_fn)
print([(type(f).__name__, i) for f, i in h.grad_fn.next_functions])
mul = h.grad_fn.next_functions[0][0]
print([(None if f is None else f.name(), i) for f, i in mul.next_functions])
print(a.is_leaf, h.is_leaf, c.is_leaf, h.detach().is_leaf, h.detach().requires_grad)
h.retain_grad()
(h * h).sum().backward()
print(h.grad)
print(a.grad)

# In-place arithmetic on a non-leaf: the gradient flows through each step.
a = torch.randn(3, requires_grad=True)
h = a * 2
h += a
h *= a
h /= 3
h -= 1
h.sum().backward()
print(a.grad, h.grad_fn.name())

# Python's += on plain tensors, on indexed parts and on views writes in place.
u = torch.ones(2, 3)
alias = u
u[0] += 5
u[:, 1] *= 2
u /= 2
print(u, alias is u)
v = torch.ones(3)
view = v[1:]
view += 1
print(v)
q = torch.ones(2, dtype=torch.long)
q += 2
print(q)

# What PyTorch refuses.
try:
    w += 1
except RuntimeError as e:
    print(e)
try:
    w.mul_(2)
except RuntimeError as e:
    print(e)
try:
    z = torch.ones(2, dtype=torch.long)
    z += 0.5
except RuntimeError as e:
    print(e)
try:
    torch.ones(2).retain_grad()
except RuntimeError as e:
    print(e)

# The nodes PyTorch records for arithmetic with a Python number, and their inputs: a number is a
# second input that needs no gradient for * / + -, none for 1 - x, x ** 2 and -x; 2 ** x is a
# tensor ** tensor (Tensor.__rpow__).
w = torch.ones(2, requires_grad=True)
for y in [w * 2, 2 * w, w / 2, w + 1, 1 + w, w - 1, 1 - w, w ** 2, -w, w.pow(2), 2 ** w, torch.where(w > 0, w, 0.0)]:
    print(y.grad_fn.name(), len(y.grad_fn.next_functions), [None if f is None else f.name() for f, i in y.grad_fn.next_functions])
