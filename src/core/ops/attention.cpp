// core/ops/attention.cpp: F.scaled_dot_product_attention (PyTorch 2.1+'s math path, computed with
// 1.13's kernels) and nn.MultiheadAttention's two 1.13 forward paths (docs/pytorch-numerics.md §17).
//
// What it is: the op order of aten _scaled_dot_product_attention_math, of
// F.multi_head_attention_forward (the "slow" path) and of _native_multi_head_attention (the
// "fast" path), as sequences of attn's own ops (matmul in reference-BLAS order, softmax,
// dropout), so each intermediate rounds as PyTorch's does.
// What it is not: PyTorch 2.2+'s CPU flash-attention kernel (not reproduced), key_padding_mask on the fast path,
// bias_k/bias_v, add_zero_attn or kdim/vdim (the binding refuses them).
#include "core/ops/attention.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "core/ops/binary.h"
#include "core/ops/indexing.h"
#include "core/ops/linalg.h"
#include "core/ops/random.h"
#include "core/ops/reduce.h"
#include "core/ops/softmax.h"
#include "core/ops/triangular.h"
#include "core/ops/views.h"

namespace attn::core {

namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// A boolean mask as an additive float mask. SDPA: True takes part (0), False is -inf.
// MHA: True is masked (-inf), False is 0. A uint8 mask is read as a bool one, as 1.13's MHA
// converts it (after its deprecation warning, which core cannot give).
Tensor additive_mask(const Tensor& mask, bool true_keeps) {
  if (mask.dtype() != DType::boolean && mask.dtype() != DType::uint8) return to_float(mask);
  const Tensor m = mask.contiguous();
  Tensor out = empty(m.shape());
  const uint8_t* in = m.data<uint8_t>();
  float* o = out.data<float>();
  for (int64_t k = 0; k < m.numel(); ++k) o[k] = (in[k] != 0) == true_keeps ? 0.0f : kNegInf;
  return out;
}

// x (..., E) @ w^T (+ b): F.linear's sum over E in order, then the bias added.
Tensor linear(const Tensor& x, const Tensor& w, const Tensor* b) {
  Tensor y = matmul(x, t(w));
  return b ? binary(BinOp::add, y, *b) : y;
}

}  // namespace

// _scaled_dot_product_attention_math (PyTorch 2.1+): q and k^T each scaled by
// fl32(sqrt(scale)) (scale = 1/sqrt(E) unless given), q @ k^T, the mask added, softmax,
// dropout (always applied when dropout_p > 0), @ v.
Tensor scaled_dot_product_attention(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor* attn_mask,
                                    double dropout_p, bool is_causal, std::optional<double> scale, Generator& gen,
                                    DropoutRng rng, CpuKernels cpu) {
  if (q.dim() < 2 || k.dim() < 2 || v.dim() < 2)
    throw TensorError("scaled_dot_product_attention: query, key and value need at least 2 dimensions");
  const int64_t E = q.shape().back(), L = q.shape()[q.dim() - 2], S = k.shape()[k.dim() - 2];
  const double sc = scale ? *scale : 1.0 / std::sqrt(static_cast<double>(E));
  const double sf = std::sqrt(std::fabs(sc));
  const Tensor qs = binary_scalar(BinOp::mul, q, sc < 0 ? -sf : sf);
  const Tensor ks = binary_scalar(BinOp::mul, transpose(k, -2, -1), sf);
  Tensor attn = matmul(qs, ks);
  std::optional<Tensor> mask;
  if (is_causal) {
    if (attn_mask) throw TensorError("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True");
    mask = additive_mask(to_bool(tril(ones({L, S}))), true);
  } else if (attn_mask) {
    mask = additive_mask(*attn_mask, true);
  }
  if (mask) attn = binary(BinOp::add, attn, *mask);
  attn = softmax(attn, -1, cpu);
  if (dropout_p > 0.0) attn = dropout(gen, attn, dropout_p, rng);
  return matmul(attn, v);
}

