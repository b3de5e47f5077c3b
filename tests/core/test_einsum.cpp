// tests/core/test_einsum.cpp: core::einsum's matmul path (two operands, every contracted letter in
// both) against the definition it must keep bit for bit: each output element starts at +0 and
// adds the separately rounded products in the contracted letters' row-major order, the order of
// PyTorch's bmm through the reference BLAS (tests/torch/mha_variants.py checks the same equations
// against PyTorch itself at small sizes). Sizes here are large enough for gemm's blocking and threads.
#include <doctest/doctest.h>

#include <cstring>
#include <random>

#include "core/ops.h"

namespace {

using attn::core::Tensor;

Tensor random_tensor(const attn::core::Shape& shape, std::mt19937_64& g) {
  Tensor t = attn::core::empty(shape);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int64_t k = 0; k < t.numel(); ++k) t.data<float>()[k] = u(g);
  return t;
}

bool same_bits(const Tensor& a, const Tensor& b) {
  return a.shape() == b.shape() && std::memcmp(a.contiguous().data<float>(), b.contiguous().data<float>(), a.numel() * sizeof(float)) == 0;
}

}  // namespace

TEST_CASE("einsum 'bnd,do->bno' and 'bhnd,bhmd->bhnm': the matmul path keeps the k-order sum of the definition") {
  std::mt19937_64 g(11);
  const int64_t B = 2, H = 3, N = 37, M = 29, D = 70, O = 45;
  Tensor x = random_tensor({B, N, D}, g), w = random_tensor({D, O}, g);
  Tensor xw = attn::core::einsum("bnd,do->bno", {x, w});
  Tensor want = attn::core::empty({B, N, O});
  for (int64_t b = 0; b < B; ++b)
    for (int64_t n = 0; n < N; ++n)
      for (int64_t o = 0; o < O; ++o) {
        float acc = 0.0f;
        for (int64_t d = 0; d < D; ++d) acc += x.data<float>()[(b * N + n) * D + d] * w.data<float>()[d * O + o];
        want.data<float>()[(b * N + n) * O + o] = acc;
      }
  CHECK(same_bits(xw, want));

  Tensor q = random_tensor({B, H, N, D}, g), k = random_tensor({B, H, M, D}, g);
  Tensor s = attn::core::einsum("bhnd,bhmd->bhnm", {q, k});
  Tensor want_s = attn::core::empty({B, H, N, M});
  for (int64_t bh = 0; bh < B * H; ++bh)
    for (int64_t n = 0; n < N; ++n)
      for (int64_t m = 0; m < M; ++m) {
        float acc = 0.0f;
        for (int64_t d = 0; d < D; ++d) acc += q.data<float>()[(bh * N + n) * D + d] * k.data<float>()[(bh * M + m) * D + d];
        want_s.data<float>()[(bh * N + n) * M + m] = acc;
      }
  CHECK(same_bits(s, want_s));
}

TEST_CASE("einsum: an output in another letter order, and two contracted letters summed in row-major order") {
  std::mt19937_64 g(12);
  Tensor b = random_tensor({6, 3, 7}, g);
  // 'ikl,lkm->mi': contracted k and l, summed with k outer and l inner (alphabetical, row-major),
  // and the output's letters in the other order than the operands'.
  Tensor c = random_tensor({5, 3, 6}, g);
  Tensor r2 = attn::core::einsum("ikl,lkm->mi", {c, b});
  Tensor want2 = attn::core::empty({7, 5});
  for (int64_t m = 0; m < 7; ++m)
    for (int64_t i = 0; i < 5; ++i) {
      float acc = 0.0f;
      for (int64_t k = 0; k < 3; ++k)
        for (int64_t l = 0; l < 6; ++l) acc += c.data<float>()[(i * 3 + k) * 6 + l] * b.data<float>()[(l * 3 + k) * 7 + m];
      want2.data<float>()[m * 5 + i] = acc;
    }
  CHECK(same_bits(r2, want2));
}
