// core/kernels/log_softmax.cpp: log_softmax and LogSoftmaxBackward0's loops (kernels/log_softmax.h).
//
// What it is: plain loops in ATen's order; vec.h's reduce_all gives the 8-lane sums, unary.h's
// exp (eight lanes at a time where it can) and vec_log the family's exp and log. The project compiles with
// -ffp-contract=off: only an explicit std::fma is fused. What it is not: shapes (ops/softmax.cpp).
#include "core/kernels/log_softmax.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/deadline.h"
#include "core/kernels/unary.h"
#include "core/kernels/vec.h"

using attn::core::kernels::detail::kLanes;

namespace attn::core::kernels {

void log_softmax_lastdim(const float* in, float* out, int64_t rows, int64_t n, CpuKernels cpu) {
  auto maximum = [cpu](float a, float b) { return detail::vec_maximum(a, b, cpu); };
  std::vector<float> e(static_cast<size_t>(n));
  DeadlineMeter meter;
  for (int64_t r = 0; r < rows; ++r) {
    meter.add(n);
    const float* x = in + r * n;
    float* y = out + r * n;
    const float m = detail::reduce_all(x, n, maximum, cpu);
    for (int64_t i = 0; i < n; ++i) e[static_cast<size_t>(i)] = x[i] - m;
    exp(e.data(), e.data(), n, cpu);   // map_reduce_all's map, vec_exp eight lanes at a time
    const float s = detail::reduce_all(e.data(), n, [](float a, float b) { return a + b; }, cpu);
    const float l = vec_log(s, cpu);
    for (int64_t i = 0; i < n; ++i) y[i] = (x[i] - m) - l;
  }
}

void log_softmax_backward_lastdim(const float* g, const float* y, float* out, int64_t rows, int64_t n, CpuKernels cpu) {
  DeadlineMeter meter;
  for (int64_t r = 0; r < rows; ++r) {
    meter.add(n);
    const float* gr = g + r * n;
    const float* yr = y + r * n;
    float* o = out + r * n;
    const float t = detail::reduce_all(gr, n, [](float a, float b) { return a + b; }, cpu);
    for (int64_t i = 0; i < n; ++i) {
      const float e = vec_exp(yr[i], cpu);
      o[i] = cpu == CpuKernels::avx2 ? std::fma(-e, t, gr[i]) : gr[i] - e * t;
    }
  }
}

namespace {

// _vec_log_softmax (and its backward) walk the inner columns in chunks of
// max(128 KiB / dim_size / 4, 8) floats, a multiple of 8; in a chunk of `size` columns the first
// size - size % 8 take Vectorized<float> (Sleef exp/log in the AVX2 family), the rest a scalar
// tail (std::exp, glibc). Whether column c is one of the vectorised ones:
bool vector_column(int64_t c, int64_t inner, int64_t dim_size) {
  int64_t chunk = std::max<int64_t>((128 * 1024) / dim_size / 4, kLanes);
  chunk = chunk / kLanes * kLanes;
  const int64_t begin = c / chunk * chunk;
  const int64_t size = std::min(chunk, inner - begin);
  return c - begin < size - size % kLanes;
}

}  // namespace

// Another dim: per column (checked against torch on 5x5, 7x13, 40x20 and 3x33x9 in both
// families): m = the running `x > m ? x : m` from -inf, s = float sum of exp(x - m) over the dim
// in order, l = Vectorized::log(s), y = (x - m) - l.
void log_softmax_inner(const float* in, float* out, int64_t outer, int64_t dim_size, int64_t inner, CpuKernels cpu) {
  DeadlineMeter meter;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t c = 0; c < inner; ++c) {
      meter.add(dim_size);
      const float* x = in + o * dim_size * inner + c;
      float* y = out + o * dim_size * inner + c;
      const bool vec = vector_column(c, inner, dim_size);
      float m = -std::numeric_limits<float>::infinity();
      for (int64_t d = 0; d < dim_size; ++d) m = x[d * inner] > m ? x[d * inner] : m;
      float sum = 0;
      for (int64_t d = 0; d < dim_size; ++d) sum += vec ? vec_exp(x[d * inner] - m, cpu) : std::exp(x[d * inner] - m);
      const float l = vec_log(sum, cpu);
      for (int64_t d = 0; d < dim_size; ++d) y[d * inner] = (x[d * inner] - m) - l;
    }
  }
}

// Its backward, per column: s = float sum of g over the dim in order, then g - exp(y) * s, one
// fused multiply-add in the AVX2 build (the scalar tail too: GCC contracted it), two roundings in
// the DEFAULT one; exp as in the forward.
void log_softmax_backward_inner(const float* g, const float* y, float* out, int64_t outer, int64_t dim_size, int64_t inner,
                                CpuKernels cpu) {
  DeadlineMeter meter;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t c = 0; c < inner; ++c) {
      meter.add(dim_size);
      const int64_t base = o * dim_size * inner + c;
      const bool vec = vector_column(c, inner, dim_size);
      float sum = 0;
      for (int64_t d = 0; d < dim_size; ++d) sum += g[base + d * inner];
      for (int64_t d = 0; d < dim_size; ++d) {
        const int64_t k = base + d * inner;
        const float e = vec ? vec_exp(y[k], cpu) : std::exp(y[k]);
        out[k] = cpu == CpuKernels::avx2 ? std::fma(-e, sum, g[k]) : g[k] - e * sum;
      }
    }
}

}  // namespace attn::core::kernels
