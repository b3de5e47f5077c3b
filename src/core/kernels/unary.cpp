// core/kernels/unary.cpp: torch.exp over a contiguous buffer (kernels/unary.h).
//
// What it is: exp_kernel (UnaryOpsKernel.cpp) -> at::vml::vexp, a vec::map of Vectorized::exp
// over every element, the partial last vector too, so any length is vec_exp: Sleef on AVX2,
// glibc expf in the DEFAULT family. Eight lanes at a time where unary_avx2.cpp can (a CPU with
// AVX2 and FMA: Sleef's, or glibc's FMA expf's, own instructions), else element by element.
// What it is not: the arithmetic of exp itself (kernels/sleef.cpp's expf_u10, glibc's expf).
#include "core/kernels/unary.h"

#include "core/kernels/vec_avx2.h"

namespace attn::core::kernels {

void exp(const float* in, float* out, int64_t n, CpuKernels cpu) {
  if (avx2::supported()) return avx2::exp(in, out, n, cpu);
  for (int64_t i = 0; i < n; ++i) out[i] = vec_exp(in[i], cpu);
}

}  // namespace attn::core::kernels
