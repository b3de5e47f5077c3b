// core/kernels/activation.cpp: the GELU kernels of kernels/activation.h, element by element
// (namespace reference: the definitions) and eight lanes per instruction where they can.
//
// What it is: oneDNN's gelu_erf (forward and backward: its exp by a polynomial, erf by A&S
// 7.1.26, constants written as the hex floats of its JIT code) and ATen's GeluKernelImpl /
// GeluBackwardKernelImpl (Sleef on the vector body in the AVX2 family, glibc on the scalar tail
// and in the DEFAULT family), with the multiply-adds GCC contracted in the AVX2 build written
// as std::fma (the project builds with -ffp-contract=off, so nothing else fuses).
// The eight-lane copies (oneDNN's both ways, in both families; ATen's tanh form, AVX2 family) run
// on a CPU with AVX2 and FMA (ATTN_AVX2 functions, kernels/vec_avx2.h, sleef_avx2.h), the
// elements of ATen's scalar tail and a last partial vector through the one-lane definitions.
// What it is not: which kernel a tensor takes (ops/activation.cpp), or ReLU.
#include "core/kernels/activation.h"

#include <cmath>
#include <cstring>

#include "core/bits.h"
#include "core/kernels/sleef.h"
#include "core/kernels/sleef_avx2.h"

