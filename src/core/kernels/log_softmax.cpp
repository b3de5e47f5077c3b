// core/kernels/log_softmax.cpp: log_softmax and LogSoftmaxBackward0's loops (kernels/log_softmax.h).
//
// What it is: plain loops in ATen's order; vec.h's reduce_all gives the 8-lane sums, unary.h's
// vec_exp and sleef.h's logf the family's exp and log. The project compiles with
// -ffp-contract=off: only an explicit std::fma is fused. What it is not: shapes (ops/softmax.cpp).
#include "core/kernels/log_softmax.h"

#include <cmath>
#include <vector>

#include "core/deadline.h"
#include "core/kernels/sleef.h"
#include "core/kernels/unary.h"
#include "core/kernels/vec.h"

namespace attn::core::kernels {

namespace {

float vec_log(float x, CpuKernels cpu) { return cpu == CpuKernels::scalar ? std::log(x) : sleef::logf_u10(x); }

}  // namespace

void log_softmax_lastdim(const float* in, float* out, int64_t rows, int64_t n, CpuKernels cpu) {
  auto maximum = [cpu](float a, float b) { return detail::vec_maximum(a, b, cpu); };
  std::vector<float> e(static_cast<size_t>(n));
  for (int64_t r = 0; r < rows; ++r) {
    check_deadline();
    const float* x = in + r * n;
    float* y = out + r * n;
    const float m = detail::reduce_all(x, n, maximum, cpu);
    for (int64_t i = 0; i < n; ++i) e[static_cast<size_t>(i)] = vec_exp(x[i] - m, cpu);   // map_reduce_all's map
    const float s = detail::reduce_all(e.data(), n, [](float a, float b) { return a + b; }, cpu);
    const float l = vec_log(s, cpu);
    for (int64_t i = 0; i < n; ++i) y[i] = (x[i] - m) - l;
  }
}

void log_softmax_backward_lastdim(const float* g, const float* y, float* out, int64_t rows, int64_t n, CpuKernels cpu) {
  for (int64_t r = 0; r < rows; ++r) {
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

void log_softmax_inner(const float* in, float* out, int64_t outer, int64_t dim_size, int64_t inner, CpuKernels cpu) {
  std::vector<float> col(static_cast<size_t>(dim_size)), res(static_cast<size_t>(dim_size));
  for (int64_t o = 0; o < outer; ++o) {
    check_deadline();
    for (int64_t c = 0; c < inner; ++c) {
      const float* x = in + o * dim_size * inner + c;
      float* y = out + o * dim_size * inner + c;
      for (int64_t d = 0; d < dim_size; ++d) col[static_cast<size_t>(d)] = x[d * inner];
      log_softmax_lastdim(col.data(), res.data(), 1, dim_size, cpu);
      for (int64_t d = 0; d < dim_size; ++d) y[d * inner] = res[static_cast<size_t>(d)];
    }
  }
}

void log_softmax_backward_inner(const float* g, const float* y, float* out, int64_t outer, int64_t dim_size, int64_t inner,
                                CpuKernels cpu) {
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t c = 0; c < inner; ++c) {
      const int64_t base = o * dim_size * inner + c;
      if (cpu == CpuKernels::avx2) {
        double sum = 0;
        for (int64_t d = 0; d < dim_size; ++d) sum += g[base + d * inner];
        for (int64_t d = 0; d < dim_size; ++d)
          out[base + d * inner] = static_cast<float>(g[base + d * inner] - std::exp(y[base + d * inner]) * sum);
      } else {
        float sum = 0;
        for (int64_t d = 0; d < dim_size; ++d) sum += g[base + d * inner];
        for (int64_t d = 0; d < dim_size; ++d) out[base + d * inner] = g[base + d * inner] - std::exp(y[base + d * inner]) * sum;
      }
    }
}

}  // namespace attn::core::kernels
