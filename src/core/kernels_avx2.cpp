// core/kernels_avx2.cpp: Sleef's expf and ATen's last-dim softmax with AVX2 + FMA intrinsics
// (see kernels_avx2.h).
//
// Each function is the instruction sequence of the code it names, in its order: Sleef 3.5.1
// xexpf (sleefsimdsp.c, helperavx2.h: vmla = _mm256_fmadd_ps, vrint_vi2_vf = _mm256_cvtps_epi32)
// and ATen 1.13's vec::reduce_all / vec::map / Vectorized<float> (vec256_float.h,
// functional_base.h). kernels.cpp holds the same steps one lane at a time, with the reasons;
// this file only changes how many lanes run per instruction. Compiled for "avx2,fma" per
// function (the project builds with -ffp-contract=off, so only the explicit _mm256_fmadd_ps
// fuse); called only after supported() checked the CPU.
// What it is not: the DEFAULT family (glibc expf) or softmax over a dimension that is not last.
#include "core/kernels_avx2.h"

#include <cmath>
#include <cstring>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define ATTN_KERNELS_AVX2 1
#define ATTN_AVX2 __attribute__((target("avx2,fma")))
#endif

namespace attn::core::kernels::avx2 {

#ifdef ATTN_KERNELS_AVX2

namespace {

constexpr int64_t kLanes = 8;

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

// ---- vec::reduce_all with the AVX2 family's maximum and + ----

// at::vec::maximum (vec256_float.h): max_ps, then OR with all-ones where either is NaN; a
// scalar call runs the same instructions on lane 0.
struct Maximum {
  ATTN_AVX2 __m256 operator()(__m256 a, __m256 b) const {
    return _mm256_or_ps(_mm256_max_ps(a, b), _mm256_cmp_ps(a, b, _CMP_UNORD_Q));
  }
  ATTN_AVX2 float operator()(float a, float b) const {
    return _mm256_cvtss_f32((*this)(_mm256_set1_ps(a), _mm256_set1_ps(b)));
  }
};
struct Plus {
  ATTN_AVX2 __m256 operator()(__m256 a, __m256 b) const { return _mm256_add_ps(a, b); }
  float operator()(float a, float b) const { return a + b; }
};

// reduce_all (functional_base.h) for one op: a left fold below 8 elements; else 8 lanes,
// full chunks lane-wise, the tail into the low lanes, then VecReduceAllSIMD's horizontal order
// ((l0 op l4) op (l2 op l6)) op ((l1 op l5) op (l3 op l7)), as kernels.cpp spells out.
template <typename Op>
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
  return op(op(op(l[0], l[4]), op(l[2], l[6])), op(op(l[1], l[5]), op(l[3], l[7])));
}

}  // namespace

bool supported() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }

ATTN_AVX2 void exp(const float* in, float* out, int64_t n) {
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) _mm256_storeu_ps(out + i, exp8(_mm256_loadu_ps(in + i)));
  if (i < n) store_partial(out + i, exp8(load_partial(in + i, n - i)), n - i);
}

// _vec_softmax_lastdim, one row: max, y = exp(x - max), sum, y = y * (1 / sum).
ATTN_AVX2 void softmax_row(const float* x, float* y, int64_t n) {
  const float max_input = reduce_all(x, n, Maximum{});
  const __m256 vmax = _mm256_set1_ps(max_input);
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) _mm256_storeu_ps(y + i, exp8(_mm256_sub_ps(_mm256_loadu_ps(x + i), vmax)));
  if (i < n) store_partial(y + i, exp8(_mm256_sub_ps(load_partial(x + i, n - i), vmax)), n - i);
  const float sum = reduce_all(y, n, Plus{});
  const float inv = 1.0f / sum;
  const __m256 vinv = _mm256_set1_ps(inv);
  for (i = 0; i + kLanes <= n; i += kLanes) _mm256_storeu_ps(y + i, _mm256_mul_ps(_mm256_loadu_ps(y + i), vinv));
  for (; i < n; ++i) y[i] = y[i] * inv;
}

#else  // no AVX2 code in this build: kernels.cpp never calls the two below

bool supported() { return false; }
void exp(const float*, float*, int64_t) {}
void softmax_row(const float*, float*, int64_t) {}

#endif

}  // namespace attn::core::kernels::avx2
