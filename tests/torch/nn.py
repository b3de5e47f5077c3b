# torch.nn of issue 11 item 2: ReLU, GELU, LayerNorm, Sequential, ModuleList, register_parameter,
# parameters(), named_parameters(), nn.init.*, with PyTorch's reprs.
import torch
import torch.nn as nn

torch.manual_seed(123)
x = torch.randn(2, 3, 8)
relu, gelu, gelu_t = nn.ReLU(), nn.GELU(), nn.GELU(approximate='tanh')
print(relu, gelu, gelu_t, nn.ReLU(inplace=True))
print(relu(x[0]))
print(gelu(x))
print(gelu_t(x))
print(torch.nn.functional.gelu(x[1, 0]), torch.nn.functional.relu(x[1, 1]))
print(gelu(x[0, 0, :1]))
ln = nn.LayerNorm(8)
print(ln)
print(nn.LayerNorm((3, 8), eps=1e-6, elementwise_affine=False))
print(ln.weight, ln.bias)
print(ln(x))
print(torch.nn.functional.layer_norm(x, (8,)))
layers = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 8))
print(layers)
print(layers(x))
print(layers[0].bias)
for name, p in layers.named_parameters():
    print(name, p.shape)
print(sum(p.numel() for p in layers.parameters()))
ml = nn.ModuleList([nn.Linear(2, 2), nn.Sequential(nn.Linear(2, 2), nn.ReLU())])
print(ml)
print(nn.ModuleList(), nn.Sequential())


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ff = nn.Sequential(nn.Linear(4, 16), nn.GELU(), nn.Linear(16, 4))
        self.norm1 = nn.LayerNorm(4)
        self.register_parameter("scale", nn.Parameter(torch.ones(4)))
        self.heads = nn.ModuleList([nn.Linear(4, 2, bias=False) for _ in range(2)])
        self.drop = nn.Dropout(0.1)
        self.att = nn.MultiheadAttention(4, 2)

    def forward(self, x):
        return self.norm1(x + self.ff(x)) * self.scale


block = Block()
print(block)
for name, p in block.named_parameters():
    print(name, tuple(p.shape))
print(block(torch.randn(2, 4)))
w = torch.empty(3, 5)
nn.init.kaiming_uniform_(w, a=5 ** 0.5)
print(w)
nn.init.xavier_uniform_(w)
print(w)
nn.init.uniform_(w, -0.1, 0.1)
print(w)
nn.init.normal_(w, mean=0.0, std=0.02)
print(w)
nn.init.zeros_(w)
print(w)
nn.init.kaiming_normal_(w, mode='fan_out', nonlinearity='relu')
print(w)
print(nn.init.calculate_gain('relu'), nn.init.calculate_gain('leaky_relu', 0.2))
import torch.nn.functional as F
torch.manual_seed(1)
x = torch.randn(2, 4)
w, b = torch.randn(3, 4), torch.randn(3)
print(F.linear(x, w, b))
print(F.linear(x, w))
print(F.dropout(x, 0.5))
print(F.dropout(x, 0.5, training=False))
print(F.dropout(x, 0.2, False) is x)
# The deprecated init forms without the underscore: they warn (on stderr), then fill in place.
w = torch.empty(3, 4)
print(nn.init.kaiming_uniform(w) is w, w)
print(nn.init.kaiming_normal(w, mode='fan_out'), nn.init.xavier_uniform(w, gain=2.0), nn.init.xavier_normal(w))
print(nn.init.uniform(w, -1, 1), nn.init.normal(w, std=0.1), nn.init.constant(w, 0.5))
