// core/gemm_kernels.cpp: the micro-kernels of core/gemm_kernels.h, AVX2 and portable.
//
// Both perform, per output element, exactly the reference BLAS operations: a product rounded
// on its own, then an add, in increasing l, from +0.0f. The AVX2 one spells them as
// _mm256_mul_ps then _mm256_add_ps in a function compiled for "avx2" only (not "fma"), and the
// project builds with -ffp-contract=off, so neither the intrinsics nor the portable loops can
// be fused into a multiply-add. The AVX2 functions are only called after
// __builtin_cpu_supports("avx2") said yes (gemm.cpp); no global -mavx2 is needed.
#include "core/gemm_kernels.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define ATTN_GEMM_AVX2 1
#endif

namespace attn::core::gemm::detail {

namespace {

// ---- portable: plain loops over 16 columns, which the compiler vectorises (SSE2 baseline) ----

template <int R>
void kernel_portable(int64_t kc, const float* ap, const float* bp, float* c, int64_t ldc, bool first) {
  float acc[R][kNR];
  for (int r = 0; r < R; ++r)
    for (int j = 0; j < kNR; ++j) acc[r][j] = first ? 0.0f : c[r * ldc + j];
  for (int64_t l = 0; l < kc; ++l, ap += kMR, bp += kNR) {
    for (int r = 0; r < R; ++r) {
      const float a = ap[r];
      for (int j = 0; j < kNR; ++j) {
        const float prod = a * bp[j];  // rounded on its own
        acc[r][j] = acc[r][j] + prod;
      }
    }
  }
  for (int r = 0; r < R; ++r)
    for (int j = 0; j < kNR; ++j) c[r * ldc + j] = acc[r][j];
}

#ifdef ATTN_GEMM_AVX2

// ---- AVX2: 2 x R accumulators of 8 lanes; one broadcast of A(r,l) per row and step ----
// Named accumulators rather than an array: GCC 12 keeps an array of __m256 in registers but
// also stores it to the stack on every step. 12 accumulators + 2 B vectors + the broadcast +
// one product fill the 16 ymm registers exactly.

#define ATTN_ROWS(X) X(0) X(1) X(2) X(3) X(4) X(5)
#define ATTN_DECLARE(r) __m256 lo##r = _mm256_setzero_ps(), hi##r = _mm256_setzero_ps();
#define ATTN_LOAD(r)                                    \
  if constexpr (R > r) {                                \
    lo##r = _mm256_loadu_ps(c + r * ldc);               \
    hi##r = _mm256_loadu_ps(c + r * ldc + 8);           \
  }
#define ATTN_STEP(r)                                          \
  if constexpr (R > r) {                                      \
    const __m256 a = _mm256_broadcast_ss(ap + r);             \
    lo##r = _mm256_add_ps(lo##r, _mm256_mul_ps(a, b0));       \
    hi##r = _mm256_add_ps(hi##r, _mm256_mul_ps(a, b1));       \
  }
#define ATTN_STORE(r)                                   \
  if constexpr (R > r) {                                \
    _mm256_storeu_ps(c + r * ldc, lo##r);               \
    _mm256_storeu_ps(c + r * ldc + 8, hi##r);           \
  }

template <int R>
__attribute__((target("avx2"))) void kernel_avx2(int64_t kc, const float* ap, const float* bp, float* c,
                                                 int64_t ldc, bool first) {
  ATTN_ROWS(ATTN_DECLARE)  // +0.0f in every lane
  if (!first) { ATTN_ROWS(ATTN_LOAD) }
  for (int64_t l = 0; l < kc; ++l, ap += kMR, bp += kNR) {
    const __m256 b0 = _mm256_loadu_ps(bp), b1 = _mm256_loadu_ps(bp + 8);
    ATTN_ROWS(ATTN_STEP)
  }
  ATTN_ROWS(ATTN_STORE)
}

#undef ATTN_ROWS
#undef ATTN_DECLARE
#undef ATTN_LOAD
#undef ATTN_STEP
#undef ATTN_STORE

const MicroKernel kAvx2Table[kMR] = {kernel_avx2<1>, kernel_avx2<2>, kernel_avx2<3>,
                                     kernel_avx2<4>, kernel_avx2<5>, kernel_avx2<6>};
#endif

}  // namespace

const MicroKernel kPortableKernels[kMR] = {kernel_portable<1>, kernel_portable<2>, kernel_portable<3>,
                                           kernel_portable<4>, kernel_portable<5>, kernel_portable<6>};

#ifdef ATTN_GEMM_AVX2
const MicroKernel* const kAvx2Kernels = kAvx2Table;
#else
const MicroKernel* const kAvx2Kernels = nullptr;
#endif

}  // namespace attn::core::gemm::detail
