// core/kernels/box_muller_avx2.cpp: the scalar family's normal_fill_16<float> eight lanes per
// instruction (kernels/box_muller.h), with glibc 2.36's __logf_fma and __sincosf_fma four
// doubles per vector.
//
// What it is: each glibc routine's main path with the same double operations in the same order,
// fused exactly where GCC fused them in this machine's libm (read from its disassembly; the
// project builds with -ffp-contract=off, so only the explicit _mm256_fmadd_pd fuse), the tables
// as the library holds them (__logf_data, __sincosf_table), and the float Box-Muller arithmetic
// of core/random.cpp's normal_fill_16_scalar around them, unfused as torch's DEFAULT build.
// What it is not: called without avx2::supported() (core/random.cpp checks it); the large-
// argument sincosf reduction (|x| >= 120) or logf's special inputs, which go to libm per lane.
#include "core/kernels/box_muller.h"

#include <cmath>

#include "core/kernels/vec_avx2.h"

namespace attn::core::kernels::avx2 {

#ifdef ATTN_KERNELS_AVX2

namespace {

using detail::kLanes;
using detail::set1_bits;

// ---- glibc 2.36 __logf_fma (e_logf.c, e_logf_data.c: LOGF_TABLE_BITS = 4, LOGF_POLY_ORDER = 4) ----

// __logf_data.tab: {invc, logc} for 16 subintervals of [OFF, 2 OFF], OFF = 0x3f330000.
alignas(32) constexpr double kLogfTab[32] = {
    0x1.661ec79f8f3bep+0, -0x1.57bf7808caadep-2, 0x1.571ed4aaf883dp+0, -0x1.2bef0a7c06ddbp-2,
    0x1.49539f0f010b0p+0, -0x1.01eae7f513a67p-2, 0x1.3c995b0b80385p+0, -0x1.b31d8a68224e9p-3,
    0x1.30d190c8864a5p+0, -0x1.6574f0ac07758p-3, 0x1.25e227b0b8ea0p+0, -0x1.1aa2bc79c8100p-3,
    0x1.1bb4a4a1a343fp+0, -0x1.a4e76ce8c0e5ep-4, 0x1.12358f08ae5bap+0, -0x1.1973c5a611cccp-4,
    0x1.0953f419900a7p+0, -0x1.252f438e10c1ep-5, 0x1.0000000000000p+0, 0x0.0p+0,
    0x1.e608cfd9a47acp-1, 0x1.aa5aa5df25984p-5, 0x1.ca4b31f026aa0p-1, 0x1.c5e53aa362eb4p-4,
    0x1.b2036576afce6p-1, 0x1.526e57720db08p-3, 0x1.9c2d163a1aa2dp-1, 0x1.bc2860d224770p-3,
    0x1.886e6037841edp-1, 0x1.1058bc8a07ee1p-2, 0x1.767dcf5534862p-1, 0x1.4043057b6ee09p-2};
constexpr double kLogfLn2 = 0x1.62e42fefa39efp-1;
constexpr double kLogfA0 = -0x1.00ea348b88334p-2, kLogfA1 = 0x1.5575b0be00b6ap-2,
                 kLogfA2 = -0x1.ffffef20a4123p-2;

// The main path for x in [0x1p-126, inf), four lanes. Fused as in the library:
//   r = fma(z, invc, -1), y0 = fma(k, Ln2, logc), y = fma(r, A1, A2), y = fma(A0, r*r, y),
//   result = fma(r*r, y, r + y0), rounded to float. x == 1 gives +0 here as in the library's
//   early return (r = 0, y0 = 0, 0 * A2 + 0 = +0).
ATTN_AVX2 inline __m128 logf4(__m128 x) {
  const __m128i ix = _mm_castps_si128(x);
  const __m128i tmp = _mm_sub_epi32(ix, _mm_set1_epi32(0x3f330000));
  const __m128i i = _mm_and_si128(_mm_srli_epi32(tmp, 23 - 4), _mm_set1_epi32(15));
  const __m128i k = _mm_srai_epi32(tmp, 23);
  const __m128i iz = _mm_sub_epi32(ix, _mm_and_si128(tmp, _mm_set1_epi32(static_cast<int>(0xff800000u))));
  const __m128i i2 = _mm_slli_epi32(i, 1);  // {invc, logc} pairs
  // the masked form: the plain one starts from _mm256_undefined_pd, which GCC 12 warns about
  const __m256d all = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
  const __m256d invc = _mm256_mask_i32gather_pd(_mm256_setzero_pd(), kLogfTab, i2, all, 8);
  const __m256d logc = _mm256_mask_i32gather_pd(_mm256_setzero_pd(), kLogfTab + 1, i2, all, 8);
  const __m256d z = _mm256_cvtps_pd(_mm_castsi128_ps(iz));
  const __m256d r = _mm256_fmadd_pd(z, invc, _mm256_set1_pd(-1.0));
  const __m256d y0 = _mm256_fmadd_pd(_mm256_cvtepi32_pd(k), _mm256_set1_pd(kLogfLn2), logc);
  const __m256d r2 = _mm256_mul_pd(r, r);
  __m256d y = _mm256_fmadd_pd(r, _mm256_set1_pd(kLogfA1), _mm256_set1_pd(kLogfA2));
  y = _mm256_fmadd_pd(_mm256_set1_pd(kLogfA0), r2, y);
  y = _mm256_fmadd_pd(r2, y, _mm256_add_pd(r, y0));
  return _mm256_cvtpd_ps(y);
}

// logf of 8 lanes: the main path, std::log for lanes outside [0x1p-126, inf) (and NaN).
ATTN_AVX2 inline __m256 logf8(__m256 x) {
  __m256 y = _mm256_set_m128(logf4(_mm256_extractf128_ps(x, 1)), logf4(_mm256_castps256_ps128(x)));
  const __m256 off = _mm256_or_ps(_mm256_cmp_ps(x, _mm256_set1_ps(0x1p-126f), _CMP_NGE_UQ),
                                  _mm256_cmp_ps(x, _mm256_set1_ps(INFINITY), _CMP_NLT_UQ));
  const int special = _mm256_movemask_ps(off);
  if (special == 0) return y;
  alignas(32) float xs[kLanes], ys[kLanes];
  _mm256_store_ps(xs, x);
  _mm256_store_ps(ys, y);
  for (int l = 0; l < kLanes; ++l)
    if (special & (1 << l)) ys[l] = std::log(xs[l]);
  return _mm256_load_ps(ys);
}

// ---- glibc 2.36 __sincosf_fma (s_sincosf.c, s_sincosf.h, s_sincosf_data.c) ----

// __sincosf_table[0] as the library lays it out (c0, c1, s1, c2, s2, c3, s3, c4); table[1] is
// the same with every c negated (it returns -cos).
constexpr double kHpiInv = 0x1.45f306dc9c883p+23;  // 2/pi * 2^24 (no TOINT_INTRINSICS on x86)
constexpr double kHpi = 0x1.921fb54442d18p+0;
constexpr double kC0 = 0x1p+0, kC1 = -0x1.ffffffd0c621cp-2, kC2 = 0x1.55553e1068f19p-5,
                 kC3 = -0x1.6c087e89a359dp-10, kC4 = 0x1.99343027bf8c3p-16;
constexpr double kS1 = -0x1.555545995a603p-3, kS2 = 0x1.1107605230bc4p-7, kS3 = -0x1.994eb3774cf24p-13;

// sin and cos of four lanes with 2^-12 <= |x| < 120: reduce_fast, then sincosf_poly. For
// |x| < 0.75 the library skips the reduction; here n = 0 there, so xr = x - 0 * hpi = x, s = 1,
// table[0]: the same operations. Fused as in the library:
//   xr = fma(-n, hpi, x); c2 = fma(x2, c4, c3); s1 = fma(x2, s3, s2); c1 = fma(x2, c1, c0);
//   s = fma(x3, s1, x); c = fma(x4, c2, c1); sin = fma(s1', x5, s); cos = fma(c2', x6, c).
// table[1]'s negated c's give exactly -cos (round to nearest is symmetric), applied as a sign.
ATTN_AVX2 inline void sincosf4(__m128 y, __m128* sin_out, __m128* cos_out) {
  const __m256d x = _mm256_cvtps_pd(y);
  const __m256d r = _mm256_mul_pd(x, _mm256_set1_pd(kHpiInv));
  const __m128i n = _mm_srai_epi32(_mm_add_epi32(_mm256_cvttpd_epi32(r), _mm_set1_epi32(0x800000)), 24);
  const __m256d xr = _mm256_fnmadd_pd(_mm256_cvtepi32_pd(n), _mm256_set1_pd(kHpi), x);
  // sign[n & 3] = {1, -1, -1, 1}: -1 exactly when (n + 1) & 2
  const __m128i q = _mm_and_si128(_mm_add_epi32(n, _mm_set1_epi32(1)), _mm_set1_epi32(2));
  const __m256d s = _mm256_sub_pd(_mm256_set1_pd(1.0), _mm256_cvtepi32_pd(q));
  const __m256d xs = _mm256_mul_pd(xr, s);
  const __m256d x2 = _mm256_mul_pd(xr, xr);
  const __m256d x3 = _mm256_mul_pd(x2, xs), x4 = _mm256_mul_pd(x2, x2);
  const __m256d x5 = _mm256_mul_pd(x2, x3), x6 = _mm256_mul_pd(x2, x4);
  const __m256d s1 = _mm256_fmadd_pd(x2, _mm256_set1_pd(kS3), _mm256_set1_pd(kS2));
  const __m256d c2 = _mm256_fmadd_pd(x2, _mm256_set1_pd(kC4), _mm256_set1_pd(kC3));
  const __m256d c1 = _mm256_fmadd_pd(x2, _mm256_set1_pd(kC1), _mm256_set1_pd(kC0));
  const __m256d sp = _mm256_fmadd_pd(x3, _mm256_set1_pd(kS1), xs);
  const __m256d cp = _mm256_fmadd_pd(x4, _mm256_set1_pd(kC2), c1);
  const __m256d sv = _mm256_fmadd_pd(s1, x5, sp);
  __m256d cv = _mm256_fmadd_pd(c2, x6, cp);
  // table[1] when n & 2; sine and cosine swapped when n & 1 (64-bit lane masks from n)
  const __m256i n64 = _mm256_cvtepi32_epi64(n);
  const __m256d neg = _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_and_si256(n64, _mm256_set1_epi64x(2)), 62));
  cv = _mm256_xor_pd(cv, neg);
  const __m256d odd = _mm256_castsi256_pd(_mm256_cmpeq_epi64(_mm256_and_si256(n64, _mm256_set1_epi64x(1)), _mm256_set1_epi64x(1)));
  *sin_out = _mm256_cvtpd_ps(_mm256_blendv_pd(sv, cv, odd));
  *cos_out = _mm256_cvtpd_ps(_mm256_blendv_pd(cv, sv, odd));
}

