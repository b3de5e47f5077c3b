// core/kernels/normalization.h: F.layer_norm's forward and backward kernels as PyTorch 1.13
// computes them on the CPU (layer_norm_kernel.cpp, moments_utils.h; docs/pytorch-numerics.md
// §16, §12), over M rows of N contiguous floats, in both kernel families of core/cpu.h.
//
// What it is: forward: each row's mean and biased variance by ATen's RowwiseMoments (8-lane
// Welford in chunks of 16 vectors, cascaded, scalar tail, lanes merged; no FMA in either build),
// rstd = 1 / sqrt(var + eps), then the affine step, fused in the AVX2 build. Backward: dx, and
// the sums for gamma's and beta's gradients, with the contractions GCC made in the AVX2 build.
// What it is not: shapes, or which dims are normalised (ops/normalization.cpp), or the
// tutorials' hand-written LayerNorm (plain mean/var ops).
#pragma once

#include <cstdint>

#include "core/cpu.h"

namespace attn::core::kernels {

// x (M, N) -> y (M, N); w, b (N) or nullptr (then 1 and 0); mean, rstd (M) written for backward.
void layer_norm(const float* x, const float* w, const float* b, float* y, float* mean, float* rstd, int64_t M,
                int64_t N, float eps, CpuKernels cpu);

// From dy, x (M, N), the forward's mean, rstd (M) and gamma (N; ones without a weight): dx (M, N),
// and dgamma, dbeta (N), each the sum over the rows in order from 0.
void layer_norm_backward(const float* dy, const float* x, const float* mean, const float* rstd, const float* gamma,
                         float* dx, float* dgamma, float* dbeta, int64_t M, int64_t N, CpuKernels cpu);

}  // namespace attn::core::kernels
