// core/kernels/unary.cpp: torch.exp over a contiguous buffer, torch.sin / cos over a vml run
// (kernels/unary.h).
//
// What it is: exp_kernel (UnaryOpsKernel.cpp) -> at::vml::vexp, a vec::map of Vectorized::exp
// over every element, the partial last vector too, so any length is vec_exp: Sleef on AVX2,
// glibc expf in the DEFAULT family. Eight lanes at a time where unary_avx2.cpp can (a CPU with
// AVX2 and FMA: Sleef's, or glibc's FMA expf's, own instructions), else element by element.
// tanh (and 1 - y*y) likewise in the AVX2 family; glibc tanhf per element in DEFAULT.
// sin and cos go element by element (no AVX2 code), 8 lanes sharing Sleef's branch.
// What it is not: the arithmetic itself (kernels/sleef.cpp, glibc).
#include "core/kernels/unary.h"

#include "core/kernels/vec_avx2.h"

namespace attn::core::kernels {

void exp(const float* in, float* out, int64_t n, CpuKernels cpu) {
  if (avx2::supported()) return avx2::exp(in, out, n, cpu);
  for (int64_t i = 0; i < n; ++i) out[i] = vec_exp(in[i], cpu);
}

void tanh(const float* in, float* out, int64_t n, CpuKernels cpu) {
  if (cpu == CpuKernels::avx2 && avx2::supported()) return avx2::tanh(in, out, n);
  for (int64_t i = 0; i < n; ++i) out[i] = vec_tanh(in[i], cpu);
}

void one_minus_square(const float* in, float* out, int64_t n, CpuKernels cpu) {
  if (cpu == CpuKernels::avx2 && avx2::supported()) return avx2::one_minus_square(in, out, n);
  for (int64_t i = 0; i < n; ++i) out[i] = cpu == CpuKernels::avx2 ? std::fma(-in[i], in[i], 1.0f) : 1.0f - in[i] * in[i];
}

void tanh_backward(const float* g, const float* y, float* out, int64_t n, CpuKernels cpu) {
  if (cpu == CpuKernels::avx2 && avx2::supported()) return avx2::tanh_backward(g, y, out, n);
  for (int64_t i = 0; i < n; ++i) out[i] = g[i] * (cpu == CpuKernels::avx2 ? std::fma(-y[i], y[i], 1.0f) : 1.0f - y[i] * y[i]);
}

void erf(const float* in, float* out, int64_t n, CpuKernels cpu) {
  if (cpu == CpuKernels::avx2 && avx2::supported()) return avx2::erf(in, out, n);
  for (int64_t i = 0; i < n; ++i) out[i] = vec_erf(in[i], cpu);
}

void log(const float* in, float* out, int64_t n, CpuKernels cpu) {
  if (cpu == CpuKernels::avx2 && avx2::supported()) return avx2::log(in, out, n);
  for (int64_t i = 0; i < n; ++i) out[i] = vec_log(in[i], cpu);
}

void pow(const float* in, float* out, int64_t n, float e, CpuKernels cpu) {
  if (cpu == CpuKernels::avx2 && avx2::supported()) return avx2::pow(in, out, n, e);
  for (int64_t i = 0; i < n; ++i) out[i] = vec_pow(in[i], e, cpu);
}

void rsqrt(const float* in, float* out, int64_t n) {
  if (avx2::supported()) return avx2::rsqrt(in, out, n);
  for (int64_t i = 0; i < n; ++i) out[i] = vec_rsqrt(in[i]);
}

void sigmoid(const float* in, float* out, int64_t n, CpuKernels cpu) {
  if (avx2::supported()) return avx2::sigmoid(in, out, n, cpu);
  for (int64_t i = 0; i < n; ++i) out[i] = vec_sigmoid(in[i], cpu);
}

namespace {

// One vml run through Sleef's sinf8 / cosf8 in the AVX2 family (f), glibc's g in DEFAULT.
void map_trig(const float* in, float* out, int64_t n, CpuKernels cpu, float (*f)(float, bool), float (*g)(float)) {
  if (cpu == CpuKernels::scalar) {
    for (int64_t i = 0; i < n; ++i) out[i] = g(in[i]);
    return;
  }
  for (int64_t v = 0; v < n; v += 8) {
    const int64_t lanes = n - v < 8 ? n - v : 8;   // the padding lanes are 0: never wide
    bool wide = false;
    for (int64_t l = 0; l < lanes; ++l) wide = wide || sleef::trig_wide(in[v + l]);
    for (int64_t l = 0; l < lanes; ++l) out[v + l] = f(in[v + l], wide);
  }
}

float glibc_sin(float x) { return ::sinf(x); }
float glibc_cos(float x) { return ::cosf(x); }

}  // namespace

void sin(const float* in, float* out, int64_t n, CpuKernels cpu) { map_trig(in, out, n, cpu, sleef::sinf_u10, glibc_sin); }
void cos(const float* in, float* out, int64_t n, CpuKernels cpu) { map_trig(in, out, n, cpu, sleef::cosf_u10, glibc_cos); }

}  // namespace attn::core::kernels