namespace attn::core::kernels {

namespace {

using detail::bits_of;
using detail::float_of;

bool avx2_family(CpuKernels cpu) { return cpu == CpuKernels::avx2; }

// oneDNN exp_compute_vector_fwd: 2 * 2^(n-1) * p(r), n = floor(x*log2e + 0.5).
float onednn_exp(float x) {
  const bool zero = x < float_of(0xc2aeac50);   // below ln(FLT_MIN); NaN compares false
  x = x < float_of(0x42b17218) ? x : float_of(0x42b17218);   // vminps(x, ln FLT_MAX): NaN -> the bound
  x = x > float_of(0xc2aeac50) ? x : float_of(0xc2aeac50);   // vmaxps(x, ln FLT_MIN)
  const float n = std::floor(x * float_of(0x3fb8aa3b) + 0.5f);   // mul, then add: two roundings
  const float r = std::fma(-n, float_of(0x3f317218), x);
  const int32_t e = static_cast<int32_t>(std::nearbyint(n - 1.0f)) + 127;
  const float pow2 = zero ? 0.0f : float_of(static_cast<uint32_t>(e) << 23);
  float p = float_of(0x3c07cfce);
  for (uint32_t c : {0x3d2b9d0du, 0x3e2aad40u, 0x3efffee3u, 0x3f7ffffbu, 0x3f800000u}) p = std::fma(p, r, float_of(c));
  return (p * pow2) * 2.0f;
}

// oneDNN gelu_erf_compute_vector_fwd: 0.5 s (1 + erf(s/sqrt 2)), erf by A&S 7.1.26.
float onednn_gelu(float s) {
  const float x = s * float_of(0x3f3504f3);
  const float t = 1.0f / std::fma(float_of(0x3ea7ba05), std::fabs(x), 1.0f);
  const float e = -onednn_exp(-(x * x)) * t;
  float r = float_of(0x3f87dc22);
  for (uint32_t c : {0xbfba00e3u, 0x3fb5f0e3u, 0xbe91a98eu, 0x3e827906u}) r = std::fma(r, t, float_of(c));
  const float erf = float_of(bits_of(std::fma(e, r, 1.0f)) ^ (bits_of(s) & 0x80000000u));
  const float half = s * 0.5f;
  return std::fma(erf, half, half);
}

// ATen GeluKernelImpl, approximate='none': (x * 0.5) * (1 + erf(x * M_SQRT1_2)); Sleef erf on
// the vector body, glibc erff on the scalar tail and in the DEFAULT family.
float aten_gelu_erf(float x, bool tail, CpuKernels cpu) {
  const float v = x * static_cast<float>(M_SQRT1_2);
  const float erf = (!tail && avx2_family(cpu)) ? sleef::erff_u10(v) : ::erff(v);
  return (x * 0.5f) * (1.0f + erf);
}

// ATen GeluKernelImpl, approximate='tanh'. GCC contracts x + kKappa*x^3 in the AVX2 build.
float aten_gelu_tanh(float x, bool tail, CpuKernels cpu) {
  const float beta = static_cast<float>(M_SQRT2 * M_2_SQRTPI * 0.5), kappa = 0.044715f;
  const float x3 = (x * x) * x;
  const float inner = avx2_family(cpu) ? beta * std::fma(kappa, x3, x) : beta * (x + kappa * x3);
  const float th = (!tail && avx2_family(cpu)) ? sleef::tanhf_u10(inner) : ::tanhf(inner);
  return (0.5f * x) * (1.0f + th);
}

// oneDNN gelu_erf_compute_vector_bwd: fma(erf(t), 0.5, t/sqrt(pi) * exp(-t^2) + 0.5), t = s/sqrt 2.
float onednn_gelu_grad(float s) {
  const float x = s * float_of(0x3f3504f3);
  const float ex = onednn_exp(-(x * x));
  const float pdf = (x * float_of(0x3f106eba)) * ex;
  const float t = 1.0f / std::fma(float_of(0x3ea7ba05), std::fabs(x), 1.0f);
  const float e = -ex * t;
  float r = float_of(0x3f87dc22);
  for (uint32_t c : {0xbfba00e3u, 0x3fb5f0e3u, 0xbe91a98eu, 0x3e827906u}) r = std::fma(r, t, float_of(c));
  const float erf = float_of(bits_of(std::fma(e, r, 1.0f)) ^ (bits_of(s) & 0x80000000u));
  return std::fma(erf, 0.5f, pdf + 0.5f);
}

// ATen GeluBackwardKernelImpl, approximate='tanh': the derivative's factor for dy (AVX2 build
// contractions as found by the research; the scalar family rounds every product).
float aten_gelu_tanh_grad(float x, bool tail, CpuKernels cpu) {
  const float beta = static_cast<float>(M_SQRT2 * M_2_SQRTPI * 0.5), kappa = 0.044715f, kappa3 = 3.0f * kappa;
  const float x_sq = x * x, x_cube = x_sq * x;
  const float inner = avx2_family(cpu) ? beta * std::fma(kappa, x_cube, x) : beta * (x + kappa * x_cube);
  const float t = (!tail && avx2_family(cpu)) ? sleef::tanhf_u10(inner) : ::tanhf(inner);
  const float left = 0.5f * x, right = 1.0f + t, left_derivative = 0.5f * right;
  const float tanh_derivative = avx2_family(cpu) ? std::fma(-t, t, 1.0f) : 1.0f - t * t;
  const float inner_derivative = avx2_family(cpu) ? beta * std::fma(kappa3, x_sq, 1.0f) : beta * (1.0f + kappa3 * x_sq);
  return left_derivative + (left * tanh_derivative) * inner_derivative;
}

// ATen GeluBackwardKernelImpl, approximate='none': cdf + x * pdf, cdf = 0.5 (1 + erf(x / sqrt 2)),
// pdf = kBeta exp(-x^2 / 2). The vector body (Sleef erf and exp) and the scalar tail (glibc erff
// and expf) round differently; GCC fuses x * pdf + cdf in the AVX2 vector body, not in the tail
// (measured on views against torch 1.13).
float aten_gelu_erf_grad(float x, bool tail, CpuKernels cpu) {
  const float beta = static_cast<float>(M_2_SQRTPI * M_SQRT1_2 * 0.5), alpha = static_cast<float>(M_SQRT1_2);
  const bool vec = !tail && avx2_family(cpu);
  const float cdf = 0.5f * (1.0f + (vec ? sleef::erff_u10(x * alpha) : ::erff(x * alpha)));
  const float pdf = beta * (vec ? sleef::expf_u10(x * x * -0.5f) : ::expf(x * x * -0.5f));
  return vec ? std::fma(x, pdf, cdf) : cdf + x * pdf;
}

#ifdef ATTN_KERNELS_AVX2

// ---- the same, eight lanes per instruction (AVX2 + FMA): each an operation-for-operation copy of
// its one-lane namesake above, std::fma as _mm256_fmadd_ps (fnmadd for fma(-a, b, c)), so every
// lane has the one-lane bits (tests/core/test_kernels_fast.cpp). ----

using avx2::detail::splat;

ATTN_AVX2 __m256 bits8(uint32_t b) { return _mm256_castsi256_ps(_mm256_set1_epi32(static_cast<int32_t>(b))); }
ATTN_AVX2 __m256 abs8(__m256 v) { return _mm256_andnot_ps(splat(-0.0f), v); }
ATTN_AVX2 __m256 neg8(__m256 v) { return _mm256_xor_ps(splat(-0.0f), v); }

ATTN_AVX2 __m256 onednn_exp8(__m256 x) {
  const __m256 zero = _mm256_cmp_ps(x, bits8(0xc2aeac50), _CMP_LT_OQ);
  x = _mm256_max_ps(_mm256_min_ps(x, bits8(0x42b17218)), bits8(0xc2aeac50));   // min_ps(x, b) = x < b ? x : b
  const __m256 n = _mm256_floor_ps(_mm256_add_ps(_mm256_mul_ps(x, bits8(0x3fb8aa3b)), splat(0.5f)));
  const __m256 r = _mm256_fnmadd_ps(n, bits8(0x3f317218), x);
  const __m256i e = _mm256_add_epi32(_mm256_cvtps_epi32(_mm256_sub_ps(n, splat(1.0f))), _mm256_set1_epi32(127));
  const __m256 pow2 = _mm256_andnot_ps(zero, _mm256_castsi256_ps(_mm256_slli_epi32(e, 23)));
  __m256 p = bits8(0x3c07cfce);
  for (uint32_t c : {0x3d2b9d0du, 0x3e2aad40u, 0x3efffee3u, 0x3f7ffffbu, 0x3f800000u}) p = _mm256_fmadd_ps(p, r, bits8(c));
  return _mm256_mul_ps(_mm256_mul_ps(p, pow2), splat(2.0f));
}

// erf(x) with s's sign from -exp(-x^2) * t and A&S 7.1.26's polynomial in t (onednn_gelu's steps).
ATTN_AVX2 __m256 onednn_erf8(__m256 s, __m256 ex, __m256 t) {
  const __m256 e = _mm256_mul_ps(neg8(ex), t);
  __m256 r = bits8(0x3f87dc22);
  for (uint32_t c : {0xbfba00e3u, 0x3fb5f0e3u, 0xbe91a98eu, 0x3e827906u}) r = _mm256_fmadd_ps(r, t, bits8(c));
  return _mm256_xor_ps(_mm256_fmadd_ps(e, r, splat(1.0f)), _mm256_and_ps(s, splat(-0.0f)));
}

ATTN_AVX2 __m256 onednn_gelu8(__m256 s) {
  const __m256 x = _mm256_mul_ps(s, bits8(0x3f3504f3));
  const __m256 t = _mm256_div_ps(splat(1.0f), _mm256_fmadd_ps(bits8(0x3ea7ba05), abs8(x), splat(1.0f)));
  const __m256 erf = onednn_erf8(s, onednn_exp8(neg8(_mm256_mul_ps(x, x))), t);
  const __m256 half = _mm256_mul_ps(s, splat(0.5f));
  return _mm256_fmadd_ps(erf, half, half);
}

ATTN_AVX2 __m256 onednn_gelu_grad8(__m256 s) {
  const __m256 x = _mm256_mul_ps(s, bits8(0x3f3504f3));
  const __m256 ex = onednn_exp8(neg8(_mm256_mul_ps(x, x)));
  const __m256 pdf = _mm256_mul_ps(_mm256_mul_ps(x, bits8(0x3f106eba)), ex);
  const __m256 t = _mm256_div_ps(splat(1.0f), _mm256_fmadd_ps(bits8(0x3ea7ba05), abs8(x), splat(1.0f)));
  const __m256 erf = onednn_erf8(s, ex, t);
  return _mm256_fmadd_ps(erf, splat(0.5f), _mm256_add_ps(pdf, splat(0.5f)));
}

// aten_gelu_tanh / aten_gelu_tanh_grad of the AVX2 family's vector body (not the tail).
ATTN_AVX2 __m256 aten_gelu_tanh8(__m256 x) {
  const float beta = static_cast<float>(M_SQRT2 * M_2_SQRTPI * 0.5), kappa = 0.044715f;
  const __m256 x3 = _mm256_mul_ps(_mm256_mul_ps(x, x), x);
  const __m256 inner = _mm256_mul_ps(splat(beta), _mm256_fmadd_ps(splat(kappa), x3, x));
  const __m256 th = avx2::detail::tanh8(inner);
  return _mm256_mul_ps(_mm256_mul_ps(splat(0.5f), x), _mm256_add_ps(splat(1.0f), th));
}

ATTN_AVX2 __m256 aten_gelu_tanh_grad8(__m256 x) {
  const float beta = static_cast<float>(M_SQRT2 * M_2_SQRTPI * 0.5), kappa = 0.044715f, kappa3 = 3.0f * kappa;
  const __m256 x_sq = _mm256_mul_ps(x, x), x_cube = _mm256_mul_ps(x_sq, x);
  const __m256 inner = _mm256_mul_ps(splat(beta), _mm256_fmadd_ps(splat(kappa), x_cube, x));
  const __m256 t = avx2::detail::tanh8(inner);
  const __m256 left = _mm256_mul_ps(splat(0.5f), x), right = _mm256_add_ps(splat(1.0f), t);
  const __m256 left_derivative = _mm256_mul_ps(splat(0.5f), right);
  const __m256 tanh_derivative = _mm256_fnmadd_ps(t, t, splat(1.0f));
  const __m256 inner_derivative = _mm256_mul_ps(splat(beta), _mm256_fmadd_ps(splat(kappa3), x_sq, splat(1.0f)));
  return _mm256_add_ps(left_derivative, _mm256_mul_ps(_mm256_mul_ps(left, tanh_derivative), inner_derivative));
}

// True when none of the 8 elements from k is in ATen's scalar tail (tail == nullptr: none is).
inline bool body8(const uint8_t* tail, int64_t k) {
  uint64_t flags = 0;
  if (tail != nullptr) std::memcpy(&flags, tail + k, sizeof flags);
  return flags == 0;
}

// y = vec(x) (dy == nullptr) or dx = dy * vec(x), eight lanes at a time where all eight are in
// the vector body, else element by element with `one` (the one-lane definition).
template <typename Vec, typename One>
ATTN_AVX2 void lanes8(const float* x, const float* dy, const uint8_t* tail, float* y, int64_t n, Vec vec, One one) {
  int64_t k = 0;
  for (; k + 8 <= n; k += 8) {
    if (!body8(tail, k)) {
      for (int64_t i = k; i < k + 8; ++i) y[i] = one(i);
      continue;
    }
    const __m256 v = vec(_mm256_loadu_ps(x + k));
    _mm256_storeu_ps(y + k, dy == nullptr ? v : _mm256_mul_ps(_mm256_loadu_ps(dy + k), v));
  }
  for (; k < n; ++k) y[k] = one(k);
}

struct OnednnGelu8 {
  ATTN_AVX2 __m256 operator()(__m256 v) const { return onednn_gelu8(v); }
};
struct OnednnGeluGrad8 {
  ATTN_AVX2 __m256 operator()(__m256 v) const { return onednn_gelu_grad8(v); }
};
struct AtenGeluTanh8 {
  ATTN_AVX2 __m256 operator()(__m256 v) const { return aten_gelu_tanh8(v); }
};
struct AtenGeluTanhGrad8 {
  ATTN_AVX2 __m256 operator()(__m256 v) const { return aten_gelu_tanh_grad8(v); }
};

#endif  // ATTN_KERNELS_AVX2

// tail[k] != 0, with no flags (nullptr) meaning no element is in the scalar tail.
bool in_tail(const uint8_t* tail, int64_t k) { return tail != nullptr && tail[k] != 0; }

// Whether the eight-lane loops run: this build has them and the CPU has AVX2 and FMA.
bool eight_lanes() { return avx2::supported(); }

}  // namespace

namespace reference {

void gelu_onednn(const float* x, float* y, int64_t n) {
  for (int64_t k = 0; k < n; ++k) y[k] = onednn_gelu(x[k]);
}

void gelu_aten(const float* x, const uint8_t* tail, float* y, int64_t n, bool tanh_approximation, CpuKernels cpu) {
  for (int64_t k = 0; k < n; ++k)
    y[k] = tanh_approximation ? aten_gelu_tanh(x[k], in_tail(tail, k), cpu) : aten_gelu_erf(x[k], in_tail(tail, k), cpu);
}

// dx = dy * (the derivative's factor), one rounded product per element.
void gelu_onednn_backward(const float* x, const float* dy, float* dx, int64_t n) {
  for (int64_t k = 0; k < n; ++k) dx[k] = dy[k] * onednn_gelu_grad(x[k]);
}

void gelu_tanh_backward(const float* x, const float* dy, float* dx, int64_t n, const uint8_t* tail, CpuKernels cpu) {
  for (int64_t k = 0; k < n; ++k) dx[k] = dy[k] * aten_gelu_tanh_grad(x[k], in_tail(tail, k), cpu);
}

}  // namespace reference

// The same, eight lanes at a time where this build and the CPU can (the tanh forms in the AVX2
// family only: DEFAULT's glibc tanhf has no vector code here).
void gelu_onednn(const float* x, float* y, int64_t n) {
#ifdef ATTN_KERNELS_AVX2
  if (eight_lanes()) return lanes8(x, nullptr, nullptr, y, n, OnednnGelu8{}, [&](int64_t k) { return onednn_gelu(x[k]); });
#endif
  reference::gelu_onednn(x, y, n);
}

void gelu_aten(const float* x, const uint8_t* tail, float* y, int64_t n, bool tanh_approximation, CpuKernels cpu) {
#ifdef ATTN_KERNELS_AVX2
  if (tanh_approximation && avx2_family(cpu) && eight_lanes())
    return lanes8(x, nullptr, tail, y, n, AtenGeluTanh8{}, [&](int64_t k) { return aten_gelu_tanh(x[k], in_tail(tail, k), cpu); });
#endif
  reference::gelu_aten(x, tail, y, n, tanh_approximation, cpu);
}

void gelu_onednn_backward(const float* x, const float* dy, float* dx, int64_t n) {
#ifdef ATTN_KERNELS_AVX2
  if (eight_lanes()) return lanes8(x, dy, nullptr, dx, n, OnednnGeluGrad8{}, [&](int64_t k) { return dy[k] * onednn_gelu_grad(x[k]); });
#endif
  reference::gelu_onednn_backward(x, dy, dx, n);
}

void gelu_tanh_backward(const float* x, const float* dy, float* dx, int64_t n, const uint8_t* tail, CpuKernels cpu) {
#ifdef ATTN_KERNELS_AVX2
  if (avx2_family(cpu) && eight_lanes())
    return lanes8(x, dy, tail, dx, n, AtenGeluTanhGrad8{}, [&](int64_t k) { return dy[k] * aten_gelu_tanh_grad(x[k], in_tail(tail, k), cpu); });
#endif
  reference::gelu_tanh_backward(x, dy, dx, n, tail, cpu);
}

void gelu_erf_backward(const float* x, const float* dy, float* dx, int64_t n, const uint8_t* tail, CpuKernels cpu) {
  for (int64_t k = 0; k < n; ++k) dx[k] = dy[k] * aten_gelu_erf_grad(x[k], in_tail(tail, k), cpu);
}

}  // namespace attn::core::kernels