namespace {

// _native_multi_head_attention's CPU kernel (native_multi_head_attention_cpu), self-attention on
// query (B, T, E) with no mask and no dropout: q scaled by fl32(1/sqrt(hd)) after its bias. It
// runs without autograd: neither result has a grad_fn.
MhaResult mha_fast(const Tensor& query, const MhaParams& p, const MhaCall& call, CpuKernels cpu) {
  const int64_t E = p.embed_dim, H = p.num_heads, hd = E / H;
  const Tensor* in_b = p.in_proj_bias ? &*p.in_proj_bias : nullptr;
  const Tensor* out_b = p.out_proj_bias ? &*p.out_proj_bias : nullptr;
  MhaResult r;
  const int64_t B = query.shape()[0], T = query.shape()[1];
  const Tensor qkv = matmul(reshape(query, {B * T, E}), t(p.in_proj_weight));   // (B*T, 3E), no bias yet
  const float inv = static_cast<float>(1.0 / static_cast<double>(std::sqrt(static_cast<float>(hd))));
  auto part = [&](int64_t k) {   // (B, H, T, hd)
    Tensor x = narrow(qkv, 1, k * E, E);
    if (in_b) x = binary(BinOp::add, x, narrow(*in_b, 0, k * E, E));
    if (k == 0) x = binary_scalar(BinOp::mul, x, inv);
    return permute(reshape(x, {B, T, H, hd}), {0, 2, 1, 3});
  };
  Tensor w = softmax(matmul(part(0), transpose(part(1), -2, -1)), -1, cpu);   // (B, H, T, T)
  const Tensor ctx = reshape(permute(matmul(w, part(2)), {0, 2, 1, 3}), {B * T, E});
  r.output = reshape(linear(ctx, p.out_proj_weight, out_b), {B, T, E});
  if (call.need_weights) r.weights = call.average ? binary_scalar(BinOp::div, sum(w, 1, false), static_cast<double>(H)) : w;
  r.output = detach(r.output);   // the fast path runs without autograd: no grad_fn on either result
  if (r.weights) r.weights = detach(*r.weights);
  return r;
}

// The slow path's additive mask, (1 or N*H, L, S), from attn_mask and key_padding_mask (N, S),
// merged as 1.13 merges them (-inf where padding, by masked_fill); nullopt when neither is given.
std::optional<Tensor> mha_mask(const MhaCall& call, int64_t N, int64_t H, int64_t L, int64_t S) {
  std::optional<Tensor> mask;
  if (call.attn_mask) {
    Tensor m = additive_mask(*call.attn_mask, false);
    if (m.dim() == 2) {
      if (m.shape() != Shape{L, S})
        throw TensorError(fmt::format("The shape of the 2D attn_mask is {}, but should be {}.", shape_str(m.shape()), shape_str({L, S})));
      m = unsqueeze(m, 0);
    } else if (m.dim() != 3 || m.shape() != Shape{N * H, L, S}) {
      throw TensorError(fmt::format("The shape of the 3D attn_mask is {}, but should be {}.", shape_str(m.shape()), shape_str({N * H, L, S})));
    }
    mask = m;
  }
  if (call.key_padding_mask) {   // (N, S) -> (N*H, 1, S), merged: -inf where padding (masked_fill), as 1.13 merges them
    const Tensor& kpm = *call.key_padding_mask;
    if (kpm.shape() != Shape{N, S})
      throw TensorError(fmt::format("expecting key_padding_mask shape of ({}, {}), but got torch.Size({})", N, S, shape_str(kpm.shape())),
                        "AssertionError");
    const Tensor rows = reshape(expand(view(kpm, {N, 1, 1, S}), {N, H, 1, S}), {N * H, 1, S});
    if (kpm.dtype() == DType::boolean || kpm.dtype() == DType::uint8) {
      const Tensor base = mask ? expand(*mask, {N * H, mask->shape()[1], S}) : zeros({N * H, 1, S});
      mask = masked_fill(base, rows, kNegInf);
    } else {
      if (mask) throw TensorError("masked_fill_ only supports boolean masks, but got mask with dtype float");
      mask = to_float(rows).contiguous();
    }
  }
  return mask;
}

}  // namespace

