// core/kernels/linalg.h: matrix products and dot over contiguous row-major float buffers, with
// PyTorch's rounding for mm / mv / dot on CPU (reference BLAS order). The same in both kernel
// families, so none takes a CpuKernels.
//
// What it is: each product as the reference BLAS loops define it (namespace reference: one
// scalar chain per output element), and the fast versions tests and tools compare with them,
// which hand the same per-element operations to kernels/gemm.h (blocked, vectorised, threaded).
// What it is not: shape-aware or strided (ops/linalg.cpp calls gemm with the operands' own
// strides), or batched (gemm::batched_matmul).
#pragma once

#include <cstdint>

namespace attn::core::kernels {

// C(m,n) = A(m,k) @ B(k,n), all contiguous row-major (fast; = reference::matmul).
void matmul(const float* a, const float* b, float* c, int64_t m, int64_t k, int64_t n);

// A(m,k) @ x(k): matrix-vector product as torch.mv / 2-D @ 1-D (fast; = reference::matvec).
void matvec(const float* a, const float* x, float* y, int64_t m, int64_t k);

// x(k) @ B(k,n): vector-matrix product as 1-D @ 2-D (unsqueeze(0).mm().squeeze); fast,
// the same bits as reference::vecmat.
void vecmat(const float* x, const float* b, float* y, int64_t k, int64_t n);

// The definitions the fast versions keep: the reference BLAS loops, one scalar chain per
// output element. Tests compare.
namespace reference {
void matmul(const float* a, const float* b, float* c, int64_t m, int64_t k, int64_t n);
void matvec(const float* a, const float* x, float* y, int64_t m, int64_t k);
void vecmat(const float* x, const float* b, float* y, int64_t k, int64_t n);
}  // namespace reference

// torch.dot of two contiguous length-n vectors.
float dot(const float* a, const float* b, int64_t n);

}  // namespace attn::core::kernels
