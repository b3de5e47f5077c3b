// core/ops/loss.cpp: nn.MSELoss / F.mse_loss, forward and backward, as PyTorch 1.13 on CPU
// (ops/loss.h).
//
// What it is: forward `diff = x - t; diff * diff` per element (mse_kernel), then the reduction
// ('mean': sum / numel, 'sum', 'none'); backward MseLossBackward0 (Loss.cpp mse_loss_backward):
// norm = 2/numel computed in double and rounded to float once ('sum', 'none': 2), then per
// element fl(fl(norm * fl(x - t)) * g) (PointwiseOpsKernel.cpp); the target's gradient is the
// same with x and t swapped. docs/pytorch-numerics.md §12.
// nll_loss (LossNLL.cpp nll_loss_out_frame / nll_loss_backward_out_frame): per sample
// -x[n, t[n]] * w[t[n]], 'mean' and 'sum' add them in the cascade of 8 partial sums ATen uses
// (a level's sum moves up when the sample number's next 2^level_power bits are zero), then
// std::accumulate over the levels; the backward writes -(g / total_weight) * w at each target.
// What it is not: cross_entropy (torch/nn_functional.cpp composes it).
#include "core/ops/loss.h"

#include <fmt/format.h>

#include "core/autograd.h"
#include "core/ops/binary.h"
#include "core/kernels/vec.h"
#include "core/ops/loops.h"
#include "core/ops/reduce.h"
#include "core/ops/unary.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

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
  }, true, {input, target}};
  return autograd::record(std::move(out), {&input, &target}, "MseLossBackward0", std::move(backward));
}

namespace {

struct NllSetup {
  int64_t batch, classes, map = 1;   // map: the positions per sample of a K-dimensional loss (N, C, d1, ...)
  std::vector<int64_t> targets;      // per (sample, position), in that order
  std::vector<float> weights;        // empty: none
  size_t at(int64_t b, int64_t e, int64_t t) const { return static_cast<size_t>((b * classes + t) * map + e); }
};

// nll_loss_nd's checks for (N, C, d1, ...) input: the batch, then the target's size.
void check_nd_target(const Tensor& input, const Tensor& target) {
  if (target.dim() == 0 || target.shape()[0] != input.shape()[0])
    throw TensorError(fmt::format("Expected input batch_size ({}) to match target batch_size ({}).", input.shape()[0],
                                  target.dim() ? target.shape()[0] : 1), "ValueError");
  Shape want{input.shape()[0]};
  want.insert(want.end(), input.shape().begin() + 2, input.shape().end());
  if (target.shape() != want)
    throw TensorError(fmt::format("Expected target size {}, got {}", shape_str(want), shape_str(target.shape())));
}

NllSetup nll_setup(const Tensor& input, const Tensor& target, const Tensor* weight) {
  if (input.dim() < 1) throw TensorError(fmt::format("Expected 1 or more dimensions (got {})", input.dim()), "ValueError");
  // the shapes first (nll_loss_nd's batch check, nll_loss's target dims), the target's dtype in the kernel
  if (input.dim() >= 3) {
    check_nd_target(input, target);
  } else if (input.dim() == 2 && (target.dim() == 0 || target.shape()[0] != input.shape()[0])) {
    throw TensorError(fmt::format("Expected input batch_size ({}) to match target batch_size ({}).", input.shape()[0],
                                  target.dim() ? target.shape()[0] : 1), "ValueError");
  } else if (input.dim() == 2 && target.dim() > 1) {
    throw TensorError("0D or 1D target tensor expected, multi-target not supported");
  } else if (input.dim() == 1 && target.dim() != 0) {
    throw TensorError("0D or 1D target tensor expected, multi-target not supported", "ValueError");
  }
  if (target.is_float()) throw TensorError("expected scalar type Long but found Float");
  NllSetup s{input.dim() >= 2 ? input.shape()[0] : 1, input.shape()[input.dim() >= 2 ? 1 : 0], 1, target.ints(), {}};
  for (int64_t d = 2; d < input.dim(); ++d) s.map *= input.shape()[static_cast<size_t>(d)];
  if (weight) {
    if (weight->numel() != s.classes)
      throw TensorError(fmt::format("weight tensor should be defined either for all {} classes or no classes but got weight tensor of shape: {}",
                                    s.classes, shape_str(weight->shape())));
    s.weights = to_float(*weight).floats();
  }
  return s;
}

}  // namespace

