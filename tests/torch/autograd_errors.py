# What PyTorch refuses in autograd, with its messages: a tensor the backward needs, changed in
# place after it was saved (the version counter), and in-place writes into a leaf that
# requires grad.
import torch

w = torch.ones(2, 3, requires_grad=True)
x = torch.ones(2, 3)
y = w * x
x += 1
try:
    y.sum().backward()
except RuntimeError as e:
    print(e)

a = torch.ones(3, requires_grad=True)
e = a.exp()
e += 1
try:
    e.sum().backward()
except RuntimeError as err:
    print(err)

b = torch.ones(3, requires_grad=True)
s = torch.softmax(b * 2, 0)
s.mul_(2)
try:
    s.sum().backward()
except RuntimeError as err:
    print(err)

q = torch.ones(2, 2, requires_grad=True)
k = torch.ones(2, 2)
scores = q @ k.T
k.mul_(3)
try:
    scores.sum().backward()
except RuntimeError as err:
    print(err)

w2 = torch.ones(3, requires_grad=True)
z = (w2 * w2).sum()
with torch.no_grad():
    w2 += 1
try:
    z.backward()
except RuntimeError as err:
    print(err)

# Changing a tensor that was not saved is allowed: x + y saves nothing.
c = torch.ones(3, requires_grad=True)
d = torch.ones(3)
f = c + d
d += 1
f.sum().backward()
print(c.grad)

ops = [("add_", lambda: w.add_(1)),
       ("masked_fill_", lambda: w.masked_fill_(torch.ones(2, 3, dtype=torch.bool), 0.0)),
       ("zero_", lambda: w.zero_()),
       ("-=", lambda: w.sub_(1))]
for name, op in ops:
    try:
        op()
    except RuntimeError as err:
        print(name, err)
