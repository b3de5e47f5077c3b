// core/kernels/log_softmax.h: torch.log_softmax's forward and backward kernels (ATen 1.13's
// SoftMaxKernel.cpp _vec_log_softmax_lastdim / _vec_log_softmax_backward, and SoftMax.cpp's
// host_softmax for another dim) over contiguous float buffers, in both kernel families.
//
// What it is: one lane at a time, the float operations of those kernels in their order (no
// vectorised fast path: log_softmax is one pass over a loss's logits). Last dim, per row:
// m = reduce_all(maximum), s = map_reduce_all(exp(x - m), +) (the 8-lane order of vec.h),
// l = Vectorized::log(s) (Sleef logf u10 or glibc logf), y = (x - m) - l. Backward, per row:
// t = reduce_all(+, g), gx = g - exp(y) * t (one fused multiply-add in the AVX2 build).
// Another dim (inner > 1): _vec_log_softmax per column: the max, the float sum of exp(x - m)
// along the dim, its Vectorized log, y = (x - m) - log; the backward g - exp(y) * sum(g) with a
// float sum (Sleef exp on the vectorised columns, glibc on the tail columns, as ATen splits them).
// What it is not: shape logic (ops/softmax.cpp).
#pragma once

#include <cstdint>

#include "core/cpu.h"

namespace attn::core::kernels {

void log_softmax_lastdim(const float* in, float* out, int64_t rows, int64_t n, CpuKernels cpu);
void log_softmax_inner(const float* in, float* out, int64_t outer, int64_t dim_size, int64_t inner, CpuKernels cpu);
void log_softmax_backward_lastdim(const float* g, const float* y, float* out, int64_t rows, int64_t n, CpuKernels cpu);
void log_softmax_backward_inner(const float* g, const float* y, float* out, int64_t outer, int64_t dim_size, int64_t inner,
                                CpuKernels cpu);

}  // namespace attn::core::kernels
