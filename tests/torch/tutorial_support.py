# What published tutorials (tests/tutorials/) use beyond the lessons: a tensor's device passed on
# to a factory (the book's GPTModel: torch.arange(seq_len, device=in_idx.device)), and
# torch.utils.data's Dataset as a base class (the book's previous_chapters.py).
import torch
from torch.utils.data import Dataset, DataLoader

idx = torch.tensor([[6109, 3626], [6109, 1110]])
print(idx.device, idx.is_cuda, repr(idx.device))
print(torch.arange(idx.shape[1], device=idx.device))
print(torch.zeros(2, device=torch.randn(1).device))


class Squares(Dataset):
    def __init__(self, n):
        self.values = [torch.tensor([i, i * i]) for i in range(n)]

    def __len__(self):
        return len(self.values)

    def __getitem__(self, i):
        return self.values[i]


ds = Squares(3)
print(len(ds), ds[2], isinstance(ds, Dataset))

# type() of a tensor and torch.Tensor as a class (the buffers notebook shows type(module.mask)).
p = torch.nn.Parameter(torch.ones(2))
print(torch.Tensor, type(idx), type(p), isinstance(idx, torch.Tensor), isinstance(p, torch.Tensor))
print(type(idx) is torch.Tensor, isinstance(3, torch.Tensor), isinstance(idx, torch.nn.Parameter))

# x[mask] = number with a bool mask of x's shape (the buffers notebook: mask[mask == 1.] = 2.).
m = torch.triu(torch.ones(3, 3), diagonal=1)
m[m == 1.] = 2.
print(m)
m[m > 1] = -1
print(m)

# Module.state_dict(): parameters, then persistent buffers, then children, detached (the buffers
# notebook: a mask registered as a buffer is saved, a plain attribute is not).
class WithBuffer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.W = torch.nn.Linear(2, 2, bias=False)
        self.register_buffer("mask", torch.ones(2))
        self.register_buffer("scratch", torch.zeros(1), persistent=False)
        self.plain = torch.ones(1)
        self.sub = torch.nn.Sequential(torch.nn.Linear(1, 1))
        self.scale = torch.nn.Parameter(torch.ones(1))


torch.manual_seed(0)
sd = WithBuffer().state_dict()
print(sd)
print(list(sd.keys()), len(sd), sd["mask"], list(torch.nn.Linear(1, 1).state_dict()))
