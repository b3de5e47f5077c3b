// core/ops/normalization.h: F.layer_norm / nn.LayerNorm (ATen's layer_norm.cpp), forward and
// backward, bit for bit with PyTorch 1.13's CPU kernels in both kernel families (§16, §12).
//
// What it is: normalisation over the last `normalized_dims` dims with optional weight and bias
// (NativeLayerNormBackward0). grad::layer_norm is public for the tests that replay the backward
// alone from recorded means and rstds.
// What it is not: the loops (kernels/normalization.cpp), or a tutorial's hand-written LayerNorm
// (mean/var ops).
#pragma once

#include <cstdint>
#include <vector>

#include "core/autograd.h"
#include "core/cpu.h"
#include "core/tensor.h"

namespace attn::core {

// x (..., *normalized) -> x's shape; weight and bias of the normalized shape, or nullptr.
Tensor layer_norm(const Tensor& x, int64_t normalized_dims, const Tensor* weight, const Tensor* bias,
                  double eps, CpuKernels cpu);

namespace grad {
using autograd::Backward;
// NativeLayerNormBackward0 from the forward's per-row mean and rstd; gradients for input, then
// weight and bias when given (weight and bias come together).
Backward layer_norm(const Tensor& input, const Tensor* weight, std::vector<float> mean, std::vector<float> rstd,
                    CpuKernels cpu);
}  // namespace grad

}  // namespace attn::core