// sincosf of 8 lanes: |x| < 2^-12 gives (x, 1) as the library does; |x| >= 120, inf and NaN
// lanes call std::sin / std::cos.
ATTN_AVX2 inline void sincosf8(__m256 x, __m256* sin_out, __m256* cos_out) {
  __m128 s_lo, c_lo, s_hi, c_hi;
  sincosf4(_mm256_castps256_ps128(x), &s_lo, &c_lo);
  sincosf4(_mm256_extractf128_ps(x, 1), &s_hi, &c_hi);
  __m256 s = _mm256_set_m128(s_hi, s_lo), c = _mm256_set_m128(c_hi, c_lo);
  const __m256i abs = _mm256_and_si256(_mm256_castps_si256(x), _mm256_set1_epi32(0x7fffffff));
  const __m256 tiny = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(0x39800000), abs));
  s = _mm256_blendv_ps(s, x, tiny);
  c = _mm256_blendv_ps(c, _mm256_set1_ps(1.0f), tiny);
  const int large = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(abs, _mm256_set1_epi32(0x42efffff))));
  if (large != 0) {
    alignas(32) float xs[kLanes], ss[kLanes], cs[kLanes];
    _mm256_store_ps(xs, x);
    _mm256_store_ps(ss, s);
    _mm256_store_ps(cs, c);
    for (int l = 0; l < kLanes; ++l) {
      if (large & (1 << l)) {
        ss[l] = std::sin(xs[l]);
        cs[l] = std::cos(xs[l]);
      }
    }
    s = _mm256_load_ps(ss);
    c = _mm256_load_ps(cs);
  }
  *sin_out = s;
  *cos_out = c;
}

