// torch/nn_losses.cpp: the op-table rows of the classification losses and their log-probabilities:
// torch.log_softmax / Tensor.log_softmax / F.log_softmax, F.nll_loss, F.cross_entropy, F.kl_div and
// torch.xlogy (Tensor-Tensor only).
//
// What it is: PyTorch 1.13's signatures (F.* as torch/nn/functional.py writes them) and adapters
// onto core::log_softmax and core::nll_loss; cross_entropy is ATen 1.13's cross_entropy_loss
// (LossNLL.cpp) composed of the same ops in the same order, so values, grad_fn nodes and gradient
// bits are torch's: class indices (nll_loss(log_softmax(input, class dim))), label smoothing
// (cross_entropy_loss_label_smoothing) and class-probability targets (cross_entropy_loss_prob_target).
// The deprecated size_average=/reduce= are refused in one line.
// What it is not: numerics (core/ops/softmax.cpp, core/ops/loss.cpp), or the nn modules
// (python/nn/loss.py, activation.py).
#include <cmath>

#include <fmt/format.h>

#include "core/ops.h"
#include "core/ops/select_index.h"
#include "torch/bindings.h"
#include "torch/op_table.h"

namespace attn::torch {

namespace {

using core::DType;
using core::Tensor;

Tensor log_probabilities(Interpreter& in, Args& a, int64_t dim) {
  Tensor x = a.tensor("input");
  if (std::optional<DType> d = a.dtype("dtype")) {
    if (*d != DType::float32) a.unsupported("dtype", "attn computes log_softmax in float32");
    x = cast(x, *d);
  }
  return core::log_softmax(x, dim, state(in).cpu);
}

// F.log_softmax(input, dim=None): without dim, PyTorch's deprecated implicit choice (dim 0 for
// 0-, 1- and 3-d inputs, else 1), as F.softmax.
Value functional_log_softmax_fn(Interpreter& in, Args& a) {
  const Tensor& x = a.tensor("input");
  std::optional<int64_t> dim = a.opt_integer("dim");
  a.get("_stacklevel");
  if (!dim) dim = (x.dim() == 0 || x.dim() == 1 || x.dim() == 3) ? 0 : 1;
  return tensor_value(log_probabilities(in, a, *dim));
}

void refuse_deprecated(Args& a) {
  if (!a.get("size_average").is_none()) a.unsupported("size_average", "use reduction=");
  if (!a.get("reduce").is_none()) a.unsupported("reduce", "use reduction=");
}

const Tensor* optional_weight(Args& a) { return a.given("weight") ? &a.tensor("weight") : nullptr; }

// reduction=, as F.*'s _Reduction.get_enum checks it before any tensor is looked at.
std::string checked_reduction(Args& a) {
  const std::string reduction = a.string("reduction");
  if (reduction != "mean" && reduction != "sum" && reduction != "none")
    throw core::TensorError(fmt::format("{} is not a valid value for reduction", reduction), "ValueError");
  return reduction;
}

Value nll_loss_fn(Interpreter&, Args& a) {
  refuse_deprecated(a);
  const Tensor* weight = optional_weight(a);
  const std::string reduction = checked_reduction(a);
  return tensor_value(core::nll_loss(a.tensor("input"), a.tensor("target"), weight, reduction, a.integer("ignore_index")));
}

// A Python number times t, as ATen's mul(Tensor, Scalar) from C++ records it (MulBackward1).
Tensor times(const Tensor& t, double s) {
  Tensor out = core::binary_scalar(core::BinOp::mul, t, s);
  core::autograd::rename(out, "MulBackward1");
  return out;
}

// weight viewed as (1, C, 1, ...) against an input of `dims` dims with classes along class_dim.
Tensor class_weight_view(const Tensor& weight, int64_t dims, int64_t class_dim) {
  core::Shape shape(static_cast<size_t>(dims), 1);
  shape[static_cast<size_t>(class_dim)] = weight.numel();
  return core::view(weight, shape);
}

// cross_entropy_loss_label_smoothing: (1 - ls) * nll_loss + ls / C * smooth, where smooth is
// -sum over classes of (weight *) log p, zero at ignored targets (index_put_), and reduced as
// 1.13 reduces it ('mean' without weight: masked_select(kept).mean(); with weight: divided by the
// kept targets' weights).
Tensor label_smoothing_loss(const Tensor& logp, const Tensor& target, const Tensor* weight, const std::string& reduction,
                            int64_t ignore_index, double smoothing, int64_t class_dim) {
  const Tensor nll = core::nll_loss(logp, target, weight, reduction, ignore_index);
  const int64_t n_classes = logp.shape()[static_cast<size_t>(class_dim)];
  const Tensor ignored = core::compare(core::CmpOp::eq, target, core::from_ints({}, {ignore_index}));
  const Tensor per_class = weight ? core::binary(core::BinOp::mul, logp, class_weight_view(*weight, logp.dim(), class_dim)) : logp;
  Tensor smooth = core::masked_fill(core::neg(core::sum(per_class, class_dim, false)), ignored, 0.0f);
  core::autograd::rename(smooth, "IndexPutBackward0");   // 1.13 writes the zeros with index_put_: the same gradient
  Tensor reduced = smooth;
  const Tensor kept = core::bitwise_not(ignored);
  if (reduction == "sum") reduced = core::sum(smooth);
  else if (reduction == "mean" && !weight) reduced = core::mean(core::masked_select(smooth, kept));
  else if (reduction == "mean") {
    const Tensor kept_targets = core::reshape(core::masked_select(target, kept), {-1});
    reduced = core::binary(core::BinOp::div, core::sum(smooth), core::sum(core::gather(*weight, 0, kept_targets)));
  }
  return core::binary(core::BinOp::add, times(nll, 1.0 - smoothing), times(reduced, smoothing / static_cast<double>(n_classes)));
}

// cross_entropy_loss_prob_target: -(log p * target (* weight)) summed over classes, with the
// target smoothed first; 'mean' divides the total by the number of samples (numel / C, an
// integer: DivBackward1), NaN for an empty input.
Tensor probability_target_loss(const Tensor& logp, const Tensor& target, const Tensor* weight, const std::string& reduction,
                               double smoothing, int64_t class_dim) {
  const int64_t n_classes = logp.shape()[static_cast<size_t>(class_dim)];
  Tensor soft = target;
  if (smoothing > 0.0) {
    soft = core::binary_scalar(core::BinOp::add, times(target, 1.0 - smoothing), smoothing / static_cast<double>(n_classes));
    core::autograd::rename(soft, "AddBackward1");
  }
  Tensor terms = core::binary(core::BinOp::mul, logp, soft);
  if (weight) terms = core::binary(core::BinOp::mul, terms, logp.dim() > 1 ? class_weight_view(*weight, logp.dim(), class_dim) : *weight);
  if (reduction == "none") return core::neg(core::sum(terms, class_dim, false));
  Tensor total = core::sum(terms);
  if (reduction == "sum") return core::neg(total);
  if (logp.numel() == 0) return core::neg(core::binary_scalar(core::BinOp::mul, total, std::nan("")));
  Tensor out = core::binary_scalar(core::BinOp::div, core::neg(total), static_cast<double>(logp.numel() / n_classes));
  core::autograd::rename(out, "DivBackward1");
  return out;
}

Value cross_entropy_fn(Interpreter& in, Args& a) {
  refuse_deprecated(a);
  const Tensor& x = a.tensor("input");
  const Tensor& target = a.tensor("target");
  const std::string reduction = checked_reduction(a);
  const int64_t ignore_index = a.integer("ignore_index");
  const double smoothing = a.number("label_smoothing");
  const Tensor* weight = optional_weight(a);
  const int64_t class_dim = x.dim() == 1 ? 0 : 1;
  if (x.shape() == target.shape()) {   // class probabilities, as 1.13 assumes when the shapes agree
    if (!target.is_float())
      throw core::TensorError(fmt::format("Expected floating point type for target with class probabilities, got {}",
                                          core::dtype_title(target.dtype())));
    if (ignore_index >= 0) throw core::TensorError("ignore_index is not supported for floating point target");
    const int64_t n_classes = x.size(class_dim);
    if (weight && (weight->dim() != 1 || weight->numel() != n_classes))
      throw core::TensorError(fmt::format("cross_entropy: weight tensor should be defined either for all {} classes or no classes "
                                          "but got weight tensor of shape: {}", n_classes, core::shape_str(weight->shape())));
    if (smoothing > 1.0) throw core::TensorError(fmt::format("label_smoothing must be between 0.0 and 1.0. Got: {:g}", smoothing));
    return tensor_value(probability_target_loss(core::log_softmax(x, class_dim, state(in).cpu), target, weight, reduction, smoothing, class_dim));
  }
  if (smoothing > 1.0) throw core::TensorError(fmt::format("label_smoothing must be between 0.0 and 1.0. Got: {:g}", smoothing));
  const Tensor logp = core::log_softmax(x, class_dim, state(in).cpu);
  if (smoothing > 0.0) return tensor_value(label_smoothing_loss(logp, target, weight, reduction, ignore_index, smoothing, class_dim));
  return tensor_value(core::nll_loss(logp, target, weight, reduction, ignore_index));
}

Value kl_div_fn(Interpreter& in, Args& a) {
  refuse_deprecated(a);
  return tensor_value(core::kl_div(a.tensor("input"), a.tensor("target"), a.string("reduction"), a.flag("log_target"), state(in).cpu));
}

}  // namespace

void add_loss_ops(std::vector<OpRow>& rows) {
  rows.push_back({"log_softmax", kFunction | kMethod,
                  {"log_softmax(Tensor input, int64_t dim, ScalarType? dtype=None, *, Tensor out=None)",
                   "log_softmax(Tensor input, Dimname dim, *, ScalarType? dtype=None)"},
                  [](Interpreter& in, Args& a) { return tensor_value(log_probabilities(in, a, a.integer("dim"))); }});
  rows.push_back({"nn.functional.log_softmax", kFunction, {"def log_softmax(input, dim=None, _stacklevel=3, dtype=None)"},
                  functional_log_softmax_fn});
  rows.push_back({"nn.functional.nll_loss", kFunction,
                  {"def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean')"},
                  nll_loss_fn});
  rows.push_back({"nn.functional.cross_entropy", kFunction,
                  {"def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, "
                   "reduction='mean', label_smoothing=0.0)"},
                  cross_entropy_fn});
  rows.push_back({"nn.functional.kl_div", kFunction,
                  {"def kl_div(input, target, size_average=None, reduce=None, reduction='mean', log_target=False)"}, kl_div_fn});
  rows.push_back({"xlogy", kFunction | kMethod,
                  {"xlogy(Tensor input, Tensor other, *, Tensor out=None)", "xlogy(Scalar self, Tensor other, *, Tensor out=None)",
                   "xlogy(Tensor input, Scalar other, *, Tensor out=None)"},
                  [](Interpreter&, Args& a) {
                    const std::string x = a.signature().params[0].name;
                    auto operand = [&a](const std::string& name) {   // a number is a 0-d float32 tensor (wrapped number)
                      const Value& v = a.get(name);
                      return is_tensor(v) ? as_tensor(v) : core::scalar(static_cast<float>(to_double(v, name.c_str())));
                    };
                    // grad_fn as ATen's overload: XlogyBackward1 for a number self, 2 for a number other
                    const char* name = !is_tensor(a.get(x)) ? "XlogyBackward1" : !is_tensor(a.get("other")) ? "XlogyBackward2" : "XlogyBackward0";
                    return tensor_value(core::xlogy(operand(x), operand("other"), name));
                  }});
}

}  // namespace attn::torch
