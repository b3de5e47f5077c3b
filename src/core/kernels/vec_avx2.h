// core/kernels/vec_avx2.h: ATen's Vectorized<float> for AVX2 + FMA, eight lanes per
// instruction, in both kernel families (core/cpu.h): what kernels/unary_avx2.cpp (exp) and
// kernels/softmax_avx2.cpp (the last-dim softmax row) are written with.
//
// What it is: supported(), the run-time check every caller makes first; then, for the *_avx2.cpp
// files only (namespace detail), the instruction sequences of the code they mirror: Sleef 3.5.1
// xexpf (sleefsimdsp.c, helperavx2.h: vmla = _mm256_fmadd_ps, vrint_vi2_vf = _mm256_cvtps_epi32),
// glibc 2.36's __expf_fma, and ATen 1.13's vec::reduce_all / Vectorized<float> (vec256_float.h,
// vec_base.h, functional_base.h). kernels/vec.h and kernels/sleef.cpp hold the same steps one
// lane at a time, with the reasons; these only change how many lanes run per instruction. Each
// function is compiled for "avx2,fma" on its own (ATTN_AVX2; the project builds with
// -ffp-contract=off, so only the explicit _mm256_fmadd_ps fuse).
// What it is not: a dispatcher (kernels/unary.cpp and kernels/softmax.cpp call the AVX2 loops
// only after supported() said yes), or available off x86-64 GCC/Clang (supported() is false).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define ATTN_KERNELS_AVX2 1
#define ATTN_AVX2 __attribute__((target("avx2,fma")))
#endif

