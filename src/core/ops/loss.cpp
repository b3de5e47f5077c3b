// core/ops/loss.cpp: nn.MSELoss / F.mse_loss, forward and backward, as PyTorch 1.13 on CPU
// (ops/loss.h).
//
// What it is: forward `diff = x - t; diff * diff` per element (mse_kernel), then the reduction
// ('mean': sum / numel, 'sum', 'none'); backward MseLossBackward0 (Loss.cpp mse_loss_backward):
// norm = 2/numel computed in double and rounded to float once ('sum', 'none': 2), then per
// element fl(fl(norm * fl(x - t)) * g) (PointwiseOpsKernel.cpp); the target's gradient is the
// same with x and t swapped. docs/pytorch-numerics.md §12.
// What it is not: the other losses (cross_entropy, ...).
#include "core/ops/loss.h"

#include <fmt/format.h>

#include "core/autograd.h"
#include "core/ops/binary.h"
#include "core/ops/reduce.h"

namespace attn::core {

namespace {

// fl(fl(norm * fl(a - b)) * g), g broadcast (a 0-d upstream gradient for 'mean' and 'sum').
Tensor mse_grad(const Tensor& a, const Tensor& b, float norm, const Tensor& g) {
  const Tensor scaled = binary_scalar(BinOp::mul, binary(BinOp::sub, a, b), norm);
  return binary(BinOp::mul, scaled, g);
}

}  // namespace

Tensor mse_loss(const Tensor& input, const Tensor& target, const std::string& reduction) {
  if (reduction != "mean" && reduction != "sum" && reduction != "none")
    throw TensorError(fmt::format("{} is not a valid value for reduction", reduction));
  const Tensor x = detach(to_float(input)), t = detach(to_float(target));
  const Tensor diff = binary(BinOp::sub, x, t);
  const Tensor sq = binary(BinOp::mul, diff, diff);
  Tensor out = reduction == "mean" ? mean(sq) : reduction == "sum" ? sum(sq) : sq;
  const int64_t n = sq.numel();
  const float norm = reduction == "mean" ? static_cast<float>(2.0 / static_cast<double>(n)) : 2.0f;
  autograd::Backward backward{[x, t, norm, need_x = input.requires_grad(), need_t = target.requires_grad()](const autograd::Grads& g) {
    autograd::Grads out(2);
    if (need_x) out[0] = mse_grad(x, t, norm, *g[0]);
    if (need_t) out[1] = mse_grad(t, x, norm, *g[0]);
    return out;
  }};
  return autograd::record(std::move(out), {&input, &target}, "MseLossBackward0", std::move(backward));
}

}  // namespace attn::core
