// core/kernels/gemm_micro.h: the inner ("micro") kernels of kernels/gemm.cpp, one per instruction set.
//
// What it is: each kernel updates an R x kNR tile of C (R = 1..kMR rows, kNR = 16 columns)
// from a packed A micro-panel and a packed B micro-panel:
//     for l = 0 .. kc-1:  C(r,j) = C(r,j) + fl(A(r,l) * B(l,j))     (never fused)
// starting from +0.0f when `first` (the first k block of a product), else from C's values.
// Lanes hold different columns j, so each element keeps its own chain in l order.
// What it is not: shape logic, blocking or threading (gemm.cpp), or for use outside gemm.cpp.
#pragma once

#include <cstdint>

namespace attn::core::gemm::detail {

constexpr int kMR = 6;   // rows of a micro-tile: 6 x 2 AVX2 accumulators
constexpr int kNR = 16;  // columns of a micro-tile: two 8-float vectors

// ap: packed A, ap[l * kMR + r] = A(r, l); bp: B's kNR columns, bp[l * ldb + j] = B(l, j)
// (ldb = kNR when packed, B's row stride when read in place); c: the tile, element (r, j) at
// c[r * ldc + j], all kNR columns valid.
using MicroKernel = void (*)(int64_t kc, const float* ap, const float* bp, int64_t ldb, float* c,
                             int64_t ldc, bool first);

// Matrix-vector (sgemv 'T', one dot product per row): y(r) for 8 rows r of A, the row r at
// a + r * lda, each y(r) = +0.0f, then + fl(A(r,l) * x(l)) for l = 0 .. k-1, lanes across rows.
using RowDots = void (*)(const float* a, int64_t lda, const float* x, int64_t k, float* y);
constexpr int kRowDots = 8;
extern const RowDots kPortableRowDots;
extern const RowDots kAvx2RowDots;  // null where the compiler cannot target AVX2

// Packing, copies only (no arithmetic, so any instruction set gives the same floats), in
// gemm.cpp's packed layouts:
// PackA: a full panel of kMR rows of a row-major A (column stride 1, row r at a + r * rs):
//   out[l * kMR + r] = a[r * rs + l] for l < kc.
// PackB: a full panel of kNR columns of a transposed B (row stride 1, column j at b + j * cs):
//   out[l * kNR + j] = b[j * cs + l] for l < kc.
using PackA = void (*)(const float* a, int64_t rs, int64_t kc, float* out);
using PackB = void (*)(const float* b, int64_t cs, int64_t kc, float* out);
extern const PackA kPortablePackA;
extern const PackB kPortablePackB;
extern const PackA kAvx2PackA;  // null where the compiler cannot target AVX2
extern const PackB kAvx2PackB;

// kernels[R - 1] handles R rows. The AVX2 table is null where the compiler cannot target AVX2.
extern const MicroKernel kPortableKernels[kMR];
extern const MicroKernel* const kAvx2Kernels;

}  // namespace attn::core::gemm::detail
