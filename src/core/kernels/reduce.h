// core/kernels/reduce.h: torch.sum's cascade sum (ATen's SumKernel.cpp, cascade_sum<false,
// float>) over float buffers: the order in which every float32 sum in attn is added. The same
// in both kernel families, so none takes a CpuKernels.
//
// What it is: the sum of a contiguous input along one dim (viewed as (outer, dim_size, inner))
// or over all of it, and the building blocks ops/sum_to.cpp uses for sums over any dims of any
// strides: each returns the sum as the kernel produces it, before it is added to the output.
// What it is not: the choice of loop for a strided reduction (ops/sum_to.cpp follows
// TensorIterator there), or fast (plain loops; sums are not where lessons spend time).
#pragma once

#include <cstdint>

namespace attn::core::kernels {

// sum along a dimension: input viewed as (outer, dim_size, inner), output (outer, inner).
void sum_dim(const float* in, float* out, int64_t outer, int64_t dim_size, int64_t inner);

// sum of all n elements (tensor.sum()).
float sum_all(const float* in, int64_t n);

// The cascade sum's building blocks over n elements x[0], x[stride], ...: multi_row_sum,
// row_sum, and vectorized_inner_sum's one row (n >= 8, contiguous).
float strided_multi_row_sum(const float* x, int64_t n, int64_t stride);
float strided_row_sum(const float* x, int64_t n, int64_t stride);
float inner_row_sum(const float* x, int64_t n);

}  // namespace attn::core::kernels
