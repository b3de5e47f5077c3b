// core/kernels/softmax_avx2.cpp: ATen's last-dim softmax row and its backward eight lanes per
// instruction, AVX2 + FMA, in both kernel families (kernels/softmax.h, avx2::softmax_row,
// avx2::softmax_backward_row, avx2::dot_row).
//
// What it is: _vec_softmax_lastdim's steps (vec::reduce_all maximum, vec::map exp(x - max),
// vec::reduce_all +, vec::map * (1 / sum)) with the lanes of kernels/vec_avx2.h: every element
// the bits of kernels::reference::softmax_lastdim (kernels/softmax.cpp has the reasons);
// the backward row the bits of reference::softmax_backward_lastdim (its s from kernels/vec.h's
// dot_row); tests/core/test_kernels_fast.cpp compares them element for element.
// What it is not: a dispatcher or thread split (kernels/softmax.cpp), or softmax over a dim
// that is not the last (kernels/softmax.cpp's plain loop).
#include "core/kernels/softmax.h"

#include <cmath>

#include "core/kernels/vec_avx2.h"

namespace attn::core::kernels::avx2 {

#ifdef ATTN_KERNELS_AVX2

namespace {

using namespace detail;

// _vec_softmax_lastdim, one row: max, y = exp(x - max), sum, y = y * (1 / sum).
template <typename Family>
ATTN_AVX2 void softmax_one_row(const float* x, float* y, int64_t n) {
  const float max_input = reduce_all<Family>(x, n, typename Family::Maximum{});
  const __m256 vmax = _mm256_set1_ps(max_input);
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    _mm256_storeu_ps(y + i, Family::exp(_mm256_sub_ps(_mm256_loadu_ps(x + i), vmax)));
  if (i < n) store_partial(y + i, Family::exp(_mm256_sub_ps(load_partial(x + i, n - i), vmax)), n - i);
  const float sum = reduce_all<Family>(y, n, Plus{});
  const float inv = 1.0f / sum;
  const __m256 vinv = _mm256_set1_ps(inv);
  for (i = 0; i + kLanes <= n; i += kLanes) _mm256_storeu_ps(y + i, _mm256_mul_ps(_mm256_loadu_ps(y + i), vinv));
  for (; i < n; ++i) y[i] = y[i] * inv;
}

// vec::map2_reduce_all(x * y, +) over n >= 1 pairs, kernels/vec.h dot_row's steps eight lanes at
// a time: below 8 a left fold of rounded products; else the first 8 products, each further full
// chunk fused into the lanes (Fused: the AVX2 family, where GCC contracted ATen's lambda) or
// multiplied then added (the DEFAULT family), the tail into the low lanes one at a time, then
// the family's horizontal step.
template <typename Family, bool Fused>
ATTN_AVX2 float dot_one_row(const float* x, const float* y, int64_t n) {
  if (n < kLanes) {
    float acc = x[0] * y[0];
    for (int64_t k = 1; k < n; ++k) acc = acc + x[k] * y[k];
    return acc;
  }
  __m256 acc = _mm256_mul_ps(_mm256_loadu_ps(x), _mm256_loadu_ps(y));
  int64_t d = kLanes;
  for (; d + kLanes <= n; d += kLanes) {
    const __m256 a = _mm256_loadu_ps(x + d), b = _mm256_loadu_ps(y + d);
    acc = Fused ? _mm256_fmadd_ps(a, b, acc) : _mm256_add_ps(acc, _mm256_mul_ps(a, b));
  }
  alignas(32) float l[kLanes];
  _mm256_store_ps(l, acc);
  for (int64_t i = 0; d + i < n; ++i) l[i] = Fused ? std::fma(x[d + i], y[d + i], l[i]) : l[i] + x[d + i] * y[d + i];
  return Family::horizontal(l, Plus{});
}

// _vec_host_softmax_backward_lastdim, one row: s = map2_reduce_all(g * y, +), then
// grad_in = (g - s) * y (two roundings, as kernels/softmax.cpp's reference).
template <typename Family, bool Fused>
ATTN_AVX2 void softmax_backward_one_row(const float* g, const float* y, float* out, int64_t n) {
  const float s = dot_one_row<Family, Fused>(g, y, n);
  const __m256 vs = _mm256_set1_ps(s);
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    _mm256_storeu_ps(out + i, _mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(g + i), vs), _mm256_loadu_ps(y + i)));
  for (; i < n; ++i) out[i] = (g[i] - s) * y[i];
}

}  // namespace

void softmax_row(const float* x, float* y, int64_t n, CpuKernels cpu) {
  if (cpu == CpuKernels::scalar) return softmax_one_row<DefaultFamily>(x, y, n);
  softmax_one_row<Avx2Family>(x, y, n);
}

float dot_row(const float* x, const float* y, int64_t n, CpuKernels cpu) {
  if (cpu == CpuKernels::scalar) return dot_one_row<DefaultFamily, false>(x, y, n);
  return dot_one_row<Avx2Family, true>(x, y, n);
}

void softmax_backward_row(const float* g, const float* y, float* out, int64_t n, CpuKernels cpu) {
  if (cpu == CpuKernels::scalar) return softmax_backward_one_row<DefaultFamily, false>(g, y, out, n);
  softmax_backward_one_row<Avx2Family, true>(g, y, out, n);
}

#else  // no AVX2 code in this build: kernels/softmax.cpp never calls these

void softmax_row(const float*, float*, int64_t, CpuKernels) {}
float dot_row(const float*, const float*, int64_t, CpuKernels) { return 0.0f; }
void softmax_backward_row(const float*, const float*, float*, int64_t, CpuKernels) {}

#endif

}  // namespace attn::core::kernels::avx2
