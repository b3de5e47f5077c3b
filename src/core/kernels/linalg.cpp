// core/kernels/linalg.cpp: the matrix products and dot of kernels/linalg.h as the reference
// BLAS (libblas3 3.11, which Debian's PyTorch 1.13.1 calls through ATen's cpublas) rounds them.
//
// What it is: the loops that define the order (namespace reference) and the fast versions,
// which run the same per-element operations through kernels/gemm.h. The project compiles with
// -ffp-contract=off, so `acc + a * b` stays two roundings, as in the reference BLAS.
// What it is not: shapes, strides or batches (ops/linalg.cpp), or the blocking (kernels/gemm.cpp).
#include "core/kernels/linalg.h"

#include "core/kernels/gemm.h"

namespace attn::core::kernels {

// ---- matrix products (reference BLAS 3.11 via ATen cpublas, and ATen's small bmm loop) ----
// All of these reduce to: acc = +0; for l in 0..k-1: acc = acc + fl(a_l * b_l) (no FMA).
//  - mm, 2-D @ 2-D: at::native::cpublas::gemm -> sgemm_ ('N','N' for contiguous operands:
//    C(:,j) = 0, then C(i,j) = C(i,j) + TEMP*A(i,l) for l = 1..k; 'T','N' for a transposed weight:
//    TEMP = 0, TEMP = TEMP + A(l,i)*B(l,j), C = ALPHA*TEMP). Same order either way.
//  - bmm with k*m*n < 400: baddbmm_cpu_kernel, `acc_value += s2[k] * m1[k][j]` from 0.
//  - addmm (nn.Linear): 'T','N' gives C = 1*TEMP + 1*bias, i.e. the bias is added after the sum.

// The loops that define the order (reference BLAS sgemm / sgemv, one scalar chain per element).
namespace reference {

// C(m,n) = A(m,k) @ B(k,n)
void matmul(const float* a, const float* b, float* c, int64_t m, int64_t k, int64_t n) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float acc = 0.0f;  // sgemm: C(i,j) = ZERO (beta == 0)
      for (int64_t l = 0; l < k; ++l) {
        const float prod = a[i * k + l] * b[l * n + j];  // TEMP*A(I,L), rounded on its own
        acc = acc + prod;
      }
      c[i * n + j] = acc;
    }
  }
}

// y(m) = A(m,k) @ x(k): at::native::cpublas::gemv -> sgemv_('T'): TEMP = 0; TEMP += A(i,j)*X(i);
// Y = 0 + ALPHA*TEMP.
void matvec(const float* a, const float* x, float* y, int64_t m, int64_t k) {
  for (int64_t i = 0; i < m; ++i) {
    float acc = 0.0f;
    for (int64_t l = 0; l < k; ++l) {
      const float prod = a[i * k + l] * x[l];
      acc = acc + prod;
    }
    y[i] = acc;
  }
}

// y(n) = x(k) @ B(k,n): at::matmul does x.unsqueeze(0).mm(B).squeeze(0), i.e. sgemm with m = 1.
void vecmat(const float* x, const float* b, float* y, int64_t k, int64_t n) {
  matmul(x, b, y, 1, k, n);
}

}  // namespace reference

// The fast versions: the same per-element operations, blocked, vectorised across output
// elements and threaded by kernels/gemm (see gemm.h for why the bits cannot change).
void matmul(const float* a, const float* b, float* c, int64_t m, int64_t k, int64_t n) {
  gemm::matmul(m, n, k, {a, k, 1}, {b, n, 1}, c, n);
}

// sgemv 'T' is one dot product per row in l order; gemm::matvec runs 8 rows per vector.
void matvec(const float* a, const float* x, float* y, int64_t m, int64_t k) { gemm::matvec(m, k, a, k, x, y); }

void vecmat(const float* x, const float* b, float* y, int64_t k, int64_t n) {
  gemm::matmul(1, n, k, {x, k, 1}, {b, n, 1}, y, n);
}

// torch.dot: at::native::dot_impl<float> -> sdot_ (reference BLAS unrolls by 5 but keeps the
// left-to-right order: STEMP = STEMP + SX(I)*SY(I) + SX(I+1)*SY(I+1) + ...).
float dot(const float* a, const float* b, int64_t n) {
  float acc = 0.0f;
  for (int64_t i = 0; i < n; ++i) {
    const float prod = a[i] * b[i];
    acc = acc + prod;
  }
  return acc;
}

}  // namespace attn::core::kernels