// One 16-block of normal_fill_16<float>: lanes j and j+8 become one Box-Muller pair, as
// core/random.cpp's normal_fill_16_scalar (no fusion: torch's DEFAULT build has no FMA).
ATTN_AVX2 inline void fill_block(float* data, __m256 mean, __m256 std) {
  const __m256 u1 = _mm256_sub_ps(_mm256_set1_ps(1.0f), _mm256_loadu_ps(data));  // (0, 1]
  const __m256 u2 = _mm256_loadu_ps(data + 8);
  const __m256 radius = _mm256_sqrt_ps(_mm256_mul_ps(_mm256_set1_ps(-2.0f), logf8(u1)));
  // theta = 2.0f * c10::pi<double> * u2: a double product rounded once to float
  const __m256d two_pi = _mm256_set1_pd(2.0 * 3.14159265358979323846);
  const __m128 t_lo = _mm256_cvtpd_ps(_mm256_mul_pd(two_pi, _mm256_cvtps_pd(_mm256_castps256_ps128(u2))));
  const __m128 t_hi = _mm256_cvtpd_ps(_mm256_mul_pd(two_pi, _mm256_cvtps_pd(_mm256_extractf128_ps(u2, 1))));
  __m256 sin_t, cos_t;
  sincosf8(_mm256_set_m128(t_hi, t_lo), &sin_t, &cos_t);
  _mm256_storeu_ps(data, _mm256_add_ps(_mm256_mul_ps(_mm256_mul_ps(radius, cos_t), std), mean));
  _mm256_storeu_ps(data + 8, _mm256_add_ps(_mm256_mul_ps(_mm256_mul_ps(radius, sin_t), std), mean));
}

}  // namespace

