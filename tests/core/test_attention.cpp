// tests/core/test_attention.cpp: core/ops/attention.h bit for bit against tests/vectors/fwd_{mha,sdpa}.txt
// and fwd_scalar_{mha,sdpa}.txt (tools/make_fwd_vectors.py). The MultiheadAttention vectors are
// Debian torch 1.13.1's own outputs, fast and slow path; the SDPA vectors are PyTorch 2.1's
// math-path op order run with 1.13's ops (no 2.x torch runs here, docs/pytorch-numerics.md §17).
// What it is not: the module's binding and path choice (test_torch_nn.cpp).
#include <doctest/doctest.h>

#include "core/ops/attention.h"
#include "support/fwd_vectors.h"

using attn::core::CpuKernels;
using attn::core::Tensor;

namespace {

using fwd::Family;
using fwd::kFamilies;

// A mask stored as floats: kind 1 is boolean (1.0 = True), kind 2 a float mask.
Tensor mask_of(const fwd::Case& c, const attn::core::Shape& shape) {
  Tensor m = c.tensor("mask", shape);
  return c.key("mask") == 1 ? attn::core::to_bool(m) : m;
}

}  // namespace

TEST_CASE("scaled_dot_product_attention: PyTorch 2.1's math path, masks, causal, scale") {
  size_t checked = 0;
  for (const Family& f : kFamilies)
    for (const fwd::Case& c : fwd::read(std::string(f.prefix) + "sdpa.txt", "sdpa")) {
      if (c.key("version") != 21) continue;   // the file also holds PyTorch 2.0's order, which attn does not compute
      const int64_t B = c.key("B"), H = c.key("H"), L = c.key("L"), S = c.key("S"), E = c.key("E");
      const Tensor q = c.tensor("q", {B, H, L, E}), k = c.tensor("k", {B, H, S, E}), v = c.tensor("v", {B, H, S, E});
      std::optional<Tensor> mask;
      if (c.key("mask")) mask = mask_of(c, {L, S});
      std::optional<double> scale;
      if (c.key("scale_bits")) scale = c.dbl("scale");
      attn::core::Generator gen(f.cpu);
      fwd::check(c, "out", attn::core::scaled_dot_product_attention(q, k, v, mask ? &*mask : nullptr, 0.0, c.key("causal") != 0,
                                                                     scale, gen, attn::core::DropoutRng::portable, f.cpu));
      ++checked;
    }
  CHECK(checked == 2 * 25);
}

TEST_CASE("scaled_dot_product_attention refuses is_causal together with attn_mask") {
  attn::core::Generator gen(CpuKernels::avx2);
  const Tensor x = attn::core::ones({1, 2, 3}), m = attn::core::to_bool(attn::core::ones({2, 2}));
  CHECK_THROWS_WITH(attn::core::scaled_dot_product_attention(x, x, x, &m, 0.0, true, std::nullopt, gen, attn::core::DropoutRng::portable,
                                                             CpuKernels::avx2),
                    "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True");
}

TEST_CASE("MultiheadAttention forward: 1.13's fast and slow paths, masks, weights") {
  for (const Family& f : kFamilies)
    for (const fwd::Case& c : fwd::read(std::string(f.prefix) + "mha.txt", "mha")) {
      const int64_t E = c.key("E"), N = c.key("N"), L = c.key("L"), S = c.key("S");
      attn::core::MhaParams p;
      p.embed_dim = E;
      p.num_heads = c.key("H");
      p.in_proj_weight = c.tensor("in_proj_weight", {3 * E, E});
      p.in_proj_bias = c.tensor("in_proj_bias", {3 * E});
      p.out_proj_weight = c.tensor("out_proj_weight", {E, E});
      p.out_proj_bias = c.tensor("out_proj_bias", {E});
      attn::core::MhaCall call;
      call.batch_first = c.key("batch_first") != 0;
      call.fast = c.key("fast") != 0;
      call.training = false;
      call.need_weights = c.key("need_weights") != 0;
      call.average = c.key("average") != 0;
      std::optional<Tensor> mask;
      if (c.key("mask")) mask = mask_of(c, {L, S});
      call.attn_mask = mask ? &*mask : nullptr;
      const Tensor q = c.tensor("q", {N, L, E}), k = c.tensor("k", {N, S, E}), v = c.tensor("v", {N, S, E});
      attn::core::Generator gen(f.cpu);
      const attn::core::MhaResult r = attn::core::multi_head_attention(q, k, v, p, call, gen, attn::core::DropoutRng::portable, f.cpu);
      fwd::check(c, "out", r.output);
      REQUIRE(r.weights.has_value() == call.need_weights);
      if (call.need_weights) fwd::check(c, "weights", *r.weights);
    }
}
