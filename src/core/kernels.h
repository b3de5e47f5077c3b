// core/kernels.h: the float32 inner loops whose rounding must match PyTorch 1.13's CPU kernels
// bit for bit: exp inside softmax, softmax itself, matrix products, reductions. exp and softmax
// take the kernel family of core/cpu.h (AVX2 or scalar DEFAULT) as an argument; matmul and sums
// round the same in both and take none.
//
// What it is: raw-pointer kernels over contiguous row-major float buffers, each written to
// reproduce the order of operations (and the fused multiply-adds) of the ATen kernel it names.
// What it is not: general or shape-aware; tensor.cpp does shapes and calls these. Only the
// matrix products (core/gemm.h), exp and last-dim softmax (core/kernels_avx2.h)
// are fast; the rest are plain loops.
#pragma once

#include <cstdint>

#include "core/cpu.h"

namespace attn::core::kernels {

// ATen's Vectorized<float>::exp: Sleef_expf8_u10 with FMA (AVX2 family) or glibc expf
// (scalar family, where Vectorized maps std::exp).
float vec_exp(float x, CpuKernels cpu);

// out[i] = vec_exp(in[i], cpu) for i < n (in == out allowed): torch.exp over a contiguous buffer,
// eight lanes per instruction when the CPU has AVX2 and FMA (both families); same bits.
void exp(const float* in, float* out, int64_t n, CpuKernels cpu);

// torch.softmax over the last dimension: `rows` rows of `n` contiguous values
// (ATen _vec_softmax_lastdim: max, exp(x - max), 8-lane sum, multiply by 1/sum). On a CPU
// with AVX2 and FMA it runs kernels_avx2.cpp, and big inputs are split by rows over threads; the bits are
// those of reference::softmax_lastdim for any thread count.
void softmax_lastdim(const float* in, float* out, int64_t rows, int64_t n, CpuKernels cpu);

// torch.softmax over a dimension that is not the last one. The input is viewed as
// (outer, dim_size, inner); softmax runs along dim_size (ATen _vec_softmax: divides by the sum).
void softmax_inner(const float* in, float* out, int64_t outer, int64_t dim_size, int64_t inner, CpuKernels cpu);

// C(m,n) = A(m,k) @ B(k,n), all contiguous row-major, with PyTorch's rounding for mm on CPU.
// Blocked, vectorised and threaded (core/gemm.h); the same bits as reference::matmul.
void matmul(const float* a, const float* b, float* c, int64_t m, int64_t k, int64_t n);

// A(m,k) @ x(k): matrix-vector product as torch.mv / 2-D @ 1-D (fast; = reference::matvec).
void matvec(const float* a, const float* x, float* y, int64_t m, int64_t k);

// x(k) @ B(k,n): vector-matrix product as 1-D @ 2-D (unsqueeze(0).mm().squeeze); fast,
// the same bits as reference::vecmat.
void vecmat(const float* x, const float* b, float* y, int64_t k, int64_t n);

// The definitions the fast versions keep: the matrix products written as the reference BLAS
// loops, one scalar chain per output element, and softmax one lane at a time. Tests compare.
namespace reference {
void softmax_lastdim(const float* in, float* out, int64_t rows, int64_t n, CpuKernels cpu);  // one lane at a time
void matmul(const float* a, const float* b, float* c, int64_t m, int64_t k, int64_t n);
void matvec(const float* a, const float* x, float* y, int64_t m, int64_t k);
void vecmat(const float* x, const float* b, float* y, int64_t k, int64_t n);
}  // namespace reference

// torch.dot of two contiguous length-n vectors.
float dot(const float* a, const float* b, int64_t n);

// sum along a dimension: input viewed as (outer, dim_size, inner), output (outer, inner).
void sum_dim(const float* in, float* out, int64_t outer, int64_t dim_size, int64_t inner);

// sum of all n elements (tensor.sum()).
float sum_all(const float* in, int64_t n);

// The cascade sum's building blocks over n elements x[0], x[stride], ..., for sums over any
// dims (core/reduce.cpp): multi_row_sum, row_sum, and vectorized_inner_sum's one row (n >= 8,
// contiguous). Each returns the sum as the kernel produces it, before it is added to the output.
float strided_multi_row_sum(const float* x, int64_t n, int64_t stride);
float strided_row_sum(const float* x, int64_t n, int64_t stride);
float inner_row_sum(const float* x, int64_t n);

}  // namespace attn::core::kernels
