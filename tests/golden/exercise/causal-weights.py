# attn exercise: lesson causal, step weights (Scaled softmax over each row)
#
# Write the code the TODO below asks for, then check your answer with
#   attn check causal --step weights --code FILE
# or let attn check it each time you save this file:
#   attn watch FILE
#
# Made by `attn exercise causal --step weights`. The code above the TODO is the lesson's
# own, as `attn lesson causal` runs it: leave it as it is.

# ---- step setup: The embedded sentence ----
import torch

sentence = 'Life is short, eat dessert first'
dc = {s:i for i,s 
      in enumerate(sorted(sentence.replace(',', '').split()))}
sentence_int = torch.tensor(
    [dc[s] for s in sentence.replace(',', '').split()]
)
vocab_size = 50_000
torch.manual_seed(123)
embed = torch.nn.Embedding(vocab_size, 3)
embedded_sentence = embed(sentence_int).detach()

import torch.nn as nn

# ---- step scores: All attention scores ω ----
torch.manual_seed(123)

d_in, d_out_kq, d_out_v = 3, 2, 4

W_query = nn.Parameter(torch.rand(d_in, d_out_kq))
W_key   = nn.Parameter(torch.rand(d_in, d_out_kq))
W_value = nn.Parameter(torch.rand(d_in, d_out_v))

x = embedded_sentence

keys = x @ W_key
queries = x @ W_query
values = x @ W_value

# attn_scores are the "omegas", 
# the unnormalized attention weights
attn_scores = queries @ keys.T 

print(attn_scores)
print(attn_scores.shape)

# ==== step weights: Scaled softmax over each row (your exercise) ====
# Every row is one query's weights over all the keys, future ones included.
attn_weights = ...  # TODO: compute attn_weights, the tensor this step prints
print(attn_weights)
