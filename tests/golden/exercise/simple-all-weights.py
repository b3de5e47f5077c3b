# attn exercise: lesson simple, step all-weights (All attention weights)
#
# Write the code the TODO below asks for, then check your answer with
#   attn check simple --step all-weights --code FILE
# or let attn check it each time you save this file:
#   attn watch FILE
#
# Made by `attn exercise simple --step all-weights`. The code above the TODO is the lesson's
# own, as `attn lesson simple` runs it: leave it as it is.

# ---- step inputs: The token embeddings ----
import torch

inputs = torch.tensor(
  [[0.43, 0.15, 0.89], # Your     (x^1)
   [0.55, 0.87, 0.66], # journey  (x^2)
   [0.57, 0.85, 0.64], # starts   (x^3)
   [0.22, 0.58, 0.33], # with     (x^4)
   [0.77, 0.25, 0.10], # one      (x^5)
   [0.05, 0.80, 0.55]] # step     (x^6)
)

# ---- step scores-loop: Scores of "journey" by a loop of dot products ----
query = inputs[1]

attn_scores_2 = torch.empty(inputs.shape[0])

for i, x_i in enumerate(inputs):
    attn_scores_2[i] = torch.dot(x_i, query)

print(attn_scores_2)

# ---- step dot: A dot product is a sum of products ----
res = 0.

for idx, element in enumerate(inputs[0]):
    res += inputs[0][idx] * query[idx]

print(res)

print(torch.dot(inputs[0], query))

# ---- step normalise: Dividing by the sum ----
attn_weights_2_tmp = attn_scores_2 / attn_scores_2.sum()

print("Attention weights:", attn_weights_2_tmp)
print("Sum:", attn_weights_2_tmp.sum())

# ---- step softmax-naive: A naive softmax ----
def softmax_naive(x):
    exp_x = torch.exp(x)
    sum_exp_x = exp_x.sum(dim=0)
    return exp_x / sum_exp_x

attn_weights_2_naive = softmax_naive(attn_scores_2)

print("Attention weights:", attn_weights_2_naive)
print("Sum:", attn_weights_2_naive.sum())

# ---- step overflow: Why the naive softmax breaks on large scores ----
large_scores = torch.tensor([1000., 1001., 1002.])
print("exp:", torch.exp(large_scores))
print("naive:", softmax_naive(large_scores))
print("stable:", torch.softmax(large_scores, dim=0))
print("shifted by the max:", softmax_naive(large_scores - 1002.))

# ---- step softmax: PyTorch's softmax ----
attn_weights_2 = torch.softmax(attn_scores_2, dim=0)

print("Attention weights:", attn_weights_2)
print("Sum:", attn_weights_2.sum())

# ---- step z2: The context vector z⁽²⁾ ----
query = inputs[1]

context_vec_2 = torch.zeros(query.shape)

for i, x_i in enumerate(inputs):
    context_vec_2 += attn_weights_2[i] * x_i

print(context_vec_2)

# ---- step all-scores-loop: All scores by two loops ----
attn_scores = torch.empty(6, 6)

for i, x_i in enumerate(inputs):
    for j, x_j in enumerate(inputs):
        attn_scores[i, j] = torch.dot(x_i, x_j)

print(attn_scores)

# ---- step all-scores: All scores by one matrix product ----
attn_scores = inputs @ inputs.T

print(attn_scores)

# ==== step all-weights: All attention weights (your exercise) ====
# `dim=1` normalises each row: every query's weights over all the keys.
attn_weights = ...  # TODO: compute attn_weights, the tensor this step prints
print(attn_weights)
