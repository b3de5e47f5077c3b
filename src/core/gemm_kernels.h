// core/gemm_kernels.h: the inner ("micro") kernels of core/gemm.cpp, one per instruction set.
//
// What it is: each kernel updates an R x kNR tile of C (R = 1..kMR rows, kNR = 16 columns)
// from a packed A micro-panel and a packed B micro-panel:
//     for l = 0 .. kc-1:  C(r,j) = C(r,j) + fl(A(r,l) * B(l,j))     (never fused)
// starting from +0.0f when `first` (the first k block of a product), else from C's values.
// Lanes hold different columns j, so each element keeps its own chain in l order.
// What it is not: shape logic, packing or threading (gemm.cpp), or for use outside gemm.cpp.
#pragma once

#include <cstdint>

namespace attn::core::gemm::detail {

constexpr int kMR = 6;   // rows of a micro-tile: 6 x 2 AVX2 accumulators
constexpr int kNR = 16;  // columns of a micro-tile: two 8-float vectors

// ap: packed A, ap[l * kMR + r] = A(r, l); bp: packed B, bp[l * kNR + j] = B(l, j);
// c: the tile, element (r, j) at c[r * ldc + j], all kNR columns valid.
using MicroKernel = void (*)(int64_t kc, const float* ap, const float* bp, float* c, int64_t ldc,
                             bool first);

// kernels[R - 1] handles R rows. The AVX2 table is null where the compiler cannot target AVX2.
extern const MicroKernel kPortableKernels[kMR];
extern const MicroKernel* const kAvx2Kernels;

}  // namespace attn::core::gemm::detail
