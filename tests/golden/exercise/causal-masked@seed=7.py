# attn exercise: lesson causal, step masked (Zeroing the future weights)
#
# Write the code the TODO below asks for, then check your answer with
#   attn check causal --step masked --seed 7 --code FILE
# or let attn check it each time you save this file:
#   attn watch FILE
#
# Made by `attn exercise causal --step masked --seed 7`. The code above the TODO is the lesson's
# own, as `attn lesson causal --seed 7` runs it: leave it as it is.

# ---- step setup: The embedded sentence ----
import torch

sentence = 'Life is short, eat dessert first'
dc = {s:i for i,s 
      in enumerate(sorted(sentence.replace(',', '').split()))}
sentence_int = torch.tensor(
    [dc[s] for s in sentence.replace(',', '').split()]
)
vocab_size = 50_000
torch.manual_seed(7)
embed = torch.nn.Embedding(vocab_size, 3)
embedded_sentence = embed(sentence_int).detach()

import torch.nn as nn

# ---- step scores: All attention scores ω ----
torch.manual_seed(7)

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

# ---- step weights: Scaled softmax over each row ----
attn_weights = torch.softmax(attn_scores / d_out_kq**0.5, dim=1)
print(attn_weights)

# ---- step tril: A lower-triangular mask of ones ----
block_size = attn_scores.shape[0]
mask_simple = torch.tril(torch.ones(block_size, block_size))
print(mask_simple)

# ==== step masked: Zeroing the future weights (your exercise) ====
# Multiplying elementwise by the mask zeroes the weights above the diagonal.
# The rows no longer sum to 1: row 1 keeps only `masked_simple[0, 0].item()`,
# its weight on itself.
masked_simple = ...  # TODO: compute masked_simple, the tensor this step prints
print(masked_simple)
