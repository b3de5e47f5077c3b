# tests/torch/nn_generators.py: nn.Module's parameters(), named_parameters(), children(), modules(),
# buffers() and their named_ forms are generators, as PyTorch's: their type, laziness (next() on
# one), and what the optimizer and sum() take from them. Not the modules' numerics (nn.py).
import torch
import torch.nn as nn
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Sequential(nn.Linear(4, 2), nn.Tanh()))
print(type(net.parameters()))
print(type(net.named_parameters()), type(net.children()), type(net.modules()))
print(type(net.named_children()), type(net.named_modules()), type(net.buffers()), type(net.named_buffers()))
print(type(net.parameters()).__name__)
print([n for n, _ in net.named_parameters()])
print([type(m).__name__ for m in net.modules()])
print([n for n, _ in net.named_modules()])
print([type(m).__name__ for m in net.children()])
print(sum(p.numel() for p in net.parameters()))
params = net.parameters()
first = next(params)
print(first.shape)
print(next(params).shape)
print(len(list(params)))
print(next(iter(net.parameters())).shape)
for name, p in net.named_parameters(prefix="model"):
    print(name, tuple(p.shape))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
print(len(opt.param_groups[0]["params"]))
print(list(net.buffers()))
