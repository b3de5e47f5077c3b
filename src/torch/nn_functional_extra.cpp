// torch/nn_functional_extra.cpp: the rows of torch.nn.functional's activations silu, leaky_relu,
// hardtanh and relu6 (with inplace=True), and torch.nn.functional's names of them.
//
// What it is: 1.13's Python signatures (torch/nn/functional.py) onto core/ops/activation_more.h;
// inplace=True writes the result back into the input as the `_` variants do. hardtanh and relu6
// lay their result out as 1.13's at::hardtanh does, into empty_like(input) (preserve_layout: an
// empty view's own strides), not as TensorIterator would.
// What it is not: the numerics (core/), or the nn modules (python/nn/activation.py).
#include "core/ops/activation_more.h"
#include "torch/bindings.h"
#include "torch/op_table.h"

namespace attn::torch {

namespace {

using core::Tensor;

// op on the input, in place when inplace=True (write_back, as relu_ does).
Value apply(Args& a, const std::function<Tensor(const Tensor&)>& op) {
  const Value self = a.get("input");
  as_tensor(self);
  if (a.flag("inplace")) return write_back(self, op);
  return tensor_value(op(as_tensor(self)));
}

}  // namespace

void add_functional_extra_ops(std::vector<OpRow>& rows) {
  rows.push_back({"nn.functional.silu", kFunction, {"def silu(input, inplace=False)"}, [](Interpreter& in, Args& a) {
                    const core::CpuKernels cpu = state(in).cpu;
                    return apply(a, [cpu](const Tensor& t) { return core::silu(t, cpu); });
                  }});
  rows.push_back({"nn.functional.leaky_relu", kFunction, {"def leaky_relu(input, negative_slope=0.01, inplace=False)"}, [](Interpreter&, Args& a) {
                    const double slope = a.number("negative_slope");
                    return apply(a, [slope](const Tensor& t) { return core::leaky_relu(t, slope); });
                  }});
  rows.push_back({"nn.functional.hardtanh", kFunction, {"def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False)"}, [](Interpreter&, Args& a) {
                    const double lo = a.number("min_val"), hi = a.number("max_val");
                    return apply(a, [lo, hi](const Tensor& t) { return core::preserve_layout(core::hardtanh(t, lo, hi), t); });
                  }});
  rows.push_back({"nn.functional.relu6", kFunction, {"def relu6(input, inplace=False)"},
                  [](Interpreter&, Args& a) {
                    return apply(a, [](const Tensor& t) { return core::preserve_layout(core::hardtanh(t, 0.0, 6.0), t); });
                  }});
}

}  // namespace attn::torch
