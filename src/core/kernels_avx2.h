// core/kernels_avx2.h: exp and the last-dim softmax row of both kernel families (core/kernels.h),
// eight lanes per instruction, for CPUs with AVX2 and FMA.
//
// What it is: the same float32 operations as the one-lane-at-a-time definitions in kernels.cpp
// (kernels::vec_exp and kernels::reference::softmax_lastdim), with the instructions the
// mirrored code runs: for the AVX2 family Sleef_expf8_u10avx2 and ATen's Vectorized<float>
// max / + / *; for the DEFAULT (scalar) family glibc's expf (its FMA variant, which is what
// std::exp runs on such a CPU) and vec_base.h's plain lanes. Every element comes out the same
// bits; tests/test_kernels_fast.cpp compares them element for element with the definitions.
// What it is not: a dispatcher (kernels.cpp calls these only after supported() said yes) or
// softmax over a dimension that is not the last.
#pragma once

#include <cstdint>

#include "core/cpu.h"

namespace attn::core::kernels::avx2 {

// True when this build has the AVX2 code and the CPU runs AVX2 and FMA.
bool supported();

// out[i] = vec_exp(in[i], cpu) for i < n; in == out is allowed.
void exp(const float* in, float* out, int64_t n, CpuKernels cpu);

// ATen's _vec_softmax_lastdim<float> on one row of n >= 1 contiguous values, in family `cpu`.
void softmax_row(const float* x, float* y, int64_t n, CpuKernels cpu);

}  // namespace attn::core::kernels::avx2
