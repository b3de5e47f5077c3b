// torch/nn_losses.cpp: the op-table rows of the classification losses and their log-probabilities:
// torch.log_softmax / Tensor.log_softmax / F.log_softmax, F.nll_loss, F.cross_entropy, F.kl_div and
// torch.xlogy (Tensor-Tensor only).
//
// What it is: PyTorch 1.13's signatures (F.* as torch/nn/functional.py writes them) and adapters
// onto core::log_softmax and core::nll_loss; cross_entropy is ATen's cross_entropy_loss for class
// indices: nll_loss(log_softmax(input, class dim)). The deprecated size_average=/reduce=,
// probability targets and label_smoothing > 0 are refused in one line.
// What it is not: numerics (core/ops/softmax.cpp, core/ops/loss.cpp), or the nn modules
// (python/nn/loss.py, activation.py).
#include <fmt/format.h>

#include "core/ops.h"
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

Value nll_loss_fn(Interpreter&, Args& a) {
  refuse_deprecated(a);
  const Tensor* weight = optional_weight(a);
  return tensor_value(core::nll_loss(a.tensor("input"), a.tensor("target"), weight, a.string("reduction"), a.integer("ignore_index")));
}

Value cross_entropy_fn(Interpreter& in, Args& a) {
  refuse_deprecated(a);
  const Tensor& x = a.tensor("input");
  const Tensor& target = a.tensor("target");
  if (target.is_float()) a.unsupported("target", "attn's cross_entropy takes class indices (int64), not probabilities");
  if (a.number("label_smoothing") != 0.0) a.unsupported("label_smoothing", "attn's cross_entropy has no label smoothing");
  const Tensor* weight = optional_weight(a);
  const Tensor logp = core::log_softmax(x, x.dim() == 1 ? 0 : 1, state(in).cpu);
  return tensor_value(core::nll_loss(logp, target, weight, a.string("reduction"), a.integer("ignore_index")));
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
