// core/kernels_avx2.h: the AVX2 family's exp and softmax row (core/kernels.h), eight lanes per
// instruction, for CPUs with AVX2 and FMA.
//
// What it is: the same float32 operations as the scalar re-enactments in kernels.cpp (which are
// kernels::vec_exp and kernels::reference::softmax_lastdim), written with the very intrinsics
// ATen and Sleef use on AVX2 (Sleef_expf8_u10avx2, Vectorized<float> max / + / *), so every
// element comes out the same bits. tests/test_kernels_fast.cpp compares them element for
// element with the scalar ones on random and special inputs.
// What it is not: the DEFAULT (scalar) family, whose exp is glibc's expf; or a dispatcher
// (kernels.cpp calls these only after supported() said yes).
#pragma once

#include <cstdint>

namespace attn::core::kernels::avx2 {

// True when this build has the AVX2 code and the CPU runs AVX2 and FMA.
bool supported();

// out[i] = Sleef_expf8_u10(in[i]) for i < n; in == out is allowed.
void exp(const float* in, float* out, int64_t n);

// ATen's _vec_softmax_lastdim<float> on one row of n >= 1 contiguous values (AVX2 family).
void softmax_row(const float* x, float* y, int64_t n);

}  // namespace attn::core::kernels::avx2