namespace attn::core::kernels::avx2 {

// True when this build has the AVX2 code and the CPU runs AVX2 and FMA.
inline bool supported() {
#ifdef ATTN_KERNELS_AVX2
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

#ifdef ATTN_KERNELS_AVX2
namespace detail {

inline constexpr int64_t kLanes = 8;

// ---- Sleef_expf8_u10avx2 ----

ATTN_AVX2 inline __m256 pow2i(__m256i q) {  // vpow2i_vf_vi2: bits (q + 0x7f) << 23
  return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(q, _mm256_set1_epi32(0x7f)), 23));
}

ATTN_AVX2 inline __m256 exp8(__m256 d) {
  const __m256i q = _mm256_cvtps_epi32(_mm256_mul_ps(d, _mm256_set1_ps(1.442695040888963407359924681001892137426645954152985934135449406931f)));
  const __m256 qf = _mm256_cvtepi32_ps(q);
  __m256 s = _mm256_fmadd_ps(qf, _mm256_set1_ps(-0.693145751953125f), d);
  s = _mm256_fmadd_ps(qf, _mm256_set1_ps(-1.428606765330187045e-06f), s);

  __m256 u = _mm256_set1_ps(0.000198527617612853646278381f);
  u = _mm256_fmadd_ps(u, s, _mm256_set1_ps(0.00139304355252534151077271f));
  u = _mm256_fmadd_ps(u, s, _mm256_set1_ps(0.00833336077630519866943359f));
  u = _mm256_fmadd_ps(u, s, _mm256_set1_ps(0.0416664853692054748535156f));
  u = _mm256_fmadd_ps(u, s, _mm256_set1_ps(0.166666671633720397949219f));
  u = _mm256_fmadd_ps(u, s, _mm256_set1_ps(0.5f));
  u = _mm256_add_ps(_mm256_set1_ps(1.0f), _mm256_fmadd_ps(_mm256_mul_ps(s, s), u, s));

  // vldexp2_vf_vf_vi2: u * 2^(q>>1) * 2^(q - (q>>1))
  const __m256i half = _mm256_srai_epi32(q, 1);
  u = _mm256_mul_ps(_mm256_mul_ps(u, pow2i(half)), pow2i(_mm256_sub_epi32(q, half)));

  // d < -104 -> +0 (bits cleared); 100 < d -> +inf
  u = _mm256_andnot_ps(_mm256_cmp_ps(d, _mm256_set1_ps(-104.0f), _CMP_LT_OQ), u);
  return _mm256_blendv_ps(u, _mm256_set1_ps(INFINITY), _mm256_cmp_ps(_mm256_set1_ps(100.0f), d, _CMP_LT_OQ));
}

// ---- glibc 2.36 __expf_fma (sysdeps/ieee754/flt-32/e_expf.c built with -mfma -mavx2) ----
// The DEFAULT family's exp is std::exp, i.e. glibc's expf, which on a CPU with FMA is this
// variant (its ifunc's choice, for libtorch and for attn alike). Its main path, for |x| < 88,
// in double, with the fused multiply-adds GCC formed when building it (read from its
// disassembly: kd = fma(InvLn2N, xd, Shift), r = fma(InvLn2N, xd, -(kd - Shift)), z = fma(r, C0,
// C1), y = fma(z, r*r, fma(r, C2, 1)), then y * s rounded to float), four doubles per vector.
// The constants are __exp2f_data's (EXP2F_TABLE_BITS = 5), as the library holds them. Lanes
// off the main path (|x| >= 88, inf, NaN) call std::exp itself. The skipped case of
// tests/test_kernels_fast.cpp checks every float against std::exp.
inline constexpr uint64_t kExp2fTab[32] = {
    0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51, 0x3fef72b83c7d517b,
    0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1, 0x3fef06fe0a31b715, 0x3feef1a7373aa9cb,
    0x3feedea64c123422, 0x3feece086061892d, 0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429,
    0x3feea47eb03a5585, 0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
    0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d, 0x3feee89f995ad3ad,
    0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069, 0x3fef5818dcfba487, 0x3fef7c97337b9b5f,
    0x3fefa4afa2a490da, 0x3fefd0765b6e4540};
inline constexpr uint64_t kInvLn2N = 0x40471547652b82fe;  // 0x1.71547652b82fep+0 * 32
inline constexpr uint64_t kShift = 0x4338000000000000;    // 0x1.8p+52
inline constexpr uint64_t kC0 = 0x3ebc6af84b912394, kC1 = 0x3f2ebfce50fac4f3, kC2 = 0x3f962e42ff0c52d6;

ATTN_AVX2 inline __m256d set1_bits(uint64_t b) { return _mm256_castsi256_pd(_mm256_set1_epi64x(static_cast<int64_t>(b))); }

ATTN_AVX2 inline __m128 glibc_exp4(__m128 x) {
  const __m256d xd = _mm256_cvtps_pd(x), inv = set1_bits(kInvLn2N), shift = set1_bits(kShift);
  const __m256d kd = _mm256_fmadd_pd(inv, xd, shift);
  const __m256i ki = _mm256_castpd_si256(kd);
  const __m256d r = _mm256_fmsub_pd(inv, xd, _mm256_sub_pd(kd, shift));
  const __m256i t = _mm256_add_epi64(
      _mm256_i64gather_epi64(reinterpret_cast<const long long*>(kExp2fTab), _mm256_and_si256(ki, _mm256_set1_epi64x(31)), 8),
      _mm256_slli_epi64(ki, 47));
  const __m256d z = _mm256_fmadd_pd(r, set1_bits(kC0), set1_bits(kC1));
  const __m256d r2 = _mm256_mul_pd(r, r);
  __m256d y = _mm256_fmadd_pd(r, set1_bits(kC2), _mm256_set1_pd(1.0));
  y = _mm256_fmadd_pd(z, r2, y);
  return _mm256_cvtpd_ps(_mm256_mul_pd(y, _mm256_castsi256_pd(t)));
}

// expf of 8 lanes: the main path above, std::exp for lanes with top12(|x|) above top12(88).
ATTN_AVX2 inline __m256 glibc_exp8(__m256 x) {
  __m256 y = _mm256_set_m128(glibc_exp4(_mm256_extractf128_ps(x, 1)), glibc_exp4(_mm256_castps256_ps128(x)));
  const __m256i abstop = _mm256_and_si256(_mm256_srli_epi32(_mm256_castps_si256(x), 20), _mm256_set1_epi32(0x7ff));
  const int special = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(abstop, _mm256_set1_epi32(0x42a))));
  if (special == 0) return y;
  alignas(32) float xs[8], ys[8];
  _mm256_store_ps(xs, x);
  _mm256_store_ps(ys, y);
  for (int i = 0; i < 8; ++i)
    if (special & (1 << i)) ys[i] = std::exp(xs[i]);
  return _mm256_load_ps(ys);
}

