# nn.MultiheadAttention with key_padding_mask (padded batches), alone and merged with a causal
# attn_mask (bool and float), as 1.13's F.multi_head_attention_forward merges them.
import torch
import torch.nn as nn

torch.manual_seed(7)
mha = nn.MultiheadAttention(6, 2, batch_first=True)
x = torch.randn(2, 5, 6)
pad = torch.tensor([[False, False, False, True, True], [False, False, False, False, True]])
causal = torch.triu(torch.ones(5, 5, dtype=torch.bool), diagonal=1)
out, w = mha(x, x, x, key_padding_mask=pad)
print(out)
print(w)
out, w = mha(x, x, x, key_padding_mask=pad, attn_mask=causal, average_attn_weights=False)
print(out)
print(w[1])
soft = torch.zeros(5, 5).masked_fill(causal, -1e4) + 0.25
out, w = mha(x, x, x, key_padding_mask=pad, attn_mask=soft)
print(out, w)
mha.train()
print(mha(x, x, x, key_padding_mask=pad.float() * -100, need_weights=False))
