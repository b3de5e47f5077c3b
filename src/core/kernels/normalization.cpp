// core/kernels/normalization.cpp: the LayerNorm kernels of kernels/normalization.h.
//
// What it is: forward: RowwiseMoments (ATen/native/cpu/moments_utils.h), no FMA in either build,
// then per element (x * rstd + (-rstd * mean)) * gamma + beta, both multiply-adds fused in the
// AVX2 build. Backward (LayerNormBackwardKernelImplInternal, cpu/layer_norm_kernel.cpp), per
// row i with a = rstd, b = -a*mean: dgamma += dy*(a*x+b), dbeta += dy (rows in order),
// ds = sum dy*x*gamma, db = sum dy*gamma (vec::map2_reduce_all, as softmax's backward), then bb,
// cc and dx with the contractions GCC made in the AVX2 build (docs/pytorch-numerics.md §12).
// What it is not: shape logic or autograd (ops/normalization.cpp).
#include "core/kernels/normalization.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>
#include <vector>

#include "core/kernels/vec.h"

namespace attn::core::kernels {

namespace {

using detail::ceil_log2;
using detail::kLanes;
using detail::Lanes;
constexpr int64_t kChunk = 16;

// AddMoments / AddMomentsVec, one lane: merge (m0_add, m1_add, m2_add) into (m0, m1, m2).
void add_moments(int64_t m0_add, float m1_add, float m2_add, int64_t& m0, float& m1, float& m2) {
  const int64_t n = m0 + m0_add;
  const float c = n == 0 ? 0.0f : static_cast<float>(m0_add) / static_cast<float>(n);
  const float delta = m1_add - m1;
  m1 = m1 + c * delta;
  m2 = m2 + (m2_add + ((delta * delta) * c) * static_cast<float>(m0));
  m0 = n;
}

struct Moments {
  int64_t m0 = 0;
  Lanes m1{}, m2{};
};

void add_moments(const Moments& add, Moments& into) {
  int64_t m0 = 0;
  for (int64_t l = 0; l < kLanes; ++l) {
    m0 = into.m0;
    add_moments(add.m0, add.m1[l], add.m2[l], m0, into.m1[l], into.m2[l]);
  }
  into.m0 = m0;
}

// (mean, biased variance) of x[0..N).
std::pair<float, float> rowwise_moments(const float* x, int64_t N) {
  const int64_t n = N / kLanes, m = (n + kChunk - 1) / kChunk, depth = ceil_log2(m);
  std::vector<Moments> stack(static_cast<size_t>(depth));
  std::array<float, kChunk> c_vecs;
  for (int64_t j = 0; j < kChunk; ++j) c_vecs[j] = 1.0f / static_cast<float>(j + 1);
  for (int64_t i = 0; i < m; ++i) {
    const float* base = x + i * kChunk * kLanes;
    const int64_t cnt = std::min(kChunk, n - i * kChunk);
    Moments chunk;
    chunk.m0 = cnt;
    for (int64_t j = 0; j < cnt; ++j)
      for (int64_t l = 0; l < kLanes; ++l) {
        const float v = base[j * kLanes + l], delta = v - chunk.m1[l];
        chunk.m1[l] = chunk.m1[l] + delta * c_vecs[j];
        chunk.m2[l] = chunk.m2[l] + delta * (v - chunk.m1[l]);
      }
    add_moments(chunk, stack[0]);
    int64_t mask = i + 1;
    for (int64_t j = 1; j < depth && (mask & 1) == 0; ++j, mask >>= 1) {
      add_moments(stack[j - 1], stack[j]);
      stack[j - 1] = Moments{};
    }
  }
  for (int64_t i = 1; i < depth; ++i) add_moments(stack[i], stack[0]);
  int64_t m0 = 0;
  float m1 = 0.0f, m2 = 0.0f;
  for (int64_t i = n * kLanes; i < N; ++i) {   // the N % 8 tail: scalar Welford that divides
    const float delta = x[i] - m1;
    ++m0;
    m1 = m1 + delta / static_cast<float>(m0);
    m2 = m2 + delta * (x[i] - m1);
  }
  for (int64_t l = 0; l < kLanes; ++l) add_moments(n, stack.empty() ? 0.0f : stack[0].m1[l], stack.empty() ? 0.0f : stack[0].m2[l], m0, m1, m2);
  return {m1, m2 / static_cast<float>(N)};
}

}  // namespace

void layer_norm(const float* x, const float* w, const float* b, float* y, float* mean, float* rstd, int64_t M,
                int64_t N, float eps, CpuKernels cpu) {
  const bool fused = cpu == CpuKernels::avx2;
  for (int64_t r = 0; r < M; ++r) {
    const float* row = x + r * N;
    const auto [m, var] = rowwise_moments(row, N);
    const float s = 1.0f / std::sqrt(var + eps);
    mean[r] = m;
    rstd[r] = s;
    const float scale = s, shift = -s * m;
    for (int64_t k = 0; k < N; ++k) {
      const float g = w ? w[k] : 1.0f, be = b ? b[k] : 0.0f;
      y[r * N + k] = fused ? std::fma(std::fma(row[k], scale, shift), g, be) : (row[k] * scale + shift) * g + be;
    }
  }
}

void layer_norm_backward(const float* dy_all, const float* x, const float* mean, const float* rstd, const float* gamma,
                         float* dx, float* dgamma, float* dbeta, int64_t M, int64_t N, CpuKernels cpu) {
  const bool fused = cpu == CpuKernels::avx2;
  std::fill_n(dgamma, N, 0.0f);
  std::fill_n(dbeta, N, 0.0f);
  const float scale = 1.0f / static_cast<float>(N);
  std::vector<float> dyx(static_cast<size_t>(N)), dyv(static_cast<size_t>(N));
  for (int64_t i = 0; i < M; ++i) {
    const float* xr = x + i * N;
    const float* dy = dy_all + i * N;
    const float a = rstd[i], b = -a * mean[i];
    // 1. gamma's and beta's sums over the rows; this row's dy*x and dy
    for (int64_t j = 0; j < N; ++j) {
      dgamma[j] = fused ? std::fma(dy[j], std::fma(a, xr[j], b), dgamma[j]) : dgamma[j] + dy[j] * (a * xr[j] + b);
      dbeta[j] = dbeta[j] + dy[j];
      dyx[j] = dy[j] * xr[j];
      dyv[j] = dy[j];
    }
    // 2. ds = sum(dy * x * gamma), db = sum(dy * gamma), then the row's two coefficients
    const float ds = detail::dot_row(dyx.data(), gamma, N, cpu);
    const float db = detail::dot_row(dyv.data(), gamma, N, cpu);
    const float t = fused ? std::fma(db, mean[i], -ds) : db * mean[i] - ds;
    const float bb = (((t * a) * a) * a) * scale;
    const float c2 = (db * a) * scale;
    const float cc = fused ? std::fma(-bb, mean[i], -c2) : -bb * mean[i] - c2;
    // 3. dx = a * dy * gamma + bb * x + cc
    for (int64_t j = 0; j < N; ++j) {
      const float lhs = (a * dy[j]) * gamma[j];
      dx[i * N + j] = (fused ? std::fma(bb, xr[j], lhs) : lhs + bb * xr[j]) + cc;
    }
  }
}

}  // namespace attn::core::kernels
