# Issue 20's known open items, as PyTorch 1.13 prints them. #1: x.__class__ of tensors, Parameters,
# modules, dtypes, devices, torch.Size and optimizers is type(x), with its name, qualname, module
# and repr. Errors are printed as "Type - message".
import torch
import torch.nn as nn


def show(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + " -", e)


# ---- #1: __class__ of the torch-side objects ----
lin = nn.Linear(2, 2)
for x in [torch.zeros(2), nn.Parameter(torch.zeros(2)), lin.weight, torch.zeros(2).long(), lin, nn.Sequential(), nn.ReLU(),
          torch.float32, torch.device("cpu"), torch.zeros(2).shape, torch.optim.SGD(lin.parameters(), lr=0.1),
          torch.optim.Adam(lin.parameters()), torch.optim.AdamW(lin.parameters()), torch.nn.functional]:
    c = x.__class__
    print(c, c is type(x), c.__name__, c.__qualname__, c.__module__)
print(torch.zeros(1).__class__.__name__, lin.__class__(3, 1).weight.shape)