// F.multi_head_attention_forward (1.13) for packed in_proj weights; or, when call.fast, the
// _native_multi_head_attention CPU kernel (mha_fast).
MhaResult multi_head_attention(const Tensor& query, const Tensor& key, const Tensor& value, const MhaParams& p,
                               const MhaCall& call, Generator& gen, DropoutRng rng, CpuKernels cpu) {
  if (call.fast) return mha_fast(query, p, call, cpu);
  const int64_t E = p.embed_dim, H = p.num_heads, hd = E / H;
  const Tensor* in_b = p.in_proj_bias ? &*p.in_proj_bias : nullptr;
  const Tensor* out_b = p.out_proj_bias ? &*p.out_proj_bias : nullptr;
  MhaResult r;
  const Tensor q_in = call.batch_first ? transpose(query, 1, 0) : query;   // (L, N, E)
  const Tensor k_in = call.batch_first ? transpose(key, 1, 0) : key;
  const Tensor v_in = call.batch_first ? transpose(value, 1, 0) : value;
  const int64_t L = q_in.shape()[0], N = q_in.shape()[1], S = k_in.shape()[0];
  // Self-attention (query is key is value): _in_projection_packed makes ONE linear with the
  // packed (3E, E) weight and cuts q, k, v out of it; the values are the same as three linears,
  // but the input's gradient is then one product over all 3E rows (docs/pytorch-numerics.md §12).
  const auto same = [](const Tensor& a, const Tensor& b) {
    return a.shares_storage(b) && a.offset() == b.offset() && a.shape() == b.shape() && a.strides() == b.strides();
  };
  std::optional<Tensor> packed;
  if (same(query, key) && same(key, value)) packed = linear(q_in, p.in_proj_weight, in_b);
  auto project = [&](const Tensor& x, int64_t k, int64_t rows) {   // (N*H, rows, hd)
    Tensor y;
    if (packed) {
      y = narrow(*packed, -1, k * E, E);
    } else {
      const Tensor w = narrow(p.in_proj_weight, 0, k * E, E);
      const Tensor b = in_b ? narrow(*in_b, 0, k * E, E) : Tensor();
      y = linear(x, w, in_b ? &b : nullptr);
    }
    return transpose(view(y.contiguous(), {rows, N * H, hd}), 0, 1);
  };
  const Tensor q = binary_scalar(BinOp::div, project(q_in, 0, L), std::sqrt(static_cast<double>(hd)));
  const Tensor k = project(k_in, 1, S), v = project(v_in, 2, S);
  const std::optional<Tensor> mask = mha_mask(call, N, H, L, S);
  Tensor w = mask ? detail::baddbmm(*mask, q, transpose(k, -2, -1)) : matmul(q, transpose(k, -2, -1));   // (N*H, L, S)
  w = softmax(w, -1, cpu);
  if (call.training && p.dropout > 0.0) w = dropout(gen, w, p.dropout, rng);
  const Tensor ctx = view(transpose(matmul(w, v), 0, 1).contiguous(), {L * N, E});
  Tensor out = view(linear(ctx, p.out_proj_weight, out_b), {L, N, E});
  r.output = call.batch_first ? transpose(out, 1, 0) : out;
  if (call.need_weights) {
    const Tensor w4 = view(w, {N, H, L, S});
    r.weights = call.average ? binary_scalar(BinOp::div, sum(w4, 1, false), static_cast<double>(H)) : w4;
  }
  return r;
}

}  // namespace attn::core
