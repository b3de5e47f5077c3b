# deepcopy.py: copy.deepcopy of tensors, Parameters and nn modules, as torch 1.13 does it
# (Tensor.__deepcopy__, Parameter.__deepcopy__, Module through copy's default path).
import copy
import torch
import torch.nn as nn

torch.manual_seed(0)
t = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
u = copy.deepcopy(t)
print(u, u.requires_grad, u.is_leaf, u is t)
with torch.no_grad():
    u[0] = 10.0
print(t, u)

p = nn.Parameter(torch.ones(2))
q = copy.deepcopy(p)
print(type(q).__name__, q, q.requires_grad)

x = torch.ones(2, requires_grad=True)
(x * 3).sum().backward()
y = copy.deepcopy(x)
print(y.grad, y.grad is x.grad)
w = nn.Parameter(torch.ones(2))
(w * 2).sum().backward()
print(copy.deepcopy(w).grad)

pair = [t, t]
c = copy.deepcopy(pair)
print(c[0] is c[1], c[0] is t)

try:
    copy.deepcopy(t * 2)
except RuntimeError as e:
    print("RuntimeError:", e)

model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
clone = copy.deepcopy(model)
print(clone)
print([n for n, _ in clone.named_parameters()])
print(all(torch.equal(a, b) for a, b in zip(model.parameters(), clone.parameters())))
print(any(a is b for a, b in zip(model.parameters(), clone.parameters())))
with torch.no_grad():
    clone[0].weight.fill_(0.5)
print(model[0].weight[0], clone[0].weight[0])
inp = torch.ones(1, 3)
print(clone(inp))
print(model.training, clone.training)
model.eval()
print(model.training, clone.training)


class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(5, 3)
        self.head = nn.Linear(3, 5, bias=False)
        self.head.weight = self.emb.weight
        self.scale = 2.0

    def forward(self, idx):
        return self.head(self.emb(idx)) * self.scale


m = Tied()
m2 = copy.deepcopy(m)
print(m2.head.weight is m2.emb.weight, m2.head.weight is m.emb.weight, m2.scale)
print(len(list(m2.parameters())))
print(torch.equal(m(torch.tensor([1, 2])), m2(torch.tensor([1, 2]))))
sd = copy.deepcopy(m.state_dict())
print(list(sd.keys()), type(sd).__name__)
opt_params = copy.deepcopy(list(m.parameters()))
print(type(opt_params[0]).__name__, opt_params[0].shape)