// The first `count` (< 8) floats of p as a vector, zeros after (Vectorized::loadu(p, count)).
ATTN_AVX2 inline __m256 load_partial(const float* p, int64_t count) {
  alignas(32) float tmp[kLanes] = {};
  std::memcpy(tmp, p, static_cast<size_t>(count) * sizeof(float));
  return _mm256_load_ps(tmp);
}

ATTN_AVX2 inline void store_partial(float* p, __m256 v, int64_t count) {
  alignas(32) float tmp[kLanes];
  _mm256_store_ps(tmp, v);
  std::memcpy(p, tmp, static_cast<size_t>(count) * sizeof(float));
}

// ---- the two families: exp, maximum, and reduce_all's horizontal step ----

struct Plus {
  ATTN_AVX2 __m256 operator()(__m256 a, __m256 b) const { return _mm256_add_ps(a, b); }
  float operator()(float a, float b) const { return a + b; }
};

// ATen's AVX2 kernels (vec256_float.h): Sleef exp; maximum = max_ps, then OR with all-ones
// where either is NaN (a scalar call runs the same instructions on lane 0); VecReduceAllSIMD's
// order ((l0 op l4) op (l2 op l6)) op ((l1 op l5) op (l3 op l7)).
struct Avx2Family {
  struct Maximum {
    ATTN_AVX2 __m256 operator()(__m256 a, __m256 b) const {
      return _mm256_or_ps(_mm256_max_ps(a, b), _mm256_cmp_ps(a, b, _CMP_UNORD_Q));
    }
    ATTN_AVX2 float operator()(float a, float b) const {
      return _mm256_cvtss_f32((*this)(_mm256_set1_ps(a), _mm256_set1_ps(b)));
    }
  };
  ATTN_AVX2 static __m256 exp(__m256 x) { return exp8(x); }
  template <typename Op>
  static float horizontal(const float* l, Op op) {
    return op(op(op(l[0], l[4]), op(l[2], l[6])), op(op(l[1], l[5]), op(l[3], l[7])));
  }
};

// ATen's DEFAULT kernels (vec_base.h): exp = std::exp (glibc expf) per lane; maximum =
// (a > b ? a : b), a itself when a is NaN; the generic reduce folds lanes left to right.
struct DefaultFamily {
  struct Maximum {
    ATTN_AVX2 __m256 operator()(__m256 a, __m256 b) const {
      const __m256 m = _mm256_blendv_ps(b, a, _mm256_cmp_ps(a, b, _CMP_GT_OQ));
      return _mm256_blendv_ps(m, a, _mm256_cmp_ps(a, a, _CMP_UNORD_Q));
    }
    float operator()(float a, float b) const { return std::isnan(a) ? a : (a > b ? a : b); }
  };
  ATTN_AVX2 static __m256 exp(__m256 x) { return glibc_exp8(x); }
  template <typename Op>
  static float horizontal(const float* l, Op op) {
    float acc = l[0];
    for (int i = 1; i < kLanes; ++i) acc = op(acc, l[i]);
    return acc;
  }
};

// reduce_all (functional_base.h) for one op: a left fold below 8 elements; else 8 lanes,
// full chunks lane-wise, the tail into the low lanes, then the family's horizontal step, as
// kernels/vec.h spells out.
template <typename Family, typename Op>
ATTN_AVX2 inline float reduce_all(const float* x, int64_t n, Op op) {
  if (n < kLanes) {
    float acc = x[0];
    for (int64_t i = 1; i < n; ++i) acc = op(acc, x[i]);
    return acc;
  }
  __m256 acc = _mm256_loadu_ps(x);
  int64_t d = kLanes;
  for (; d + kLanes <= n; d += kLanes) acc = op(acc, _mm256_loadu_ps(x + d));
  alignas(32) float l[kLanes];
  _mm256_store_ps(l, acc);
  for (int64_t i = 0; d + i < n; ++i) l[i] = op(l[i], x[d + i]);
  return Family::horizontal(l, op);
}

}  // namespace detail
#endif  // ATTN_KERNELS_AVX2

}  // namespace attn::core::kernels::avx2