Tensor nll_loss(const Tensor& input, const Tensor& target, const Tensor* weight, const std::string& reduction,
                int64_t ignore_index) {
  if (reduction != "mean" && reduction != "sum" && reduction != "none")
    throw TensorError(fmt::format("{} is not a valid value for reduction", reduction));
  const NllSetup s = nll_setup(input, target, weight);
  const std::vector<float> x = to_float(input).floats();
  auto check = [&](int64_t t) {
    if (t < 0 || t >= s.classes) throw TensorError(fmt::format("Target {} is out of bounds.", t), "IndexError");
  };
  float total_weight = 0;
  Tensor out;
  const int64_t n = s.batch * s.map;   // (sample, position) pairs, sample-major: 1.13's numiter
  if (reduction == "none" && input.dim() >= 2) {
    Shape shape{s.batch};
    shape.insert(shape.end(), input.shape().begin() + 2, input.shape().end());
    out = zeros(shape);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t t = s.targets[static_cast<size_t>(i)];
      if (t == ignore_index) continue;   // 0
      check(t);
      const float w = s.weights.empty() ? 1.0f : s.weights[static_cast<size_t>(t)];
      out.data<float>()[i] = -x[s.at(i / s.map, i % s.map, t)] * w;
    }
  } else {
    constexpr int kLevels = 8;
    const int64_t level_power = std::max<int64_t>(4, kernels::detail::ceil_log2(n) / kLevels);
    const int64_t level_mask = (int64_t{1} << level_power) - 1;
    float weight_sums[kLevels] = {0}, loss_sums[kLevels] = {0};
    int64_t ignored = 0;
    for (int64_t b = 0; b < n; ++b) {   // b: the (sample, position) pair's number (nll_loss2d's i)
      const int64_t t = s.targets[static_cast<size_t>(b)];
      if (t == ignore_index) {
        ++ignored;
        continue;
      }
      check(t);
      const float v = x[s.at(b / s.map, b % s.map, t)];
      if (!s.weights.empty()) {
        loss_sums[0] -= v * s.weights[static_cast<size_t>(t)];
        weight_sums[0] += s.weights[static_cast<size_t>(t)];
      } else {
        loss_sums[0] -= v;
      }
      for (int j = 0; j + 1 < kLevels; ++j) {
        if ((b & (level_mask << (j * level_power))) != 0) break;
        weight_sums[j + 1] += weight_sums[j];
        loss_sums[j + 1] += loss_sums[j];
        weight_sums[j] = 0;
        loss_sums[j] = 0;
      }
    }
    if (s.weights.empty()) {
      total_weight = static_cast<float>(n - ignored);
    } else {
      for (float w : weight_sums) total_weight += w;
    }
    float value = 0;
    for (float l : loss_sums) value += l;
    if (reduction == "mean") value /= total_weight;
    out = scalar(value);
  }
  autograd::Backward backward{[s, ignore_index, total_weight, none = out.dim() >= 1, mean = reduction == "mean",
                               shape = input.shape()](const autograd::Grads& g) {
    Tensor gi = zeros(shape);
    const Tensor gc = g[0]->contiguous();
    for (int64_t i = 0; i < s.batch * s.map; ++i) {
      const int64_t t = s.targets[static_cast<size_t>(i)];
      if (t == ignore_index) continue;
      const float go = gc.float_at(none ? i : 0);
      const float grad = -(mean ? go / total_weight : go);
      gi.data<float>()[s.at(i / s.map, i % s.map, t)] = s.weights.empty() ? grad : s.weights[static_cast<size_t>(t)] * grad;
    }
    return autograd::Grads{gi};
  }, false, {input, target}};   // NllLossBackward0 saves self (its values unread: the version check only) and target
  return autograd::record(std::move(out), {&input}, input.dim() >= 3 ? "NllLoss2DBackward0" : "NllLossBackward0", std::move(backward));
}

Tensor xlogy(const Tensor& x, const Tensor& y, const char* grad_fn) {
  auto f = [](float a, float b) { return std::isnan(b) ? std::numeric_limits<float>::quiet_NaN() : a == 0 ? 0.0f : a * std::log(b); };
  Tensor out = detail::zip(x, y, f);
  // A number operand (XlogyBackward1: self, 2: other) is no edge and is not saved.
  const bool number_x = std::string(grad_fn) == "XlogyBackward1", number_y = std::string(grad_fn) == "XlogyBackward2";
  autograd::Backward backward{[xd = detach(x), yd = detach(y), f, need_x = x.requires_grad() && !number_x,
                               need_y = y.requires_grad() && !number_y, number_x, number_y](const autograd::Grads& g) {
    autograd::Grads out;
    // self: xlogy(grad, other).masked_fill((self == 0) & (other <= 0), 0); other: grad * self / other.
    // With a number other, 1.13 masks where other is not > 0, so a NaN other gives 0 at self == 0.
    if (!number_x) {
      out.emplace_back();
      if (need_x) {
        const Tensor gx = detail::zip(*g[0], yd, f);
        const Tensor keep = detail::zip(xd, yd, [number_y](float a, float b) { return a == 0 && (number_y ? !(b > 0) : b <= 0) ? 0.0f : 1.0f; });
        out.back() = detail::zip(gx, keep, [](float v, float k) { return k == 0 ? 0.0f : v; });
      }
    }
    if (need_y) out.push_back(binary(BinOp::div, binary(BinOp::mul, *g[0], xd), yd));
    return out;
  }};
  std::vector<const Tensor*> inputs;
  if (!number_x) inputs.push_back(&x);
  if (!number_y) inputs.push_back(&y);
  for (const Tensor* t : inputs) backward.saved.push_back(*t);   // XlogyBackward0 saves self and other
  return autograd::record(std::move(out), inputs, grad_fn, std::move(backward));
}

Tensor kl_div(const Tensor& input, const Tensor& target, const std::string& reduction, bool log_target, CpuKernels cpu) {
  if (reduction != "mean" && reduction != "sum" && reduction != "none" && reduction != "batchmean")
    throw TensorError(fmt::format("{} is not a valid value for reduction", reduction));
  // The right operand first, as GCC evaluates the operands of ATen's `xlogy(t, t) - t * input` (and
  // `exp(t) * (t - input)`): the nodes' creation order decides in which order backward adds the
  // target's gradients, so it must not be left to the compiler (clang goes left to right).
  Tensor out;
  if (log_target) {
    const Tensor diff = binary(BinOp::sub, target, input);
    out = binary(BinOp::mul, exp(target, cpu), diff);
  } else {
    const Tensor prod = binary(BinOp::mul, target, input);
    out = binary(BinOp::sub, xlogy(target, target), prod);
  }
  if (reduction == "mean") return mean(out);
  if (reduction == "sum") return sum(out);
  if (reduction == "batchmean" && input.dim() != 0) return binary_scalar(BinOp::div, sum(out), static_cast<double>(input.shape()[0]));
  if (reduction == "batchmean") return sum(out);
  return out;
}

}  // namespace attn::core