ATTN_AVX2 void glibc_logf(const float* in, float* out, int64_t n) {
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) _mm256_storeu_ps(out + i, logf8(_mm256_loadu_ps(in + i)));
  if (i < n) {
    // pad with 1.0f (a main-path input) rather than zeros, which would take the libm fallback
    alignas(32) float tmp[kLanes] = {1, 1, 1, 1, 1, 1, 1, 1};
    for (int64_t l = 0; i + l < n; ++l) tmp[l] = in[i + l];
    _mm256_store_ps(tmp, logf8(_mm256_load_ps(tmp)));
    for (int64_t l = 0; i + l < n; ++l) out[i + l] = tmp[l];
  }
}

ATTN_AVX2 void glibc_sincosf(const float* in, float* s, float* c, int64_t n) {
  int64_t i = 0;
  __m256 sv, cv;
  for (; i + kLanes <= n; i += kLanes) {
    sincosf8(_mm256_loadu_ps(in + i), &sv, &cv);
    _mm256_storeu_ps(s + i, sv);
    _mm256_storeu_ps(c + i, cv);
  }
  if (i < n) {
    sincosf8(detail::load_partial(in + i, n - i), &sv, &cv);
    detail::store_partial(s + i, sv, n - i);
    detail::store_partial(c + i, cv, n - i);
  }
}

ATTN_AVX2 void default_normal_fill_16(float* data, int64_t blocks, float mean, float std) {
  const __m256 mean_v = _mm256_set1_ps(mean), std_v = _mm256_set1_ps(std);
  for (int64_t b = 0; b < blocks; ++b) fill_block(data + 16 * b, mean_v, std_v);
}

#else  // no AVX2 code in this build: never called (supported() is false)

void glibc_logf(const float*, float*, int64_t) {}
void glibc_sincosf(const float*, float*, float*, int64_t) {}
void default_normal_fill_16(float*, int64_t, float, float) {}

#endif

}  // namespace attn::core::kernels::avx2
