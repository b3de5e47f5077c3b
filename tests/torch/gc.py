# gc.py: reference cycles and the gc module, as CPython 3.11 with torch 1.13: a cycle nothing
# refers to is freed by gc.collect() (a weak reference to it then answers None), one that a name
# still reaches is left whole, and a model holding itself still trains after collections.
import gc
import weakref
import torch
import torch.nn as nn

gc.collect()
a = [1]
a.append(a)
del a
print(gc.collect())
d = {"k": 1}
d["me"] = d
del d
print(gc.collect())


class Node:
    pass


n = Node()
n.me = n
n.t = torch.ones(2, 3)
r = weakref.ref(n)
del n
gc.collect()
print(r() is None)

kept = Node()
kept.me = kept
kept.items = [kept, {"back": kept}]
rk = weakref.ref(kept)
gc.collect()
print(rk() is kept, kept.items[1]["back"] is kept, kept.me.me is kept)


def outer(n):
    def fact(k):
        return 1 if k < 2 else k * fact(k - 1)
    return fact(n)


print(sum(outer(i % 7) for i in range(3000)))
gc.collect()

errors = []
for i in range(3):
    try:
        raise ValueError(i)
    except ValueError as e:
        e.me = e
        errors.append(e)
gc.collect()
print([str(e.me) for e in errors])

torch.manual_seed(0)
model = nn.Linear(3, 1)
model.me = model
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(8, 3)
y = torch.randn(8, 1)
for step in range(4):
    for j in range(300):
        junk = [j]
        junk.append(junk)
    loss = ((model(x) - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    gc.collect()
    print(step, round(loss.item(), 4))
print(model.me is model, model.weight.shape)

print(gc.isenabled())
gc.disable()
print(gc.isenabled())
gc.enable()
print(gc.isenabled())
