// core/ops/loss.h: nn.MSELoss / F.mse_loss (ATen's Loss.cpp), forward and backward, as PyTorch
// 1.13 on CPU (docs/pytorch-numerics.md §12).
//
// What it is: (input - target)^2 per element, then the reduction; MseLossBackward0.
// What it is not: the other losses (cross_entropy, ...).
#pragma once

#include <string>

#include "core/tensor.h"

namespace attn::core {

// input and target broadcast together; reduction "mean" or "sum" (0-d out) or "none".
Tensor mse_loss(const Tensor& input, const Tensor& target, const std::string& reduction);

}  // namespace attn::core
