// core/kernels/gemm_micro.cpp: the micro-kernels of kernels/gemm_micro.h, AVX2 and portable.
//
// Both perform, per output element, exactly the reference BLAS operations: a product rounded
// on its own, then an add, in increasing l, from +0.0f. The AVX2 one spells them as
// _mm256_mul_ps then _mm256_add_ps in a function compiled for "avx2" only (not "fma"), and the
// project builds with -ffp-contract=off, so neither the intrinsics nor the portable loops can
// be fused into a multiply-add. The AVX2 functions are only called after
// __builtin_cpu_supports("avx2") said yes (gemm.cpp); no global -mavx2 is needed.
// It also holds the AVX2 packing routines (copies in registers, no arithmetic).
// What it is not: blocking or threads (gemm.cpp), or fused (no FMA anywhere here).
#include "core/kernels/gemm_micro.h"

#include "core/kernels/transpose8_avx2.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define ATTN_GEMM_AVX2 1
#endif

namespace attn::core::gemm::detail {

namespace {

// ---- portable: plain loops over 16 columns, which the compiler vectorises (SSE2 baseline) ----
// Two rows at a time: 2 x 16 accumulators are eight SSE registers. With all R rows at once
// GCC 12 shuffled values between lanes and the stack and ran barely faster than the naive loop.

template <int Rows>
void rows_portable(int64_t kc, const float* ap, const float* bp, int64_t ldb, float* c, int64_t ldc,
                   bool first) {
  float acc[Rows][kNR];
  for (int r = 0; r < Rows; ++r)
    for (int j = 0; j < kNR; ++j) acc[r][j] = first ? 0.0f : c[r * ldc + j];
  for (int64_t l = 0; l < kc; ++l, ap += kMR, bp += ldb) {
    for (int r = 0; r < Rows; ++r) {
      const float x = ap[r];
      for (int j = 0; j < kNR; ++j) {
        const float prod = x * bp[j];  // rounded on its own
        acc[r][j] = acc[r][j] + prod;
      }
    }
  }
  for (int r = 0; r < Rows; ++r)
    for (int j = 0; j < kNR; ++j) c[r * ldc + j] = acc[r][j];
}

template <int R>
void kernel_portable(int64_t kc, const float* ap, const float* bp, int64_t ldb, float* c, int64_t ldc,
                     bool first) {
  int r = 0;
  for (; r + 2 <= R; r += 2) rows_portable<2>(kc, ap + r, bp, ldb, c + r * ldc, ldc, first);
  if (r < R) rows_portable<1>(kc, ap + r, bp, ldb, c + r * ldc, ldc, first);
}

void row_dots_portable(const float* a, int64_t lda, const float* x, int64_t k, float* y) {
  float acc[kRowDots] = {};  // +0.0f
  for (int64_t l = 0; l < k; ++l)
    for (int r = 0; r < kRowDots; ++r) {
      const float prod = a[r * lda + l] * x[l];
      acc[r] = acc[r] + prod;
    }
  for (int r = 0; r < kRowDots; ++r) y[r] = acc[r];
}

void pack_a_portable(const float* a, int64_t rs, int64_t kc, float* out) {
  for (int64_t l = 0; l < kc; ++l)
    for (int r = 0; r < kMR; ++r) out[l * kMR + r] = a[r * rs + l];
}

void pack_b_portable(const float* b, int64_t cs, int64_t kc, float* out) {
  for (int j = 0; j < kNR; ++j)
    for (int64_t l = 0; l < kc; ++l) out[l * kNR + j] = b[j * cs + l];
}

#ifdef ATTN_GEMM_AVX2

using kernels::transpose8;   // kernels/transpose8_avx2.h

// ---- AVX2 packing: 8 columns of l at a time, transposed in registers (copies only) ----

// 6 rows x 8 l: two zero rows make an 8 x 8 block; column j (rows 0-5 in lanes 0-5) goes to
// out[(l + j) * 6]. Each 8-float store's two extra lanes are overwritten by the next one; the
// last is stored as 4 + 2 floats, so nothing past the panel's l + 8 rows is touched.
__attribute__((target("avx2"))) void pack_a_avx2(const float* a, int64_t rs, int64_t kc, float* out) {
  int64_t l = 0;
  for (; l + 8 <= kc; l += 8) {
    __m256 r[8];
    for (int i = 0; i < kMR; ++i) r[i] = _mm256_loadu_ps(a + i * rs + l);
    r[6] = r[7] = _mm256_setzero_ps();
    transpose8(r);
    float* o = out + l * kMR;
    for (int j = 0; j < 7; ++j) _mm256_storeu_ps(o + j * kMR, r[j]);
    _mm_storeu_ps(o + 7 * kMR, _mm256_castps256_ps128(r[7]));
    _mm_storel_pi(reinterpret_cast<__m64*>(o + 7 * kMR + 4), _mm256_extractf128_ps(r[7], 1));
  }
  for (; l < kc; ++l)
    for (int i = 0; i < kMR; ++i) out[l * kMR + i] = a[i * rs + l];
}

// 16 columns x 8 l: two 8 x 8 blocks; row l + i of the panel is out[(l + i) * 16 ..].
__attribute__((target("avx2"))) void pack_b_avx2(const float* b, int64_t cs, int64_t kc, float* out) {
  int64_t l = 0;
  for (; l + 8 <= kc; l += 8) {
    for (int half = 0; half < 2; ++half) {
      __m256 r[8];
      for (int j = 0; j < 8; ++j) r[j] = _mm256_loadu_ps(b + (half * 8 + j) * cs + l);
      transpose8(r);
      for (int i = 0; i < 8; ++i) _mm256_storeu_ps(out + (l + i) * kNR + half * 8, r[i]);
    }
  }
  for (; l < kc; ++l)
    for (int j = 0; j < kNR; ++j) out[l * kNR + j] = b[j * cs + l];
}

// ---- AVX2 row dots: an 8 x 8 block of A transposed in registers, so that each of the 8
// lanes is one row's chain; the k % 8 last columns one lane at a time, in order ----

__attribute__((target("avx2"))) void row_dots_avx2(const float* a, int64_t lda, const float* x, int64_t k,
                                                   float* y) {
  __m256 acc = _mm256_setzero_ps();
  int64_t l = 0;
  for (; l + 8 <= k; l += 8) {
    const float* p = a + l;
    // rows 0-7, columns l .. l+7
    __m256 c[8];
    for (int r = 0; r < 8; ++r) c[r] = _mm256_loadu_ps(p + r * lda);
    transpose8(c);   // c[j] = column l + j of the 8 rows
    for (int j = 0; j < 8; ++j) acc = _mm256_add_ps(acc, _mm256_mul_ps(c[j], _mm256_broadcast_ss(x + l + j)));
  }
  alignas(32) float lane[kRowDots];
  _mm256_store_ps(lane, acc);
  for (; l < k; ++l)
    for (int r = 0; r < kRowDots; ++r) {
      const float prod = a[r * lda + l] * x[l];
      lane[r] = lane[r] + prod;
    }
  for (int r = 0; r < kRowDots; ++r) y[r] = lane[r];
}

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
__attribute__((target("avx2"))) void kernel_avx2(int64_t kc, const float* ap, const float* bp, int64_t ldb,
                                                 float* c, int64_t ldc, bool first) {
  ATTN_ROWS(ATTN_DECLARE)  // +0.0f in every lane
  if (!first) { ATTN_ROWS(ATTN_LOAD) }
  for (int64_t l = 0; l < kc; ++l, ap += kMR, bp += ldb) {
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

const RowDots kPortableRowDots = row_dots_portable;
const PackA kPortablePackA = pack_a_portable;
const PackB kPortablePackB = pack_b_portable;

#ifdef ATTN_GEMM_AVX2
const MicroKernel* const kAvx2Kernels = kAvx2Table;
const RowDots kAvx2RowDots = row_dots_avx2;
const PackA kAvx2PackA = pack_a_avx2;
const PackB kAvx2PackB = pack_b_avx2;
#else
const MicroKernel* const kAvx2Kernels = nullptr;
const RowDots kAvx2RowDots = nullptr;
const PackA kAvx2PackA = nullptr;
const PackB kAvx2PackB = nullptr;
#endif

}  // namespace attn::core::gemm::detail
