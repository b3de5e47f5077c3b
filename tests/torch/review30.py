# Review 30's findings on the torch side: each block printed what torch 1.13 prints.
import torch

# 4. x.data has a version counter of its own (variable_data): writing it between forward and
# backward is not an in-place write autograd sees.
w = torch.ones(3, requires_grad=True)
y = (w * w).sum()
w.data.add_(1)
y.backward()
print(w.grad, w._version)
m = torch.nn.Linear(2, 1)
with torch.no_grad():
    m.weight.fill_(1.0); m.bias.fill_(0.0)
loss = m(torch.ones(1, 2)).pow(2).sum()
for p in m.parameters():
    p.data.clamp_(-0.5, 0.5)
loss.backward()
print(m.weight.grad, m.bias.grad)
v = torch.ones(2, requires_grad=True)
z = v.exp().sum()
v.data[0] = 3.0
z.backward()
print(v.grad)
d = w.data
d.mul_(2)
print(w._version, d._version, d.t()._version, d.detach()._version, w.detach()._version)
d.t().add_(1)
print(w._version, d._version, w)
# a view written in place still bumps the counter its base shares; .data of it does not
u = torch.ones(4, requires_grad=True)
h = u * 1
s = h.exp().sum()
h[1:].data.zero_()
print(h._version)
s.backward()
print(u.grad)
h2 = u * 1
s2 = (h2 * h2).sum()
h2[1:].add_(1)
print(h2._version)
try:
    s2.backward()
except RuntimeError as e:
    print(str(e)[:120])
# 12. clamp of an integer tensor with integer tensor bounds stays an integer tensor
a = torch.arange(5)
print(a.clamp(min=torch.full((5,), 2)), torch.clamp(a, torch.tensor(1), torch.tensor(3)))
a.clamp_(min=torch.full((5,), 2))
print(a, torch.arange(6).view(2, 3).clamp(max=torch.tensor([[1], [4]])))
print(torch.arange(4, dtype=torch.int32).clamp(torch.tensor(1), torch.tensor([2, 2, 2, 2], dtype=torch.int32)).dtype)
print(torch.tensor([True, False]).clamp(min=torch.tensor(1)), torch.arange(3).clamp(min=torch.tensor([0.5, 1.5, 2.5])))
# 13. index_put_ with 0-d index tensors: each an index broadcast as shape []
x = torch.zeros(2)
i = torch.tensor(1)
for f in [lambda: x.index_put_((i,), torch.ones(1)), lambda: x.index_put_((i,), torch.ones(())),
          lambda: x.clone().index_put_((i,), torch.ones(()), accumulate=True), lambda: x.clone().index_put_([i], torch.tensor(5.))]:
    try:
        print(f())
    except RuntimeError as e:
        print("RuntimeError", e)
print(i.shape, i)
y = torch.zeros(3, 4)
print(y.clone().index_put_((torch.tensor(1), torch.tensor(2)), torch.tensor(7.)))
print(y.clone().index_put_((torch.tensor([1, 1]), torch.tensor(2)), torch.tensor(7.), accumulate=True))
for k in [(None, torch.tensor(2)), (1,), (torch.tensor(1.0),), (torch.tensor(1, dtype=torch.int32),), (torch.tensor(5),)]:
    try:
        y.clone().index_put_(k, torch.tensor(7.))
    except (TypeError, IndexError) as e:
        print(type(e).__name__, e)
print(y.clone().index_put_((torch.tensor([True, False, True]),), torch.tensor(7.)))
w = torch.zeros(3, requires_grad=True)
z = w * 1
z.index_put_((torch.tensor(1),), torch.tensor(4.))
print(z)
z.sum().backward()
print(w.grad)
# 1. einsum of 3+ operands with a size-0 letter runs ATen's loop (values, gradients, grad_fn)
torch.manual_seed(0)
for eq, shapes in [("i,j,k->jk", [(0,), (2,), (3,)]), ("cb,a,cd,be->ae", [(0, 2), (1,), (0, 3), (2, 4)]),
                   ("ab,bc,cd->ad", [(2, 0), (0, 3), (3, 2)]), ("ab,bc,cd", [(2, 3), (3, 0), (0, 2)]),
                   ("i,i,i->", [(0,), (0,), (0,)]), ("ij,jk,k->i", [(0, 2), (2, 3), (3,)])]:
    ops = [torch.randn(s).requires_grad_() for s in shapes]
    y = torch.einsum(eq, *ops)
    print(eq, y, y.grad_fn.name())
    y.sum().backward()
    print([o.grad for o in ops])
# 13. index_put_ with a 0-d bool mask alone: masked_fill_ over all (True) or nothing (False)
for m in [torch.tensor(True), torch.tensor(False)]:
    print(torch.zeros(2, 3).index_put_((m,), torch.tensor(5.)), torch.zeros(3, dtype=torch.long).index_put_((m,), torch.tensor(4)))
