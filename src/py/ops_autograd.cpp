// py/ops_autograd.cpp: the op-table rows of autograd: Tensor.backward, Tensor.requires_grad_,
// and torch.nn.functional.mse_loss (the loss the tutorials differentiate).
//
// What it is: argument handling and PyTorch's messages around core/autograd.h, which records
// the graph and runs the engine. Attributes (`x.grad`, `x.is_leaf`) are in tensor_methods.cpp.
// What it is not: grad mode (RunState::grad_enabled), create_graph or autograd.grad().
#include "core/autograd.h"
#include "py/interpreter.h"
#include "py/op_table.h"

namespace attn::py {

namespace {

using core::Tensor;

// tensor.backward(gradient=None, retain_graph=None, create_graph=False, inputs=None)
Value backward_fn(Interpreter&, Args& a) {
  const Tensor& self = a.tensor("self");
  if (a.flag("create_graph")) a.unsupported("create_graph", "attn computes first derivatives only");
  if (!a.get("inputs").is_none()) a.unsupported("inputs", "attn accumulates into every leaf");
  std::optional<Tensor> gradient;
  if (!a.get("gradient").is_none()) gradient = a.tensor("gradient");
  const bool retain = !a.get("retain_graph").is_none() && a.flag("retain_graph");
  core::autograd::backward(self, gradient, retain);
  return Value::none();
}

// tensor.requires_grad_(requires_grad=True): only a leaf's flag may change; returns self.
Value requires_grad_fn(Interpreter&, Args& a) {
  Tensor& self = a.tensor("self");
  const bool on = a.flag("requires_grad");
  if (on && !self.is_float())
    throw core::TensorError("only Tensors of floating point dtype can require gradients");
  if (!self.is_leaf() && !on)
    throw core::TensorError("you can only change requires_grad flags of leaf variables. If you want to use a computed "
                            "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().");
  if (self.is_leaf()) self.set_requires_grad(on);
  return a.get("self");
}

Value mse_loss_fn(Interpreter&, Args& a) {
  const std::string reduction = a.string("reduction");
  if (!a.get("size_average").is_none()) a.unsupported("size_average", "use reduction=");
  if (!a.get("reduce").is_none()) a.unsupported("reduce", "use reduction=");
  return Value::tensor(core::mse_loss(a.tensor("input"), a.tensor("target"), reduction));
}

}  // namespace

Value without_grad(const Value& v) {
  if (v.kind == Value::Tensor) return as_tensor(v).is_leaf() ? v : Value::tensor(core::detach(as_tensor(v)));
  if (v.kind == Value::Tuple || v.kind == Value::List) {
    std::vector<Value> items;
    bool changed = false;
    for (const Value& x : as_seq(v)) {
      items.push_back(without_grad(x));
      changed = changed || items.back().obj != x.obj;
    }
    if (!changed) return v;
    return v.kind == Value::Tuple ? Value::tuple(items) : Value::list(items);
  }
  return v;
}

void add_autograd_ops(std::vector<OpRow>& rows) {
  rows.push_back({"backward", kMethod, {"backward(Tensor self, Tensor? gradient=None, bool? retain_graph=None, bool create_graph=False, TensorList? inputs=None)"},
                  backward_fn});
  rows.push_back({"requires_grad_", kMethod, {"requires_grad_(Tensor self, bool requires_grad=True)"}, requires_grad_fn});
  rows.push_back({"nn.functional.mse_loss", kFunction,
                  {"def mse_loss(input, target, size_average=None, reduce=None, reduction='mean')"}, mse_loss_fn});
}

}  // namespace attn::py
