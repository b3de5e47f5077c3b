// core/kernels/unary.h: torch.exp's kernel, Vectorized<float>::exp over a buffer, in both kernel
// families of core/cpu.h (exp is also softmax's, kernels/softmax.cpp); torch.tanh
// and tanh's backward factor over a buffer; torch.sin and torch.cos over one vml run.
//
// What it is: vec_exp, the one-element definition (Sleef_expf8_u10 with FMA in the AVX2 family;
// glibc expf in the DEFAULT family, where Vectorized maps std::exp), and exp over n contiguous
// floats, eight lanes per instruction on a CPU with AVX2 and FMA (unary_avx2.cpp), same bits.
// tanh, erf, log and pow's vector body likewise (Sleef's eight lanes at a time in the AVX2 family;
// glibc's tanhf, erff, logf and powf per element in DEFAULT, which have no vector code here);
// rsqrt and sigmoid's vector body too.
// What it is not: the other unary ops (erfinv, ...: ops/unary.cpp, ops/pow.cpp calls kernels/sleef.h
// or glibc per element), or shape-aware (ops/unary.cpp does shapes).
#pragma once

#include <cmath>
#include <cstdint>

#include "core/cpu.h"
#include "core/kernels/sleef.h"

namespace attn::core::kernels {

// ATen's Vectorized<float>::exp: Sleef_expf8_u10 with FMA (AVX2 family) or glibc expf
// (scalar family, where Vectorized maps std::exp).
inline float vec_exp(float x, CpuKernels cpu) { return cpu == CpuKernels::scalar ? std::exp(x) : sleef::expf_u10(x); }

// out[i] = vec_exp(in[i], cpu) for i < n (in == out allowed): torch.exp over a contiguous buffer,
// eight lanes per instruction when the CPU has AVX2 and FMA (both families); same bits.
void exp(const float* in, float* out, int64_t n, CpuKernels cpu);

// ATen's Vectorized<float>::tanh (vml vtanh): Sleef_tanhf8_u10 with FMA (AVX2 family) or glibc
// tanhf (DEFAULT).
inline float vec_tanh(float x, CpuKernels cpu) { return cpu == CpuKernels::scalar ? ::tanhf(x) : sleef::tanhf_u10(x); }

// out[i] = vec_tanh(in[i], cpu) for i < n (in == out allowed), eight lanes per instruction in the
// AVX2 family on a CPU with AVX2 and FMA; same bits.
void tanh(const float* in, float* out, int64_t n, CpuKernels cpu);

// out[i] = 1 - in[i]*in[i] as tanh_backward rounds it: fma(-y, y, 1) in the AVX2 build (GCC
// contracted it), a rounded square then a rounded difference in DEFAULT. Eight lanes where it can.
void one_minus_square(const float* in, float* out, int64_t n, CpuKernels cpu);
// out[i] = g[i] * (1 - y[i]*y[i]) so rounded: tanh_backward in one pass (out may be g or y).
void tanh_backward(const float* g, const float* y, float* out, int64_t n, CpuKernels cpu);

// torch.erf (vml verf): Sleef_erff8_u10 (AVX2 family) or glibc erff; torch.rsqrt's 1 / sqrt(x)
// (two correctly rounded steps, both families); sigmoid's vector body: 1 / (1 + exp(0 - x)) with
// Sleef's exp in the AVX2 family, 1 / (1 + expf(-x)) in DEFAULT (the same but for a NaN's sign),
// which is also cpu_kernel_vec's scalar tail in both (ops/unary.cpp).
inline float vec_erf(float x, CpuKernels cpu) { return cpu == CpuKernels::scalar ? ::erff(x) : sleef::erff_u10(x); }
inline float vec_rsqrt(float x) { return 1.0f / std::sqrt(x); }
inline float vec_pow(float x, float e, CpuKernels cpu) { return cpu == CpuKernels::scalar ? ::powf(x, e) : sleef::powf_u10(x, e); }
inline float vec_log(float x, CpuKernels cpu) { return cpu == CpuKernels::scalar ? ::logf(x) : sleef::logf_u10(x); }   // vml vlog
inline float vec_sigmoid(float x, CpuKernels cpu) {
  return 1.0f / (1.0f + (cpu == CpuKernels::scalar ? std::exp(-x) : sleef::expf_u10(0.0f - x)));
}

// out[i] = vec_erf / vec_rsqrt / vec_sigmoid of in[i] for i < n (in == out allowed), eight lanes
// per instruction on a CPU with AVX2 and FMA (erf: in the AVX2 family), same bits.
void erf(const float* in, float* out, int64_t n, CpuKernels cpu);
void log(const float* in, float* out, int64_t n, CpuKernels cpu);   // vec_log
void pow(const float* in, float* out, int64_t n, float e, CpuKernels cpu);   // vec_pow(in[i], e): pow's vector body
void rsqrt(const float* in, float* out, int64_t n);
void sigmoid(const float* in, float* out, int64_t n, CpuKernels cpu);

// torch.sin / torch.cos over one vml run of n contiguous floats (in == out allowed): at::vml::vsin
// is a vec::map, 8-lane vectors from in[0], the partial last one padded with zeros. AVX2 family:
// Sleef_sinf8_u10 / cosf8_u10, whose branch is the vector's (sleef::trig_wide of any lane);
// DEFAULT family: glibc sinf / cosf per element (docs/pytorch-numerics.md §20).
void sin(const float* in, float* out, int64_t n, CpuKernels cpu);
void cos(const float* in, float* out, int64_t n, CpuKernels cpu);

namespace avx2 {
// exp above with AVX2 + FMA (unary_avx2.cpp); only after avx2::supported() (kernels/vec_avx2.h).
void exp(const float* in, float* out, int64_t n, CpuKernels cpu);
// vec_tanh of the AVX2 family and one_minus_square's fma(-y, y, 1), eight lanes (unary_avx2.cpp).
void tanh(const float* in, float* out, int64_t n);
void one_minus_square(const float* in, float* out, int64_t n);
void tanh_backward(const float* g, const float* y, float* out, int64_t n);   // the AVX2 family's
void erf(const float* in, float* out, int64_t n);   // the AVX2 family's
void log(const float* in, float* out, int64_t n);   // the AVX2 family's
void pow(const float* in, float* out, int64_t n, float e);   // the AVX2 family's
void rsqrt(const float* in, float* out, int64_t n);
void sigmoid(const float* in, float* out, int64_t n, CpuKernels cpu);
}  // namespace avx2

}  // namespace attn::core::kernels
