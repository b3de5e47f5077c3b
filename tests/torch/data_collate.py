# torch.utils.data: default_collate and default_convert on tuples, lists, dicts, namedtuples,
# ints and strings; IterableDataset, ConcatDataset, Subset, custom datasets and collate_fn;
# num_workers > 0 and persistent workers (the same batches and random stream as PyTorch's); a
# tiny training loop over a DataLoader; and PyTorch's errors for bad arguments.
import collections
import torch
import torch.nn as nn
from torch.utils.data import (DataLoader, Dataset, IterableDataset, TensorDataset, ConcatDataset,
                              Subset, default_collate, default_convert)
from torch.utils.data.dataloader import DataLoader as DL2

print(DL2 is DataLoader, torch.utils.data.dataloader.DataLoader is DataLoader)
print(default_collate([0, 1, 2, 3]))
print(default_collate(['a', 'b', 'c']))
print(default_collate([{'A': 0, 'B': 1}, {'A': 100, 'B': 100}]))
Point = collections.namedtuple('Point', ['x', 'y'])
print(default_collate([Point(0, 0), Point(1, 1)]))
print(default_collate([(0, 1), (2, 3)]))
print(default_collate([[0, 1], [2, 3]]))
print(default_collate([torch.ones(2), torch.zeros(2)]))
print(default_collate([(torch.ones(2), 'x', {'k': 3}), (torch.zeros(2), 'y', {'k': 4})]))
print(default_collate([True, False]))
print(default_convert(0), default_convert(Point(0, 0)), default_convert((1, 2)), default_convert({'a': [1]}))


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {'x': torch.tensor([i, i * i]), 'label': i % 2, 'name': 'item%d' % i}


torch.manual_seed(0)
for batch in DataLoader(Squares(5), batch_size=2, shuffle=True):
    print(batch)
print(torch.rand(2))


class Count(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(range(self.n))


print(list(DataLoader(Count(7), batch_size=3)))
print(list(DataLoader(Count(7), batch_size=3, drop_last=True)))
print(list(DataLoader(Count(3), batch_size=None)))


class Sized(Count):
    def __len__(self):
        return self.n


print(len(DataLoader(Sized(7), batch_size=3)), len(DataLoader(Sized(7), batch_size=3, drop_last=True)))

cat = ConcatDataset([TensorDataset(torch.arange(3)), TensorDataset(torch.arange(10, 14))])
print(len(cat), cat[2], cat[3], cat[-1], cat.cumulative_sizes)
sub = Subset(cat, [0, 4, 6])
print(len(sub), sub[1], list(DataLoader(sub, batch_size=2)))
plus = TensorDataset(torch.arange(2)) + TensorDataset(torch.arange(5, 7))
print(type(plus).__name__, len(plus))

print(list(DataLoader(range(5), batch_size=2, collate_fn=lambda b: sum(b))))
print(list(DataLoader([1, 2, 3], batch_size=None)))
print(list(DataLoader(range(4), batch_size=2, collate_fn=list)))

print("-- workers")
torch.manual_seed(5)
ds = TensorDataset(torch.arange(8))
workers = DataLoader(ds, batch_size=3, shuffle=True, num_workers=2)
for epoch in range(2):
    print([b[0].tolist() for b in workers])
print(torch.rand(2))
persistent = DataLoader(ds, batch_size=3, shuffle=True, num_workers=2, persistent_workers=True)
for epoch in range(3):
    print([b[0].tolist() for b in persistent])
print(torch.rand(2))

print("-- training")
torch.manual_seed(42)
X = torch.randn(32, 3)
w_true = torch.tensor([[1.5], [-2.0], [0.5]])
Y = X @ w_true + 0.1
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loss_fn = nn.MSELoss()
loader = DataLoader(TensorDataset(X, Y), batch_size=8, shuffle=True)
for epoch in range(4):
    total = 0.0
    for xb, yb in loader:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item()
    print(epoch, round(total / len(loader), 6))
print(model.weight, model.bias)
print(torch.rand(2))

print("-- errors")


def error(f):
    try:
        f()
    except Exception as e:
        print(type(e).__name__ + ":", e)


ds = TensorDataset(torch.arange(4))
error(lambda: DataLoader(ds, batch_size=0))
error(lambda: DataLoader(ds, batch_size=-1))
error(lambda: DataLoader(ds, sampler=[0, 1], shuffle=True))
error(lambda: DataLoader(ds, batch_sampler=[[0]], batch_size=2))
error(lambda: DataLoader(ds, batch_size=None, drop_last=True))
error(lambda: DataLoader(ds, num_workers=-1))
error(lambda: DataLoader(ds, prefetch_factor=3))
error(lambda: DataLoader(ds, persistent_workers=True))
error(lambda: DataLoader(ds, drop_last=1))
error(lambda: DataLoader(Count(3), shuffle=True))
error(lambda: DataLoader(Count(3), sampler=[0]))
error(lambda: setattr(DataLoader(ds), 'batch_size', 3))
error(lambda: torch.utils.data.RandomSampler(ds, num_samples=0))
error(lambda: torch.utils.data.RandomSampler(ds, replacement=1))
error(lambda: torch.utils.data.WeightedRandomSampler([1.0], 0))
error(lambda: torch.utils.data.random_split(ds, [1, 2]))
error(lambda: torch.utils.data.random_split(ds, [0.5, 0.7, -0.2]))
error(lambda: default_collate([object()]))
error(lambda: default_collate([[1, 2], [3]]))
error(lambda: len(DataLoader(Count(3))))
error(lambda: Dataset()[0])
error(lambda: torch.empty(3, dtype=torch.int64).random_(5, 5))
error(lambda: next(iter(DataLoader(torch.utils.data.TensorDataset(torch.ones(3), torch.ones(2))))))
