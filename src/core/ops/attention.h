// core/ops/attention.h: attention as PyTorch computes it on the CPU: F.scaled_dot_product_attention
// (PyTorch >= 2.1's math path, with 1.13's kernels) and nn.MultiheadAttention's forward (1.13's
// slow and fast paths). docs/pytorch-numerics.md §17 gives the op orders and their evidence;
// tests/test_attention.cpp checks them bit for bit against tests/vectors/fwd_{sdpa,mha}.txt.
//
// What it is: plain functions of tensors (autograd can wrap them), the module's parameters
// passed in. What it is not: module state or argument checking (torch/nn_functional.cpp), or
// PyTorch 2.2+'s fused flash-attention CPU kernel.
#pragma once

#include <optional>

#include "core/cpu.h"
#include "core/random.h"
#include "core/tensor.h"

namespace attn::core {

// q (..., L, E), k (..., S, E), v (..., S, Ev) -> (..., L, Ev). attn_mask: bool (True = take
// part) or float (added), broadcast to (..., L, S). Dropout draws from `gen` when dropout_p > 0.
Tensor scaled_dot_product_attention(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor* attn_mask,
                                    double dropout_p, bool is_causal, std::optional<double> scale, Generator& gen,
                                    DropoutRng rng, CpuKernels cpu);

struct MhaParams {
  int64_t embed_dim = 0, num_heads = 1;
  double dropout = 0.0;
  Tensor in_proj_weight;                     // (3E, E)
  std::optional<Tensor> in_proj_bias;        // (3E)
  Tensor out_proj_weight;                    // (E, E)
  std::optional<Tensor> out_proj_bias;       // (E)
};

struct MhaCall {
  bool batch_first = false;
  bool need_weights = true, average = true;
  bool training = true;                      // dropout applies only in training mode
  bool fast = false;                         // _native_multi_head_attention (the caller decides, §17)
  const Tensor* attn_mask = nullptr;         // bool (True = masked) or float; (L, S) or (N*H, L, S)
  const Tensor* key_padding_mask = nullptr;  // (N, S): bool (True = padding, masked) or float (added); slow path only
};

struct MhaResult {
  Tensor output;                             // (N, L, E) with batch_first, else (L, N, E)
  std::optional<Tensor> weights;             // (N, L, S) averaged, or (N, H, L, S)
};

MhaResult multi_head_attention(const Tensor& query, const Tensor& key, const Tensor& value, const MhaParams& p,
                               const MhaCall& call, Generator& gen, DropoutRng rng, CpuKernels cpu);

}  // namespace attn::core
