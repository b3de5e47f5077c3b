# torch.nn's modules and torch's values are classes, as in PyTorch (issue 17): every layer is an
# nn.Module (isinstance, repr, children), a user Module's attributes are registered by
# __setattr__, torch.Size / dtype / device are the classes PyTorch has, optimizers print their
# param-group table, and a bool tensor times a bool tensor stays bool.
import torch
import torch.nn as nn

torch.manual_seed(123)
sm = nn.Softmax(dim=1)
print(sm, isinstance(sm, nn.Module), type(sm).__name__, type(sm).__module__)
print(sm(torch.tensor([[1.0, 2.0, 3.0]])))
for layer in [nn.ReLU(), nn.GELU(), nn.Dropout(0.1), nn.Linear(2, 3), nn.LayerNorm(4), nn.Embedding(5, 2), nn.MSELoss(), nn.Identity()]:
    print(type(layer).__name__, isinstance(layer, nn.Module), layer.training)


class Block(nn.Module):
    def __init__(self, n_in):
        super().__init__()
        self.fc = nn.Linear(n_in, 2)
        self.act = nn.ReLU()
        self.scale = nn.Parameter(torch.ones(2))
        self.register_buffer("mask", torch.tril(torch.ones(2, 2)))
        self.plain = 7

    def forward(self, x):
        return self.act(self.fc(x)) * self.scale


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block(3), Block(2)])
        self.heads = nn.ModuleDict({"a": nn.Linear(2, 1), "b": nn.Linear(2, 1)})
        self.seq = nn.Sequential(nn.Linear(2, 2), nn.Tanh())

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return self.heads["a"](self.seq(x))


net = Net()
print(net)
print([name for name, _ in net.named_parameters()])
print([name for name, _ in net.named_modules()])
print([type(m).__name__ for m in net.children()], len(list(net.modules())), len(list(net.parameters())))
print(list(net.state_dict().keys()))
print(sum(p.numel() for p in net.parameters()), net.blocks[0].plain, net.blocks[1].mask)
x = torch.randn(4, 3)
print(net(x))
net.eval()
print(net.training, net.blocks[0].training, net.seq[1].training)
counts = []
net.apply(lambda m: counts.append(type(m).__name__))
print(counts)
print("fc" in net.blocks[0]._modules, "scale" in net.blocks[0]._parameters, "mask" in net.blocks[0]._buffers, "plain" in vars(net.blocks[0]))
me = nn.Linear(1, 1)
me.me = me
print(len(list(me.named_modules())), len(list(me.parameters())))


class Early(nn.Module):
    def __init__(self):
        self.fc = nn.Linear(1, 1)


try:
    Early()
except AttributeError as e:
    print("AttributeError:", e)
try:
    nn.Module()(1)
except NotImplementedError as e:
    print("NotImplementedError:", e)
try:
    net.blocks[0].fc = 3
except TypeError as e:
    print("TypeError:", e)

w = nn.Parameter(torch.ones(2))
print(torch.optim.AdamW([w], lr=0.1))
print(torch.optim.SGD([w], lr=0.1, momentum=0.9))
opt = torch.optim.SGD(net.parameters(), lr=0.01)
print(len(opt.param_groups), len(opt.param_groups[0]["params"]), opt.param_groups[0]["lr"])
try:
    torch.optim.SGD([w * 2], lr=0.1)
except ValueError as e:
    print("ValueError:", e)

a = torch.tensor([True, False, True])
b = torch.tensor([True, True, False])
print(a * b, (a * b).dtype, a + b, (a + b).dtype)
s = torch.ones(2, 3).shape
print(type(s), isinstance(s, tuple), s[1:], type(s[1:]), s + (4,), type(s + (4,)), s == (2, 3), s.numel())
print(torch.float32, type(torch.float32), torch.device("cpu"), repr(torch.device("cpu")), torch.device("cpu") == torch.device("cpu"))
print(type(torch.ones(1)), type(nn.Parameter(torch.ones(1))), isinstance(nn.Parameter(torch.ones(1)), torch.Tensor))

g = torch.Generator().manual_seed(7)
print(type(g), g.initial_seed(), torch.rand(2, 3, generator=g), torch.randn(4, generator=g))
g2 = torch.Generator()
g2.manual_seed(7)
print(torch.equal(torch.rand(2, 3, generator=g2), torch.rand(2, 3, generator=torch.Generator().manual_seed(7))))
torch.manual_seed(3)
before = torch.rand(2)
torch.manual_seed(3)
torch.rand(5, generator=torch.Generator().manual_seed(1))
print(torch.equal(before, torch.rand(2)), torch.initial_seed())
try:
    torch.rand(2, generator=3)
except TypeError as e:
    print("TypeError:", str(e).split("\n")[0])
