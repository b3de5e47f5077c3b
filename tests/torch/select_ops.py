# Ops from issue 18 item 3 as tutorials call them: values with indices (torch.return_types),
# sort/topk, flip, all/any, bool operators, dtype conversions, classification losses, and
# random integers from torch's generator. Numbers are bit-checked in tests/vectors/opinfo*.txt;
# this file checks what they print, and the errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([[3.0, -1.0, 2.0, 3.0], [0.5, 4.0, -2.0, 4.0]])
m = x.max(dim=1)
print(m)
print(m.values, m.indices)
values, indices = torch.min(x, 0, keepdim=True)
print(values, indices)
print(type(m).__name__, len(m), m[0])
print(x.argmin(), x.argmin(dim=1), torch.argmin(x, 0, keepdim=True))
print(torch.sort(x, descending=True))
print(x.sort(dim=0).indices)
print(torch.topk(x, 2))
print(x.topk(1, dim=0, largest=False).values)
print(x.flip(0), torch.flip(x, [0, 1]))
b = x > 1
print(b.all(), b.any(), b.all(dim=1), torch.any(b, 0, keepdim=True))
print(~b, b & (x < 3.5), b | (x < 0), b ^ (x < 3.5))
print(torch.logical_not(b), (~torch.tensor([0, 5, -1])))
print(x.nelement(), x.long(), x.bool().type_as(x))
print(torch.bmm(torch.ones(2, 2, 3), torch.ones(2, 3, 1)).shape)

logits = torch.tensor([[1.0, 2.0, 0.5], [0.1, -1.0, 3.0], [2.0, 2.0, 2.0]], requires_grad=True)
target = torch.tensor([1, 2, 0])
print(F.log_softmax(logits, dim=-1))
print(torch.log_softmax(logits, 1), logits.log_softmax(0))
loss = F.cross_entropy(logits, target)
print(loss)
loss.backward()
print(logits.grad)
print(F.nll_loss(F.log_softmax(logits, 1), target, reduction='none'))
print(F.cross_entropy(logits, target, ignore_index=2, reduction='sum'))
crit = nn.CrossEntropyLoss()
print(crit, crit(logits, target))
print(nn.NLLLoss(weight=torch.tensor([1.0, 2.0, 0.5]))(logits.log_softmax(-1), target))
print(nn.LogSoftmax(dim=1)(logits))
p = torch.tensor([[0.2, 0.3, 0.5], [0.1, 0.0, 0.9], [1 / 3, 1 / 3, 1 / 3]])
print(F.kl_div(logits.log_softmax(-1), p, reduction='batchmean'))
print(nn.KLDivLoss(reduction='sum'), nn.KLDivLoss(reduction='sum')(logits.log_softmax(-1), p))
print(F.kl_div(logits.log_softmax(-1), p.log(), reduction='none', log_target=True))
print(torch.xlogy(p, p), torch.xlogy(2, p[0]))

torch.manual_seed(0)
print(torch.randint(0, 10, (8,)))
print(torch.randint(5, (2, 3)), torch.randint(-3, 3, size=(4,)))
print(torch.randperm(10), torch.randperm(1))
print(torch.normal(0.0, 1.0, size=(2, 3)))
g = torch.Generator().manual_seed(7)
print(torch.randint(100, (5,), generator=g), torch.randperm(6, generator=g))
probs = torch.softmax(torch.tensor([[1.0, 1.2, 0.8, 1.1], [0.3, 0.1, 0.2, 0.0]]), dim=-1)
print(torch.multinomial(probs, num_samples=1), torch.multinomial(probs[0], 3), probs.multinomial(2, generator=g))
print([torch.multinomial(probs[1], 1).item() for _ in range(12)], torch.multinomial(probs, 4))

calls = [("torch.sort(x, dims=0)", lambda: torch.sort(x, dims=0)), ("torch.topk(x, 5)", lambda: torch.topk(x, 5)),
         ("torch.flip(x, 0)", lambda: torch.flip(x, 0)),
         ("F.cross_entropy(logits, target, reduce_mean=True)", lambda: F.cross_entropy(logits, target, reduce_mean=True)),
         ("F.nll_loss(logits, torch.tensor([0, 1, 7]))", lambda: F.nll_loss(logits, torch.tensor([0, 1, 7]))),
         ("torch.randint(3, 2, (2,))", lambda: torch.randint(3, 2, (2,))),
         ("torch.multinomial(probs, 5)", lambda: torch.multinomial(probs, 5)),
         ("torch.multinomial(-probs, 1)", lambda: torch.multinomial(-probs, 1)),
         ("x.argmin(dim=5)", lambda: x.argmin(dim=5)), ("torch.bmm(x, x)", lambda: torch.bmm(x, x))]
for code, call in calls:
    try:
        call()
        print(code, "ran")
    except Exception as e:
        print(code, type(e).__name__, str(e).split('\n')[0])
# Index tensors beside integers, ranges and None (x[idx, :step], beam search's gen_seq[rows, :step]):
# the integers select and the ranges slice first, then the tensors index the view.
x = torch.arange(60.).reshape(3, 4, 5)
i = torch.tensor([2, 0, 2])
print(x[i, :2])
print(x[i, 1:3, ::2].shape, x[0, i].shape, x[i, 0], x[:, i, 1], x[None, i, :2].shape, x[..., 1, i].shape)
print(x[1:, torch.tensor([True, False, True, True]), 2])
g = torch.arange(12).reshape(3, 4)
g[:, :2] = g[torch.tensor([2, 1, 0]), :2]
g[torch.tensor([0, 2]), 1:3] = -1
g[1, torch.tensor([0, 3])] = 7
print(g)
w = torch.randn(3, 4, requires_grad=True)
y = w[torch.tensor([1, 1, 2]), 1:3]
y.sum().backward()
print(y, w.grad)
