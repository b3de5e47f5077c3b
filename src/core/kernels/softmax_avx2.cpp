// core/kernels/softmax_avx2.cpp: ATen's last-dim softmax row eight lanes per instruction, AVX2 +
// FMA, in both kernel families (kernels/softmax.h, avx2::softmax_row).
//
// What it is: _vec_softmax_lastdim's steps (vec::reduce_all maximum, vec::map exp(x - max),
// vec::reduce_all +, vec::map * (1 / sum)) with the lanes of kernels/vec_avx2.h: every element
// the bits of kernels::reference::softmax_lastdim (kernels/softmax.cpp has the reasons);
// tests/test_kernels_fast.cpp compares them element for element.
// What it is not: a dispatcher or thread split (kernels/softmax.cpp), or softmax over a dim
// that is not the last (kernels/softmax.cpp's plain loop).
#include "core/kernels/softmax.h"

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

}  // namespace

void softmax_row(const float* x, float* y, int64_t n, CpuKernels cpu) {
  if (cpu == CpuKernels::scalar) return softmax_one_row<DefaultFamily>(x, y, n);
  softmax_one_row<Avx2Family>(x, y, n);
}

#else  // no AVX2 code in this build: kernels/softmax.cpp never calls this

void softmax_row(const float*, float*, int64_t, CpuKernels) {}

#endif

}  // namespace attn::core::kernels::avx2
