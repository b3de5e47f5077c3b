// core/kernels/softmax.h: torch.softmax's forward and backward kernels (ATen's SoftMaxKernel.cpp)
// over contiguous float buffers, bit for bit, in both kernel families of core/cpu.h.
//
// What it is: the input viewed as (outer, dim_size, inner) around the softmax dim. Last dim
// (inner == 1): ATen's _vec_softmax_lastdim, eight lanes per instruction on a CPU with AVX2 and
// FMA (softmax_avx2.cpp) and big inputs split by rows over threads, the same bits as the
// one-lane-at-a-time reference::softmax_lastdim for any thread count. Another dim: _vec_softmax,
// plain loops. The backward (SoftmaxBackward0) from the saved result y, both layouts.
// What it is not: shape logic (ops/softmax.cpp turns a tensor and a dim into these calls).
#pragma once

#include <cstdint>

#include "core/cpu.h"

namespace attn::core::kernels {

// ---- forward: x (outer, dim_size, inner) -> y, same layout ----
// Rows of n contiguous values: max, exp(x - max), 8-lane sum, multiply by 1/sum.
void softmax_lastdim(const float* in, float* out, int64_t rows, int64_t n, CpuKernels cpu);
// Along dim_size with inner > 1 columns (ATen _vec_softmax: divides by the sum).
void softmax_inner(const float* in, float* out, int64_t outer, int64_t dim_size, int64_t inner, CpuKernels cpu);

// ---- backward: grad g and result y (same layout) -> grad_in ----
// Last dim: per row s = sum(g * y) (vec::map2_reduce_all), then (g - s) * y.
void softmax_backward_lastdim(const float* g, const float* y, float* out, int64_t rows, int64_t n, CpuKernels cpu);
// Another dim: per column s = sum over the dim of g * y in order, then y * (g - s).
void softmax_backward_inner(const float* g, const float* y, float* out, int64_t outer, int64_t dim_size,
                            int64_t inner, CpuKernels cpu);

// The definition the fast forward keeps: one row at a time, one lane at a time. Tests compare.
namespace reference {
void softmax_lastdim(const float* in, float* out, int64_t rows, int64_t n, CpuKernels cpu);
void softmax_backward_lastdim(const float* g, const float* y, float* out, int64_t rows, int64_t n, CpuKernels cpu);
}  // namespace reference

namespace avx2 {
// One row of n >= 1 contiguous values, _vec_softmax_lastdim<float> in family `cpu`, with AVX2 +
// FMA (softmax_avx2.cpp); only after avx2::supported() (kernels/vec_avx2.h).
void softmax_row(const float* x, float* y, int64_t n, CpuKernels cpu);
// The backward of one such row, and kernels/vec.h's dot_row (n >= 1), the same way.
void softmax_backward_row(const float* g, const float* y, float* out, int64_t n, CpuKernels cpu);
float dot_row(const float* x, const float* y, int64_t n, CpuKernels cpu);
}  // namespace avx2

}  // namespace attn::core::kernels
