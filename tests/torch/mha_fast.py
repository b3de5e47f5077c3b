# nn.MultiheadAttention's fast path (1.13's _native_multi_head_attention): eval mode, batch_first,
# self-attention, no mask, even heads, under torch.no_grad(). It scales q after its bias by
# fl32(1/sqrt(head_dim)) where the slow path divides: the last bits differ from the slow path's.
import torch
import torch.nn as nn

torch.manual_seed(11)
mha = nn.MultiheadAttention(6, 2, batch_first=True)
with torch.no_grad():
    mha.in_proj_bias.copy_(torch.randn(18) * 0.1)
x = torch.randn(2, 5, 6)
torch.set_printoptions(precision=8)
slow_out, slow_w = mha(x, x, x)
mha.eval()
with torch.no_grad():
    fast_out, fast_w = mha(x, x, x)
    _, per_head = mha(x, x, x, average_attn_weights=False)
    no_w = mha(x, x, x, need_weights=False)
print(fast_out)
print(fast_w)
print(per_head[1])
print(no_w[1])
print(torch.equal(fast_out, slow_out.detach()), (fast_out - slow_out.detach()).abs().max())
