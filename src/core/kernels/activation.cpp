// core/kernels/activation.cpp: the GELU kernels of kernels/activation.h, element by element.
//
// What it is: oneDNN's gelu_erf (forward and backward: its exp by a polynomial, erf by A&S
// 7.1.26, constants written as the hex floats of its JIT code) and ATen's GeluKernelImpl /
// GeluBackwardKernelImpl (Sleef on the vector body in the AVX2 family, glibc on the scalar tail
// and in the DEFAULT family), with the multiply-adds GCC contracted in the AVX2 build written
// as std::fma (the project builds with -ffp-contract=off, so nothing else fuses).
// What it is not: which kernel a tensor takes (ops/activation.cpp), or ReLU.
#include "core/kernels/activation.h"

#include <cmath>

#include "core/bits.h"
#include "core/kernels/sleef.h"

namespace attn::core::kernels {

namespace {

using detail::bits_of;
using detail::float_of;

bool avx2(CpuKernels cpu) { return cpu == CpuKernels::avx2; }

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
  const float erf = (!tail && avx2(cpu)) ? sleef::erff_u10(v) : ::erff(v);
  return (x * 0.5f) * (1.0f + erf);
}

// ATen GeluKernelImpl, approximate='tanh'. GCC contracts x + kKappa*x^3 in the AVX2 build.
float aten_gelu_tanh(float x, bool tail, CpuKernels cpu) {
  const float beta = static_cast<float>(M_SQRT2 * M_2_SQRTPI * 0.5), kappa = 0.044715f;
  const float x3 = (x * x) * x;
  const float inner = avx2(cpu) ? beta * std::fma(kappa, x3, x) : beta * (x + kappa * x3);
  const float th = (!tail && avx2(cpu)) ? sleef::tanhf_u10(inner) : ::tanhf(inner);
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
  const float inner = avx2(cpu) ? beta * std::fma(kappa, x_cube, x) : beta * (x + kappa * x_cube);
  const float t = (!tail && avx2(cpu)) ? sleef::tanhf_u10(inner) : ::tanhf(inner);
  const float left = 0.5f * x, right = 1.0f + t, left_derivative = 0.5f * right;
  const float tanh_derivative = avx2(cpu) ? std::fma(-t, t, 1.0f) : 1.0f - t * t;
  const float inner_derivative = avx2(cpu) ? beta * std::fma(kappa3, x_sq, 1.0f) : beta * (1.0f + kappa3 * x_sq);
  return left_derivative + (left * tanh_derivative) * inner_derivative;
}

// ATen GeluBackwardKernelImpl, approximate='none': cdf + x * pdf, cdf = 0.5 (1 + erf(x / sqrt 2)),
// pdf = kBeta exp(-x^2 / 2). The vector body (Sleef erf and exp) and the scalar tail (glibc erff
// and expf) round differently; GCC fuses x * pdf + cdf in the AVX2 vector body, not in the tail
// (measured on views against torch 1.13).
float aten_gelu_erf_grad(float x, bool tail, CpuKernels cpu) {
  const float beta = static_cast<float>(M_2_SQRTPI * M_SQRT1_2 * 0.5), alpha = static_cast<float>(M_SQRT1_2);
  const bool vec = !tail && avx2(cpu);
  const float cdf = 0.5f * (1.0f + (vec ? sleef::erff_u10(x * alpha) : ::erff(x * alpha)));
  const float pdf = beta * (vec ? sleef::expf_u10(x * x * -0.5f) : ::expf(x * x * -0.5f));
  return vec ? std::fma(x, pdf, cdf) : cdf + x * pdf;
}

}  // namespace

void gelu_onednn(const float* x, float* y, int64_t n) {
  for (int64_t k = 0; k < n; ++k) y[k] = onednn_gelu(x[k]);
}

void gelu_aten(const float* x, const uint8_t* tail, float* y, int64_t n, bool tanh_approximation, CpuKernels cpu) {
  for (int64_t k = 0; k < n; ++k)
    y[k] = tanh_approximation ? aten_gelu_tanh(x[k], tail[k] != 0, cpu) : aten_gelu_erf(x[k], tail[k] != 0, cpu);
}

// dx = dy * (the derivative's factor), one rounded product per element.
void gelu_onednn_backward(const float* x, const float* dy, float* dx, int64_t n) {
  for (int64_t k = 0; k < n; ++k) dx[k] = dy[k] * onednn_gelu_grad(x[k]);
}

void gelu_tanh_backward(const float* x, const float* dy, float* dx, int64_t n, const uint8_t* tail, CpuKernels cpu) {
  for (int64_t k = 0; k < n; ++k) dx[k] = dy[k] * aten_gelu_tanh_grad(x[k], tail[k] != 0, cpu);
}

void gelu_erf_backward(const float* x, const float* dy, float* dx, int64_t n, const uint8_t* tail, CpuKernels cpu) {
  for (int64_t k = 0; k < n; ++k) dx[k] = dy[k] * aten_gelu_erf_grad(x[k], tail[k] != 0, cpu);
}

}  // namespace attn::core::kernels
