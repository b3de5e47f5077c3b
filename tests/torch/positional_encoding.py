# The sinusoidal positional encoding of Transformer tutorials (torch.sin / torch.cos on
# position * div_term, up to ~5000 rad, written into strided slices), the methods, and
# SinBackward0 / CosBackward0 through a small program. Not: the bits of every element
# (tests/core/test_trig.cpp holds those); printing shows four decimals and the sums.
import math
import torch

position = torch.arange(0, 5000).unsqueeze(1)
div_term = torch.exp(torch.arange(0, 512, 2) * (-math.log(10000.0) / 512))
pe = torch.zeros(5000, 512)
pe[:, 0::2] = torch.sin(position * div_term)
pe[:, 1::2] = torch.cos(position * div_term)
print(pe[4999, :6])
print(pe[123, 250:256])
print(pe.sum(), pe[:, :64].sum(dim=0)[:4])
torch.set_printoptions(precision=8)
print(pe[1000:1003, :4])
x = torch.tensor([0.5, -1.25, 130.0, 3.0, -0.0, 1e30], requires_grad=True)
y = x.sin() * 2 + torch.cos(x)
print(y)
y.sum().backward()
print(x.grad)
print(torch.sin(x).grad_fn.name(), x.cos().grad_fn.name())
