// core/ops/loss.h: nn.MSELoss / F.mse_loss (ATen's Loss.cpp), forward and backward, as PyTorch
// 1.13 on CPU (docs/pytorch-numerics.md §12).
//
// What it is: (input - target)^2 per element, then the reduction; MseLossBackward0.
// F.nll_loss beside it. What it is not: the losses PyTorch writes in Python over these
// (cross_entropy: torch/nn_functional.cpp).
#pragma once

#include <string>

#include "core/cpu.h"
#include "core/tensor.h"

namespace attn::core {

// input and target broadcast together; reduction "mean" or "sum" (0-d out) or "none".
Tensor mse_loss(const Tensor& input, const Tensor& target, const std::string& reduction);

// F.nll_loss for input (N, C) or (C,) and int64 target (N,) or (): -input[n, target[n]] (times
// weight[target[n]] when given), targets equal to ignore_index left out; 'mean' divides by the
// total weight. LossNLL.cpp's cascade of 8 partial sums sets the order of the additions.
// NllLossBackward0. K-dimensional input (N, C, d1, ...) with target (N, d1, ...), as 1.13's
// nll_loss_nd: nll_loss2d's loop over samples, then positions, with the same cascade
// (NllLoss2DBackward0). (F.cross_entropy is nll_loss(log_softmax(input, 1)), in torch/.)
Tensor nll_loss(const Tensor& input, const Tensor& target, const Tensor* weight, const std::string& reduction,
                int64_t ignore_index);

// torch.xlogy(x, y): x * log(y) with glibc logf (a scalar kernel in both families), 0 where
// x == 0, NaN where y is NaN; XlogyBackward0.
Tensor xlogy(const Tensor& x, const Tensor& y, const char* grad_fn = "XlogyBackward0");   // 1: a number x, 2: a number y
// F.kl_div as 1.13 composes it: xlogy(t, t) - t * input (or exp(t) * (t - input) with
// log_target), then 'mean' (.mean()), 'sum', 'batchmean' (sum / input.size(0)) or 'none'.
Tensor kl_div(const Tensor& input, const Tensor& target, const std::string& reduction, bool log_target, CpuKernels cpu);

}  // namespace attn::core
