# torch.utils.data: shuffled DataLoaders over several epochs (the iterator's base-seed draw and
# RandomSampler's seed from the default generator), then torch.rand(3) to show the stream is
# PyTorch's afterwards; samplers with and without generators; random_split; Tensor.random_;
# torch.multinomial with replacement.
import torch
from torch.utils.data import DataLoader, TensorDataset, random_split
import torch.utils.data as data
from torch.utils.data.sampler import RandomSampler

torch.manual_seed(123)
X = torch.arange(20).reshape(10, 2).float()
y = torch.arange(10)
ds = TensorDataset(X, y)
print(len(ds), ds[3])

loader = DataLoader(ds, batch_size=4, shuffle=True)
print(len(loader))
for epoch in range(3):
    for i, (xb, yb) in enumerate(loader):
        print(epoch, i, yb.tolist(), xb.shape)
print(torch.rand(3))

print("-- drop_last, no shuffle")
for xb, yb in DataLoader(ds, batch_size=3, drop_last=True):
    print(yb)
print(len(DataLoader(ds, batch_size=3, drop_last=True)), len(DataLoader(ds, batch_size=3)))
print(torch.rand(2))

print("-- a generator of its own")
g = torch.Generator()
g.manual_seed(7)
loader = DataLoader(ds, batch_size=5, shuffle=True, generator=g)
for epoch in range(2):
    print([yb.tolist() for _, yb in loader])
print(torch.rand(2))

print("-- iterating twice, one iterator")
it = iter(DataLoader(ds, batch_size=4, shuffle=True))
print(len(it), next(it)[1], next(it)[1])
print(torch.rand(2))

print("-- samplers")
print(list(data.SequentialSampler(range(5))))
print(list(RandomSampler(range(6))))
print(list(RandomSampler(range(6), replacement=True, num_samples=40)))
print(list(RandomSampler(range(5), num_samples=12)))
g.manual_seed(3)
print(list(RandomSampler(range(6), generator=g)))
print(list(data.SubsetRandomSampler([10, 20, 30, 40])))
g.manual_seed(4)
print(list(data.SubsetRandomSampler([10, 20, 30, 40], generator=g)))
print(list(data.WeightedRandomSampler([0.1, 0.9, 0.4, 0.7, 3.0, 0.6], 5, replacement=True)))
print(list(data.WeightedRandomSampler([0.9, 0.4, 0.05, 0.2, 0.3, 0.1], 5, replacement=False)))
print(list(data.WeightedRandomSampler(torch.tensor([1.0, 2.0, 3.0]), 40)))
print(list(data.BatchSampler(data.SequentialSampler(range(10)), batch_size=3, drop_last=False)))
print(list(data.BatchSampler(data.SequentialSampler(range(10)), batch_size=3, drop_last=True)))
print(len(data.BatchSampler(range(10), 4, False)), len(data.BatchSampler(range(10), 4, True)))
print(torch.rand(2))

print("-- sampler= and batch_sampler=")
g.manual_seed(11)
for xb, yb in DataLoader(ds, batch_size=4, sampler=data.SubsetRandomSampler([0, 2, 4, 6, 8], generator=g)):
    print(yb)
for xb, yb in DataLoader(ds, batch_sampler=data.BatchSampler(RandomSampler(ds), 3, False)):
    print(yb)
print(torch.rand(2))

print("-- random_split")
train, test = random_split(ds, [7, 3])
print(len(train), len(test), train.indices, test.indices)
a, b, c = random_split(range(10), [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(42))
print(list(a), list(b), list(c))
print([len(s) for s in random_split(range(11), [0.5, 0.5])])
print(train[0])
print(torch.rand(2))

print("-- Tensor.random_")
print(torch.empty((), dtype=torch.int64).random_())
print(torch.empty(4, dtype=torch.int64).random_(10))
print(torch.empty(4, dtype=torch.int64).random_(-5, 5))
print(torch.empty(4).random_(), torch.empty(3).random_(2, 9))
t = torch.zeros(2, 3, dtype=torch.int64)
print(t.random_(100, generator=g), t)
print(torch.rand(2))

print("-- torch.multinomial with replacement (float32)")
print(torch.multinomial(torch.tensor([0.2, 0.5, 0.3]), 12, replacement=True))
print(torch.tensor([[1.0, 0.0, 3.0], [0.5, 0.5, 0.0]]).multinomial(6, True))
print(torch.multinomial(torch.tensor([1.0, 2.0, 3.0, 4.0]), 3))
print(torch.rand(2))
