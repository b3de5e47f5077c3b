# F.scaled_dot_product_attention (PyTorch >= 2.0; attn computes 2.1's math path, and the
# expected text is that recipe run with Debian torch 1.13's ops, docs/pytorch-numerics.md §17):
# masks (bool: True takes part; float: added), is_causal, scale=, dropout_p, 3-D and 4-D inputs;
# and nn.MultiheadAttention's dropout in training mode.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
q, k, v = torch.randn(2, 2, 4, 3), torch.randn(2, 2, 5, 3), torch.randn(2, 2, 5, 3)
keep = torch.rand(4, 5) > 0.3
keep[:, 0] = True
print(F.scaled_dot_product_attention(q, k, v))
print(F.scaled_dot_product_attention(q, k, v, attn_mask=keep))
print(F.scaled_dot_product_attention(q, k, v, attn_mask=torch.randn(4, 5)))
print(F.scaled_dot_product_attention(q[0], k[0, :, :4], v[0, :, :4], is_causal=True))
print(F.scaled_dot_product_attention(q, k, v, scale=0.3))
print(F.scaled_dot_product_attention(q, k, v, dropout_p=0.25))
mha = nn.MultiheadAttention(4, 2, dropout=0.2, batch_first=True)
x = torch.randn(1, 3, 4)
out, w = mha(x, x, x)
print(out, w)
mha.eval()
print(mha(x, x, x)[1])
